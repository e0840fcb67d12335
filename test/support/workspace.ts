import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Approver } from "../../src/actions/executor.ts";
import { ActionExecutor } from "../../src/actions/executor.ts";
import { BUILTIN_ACTIONS } from "../../src/actions/builtin/index.ts";
import { defaultPolicy, type Policy } from "../../src/actions/permissions.ts";
import { ActionRegistry } from "../../src/actions/registry.ts";
import type { ToolCallBlock } from "../../src/core/messages.ts";
import { Ledger } from "../../src/workspace/ledger.ts";
import { scrubEnv } from "../../src/workspace/process.ts";
import { tempDir } from "./temp.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

/** A temp workspace with files, and an executor over the built-in actions. */
export function workspace(files: Record<string, string> = {}) {
  const tmp = tempDir("weir-ws-");
  const root = join(realpathSync(tmp.path), "ws");
  const home = join(realpathSync(tmp.path), "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  const ledger = new Ledger();
  const registry = new ActionRegistry();
  for (const a of BUILTIN_ACTIONS) registry.register(a);
  const executor = (opts: { policy?: Policy; approver?: Approver; yes?: boolean; allow?: string[]; outputCap?: number } = {}) =>
    new ActionExecutor(registry, { workspace: new Workspace(root, home), ledger, env: scrubEnv(process.env) }, { policy: opts.policy ?? defaultPolicy(), ...opts });
  let n = 0;
  const call = (name: string, input: unknown): ToolCallBlock => ({ type: "tool_call", id: `call_${++n}`, name, input });
  const signal = new AbortController().signal;
  /** Runs one call and returns its result. */
  const one = async (name: string, input: unknown, ex = executor()) => (await ex.execute([call(name, input)], signal))[0]!;
  return { root, home, ledger, registry, executor, call, one, signal, cleanup: tmp.cleanup };
}
