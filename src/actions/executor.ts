import { redactCredentials } from "../core/credentials.ts";
import { resolve } from "node:path";
import type { ToolCallBlock, ToolResultBlock, ToolSpec } from "../core/messages.ts";
import { PathRefused } from "../workspace/containment.ts";
import { type ActionContext, ToolFailure } from "./action.ts";
import { PermissionGate } from "./gate.ts";
import type { Hooks } from "./hooks.ts";
import type { Policy } from "./permissions.ts";
import type { ActionRegistry } from "./registry.ts";

const DEFAULT_OUTPUT_CAP = 50_000;

export type Approval = "once" | "session" | "deny";

export interface ApprovalRequest {
  action: string;
  /** Exactly what would run or be written. */
  summary: string;
  risk: string;
  /** The rule that asked. */
  rule: string;
}

/** Asks a person. Absent where no one can answer (one-shot without a TTY). */
export type Approver = (req: ApprovalRequest) => Promise<Approval>;

/** Keeps the head and the tail of long output with a note in between saying what was cut and how to see it. */
export function capOutput(text: string, cap: number, hint?: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= cap) return text;
  const head = Math.floor(cap * 0.7);
  const tail = cap - head;
  const cut = bytes.length - head - tail;
  // Decoding may split a multi-byte character at the edges; the replacement character is harmless.
  return (
    `${bytes.subarray(0, head).toString("utf8")}\n[… ${cut} of ${bytes.length} bytes cut here` +
    `${hint ? `; to see them: ${hint}` : ""} …]\n${bytes.subarray(bytes.length - tail).toString("utf8")}`
  );
}

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.length ? `field ${i.path.map(String).join(".")}` : "arguments"}: ${i.message}`).join("; ");
}

/** Watches calls in flight (the supervisor); structural, so actions/ does not import it. */
export interface CallTracker {
  begin(id: string, action: string, input: unknown, stoppable: boolean): { controller: AbortController };
  setPid(id: string, pid: number | undefined): void;
  output(id: string): void;
  awaiting(id: string, waiting: boolean): void;
  end(id: string, resultClass: "ok" | "error" | "refused" | "stopped", errorClass?: string): void;
}

export interface ExecutorOptions {
  tracker?: CallTracker;
  policy: Policy;
  approver?: Approver;
  /** --yes: every `ask` is allowed (a `deny` stays). */
  yes?: boolean;
  /** --allow patterns: command lines or action ids they match are allowed instead of asked. */
  allow?: string[];
  outputCap?: number;
  /** Called for every action that ran, so disclosure can keep it loaded. */
  onUsed?: (id: string) => void;
  /** --allow-network: a command that asks for the network gets it without asking. */
  allowNetwork?: boolean;
  /** The user's PreToolUse / PostToolUse hooks. */
  hooks?: Hooks;
  /** Per-file write locks shared by every agent of a run, so writes to one file never interleave. */
  locks?: FileLocks;
  /**
   * A worker's executor: it can ask no one (what would ask is refused unless --yes or --allow
   * covers it), and runs commands only inside an active OS sandbox (its scope must hold there too).
   */
  worker?: string;
}

/** One queue per file: a write to a path waits for the previous write to it. */
export class FileLocks {
  private tails = new Map<string, Promise<unknown>>();

  async with<T>(key: string, f: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const run = before.then(f, f);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Runs the model's tool calls: validates arguments against each action's schema, applies the
 * permission policy (asking a person where it says ask), runs the action inside the workspace
 * guards, and turns every failure into a tool result the model can read. Reads of one turn run
 * concurrently; anything else runs alone, in order.
 */
export class ActionExecutor {
  private gate: PermissionGate;

  constructor(
    private registry: ActionRegistry,
    private ctx: Omit<ActionContext, "signal">,
    private opts: ExecutorOptions,
  ) {
    this.gate = new PermissionGate(ctx, opts);
  }

  /** Specs of every registered action (disclosure off). */
  specs(): ToolSpec[] {
    return this.registry.ids().map((id) => this.registry.spec(id)!);
  }

  /** Calls the person made themselves (`!cmd` in the REPL): what would ask them runs; denials stay. */
  private byPerson = new Set<string>();

  /** One call the person typed: through the same gate, sandbox and hooks, without asking them about it. */
  async executeForPerson(call: ToolCallBlock, signal: AbortSignal): Promise<ToolResultBlock> {
    this.byPerson.add(call.id);
    try {
      return (await this.execute([call], signal))[0]!;
    } finally {
      this.byPerson.delete(call.id);
    }
  }

  execute = async (calls: ToolCallBlock[], signal: AbortSignal): Promise<ToolResultBlock[]> => {
    const results: ToolResultBlock[] = new Array(calls.length);
    let i = 0;
    while (i < calls.length) {
      const batch = [i];
      const readOnly = (k: number) => this.registry.get(calls[k]!.name)?.readOnly === true;
      if (readOnly(i)) while (i + batch.length < calls.length && readOnly(i + batch.length)) batch.push(i + batch.length);
      await Promise.all(batch.map(async (k) => (results[k] = await this.one(calls[k]!, signal))));
      i += batch.length;
    }
    return results;
  };

  private async one(call: ToolCallBlock, signal: AbortSignal): Promise<ToolResultBlock> {
    const tracker = this.opts.tracker;
    const action0 = this.registry.get(call.name);
    // Commands and MCP calls can be stopped (a process tree, an abortable request); file actions are instant.
    const h = tracker?.begin(call.id, call.name, call.input, action0 !== undefined && (action0.risk === "execute" || action0.source.startsWith("mcp:")));
    const callSignal = h ? AbortSignal.any([signal, h.controller.signal]) : signal;
    const result = await this.oneTracked(call, callSignal, h?.controller.signal);
    if (tracker) {
      const cls = h?.controller.signal.aborted ? "stopped" : !result.isError ? "ok" : result.refused ? "refused" : "error";
      tracker.end(call.id, cls, result.isError ? result.content.split("\n")[0]!.slice(0, 80) : undefined);
    }
    return result;
  }

  private async oneTracked(call: ToolCallBlock, signal: AbortSignal, stopped: AbortSignal | undefined): Promise<ToolResultBlock> {
    // `fail` carries what an action produced (untrusted); `say` is weir's own words.
    const fail = (content: string): ToolResultBlock => ({ type: "tool_result", callId: call.id, content, isError: true });
    const say = (content: string): ToolResultBlock => ({ ...fail(content), origin: "weir" });
    const refuse = (content: string, rule: string): ToolResultBlock => ({ ...say(content), refused: { rule } });
    const action = this.registry.get(call.name);
    if (!action) return say(this.registry.goneReason(call.name) ?? `no action named ${call.name}; load_actions lists the capabilities`);
    const raw = call.input as { __invalid_json?: string } | undefined;
    if (raw && typeof raw === "object" && "__invalid_json" in raw)
      return say(`the arguments were not valid JSON (${String(raw.__invalid_json).slice(0, 200)}); send a JSON object`);
    const parsed = action.input.safeParse(call.input ?? {});
    if (!parsed.success) return say(`invalid arguments for ${action.id}: ${fieldErrors(parsed.error.issues)}`);
    const input = parsed.data;

    const refusal = await this.gate.check(call, action, input, this.byPerson.has(call.id));
    if (refusal) return refuse(refusal.message, refusal.rule);
    // The user's PreToolUse hooks may block a call the policy allowed (never allow one it refused).
    const pre = this.opts.hooks?.has("PreToolUse")
      ? await this.opts.hooks.run("PreToolUse", action.id, { tool_name: action.id, tool_input: input }, signal)
      : undefined;
    if (pre?.block) return refuse(`refused by a PreToolUse hook: ${pre.message}`, "hook");
    // Context a PreToolUse hook adds (additionalContext) reaches the model with the call's result.
    const preNote = pre?.message ? `\n[PreToolUse hook] ${pre.message}` : "";
    if (signal.aborted) return say("stopped by the user before it ran");
    this.opts.onUsed?.(action.id);
    const tracker = this.opts.tracker;
    try {
      const run = () =>
        action.run(input, {
          ...this.ctx,
          signal,
          callId: call.id,
          onProcess: (pid) => tracker?.setPid(call.id, pid),
          onOutput: () => tracker?.output(call.id),
        });
      const target =
        action.risk === "write" && typeof (input as { path?: unknown })?.path === "string"
          ? resolve(this.ctx.workspace.root, (input as { path: string }).path)
          : undefined;
      const out = target && this.opts.locks ? await this.opts.locks.with(target, run) : await run();
      if (stopped?.aborted) return say("stopped by the user");
      const o0 = typeof out === "string" ? { content: out } : out;
      // A PostToolUse hook's message (exit 2's stderr, or added context) reaches the model with the result.
      const post = this.opts.hooks?.has("PostToolUse")
        ? await this.opts.hooks.run("PostToolUse", action.id, { tool_name: action.id, tool_input: input, tool_response: o0.content.slice(0, 20_000) }, signal)
        : undefined;
      const withPre = preNote ? { ...o0, content: `${o0.content}${preNote}` } : o0;
      const o = post?.message ? { ...withPre, content: `${withPre.content}\n[PostToolUse hook${post.block ? " (blocking)" : ""}] ${post.message}` } : withPre;
      const own = o.trusted === true && action.source === "builtin" ? { origin: "weir" as const } : {};
      return {
        type: "tool_result",
        callId: call.id,
        content: capOutput(redactCredentials(o.content), this.opts.outputCap ?? DEFAULT_OUTPUT_CAP, action.moreHint),
        isError: false,
        ...(o.details ? { details: o.details } : {}),
        ...own,
      };
    } catch (e) {
      if (stopped?.aborted) return fail(`stopped by the user${e instanceof ToolFailure ? `\n${capOutput(redactCredentials(e.message), 4_000)}` : ""}`);
      if (e instanceof PathRefused) return refuse(`refused by the ${e.rule} guard: ${e.message}`, e.rule);
      if (e instanceof ToolFailure) {
        const r = fail(capOutput(redactCredentials(e.message), this.opts.outputCap ?? DEFAULT_OUTPUT_CAP, action.moreHint));
        return { ...r, ...(e.details ? { details: e.details } : {}), ...(e.rule === "sha" ? { refused: { rule: "sha" } } : {}) };
      }
      return fail(`${action.id} failed unexpectedly: ${(e as Error).message ?? String(e)}`);
    }
  }
}
