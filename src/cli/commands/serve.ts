import type { Resolved } from "../../config/resolve.ts";
import type { WorkingSet } from "../../context/working-set.ts";
import { usageError } from "../../core/errors.ts";
import type { DecisionRecord } from "../../decision/plane.ts";
import type { Answer } from "../../decision/questions.ts";
import type { ServedTool } from "../../mcp/server.ts";
import type { ParsedArgs } from "../args.ts";
import type { RunOptions } from "../run-options.ts";
import { VERSION } from "../version.ts";

/**
 * `weir serve --mcp`: weir as the engineering runtime under another agent, over stdio MCP. Its
 * tools never call a model and never write the workspace:
 * - `compile_context`: the working set weir would send for a goal, untrusted text quoted as the
 *   firewall quotes it, within a token budget;
 * - `decide`: the decision plane's answers (the typed questions of the set runs ask) for a goal, on
 *   the state weir builds for it, with that state;
 * - `find_references`: where a symbol is defined and referenced, by a text search;
 * - `callers`: the files that call a symbol a file defines, resolved from imports (the import graph);
 * - `tests_for`: the tests the compiler maps to a file, by name, by import and by what checks recorded;
 * - `docs_drift`: what the docs name as code that the code no longer has;
 * - `run_checks`: the project's own checks, in the command sandbox.
 * Each call builds weir's runtime for the workspace afresh, so what it says is what a run started
 * now would see.
 */
export async function serveCommand(args: ParsedArgs, workspace: string, resolved: Resolved): Promise<number> {
  if (args.flags.mcp !== true) throw usageError("weir serve needs --mcp: weir serve --mcp runs weir as an MCP server on stdin and stdout");
  const { serveOverStdio } = await import("../../mcp/server.ts");
  const { z } = await import("zod");
  const { runOptions } = await import("../run-options.ts");
  const { buildActions, buildRuntime } = await import("../runtime.ts");
  const base = runOptions(args);
  const text = (t: string) => ({ text: t });
  const failed = (t: string) => ({ text: t, isError: true });

  /** The first request of a run of `goal` as weir would build it, with its working set and first decision. */
  async function preview(goal: string, options: Partial<RunOptions> = {}) {
    let ws: WorkingSet | undefined;
    let decision: DecisionRecord | undefined;
    const rt = await buildRuntime({ ...base, ...options }, workspace, resolved, {
      preview: true,
      onWorkingSet: (w) => (ws ??= w),
      onDecision: (d) => (decision ??= d),
    });
    try {
      await rt.conversation.preview(goal);
    } finally {
      await rt.close();
    }
    if (!ws) throw new Error("no working set was compiled");
    return { ws, decision };
  }

  /** Runs one of weir's own actions as the person would, through its gate and sandbox. */
  async function action(name: string, input: Record<string, unknown>) {
    const actions = await buildActions(base, workspace, resolved, { preview: true });
    try {
      const call = { type: "tool_call" as const, id: `serve-${Date.now()}`, name, input };
      return await actions.executor.executeForPerson(call, new AbortController().signal);
    } finally {
      await actions.close();
    }
  }

  const tools: ServedTool[] = [
    {
      name: "compile_context",
      description:
        "The working set weir compiles for a goal in this repository: the files, outlines, rules, changes and failures " +
        "that matter most, each at the level that fits the token budget, untrusted text quoted as data. Read it before planning.",
      input: {
        goal: z.string().min(1).describe("the task, in a person's words"),
        budget: z.number().int().min(1).optional().describe("tokens (default 4000)"),
      },
      readOnly: true,
      async run(i) {
        const { ws } = await preview(String(i.goal), typeof i.budget === "number" ? { budget: i.budget } : {});
        const c = ws.compiled;
        const over = c.overBudget ? ` · ${c.overBudget}` : "";
        const head = `[weir working set · ${ws.tokens} of ${c.budget} tokens · ${ws.gathered.filesWalked} files walked${over}]`;
        return text(`${head}\n\n${ws.text}`);
      },
    },
    {
      name: "decide",
      description:
        "weir's decision plane on a goal, before any edit: is the context sufficient, is more retrieval or caller navigation needed, " +
        "must verification escalate, the next action and the risk surface, with the state they were decided on (targets, symbols, tests, change).",
      input: { goal: z.string().min(1) },
      readOnly: true,
      async run(i) {
        const { decision } = await preview(String(i.goal));
        if (!decision?.request) return failed("weir made no decision for this goal");
        const answers = Object.fromEntries(Object.entries(decision.baseline).map(([q, a]) => [q, answer(a)]));
        const r = decision.request;
        const state = { task_kind: r.task_kind, targets: r.targets, symbols: r.symbols, tests: r.tests, failures: r.failures, change: r.change };
        return text(JSON.stringify({ question_set: decision.question_set, answers, state }, null, 2));
      },
    },
    {
      name: "find_references",
      description: "Where a symbol is defined (from a parser) and referenced or called (from a text search) across the workspace.",
      input: { symbol: z.string().min(1).regex(/^[\w$.]+$/), path: z.string().optional().describe("limit to files below this directory") },
      readOnly: true,
      async run(i) {
        const r = await action("find_references", { symbol: i.symbol, ...(i.path ? { path: i.path } : {}) });
        return r.isError ? failed(r.content) : text(r.content);
      },
    },
    {
      name: "callers",
      description:
        "The files that call a symbol a file defines, with the lines that name it, resolved from imports as weir's decision plane resolves them " +
        "(through the symbol index's import graph where `weir index` built it); says so when they cannot be known.",
      input: {
        path: z.string().min(1).describe("the file that defines the symbol, relative to the workspace's root"),
        symbol: z.string().regex(/^[\w$]+$/).optional().describe("a top-level name the file defines; else every name other files can reach"),
      },
      readOnly: true,
      async run(i) {
        const { callerSites } = await import("./callers.ts");
        const r = await callerSites(workspace, String(i.path), typeof i.symbol === "string" ? i.symbol : undefined);
        return r.ok ? text(r.text) : failed(r.text);
      },
    },
    {
      name: "tests_for",
      description:
        "The tests weir maps to a source file: by their names, by what they import, and tests a check saw fail and then pass once the file changed.",
      input: { path: z.string().min(1).describe("a file of the workspace, relative to its root") },
      readOnly: true,
      async run(i) {
        const { ws } = await preview(`Change ${String(i.path)}`, { budget: 1 });
        const tests = [...new Set(ws.gathered.candidates.filter((c) => c.kind === "test").map((c) => c.source))];
        return text(tests.length ? tests.join("\n") : `no test of ${String(i.path)} found by name, import or a recorded fix`);
      },
    },
    {
      name: "docs_drift",
      description: "Places in the repository's Markdown docs that name, as code, a path, a flag or a name the code no longer has.",
      input: {},
      readOnly: true,
      async run() {
        const { workspaceDrift } = await import("./drift.ts");
        const found = workspaceDrift(workspace);
        return text(found.length ? found.map((d) => `${d.doc}:${d.line}: \`${d.name}\`: ${d.why}`).join("\n") : "no drift");
      },
    },
    {
      name: "run_checks",
      description:
        "Run the project's own checks (tests; at level full also typecheck, lint and build), detected from its build files, " +
        "in weir's command sandbox: no network, the home hidden, nothing a review cannot show applied.",
      input: { level: z.enum(["quick", "full"]).default("quick") },
      readOnly: false,
      async run(i) {
        const r = await action("verify", { level: i.level ?? "quick" });
        return r.isError ? failed(r.content) : text(r.content);
      },
    },
  ];
  await serveOverStdio(tools, VERSION);
  return 0;
}

/** A baseline answer as a client reads it: yes/no with its probability, a choice, or a score. */
function answer(a: Answer): unknown {
  if (a.type === "yes_no") return { yes: a.p_yes >= 0.5, p_yes: a.p_yes };
  if (a.type === "choice") return { choice: Object.entries(a.distribution).sort((x, y) => y[1] - x[1])[0]?.[0] ?? null };
  return { score: a.value };
}
