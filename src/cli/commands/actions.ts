import { agentActions } from "../../agent/agent-actions.ts";
import type { Fleet } from "../../agent/fleet.ts";
import type { Resolved } from "../../config/resolve.ts";
import type { ParsedArgs } from "../args.ts";
import { runOptions } from "../run-options.ts";
import { usageError } from "../../core/errors.ts";
import { SessionStore } from "../../store/sessions.ts";
import { databasePath } from "../data.ts";
import { buildActions } from "../runtime.ts";

/** A fleet for listing the agent actions: nothing is ever run through it. */
const listingOnly = new Proxy({}, { get: () => () => { throw new Error("weir actions only lists actions"); } }) as Fleet;

/**
 * `weir actions [--json]`: the registry with each action's capability, risk, source and schema size.
 * `weir actions forget`: clears the tool memory (which tools earlier tasks called, by their words).
 */
export async function actionsCommand(args: ParsedArgs, workspace: string, resolved: Resolved, out: (s: string) => void): Promise<number> {
  const verb = args.command[1];
  if (verb === "forget") {
    const store = SessionStore.open(databasePath(process.env));
    try {
      const n = store.toolMemory.forget();
      out(`forgot ${n} association${n === 1 ? "" : "s"} between task words and tools\n`);
      return 0;
    } finally {
      store.close();
    }
  }
  if (verb !== undefined) throw usageError(`unknown command "actions ${verb}"; use weir actions [--json] or weir actions forget`);
  const opts = runOptions(args);
  const actions = await buildActions(opts, workspace, resolved);
  try {
    const { registry } = actions;
    // The fleet's actions are offered in every run with workers (--max-agents above 0): list them too.
    // Listing builds no fleet; their schemas are all that is read here.
    if (opts.maxAgents > 0) for (const a of agentActions(listingOnly)) registry.register(a);
    const rows = registry
      .all()
      .map((a) => ({ capability: a.capability, id: a.id, risk: a.risk, source: a.source, schemaTokens: registry.schemaTokens(a.id), hint: a.hint }))
      .sort((x, y) => x.capability.localeCompare(y.capability) || x.id.localeCompare(y.id));
    if (args.json) {
      out(`${JSON.stringify({ actions: rows, capabilities: registry.capabilities(), mcp: actions.hub.status() }, null, 2)}\n`);
      return 0;
    }
    const w = (k: keyof (typeof rows)[number]) => Math.max(k.length, ...rows.map((r) => String(r[k]).length));
    const line = (r: Record<string, unknown>) =>
      `${String(r.capability).padEnd(w("capability"))}  ${String(r.id).padEnd(w("id"))}  ` +
      `${String(r.risk).padEnd(11)}  ${String(r.source).padEnd(w("source"))}  ${String(r.schemaTokens).padStart(6)}`;
    out(`${line({ capability: "capability", id: "id", risk: "risk", source: "source", schemaTokens: "tokens" })}\n`);
    for (const r of rows) out(`${line(r)}\n`);
    out(`${rows.length} actions, ${rows.reduce((n, r) => n + r.schemaTokens, 0)} schema tokens in all\n`);
    for (const n of actions.notices) out(`${n}\n`);
    return 0;
  } finally {
    await actions.close();
  }
}
