import { join } from "node:path";
import { PLAN_ACCEPTED, planTask } from "../../agent/prompt.ts";
import { userConfigDir, userDataDir } from "../../config/paths.ts";
import { priceOf } from "../../providers/prices.ts";
import { loadCommands } from "../../context/slash-commands.ts";
import type { Message } from "../../core/messages.ts";
import { walk } from "../../workspace/walker.ts";
import { providerSettings, type Resolved } from "../../config/resolve.ts";
import { createProvider } from "../../providers/create.ts";
import { confirmProjectHooks, confirmProjectServer } from "../../ui/approve.ts";
import { replApprover, runRepl } from "../../ui/repl.ts";
import { formatAgents, formatCalls, formatSessions } from "../../ui/sessions.ts";
import { makeStyle } from "../../ui/style.ts";
import type { ParsedArgs } from "../args.ts";
import { runOptions } from "../run-options.ts";
import { buildRuntime } from "../runtime.ts";
import { mcpCommandLine } from "./mcp.ts";
import { changesCommand } from "./changes.ts";
import { undoLines } from "./undo.ts";
import { planLines } from "../../actions/builtin/todo.ts";
import { UserError } from "../../core/errors.ts";
import { tokensOf } from "../../core/chunk.ts";
import { COMMIT, VERSION } from "../version.ts";

/** `weir` with no task on a terminal: the REPL over one conversation. */
/**
 * What the person typed, out of a user message weir assembled around it: the compiled working set,
 * its updates, guidance and the notes weir adds (each opens with "[weir" or "[commands I ran") are
 * left out, and so is quoted data. Pure.
 */
function typedText(m: Message): string {
  return m.content
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    // A block weir compiled (the working set and its updates) is weir's as a whole.
    .filter((t) => !/^\[weir\b/.test(t))
    .map((t) => t.replace(/<<<UNTRUSTED-DATA[\s\S]*?UNTRUSTED-DATA(?: [0-9a-f]{8})?>>>/g, ""))
    .flatMap((t) => t.split(/\n\n+/))
    .filter((t) => t.trim() !== "" && !/^\[(?:weir\b|commands I ran|context from your hooks|input piped)/.test(t.trim()))
    .join(" ");
}

/** The last turns of a conversation, one line each, for /resume. Pure. */
export function transcript(messages: readonly Message[], last = 8): string {
  const lines = messages.flatMap((m) => {
    const text = (
      m.role === "user"
        ? typedText(m)
        : m.content
            .filter((b) => b.type === "text")
            .map((b) => (b as { text: string }).text)
            .join(" ")
    )
      .replace(/\s+/g, " ")
      .trim();
    const calls = m.content.filter((b) => b.type === "tool_call").map((b) => (b as { name: string }).name);
    if (m.role === "user" && text && !m.content.some((b) => b.type === "tool_result")) return [`  you:  ${text.slice(-160)}`];
    if (m.role === "assistant") return [`  weir: ${text ? text.slice(0, 160) : ""}${calls.length ? `${text ? " " : ""}[${calls.join(", ")}]` : ""}`];
    return [];
  });
  return lines.length > last ? [`  … ${lines.length - last} earlier`, ...lines.slice(-last)].join("\n") : lines.join("\n") || "  (empty)";
}

let typed = 0;

/** One worker's calls in flight, as /calls shows them (named AGENT:CALL, as /stop takes them). Pure. */
function workerCalls(w: {
  agent: string;
  label: string;
  calls: { id: string; action: string; ageMs: number; severity: string; verdicts: string[] }[];
}): string {
  const rows = w.calls.map(
    (c) => `  ${w.agent}:${c.id}  ${c.action}  ${(c.ageMs / 1000).toFixed(1)}s  ${c.severity}${c.verdicts.length ? ` (${c.verdicts.join(", ")})` : ""}`,
  );
  return `${w.agent} (${w.label}):\n${rows.length ? rows.join("\n") : "  no calls in flight"}`;
}

export async function replCommand(args: ParsedArgs, workspace: string, resolved: Resolved): Promise<number> {
  const opts = runOptions(args);
  const runtime = await buildRuntime(opts, workspace, resolved, {
    approver: replApprover,
    approveServer: confirmProjectServer,
    approveHooks: confirmProjectHooks,
  });
  const s = resolved.settings;
  let model = s.model;
  // The goal graph /graph is running, for the status bar's chip; its module once /graph was used.
  let graphRunning: string | undefined;
  let graphs: typeof import("./graph.ts") | undefined;
  // The run's mode (--mode, /mode, Shift-Tab), and whether an answer in plan mode waits for /go.
  let mode = opts.mode;
  let planWaits = false;
  try {
    const style = makeStyle(s.color && process.stdout.isTTY === true);
    const banner = [`weir ${VERSION} (${COMMIT}) · ${s.provider}/${s.model} · ${workspace}`, ...runtime.notices].join("\n");
    return await runRepl(
      {
        idle: () => runtime.idle(),
        async send(task, display, signal, typed) {
          const planning = mode === "plan";
          const r = await runtime.conversation.send(planning ? planTask(task) : task, runtime.watch(display), signal, typed);
          planWaits = planning && r.stop === "end_turn";
          const message = "plan mode: nothing was changed; /go carries the plan out, or reply to change it";
          if (planWaits) display.emit({ type: "notice", level: "info", message });
          return r;
        },
        mode(next) {
          if (next !== undefined && next !== mode) {
            mode = next;
            runtime.setMode(next);
          }
          return mode;
        },
        acceptPlan() {
          if (!planWaits) return undefined;
          planWaits = false;
          mode = "default";
          runtime.setMode("default");
          return PLAN_ACCEPTED;
        },
        goal: async (words, display, signal) => (await import("./goal.ts")).replGoal(runtime, workspace, words, display, signal),
        async graph(words, display, signal) {
          graphs = await import("./graph.ts");
          return graphs.replGraph(runtime.store, workspace, resolved, args, words, display, signal, (id) => (graphRunning = id));
        },
        clear: () => {
          runtime.conversation.clear();
          runtime.fleet.clear();
        },
        models: () => runtime.conversation.provider.listModels(AbortSignal.timeout(10_000)).catch(() => undefined),
        roles: () => roleLine(resolved),
        async setModel(next) {
          // The endpoint's own list decides what exists; an endpoint without a list is taken at its word.
          const offered = await runtime.conversation.provider.listModels(AbortSignal.timeout(10_000)).catch(() => undefined);
          const roles = roleLine(resolved) ? `\n${roleLine(resolved)}` : "";
          const offers = offered?.length ? `\nthis endpoint offers: ${offered.slice(0, 30).join(", ")}\n/model ID switches` : "";
          if (!next) return `model: ${model}${roles}${offers}`;
          if (offered?.length && !offered.includes(next))
            return `no model ${next} at this endpoint; it offers: ${offered.slice(0, 30).join(", ")}${offered.length > 30 ? ", …" : ""} (still ${model})`;
          runtime.conversation.setProvider(await createProvider({ ...providerSettings(resolved), model: next }, resolved.preset.hint));
          const was = model;
          model = next;
          return `model: ${was} → ${next} (the conversation carries over)${offered ? "" : "; the endpoint has no model list to check it against"}`;
        },
        sessions: () => formatSessions(runtime.store.list(workspace), false, Date.now(), runtime.conversation.sessionId),
        historyTokens: () => tokensOf(JSON.stringify(runtime.conversation.messages)),
        plan: () => planLines(runtime.plan.items),
        undo: (words) => {
          try {
            return undoLines(words, workspace).join("\n");
          } catch (e) {
            if (!(e instanceof UserError)) throw e;
            return e.message;
          }
        },
        changes: (words) => {
          let text = "";
          try {
            changesCommand(["changes", ...words], workspace, (s) => (text += s));
          } catch (e) {
            if (!(e instanceof UserError)) throw e;
            text = e.message;
          }
          return text.trimEnd();
        },
        compact: () => {
          const n = runtime.compact();
          return n
            ? `${n} tool result${n === 1 ? "" : "s"} will reach the model as summaries from now on (the full text stays in the session)`
            : "nothing to compact yet";
        },
        commands: () => loadCommands(workspace, userConfigDir()),
        files: () => Array.from(walk(workspace, { limit: 20_000 }), (e) => e.path),
        resume(id) {
          const list = formatSessions(runtime.store.list(workspace), false, Date.now(), runtime.conversation.sessionId);
          if (!id) return `${list}\n/resume ID continues one (an id prefix is enough)`;
          let row;
          try {
            row = runtime.store.find(id);
          } catch (e) {
            return (e as Error).message;
          }
          runtime.conversation.resume(row.id);
          runtime.fleet.clear();
          return `resumed session ${row.id.slice(0, 8)} ("${row.title}")\n${transcript(runtime.conversation.messages)}`;
        },
        async shell(line, signal) {
          // The person's own line runs in the same sandbox, with the same hooks and deny rules, without asking them.
          const r = await runtime.executor.executeForPerson({ type: "tool_call", id: `user_${++typed}`, name: "shell", input: { command: line } }, signal);
          return { output: r.content, ran: !r.refused };
        },
        mcp: (words) => mcpCommandLine(runtime.hub, words),
        calls: () =>
          [formatCalls(runtime.supervisor.list()), ...runtime.fleet.calls().map(workerCalls)].join("\n"),
        stop: (target) => {
          if (target === "stuck" || target === "all") return runtime.supervisor.stopScope(target).join("\n") || "nothing to stop";
          // A worker's call is named AGENT:CALL, as /calls shows it.
          const m = /^(w\d+):(.+)$/.exec(target);
          if (m) return runtime.fleet.stopCall(m[1]!, m[2]!);
          return target ? runtime.supervisor.stop(target) : "usage: /stop ID or /stop stuck";
        },
        async agents(words) {
          if (words[0] === "stop") return words[1] ? String(await runtime.fleet.stop(words[1], false)) : "usage: /agents stop ID";
          if (words.length && words[0] !== "list") return "usage: /agents, or /agents stop ID";
          return formatAgents(runtime.fleet.list());
        },
        status: () => {
          // Workers' spend is shown on its own, never added to the main agent's context use.
          const workerTokens = runtime.fleet.usage().reduce((n, w) => n + w.usage.input + w.usage.cacheRead + w.usage.cacheWrite + w.usage.output, 0);
          return {
            model,
            priceOf: (m: string) => priceOf(m, s.prices),
            ...(s.effort ? { effort: s.effort } : {}),
            contextSize: s.contextSize,
            ...(runtime.conversation.sessionId ? { sessionId: runtime.conversation.sessionId } : {}),
            ...(workerTokens ? { workerTokens } : {}),
            ...(graphRunning && graphs ? { graph: graphs.graphChip(runtime.store, graphRunning) } : {}),
          };
        },
      },
      { historyFile: join(userDataDir(), "history"), style, verbose: s.verbose, banner },
    );
  } finally {
    await runtime.close();
  }
}

/** The roles beside main, and whether requests are routed (`/model`); empty when none is configured. Pure. */
function roleLine(resolved: Resolved): string {
  const roles = Object.entries(resolved.settings.models).map(([role, m]) => `${role} ${m.provider}/${m.model}`);
  return roles.length ? `roles: ${roles.join(", ")}; router ${resolved.settings.router}` : "";
}
