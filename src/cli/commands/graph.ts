import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { tokensOf } from "../../agent/goal.ts";
import { type GraphRunner, runGraph } from "../../agent/graph.ts";
import { type GraphPlan, PLAN_SHAPE, parsePlan, validatePlan } from "../../agent/graph-plan.ts";
import { userDataDir } from "../../config/paths.ts";
import type { Resolved } from "../../config/resolve.ts";
import { usageError, UserError } from "../../core/errors.ts";
import type { Display } from "../../core/events.ts";
import { textOf, userText } from "../../core/messages.ts";
import { TurnAccumulator } from "../../core/stream.ts";
import type { ModelProvider } from "../../providers/port.ts";
import type { GraphRow, GraphStatus, NodeRow } from "../../store/graphs.ts";
import { SessionStore } from "../../store/sessions.ts";
import { gitOutput, gitWrite } from "../../workspace/git.ts";
import { PathScope } from "../../workspace/scope.ts";
import { walk } from "../../workspace/walker.ts";
import type { ParsedArgs } from "../args.ts";
import { databasePath, withExistingStore } from "../data.ts";
import { runOptions } from "../run-options.ts";
import { buildRuntime } from "../runtime.ts";
import { EXIT, pursue } from "./goal.ts";
import type { RunIO } from "./run.ts";

/**
 * `weir graph "objective" [--plan FILE] [--budget N] [--concurrency N] [--check CMD]`,
 * `weir graph resume ID [--budget N]`, `weir graph list`, `weir graph status [ID]`. A planner call
 * (or --plan) gives the graph; it is validated before anything runs; each node runs as a goal in
 * a git worktree of its own, merged into the graph's branch one at a time (agent/graph.ts). Every
 * transition is written to the session database, and with --output-format json printed as a line.
 */
export async function graphCommand(args: ParsedArgs, workspace: string, resolved: Resolved, io: RunIO, signal: AbortSignal): Promise<number> {
  const verb = args.command[1];
  const out = (s: string) => io.stdout.write(s);
  if (verb === "list")
    return withExistingStore("no graphs yet", out, (store) => {
      const rows = store.graphs.list(workspace);
      out(rows.length ? `${rows.map(graphLine).join("\n")}\n` : "no graphs in this workspace\n");
      return 0;
    });
  if (verb === "status")
    return withExistingStore("no graphs yet", out, (store) => {
      const g = args.command[2] ? store.graphs.find(args.command[2]) : store.graphs.list(workspace)[0];
      out(g ? `${graphStatus(g, store.graphs.nodes(g.id))}\n` : "no graphs in this workspace\n");
      return 0;
    });
  if (args.budget !== undefined && !(args.budget > 0)) throw usageError("--budget takes a positive number of tokens");
  const concurrency = typeof args.flags.concurrency === "number" ? args.flags.concurrency : 3;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 8) throw usageError("--concurrency takes a whole number from 1 to 8");
  const json = resolved.settings.outputFormat === "json" || resolved.settings.outputFormat === "stream-json";
  const say = (line: string, event: object) => (json ? out(`${JSON.stringify(event)}\n`) : io.stderr.write(`weir: ${line}\n`));
  const spec: GraphSpec =
    verb === "resume"
      ? { resume: args.command[2] ?? usageArg(), budget: args.budget }
      : {
          objective: args.command.slice(1).join(" ").trim(),
          plan: typeof args.flags.plan === "string" ? args.flags.plan : undefined,
          check: typeof args.flags.check === "string" ? args.flags.check : undefined,
          budget: args.budget,
          concurrency,
        };
  mkdirSync(userDataDir(), { recursive: true });
  const store = SessionStore.open(databasePath());
  try {
    return EXIT[await pursueGraph(store, workspace, resolved, args, spec, say, signal)];
  } finally {
    store.close();
  }
}

/** A graph to start (from a planner call, or a plan file), or one to resume with more budget. */
export type GraphSpec =
  | { objective: string; plan?: string | undefined; check?: string | undefined; budget?: number | undefined; concurrency: number }
  | { resume: string; budget?: number | undefined };

type Say = (line: string, event: object) => void;

/**
 * Starts or resumes a graph and runs it to its end; `weir graph` and the REPL's `/graph` both come
 * here. Nodes run on runtimes built from `args` (the provider and gates of the run that started
 * them). Returns the graph's status.
 */
export async function pursueGraph(store: SessionStore, workspace: string, resolved: Resolved, args: ParsedArgs, spec: GraphSpec, say: Say, signal: AbortSignal): Promise<GraphStatus> {
  let graph: GraphRow;
  if ("resume" in spec) {
    graph = store.graphs.find(spec.resume);
    if (graph.workspace !== workspace) throw usageError(`graph ${graph.id} belongs to ${graph.workspace}; run weir there`);
    if (graph.status === "complete") throw usageError(`graph ${graph.id} is complete; start a new one`);
    if (spec.budget !== undefined) {
      const spent = store.graphs.nodes(graph.id).reduce((s, n) => s + n.spent, 0);
      store.graphs.transition(graph.id, undefined, "active", `resumed with ${spec.budget} more tokens`, { budget: spent + spec.budget });
    }
  } else {
    const objective = spec.objective;
    if (objective === "") throw usageError('the objective is blank; pass what weir should achieve (weir graph "add i18n to every screen")');
    const base = (await gitOutput(workspace, ["rev-parse", "HEAD"]))?.trim();
    if (!base) throw new UserError("weir graph needs a git repository with a commit: its nodes run in git worktrees", 2);
    const files = Array.from(walk(workspace, { limit: 20_000 }), (e) => e.path);
    let plan = spec.plan !== undefined ? planFromFile(spec.plan) : await planFromModel(workspace, objective, files, resolved, signal);
    // A planner's check is a command the model wrote: it runs unasked only where the model's own
    // commands do (--yes); otherwise a node is checked by --check or the project's tests.
    const dropped = spec.plan === undefined && !args.yes && plan.nodes.some((n) => n.check !== undefined);
    if (dropped) plan = { nodes: plan.nodes.map(({ check: _, ...n }) => n) };
    const problems = validatePlan(plan, files);
    if (problems.length) throw new UserError(`the plan was refused, nothing ran: ${problems.join("; ")}`);
    graph = store.graphs.create({ workspace, objective, base, check: spec.check, budget: spec.budget, concurrency: spec.concurrency, plan: JSON.stringify(plan), nodes: plan.nodes.map((n) => n.id) });
    if ((await gitWrite(workspace, ["branch", graph.branch, base])) === undefined) throw new UserError(`could not create the branch ${graph.branch}`);
    const note = dropped ? "; the planner's checks are not run without --yes" : "";
    say(`graph ${graph.id}: ${plan.nodes.length} nodes (${plan.nodes.map((n) => n.id).join(", ")}), merged into branch ${graph.branch}${note}`, { type: "graph_start", graph: graph.id, branch: graph.branch, nodes: plan.nodes, ...(dropped ? { planner_checks: "dropped" } : {}) });
  }
  const id = graph.id;
  // Beside the workspace, not in the data directory: a home dot-directory is no place to work in.
  const trees = join(dirname(workspace), `${basename(workspace)}.weir-worktrees`, id);
  /** A node's branch: the graph's, suffixed with the node's id. */
  const nodeBranch = (node: string) => `${store.graphs.get(id).branch}-${node}`;
  const runner: GraphRunner = {
    graph: () => store.graphs.get(id),
    nodes: () => store.graphs.nodes(id),
    transition(node, state, reason, fields) {
      const e = store.graphs.transition(id, node, state, reason, fields);
      say(`graph ${id}${node ? ` node ${node}` : ""} ${state.replace("_", "-")}: ${reason}`, { type: "graph_transition", ...e });
      return e;
    },
    mergedTree: () => worktree(workspace, join(trees, "merged"), store.graphs.get(id).branch),
    async nodeTree(node) {
      const dir = join(trees, node);
      if (existsSync(dir)) return dir;
      if ((await gitWrite(workspace, ["worktree", "add", "-q", "-B", nodeBranch(node), dir, store.graphs.get(id).branch])) === undefined) throw new UserError(`could not add a worktree for node ${node}`);
      return dir;
    },
    async runNode(node, row, tree, budget, nodeSignal) {
      const { budget: _, ...runArgs } = args;
      // The node's file actions write only inside the scope the plan gave it; they read everything.
      const scope = new PathScope(["**"], node.scope);
      const runtime = await buildRuntime(runOptions({ ...runArgs, resume: undefined, continue: false }), tree, resolved, { scope });
      try {
        const check = node.check ?? store.graphs.get(id).check_command ?? undefined;
        const spec = row.goal_id ? { resume: row.goal_id, budget } : { objective: node.objective, check, budget, newSession: true };
        const recordGoal = (goal: string) => runner.transition(node.id, "running", `running as goal ${goal}`, { goal });
        // A node's run prints nothing of its own; its spend is written per turn.
        const counting: Display = { emit: (e) => e.type === "turn_end" && store.graphs.spend(id, node.id, (row.spent += tokensOf(e.usage))) };
        const r = await pursue(runtime, tree, spec, counting, nodeSignal, (g) => recordGoal(g.id));
        return { status: r.status, goal: r.goal, reason: r.line };
      } finally {
        await runtime.close();
      }
    },
    async merge(node, tree) {
      await gitWrite(tree, ["add", "-A"]);
      // Nothing staged is a node that changed nothing: its commit fails and its merge is a no-op.
      await gitWrite(tree, ["commit", "-q", "-m", `weir graph ${id}: ${node.id}\n\n${node.objective}`]);
      const merged = join(trees, "merged");
      if ((await gitWrite(merged, ["merge", "--no-ff", "-q", "-m", `weir graph ${id}: merge ${node.id}`, nodeBranch(node.id)])) !== undefined) return { merged: true };
      const conflicts = (await gitWrite(merged, ["diff", "--name-only", "--diff-filter=U"]))?.trim().split("\n").filter(Boolean) ?? [];
      await gitWrite(merged, ["merge", "--abort"]);
      return { merged: false, why: conflicts.length ? `a conflict in ${conflicts.join(", ")}` : "git merge failed" };
    },
    async removeTree(tree) {
      await gitWrite(workspace, ["worktree", "remove", "--force", tree]);
    },
    async finalCheck(dir, checkSignal) {
      const command = store.graphs.get(id).check_command;
      if (!command) return undefined;
      // The merged tree is the model's code: its check runs in the sandbox, as a goal's check does.
      const runtime = await buildRuntime(runOptions({ ...args, budget: undefined, resume: undefined, continue: false }), dir, resolved, {});
      try {
        const r = await runtime.executor.executeForPerson({ type: "tool_call", id: `graph-check-${id}`, name: "shell", input: { command } }, checkSignal);
        return { passed: !r.isError, summary: r.content.slice(-2000) };
      } finally {
        await runtime.close();
      }
    },
  };
  return runGraph(runner, signal);
}

const usageArg = (): never => {
  throw usageError("weir graph resume needs a graph id; weir graph list shows them");
};

async function worktree(workspace: string, dir: string, branch: string): Promise<string> {
  if (existsSync(dir)) return dir;
  if ((await gitWrite(workspace, ["worktree", "add", "-q", dir, branch])) === undefined) throw new UserError(`could not add the worktree of ${branch} at ${dir}`);
  return dir;
}

function planFromFile(file: string): GraphPlan {
  let text: string;
  try {
    text = readFileSync(resolve(file), "utf8");
  } catch (e) {
    throw usageError(`cannot read --plan ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parsePlan(text);
  } catch (e) {
    throw new UserError(`the plan was refused, nothing ran: ${(e as Error).message}`);
  }
}

/** One planner call: the objective and the workspace's files in, the plan as JSON out. */
async function planFromModel(workspace: string, objective: string, files: string[], resolved: Resolved, signal: AbortSignal): Promise<GraphPlan> {
  const { createProvider } = await import("../../providers/create.ts");
  const { providerSettings } = await import("../../config/resolve.ts");
  const { requireKeyIn } = await import("../settings.ts");
  requireKeyIn(workspace, resolved);
  const provider: ModelProvider = await createProvider(providerSettings(resolved), resolved.preset.hint);
  const system =
    "You plan work on a software repository as a graph of steps. Each step is carried out by another agent in its own copy of the repository, then merged. " +
    "Steps that may run at the same time must not write the same files. Answer with the JSON plan only, in this shape:\n" +
    PLAN_SHAPE;
  const listing = files.slice(0, 300).join("\n");
  const acc = new TurnAccumulator();
  for await (const ev of provider.stream({ system, messages: [userText(`Objective: ${objective}\n\nThe repository's files:\n${listing}`)], tools: [], maxTokens: 4096, signal })) acc.push(ev);
  try {
    return parsePlan(textOf(acc.message()));
  } catch (e) {
    throw new UserError(`the plan was refused, nothing ran: ${(e as Error).message}`);
  }
}

/** `/graph` in the REPL: `/graph OBJECTIVE`, `/graph resume ID [TOKENS]`, `/graph status [ID]`, `/graph list`. */
export async function replGraph(store: SessionStore, workspace: string, resolved: Resolved, args: ParsedArgs, words: string[], display: Display, signal: AbortSignal, running: (id: string | undefined) => void): Promise<string> {
  if (words.length === 0 || words[0] === "list") {
    const rows = store.graphs.list(workspace);
    return rows.length ? rows.map(graphLine).join("\n") : "no graphs in this workspace; /graph OBJECTIVE starts one";
  }
  if (words[0] === "status") {
    const g = words[1] ? store.graphs.find(words[1]) : store.graphs.list(workspace)[0];
    return g ? graphStatus(g, store.graphs.nodes(g.id)) : "no graphs in this workspace";
  }
  let spec: GraphSpec;
  if (words[0] === "resume") {
    if (!words[1]) return "/graph resume ID [TOKENS]: /graph list shows the ids";
    const more = words[2] === undefined ? undefined : Number(words[2]);
    if (more !== undefined && !(more > 0)) return `/graph resume: ${words[2]} is not a number of tokens`;
    spec = { resume: words[1], budget: more };
  } else spec = { objective: words.join(" "), concurrency: 3 };
  let id: string | undefined;
  const say: Say = (line, event) => {
    const e = event as { graph?: string; graph_id?: string };
    id ??= e.graph ?? e.graph_id;
    running(id);
    display.emit({ type: "notice", level: "info", message: line });
  };
  try {
    const status = await pursueGraph(store, workspace, resolved, args, spec, say, signal);
    const g = id ? store.graphs.get(id) : undefined;
    return g ? `graph ${g.id} ${status.replace("_", "-")}: ${store.graphs.events(g.id).at(-1)?.reason ?? ""}` : status;
  } finally {
    running(undefined);
  }
}

/** The status bar's chip for a running graph: its id and merged of all nodes. */
export function graphChip(store: SessionStore, id: string): string {
  const nodes = store.graphs.nodes(id);
  return `graph ${id} ${nodes.filter((n) => n.state === "merged").length}/${nodes.length}`;
}

const graphLine = (g: GraphRow) => `${g.id}  ${g.status.replace("_", "-").padEnd(14)} ${g.objective.split("\n")[0]!.slice(0, 60)}`;

/** A graph's nodes, their state and spend against the budget. Pure. */
export function graphStatus(g: GraphRow, nodes: readonly NodeRow[]): string {
  const spent = nodes.reduce((s, n) => s + n.spent, 0);
  const current = nodes.filter((n) => n.state === "running").map((n) => n.node_id);
  const head = `graph ${g.id}  ${g.status.replace("_", "-")}  ${spent}${g.budget !== null ? `/${g.budget}` : ""} tokens  branch ${g.branch}${current.length ? `  running: ${current.join(", ")}` : ""}`;
  return [head, g.objective, ...nodes.map((n) => `  ${n.node_id.padEnd(16)} ${n.state.replace("_", "-").padEnd(14)} ${String(n.spent).padStart(8)} tokens  ${n.reason}`)].join("\n");
}
