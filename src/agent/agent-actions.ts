import { z } from "zod";
import { type Action, defineAction, ToolFailure } from "../actions/action.ts";
import type { AgentReport, Fleet } from "./fleet.ts";
import { FleetRefused, formatAgentRow } from "./fleet.ts";
import { SpawnInput } from "./subgoal.ts";

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** A report as the model reads it: a header line, then the JSON. */
function reportText(r: AgentReport): string {
  const head = `${r.id} (${r.label}): ${r.state}${r.stale ? " — STALE: the workspace changed since this result was computed" : ""}`;
  const { usage, ...rest } = r;
  return `${head}\n${JSON.stringify({ ...rest, tokens: { input: usage.input + usage.cacheRead + usage.cacheWrite, output: usage.output } }, null, 1)}`;
}

/**
 * The main agent's actions over its fleet of workers. Only the main agent's registry holds them: a
 * worker cannot spawn, wait for or stop anyone.
 */
export function agentActions(fleet: Fleet): Action[] {
  const spawn = defineAction({
    id: "spawn_agent",
    capability: "agents",
    hint: "start a background worker on a subgoal (its own context, scoped reads/writes, typed result)",
    description:
      "Start a worker agent on a self-contained subgoal; " +
        "it runs in the background with its own context (it does not see this conversation), may only read `reads` and write `writes` (default: " +
        "read everything, write nothing), and must return JSON matching output_schema. Returns its id at once; collect the result with wait_agents. " +
        "Two live workers may not have overlapping write globs. " +
        "Use for independent parts of a task (exploring several areas, editing disjoint files).",
    input: SpawnInput,
    risk: "read",
    source: "builtin",
    readOnly: false,
    summary: (i) => `${i.label ?? i.goal.slice(0, 60)}${i.writes?.length ? ` (writes ${i.writes.join(", ")})` : " (report only)"}`,
    async run(i, ctx) {
      try {
        const s = fleet.spawn(i, ctx.callId ?? "");
        return (
          `started ${s.id} (${s.label}): reads ${s.reads.join(", ")}; writes ` +
          `${s.writes.join(", ") || "nothing"}; at most ${s.budget.turns} turns, ${s.budget.tokens} tokens. ` +
          `Collect it with wait_agents.`
        );
      } catch (e) {
        if (e instanceof FleetRefused) throw new ToolFailure(`refused: ${e.message}`, "agents");
        throw e;
      }
    },
  });
  const wait = defineAction({
    id: "wait_agents",
    capability: "agents",
    hint: "wait for workers and collect their reports (each report is delivered once)",
    description:
      "Wait until the named workers (default: every one not yet reported) finish, or timeout_ms passes. " +
      "Each finished worker's report (state, validated result or why it was refused, files written, " +
      "whether it is stale) is delivered once; workers still running are listed as such.",
    input: z.object({ ids: z.array(z.string().min(1)).optional(), timeout_ms: z.number().int().min(0).max(3_600_000).optional() }).strict(),
    risk: "read",
    source: "builtin",
    readOnly: true,
    summary: (i) => `${i.ids?.join(", ") ?? "all"}${i.timeout_ms !== undefined ? ` (up to ${secs(i.timeout_ms)})` : ""}`,
    async run(i, ctx) {
      const r = await fleet.wait(i.ids, i.timeout_ms, ctx.signal);
      const parts = r.reports.map(reportText);
      if (r.running.length) parts.push(`still running:\n${r.running.map(formatAgentRow).join("\n")}`);
      if (r.already.length) parts.push(`already reported: ${r.already.join(", ")}`);
      if (r.unknown.length) parts.push(`no such worker: ${r.unknown.join(", ")} (list_agents shows them)`);
      return parts.join("\n\n") || "no workers to wait for";
    },
  });
  const stop = defineAction({
    id: "stop_agent",
    capability: "agents",
    hint: "stop a worker; what it produced is kept and reported",
    description: "Stop a running worker. Files it already wrote stay; its report (with its last answer and what it wrote) comes back now.",
    input: z.object({ id: z.string().min(1) }).strict(),
    risk: "read",
    source: "builtin",
    readOnly: false,
    summary: (i) => i.id,
    async run(i) {
      const r = await fleet.stop(i.id);
      return typeof r === "string" ? r : reportText(r);
    },
  });
  const list = defineAction({
    id: "list_agents",
    capability: "agents",
    hint: "list workers: id, label, state, elapsed, calls, spend",
    description: "List every worker of this run with its state, elapsed time, turns, tool calls, tokens spent and health.",
    input: z.object({}).strict(),
    risk: "read",
    source: "builtin",
    readOnly: true,
    summary: () => "",
    async run() {
      const rows = fleet.list();
      return rows.length ? rows.map(formatAgentRow).join("\n") : "no workers";
    },
  });
  return [spawn, wait, stop, list];
}
