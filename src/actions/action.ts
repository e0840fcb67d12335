import { z } from "zod";
import type { ToolDetails } from "../core/messages.ts";
import type { Ledger } from "../workspace/ledger.ts";
import type { CommandSandbox } from "../workspace/sandbox.ts";
import type { UndoLog } from "../workspace/undo.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { CommandRequest } from "./permissions.ts";

export type Risk = "read" | "write" | "execute" | "network" | "destructive";

export interface ActionContext {
  /** The workspace: every path goes through `workspace.resolve` (containment, protection, a worker's scope). */
  workspace: Workspace;
  ledger: Ledger;
  signal: AbortSignal;
  /** Environment for commands, secrets already removed. */
  env: Record<string, string>;
  /** The OS sandbox every command runs in; absent only in tests of actions alone. */
  sandbox?: CommandSandbox;
  /** Where each write records what it replaced, for `weir undo`; absent where nothing is undone (a worker, a test). */
  undo?: UndoLog;
  /** The model's id for this call (set by the executor): a worker started by it is attributed to it. */
  callId?: string;
  /** Called with a subprocess id when a command starts, so the supervisor can stop its tree (set by the executor per call). */
  onProcess?: (pid: number | undefined) => void;
  onOutput?: () => void;
  /**
   * Of these files, those that may name one of these names, by the symbol index's word filters;
   * undefined where no index is built for the workspace. A search over every file reads only these.
   */
  namers?: (names: string[], files: readonly string[]) => Set<string> | undefined;
}

/**
 * One action the model can call, built-in or from an MCP server. Everything the registry shows
 * (hint, description, schema, risk) is declared here once.
 */
export interface Action<I = any> {
  id: string;
  capability: string;
  /** One line for the capability index. */
  hint: string;
  description: string;
  input: z.ZodType<I>;
  risk: Risk;
  source: string;
  /** Only reads: may run concurrently with other reads. */
  readOnly: boolean;
  /** The command this call would run, for permission rules and approval prompts. */
  command?(input: I): CommandRequest;
  /**
   * The call, whole, for approval prompts: every argument that decides what it does (a write's
   * change is added beside it), never a part; refusals cut it to a line.
   */
  summary(input: I): string;
  /** Text for the model, optionally with typed details for the program (the work state reads those). */
  run(input: I, ctx: ActionContext): Promise<string | ActionOutput>;
  /** How to see output that was cut (shown in the cut note). */
  moreHint?: string;
  /** The wire schema when it came as JSON Schema (MCP); else it is generated from `input`. */
  jsonSchema?: Record<string, unknown>;
}

export interface ActionOutput {
  content: string;
  details?: ToolDetails;
  /** weir's own words (a built-in's, never an MCP tool's): shown to the model unquoted. */
  trusted?: boolean;
}

/** An error the model should read as the tool's answer (not a crash). `rule` names the guard. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly rule?: string,
    readonly details?: ToolDetails,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export const defineAction = <I>(a: Action<I>): Action<I> => a;

/** zod writes ±Number.MAX_SAFE_INTEGER as the bounds of every int: noise the model pays for each turn. Pure. */
function withoutSafeIntegerBounds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSafeIntegerBounds);
  if (!v || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === "maximum" || k === "minimum") && Math.abs(Number(x)) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = withoutSafeIntegerBounds(x);
  }
  return out;
}

/** The JSON Schema the wires carry, generated from the zod schema. */
export function jsonSchemaOf(action: Action): Record<string, unknown> {
  if (action.jsonSchema) return action.jsonSchema;
  // Converted once per action object: every worker's registry holds the same built-ins.
  const cached = schemas.get(action);
  if (cached) return cached;
  const schema = z.toJSONSchema(action.input, { target: "draft-7", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  const out = withoutSafeIntegerBounds(schema) as Record<string, unknown>;
  schemas.set(action, out);
  return out;
}

const schemas = new WeakMap<Action, Record<string, unknown>>();
