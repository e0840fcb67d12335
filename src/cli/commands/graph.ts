import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { tokensOf } from "../../agent/goal.ts";
import { type GraphRunner, runGraph } from "../../agent/graph.ts";
import { type GraphPlan, PLAN_SHAPE, parsePlan, validatePlan } from "../../agent/graph-plan.ts";
import { userDataDir } from "../../config/paths.ts";
import type { Resolved } from "../../config/resolve.ts";
import { usageError, UserError } from "../../core/errors.ts";
import type { Display } from "../../core/events.ts";
import { faultPoint } from "../../core/fault-point.ts";
import { textOf, type ToolCallBlock, userText } from "../../core/messages.ts";
import { counted } from "../../core/text-fit.ts";
import { TurnAccumulator } from "../../core/stream.ts";
import type { ModelProvider } from "../../providers/port.ts";
import type { GraphEvent, GraphRow, GraphStatus, NodeRow } from "../../store/graphs.ts";
import { ProcessLock } from "../../store/process-lock.ts";
import { SessionStore } from "../../store/sessions.ts";
import { detectChecks } from "../../workspace/checks.ts";
import { gitOutput, gitWrite, worktreeSnapshot } from "../../workspace/git.ts";
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
  const verb = args.command[1]?.toLowerCase();
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
      out(g ? `${graphStatus(g, store.graphs.nodes(g.id), store.graphs.events(g.id))}\n` : "no graphs in this workspace\n");
      return 0;
    });
  if (verb === "clean")
    return await withStore(async (store) => {
      out(`${await cleanGraphs(store, workspace, args.command[2])}\n`);
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
          fromWorktree: args.flags["from-worktree"] === true,
        };
  return await withStore(async (store) => EXIT[await pursueGraph(store, workspace, resolved, args, spec, say, signal)]);
}

/**
 * The merge commit on the graph's branch (checked out in `dir`) whose second parent is the node's
 * branch: found the same way after a merge and after a kill, when the merge was made but not
 * recorded. None for a node that changed nothing (no merge was made).
 */
async function mergeCommitOf(dir: string, branch: string): Promise<{ commit?: string }> {
  const tip = (await gitWrite(dir, ["rev-parse", branch]))?.trim();
  const merges = (await gitWrite(dir, ["rev-list", "--merges", "--parents", "HEAD"]))?.trim().split("\n") ?? [];
  const commit = merges.map((l) => l.split(" ")).find((parents) => parents.slice(2).includes(tip ?? ""))?.[0];
  return commit ? { commit } : {};
}

async function withStore<T>(f: (store: SessionStore) => Promise<T>): Promise<T> {
  mkdirSync(userDataDir(), { recursive: true });
  const store = SessionStore.open(databasePath());
  try {
    return await f(store);
  } finally {
    store.close();
  }
}

/** A graph to start (from a planner call, or a plan file), or one to resume with more budget. */
export type GraphSpec =
  | { objective: string; plan?: string | undefined; check?: string | undefined; budget?: number | undefined; concurrency: number; fromWorktree?: boolean }
  | { resume: string; budget?: number | undefined };

type Say = (line: string, event: object) => void;

/** The lock its one runner holds while a graph runs: in the data directory, released when that process dies. */
const graphLock = (id: string) => join(userDataDir(), "locks", `graph-${id}.lock`);

/** Where a repository's graphs keep their worktrees: beside its top, never inside it. */
const treesOf = (top: string, id: string) => join(dirname(top), `${basename(top)}.weir-worktrees`, id);

/** The repository a workspace lies in: its top, and the workspace's path in it ("" or "pkg/"). */
async function repositoryOf(workspace: string): Promise<{ top: string; prefix: string }> {
  const top = (await gitOutput(workspace, ["rev-parse", "--show-toplevel"]))?.trim();
  if (!top) throw new UserError("weir graph needs a git repository with a commit: its nodes run in git worktrees", 2);
  return { top, prefix: (await gitOutput(workspace, ["rev-parse", "--show-prefix"]))?.trim() ?? "" };
}

/**
 * Starts or resumes a graph and runs it to its end; `weir graph` and the REPL's `/graph` both come
 * here. One process runs a graph at a time (a lock its death releases). Nodes run on runtimes built
 * from `args` (the provider and gates of the run that started them), in the same directory of their
 * worktrees as the workspace is of its repository. Returns the graph's status.
 */
export async function pursueGraph(
  store: SessionStore,
  workspace: string,
  resolved: Resolved,
  args: ParsedArgs,
  spec: GraphSpec,
  say: Say,
  signal: AbortSignal,
): Promise<GraphStatus> {
  const { top, prefix } = await repositoryOf(workspace);
  let graph: GraphRow;
  let lock: ProcessLock;
  if ("resume" in spec) {
    graph = store.graphs.find(spec.resume);
    if (graph.workspace !== workspace) throw usageError(`graph ${graph.id} belongs to ${graph.workspace}; run weir there`);
    lock = takeLock(graph.id);
    if (graph.status === "complete") {
      lock.release();
      throw usageError(`graph ${graph.id} is complete; start a new one`);
    }
    if (spec.budget !== undefined) {
      const spent = store.graphs.nodes(graph.id).reduce((s, n) => s + n.spent, 0);
      store.graphs.transition(graph.id, undefined, "active", `resumed with ${spec.budget} more tokens`, { budget: spent + spec.budget });
    }
  } else {
    const objective = spec.objective;
    if (objective === "") throw usageError('the objective is blank; pass what weir should achieve (weir graph "add i18n to every screen")');
    const head = (await gitOutput(workspace, ["rev-parse", "HEAD"]))?.trim();
    if (!head) throw new UserError("weir graph needs a git repository with a commit: its nodes run in git worktrees", 2);
    const dirty = (await gitOutput(workspace, ["status", "--porcelain", "--", "."]))?.trim();
    if (dirty && !spec.fromWorktree)
      throw new UserError(
        "the workspace has uncommitted changes, which the graph's nodes would not see: commit or stash them, or pass --from-worktree to start from them",
        2,
      );
    const base = dirty ? await worktreeSnapshot(top, `weir graph: the working tree at its start\n\n${objective}`) : head;
    if (!base) throw new UserError("could not record the working tree as the graph's starting commit");
    const files = Array.from(walk(workspace, { limit: 20_000 }), (e) => e.path);
    let plan = spec.plan !== undefined ? planFromFile(spec.plan) : await planFromModel(workspace, objective, files, resolved, signal);
    // A planner's check is a command the model wrote: it runs unasked only where the model's own
    // commands do (--yes); otherwise a node is checked by --check or the project's tests.
    const dropped = spec.plan === undefined && !args.yes && plan.nodes.some((n) => n.check !== undefined);
    if (dropped) plan = { nodes: plan.nodes.map(({ check: _, ...n }) => n) };
    const problems = validatePlan(plan, files);
    if (problems.length) throw new UserError(`the plan was refused, nothing ran: ${problems.join("; ")}`);
    const nodes = plan.nodes.map((n) => n.id);
    const { check, budget, concurrency } = spec;
    graph = store.graphs.create({ workspace, objective, base, check, budget, concurrency, plan: JSON.stringify(plan), nodes });
    if ((await gitWrite(workspace, ["branch", graph.branch, base])) === undefined) throw new UserError(`could not create the branch ${graph.branch}`);
    // No other process knows the new graph's id yet: the lock is only for a resume that comes later.
    lock = takeLock(graph.id);
    const notes = [dropped && "the planner's checks are not run without --yes", dirty && "started from the working tree's uncommitted changes"].filter(Boolean);
    const line = `graph ${graph.id}: ${counted(nodes.length, "node")} (${nodes.join(", ")}), merged into branch ${graph.branch}`;
    const event = {
      type: "graph_start",
      graph: graph.id,
      branch: graph.branch,
      nodes: plan.nodes,
      ...(dropped ? { planner_checks: "dropped" } : {}),
      ...(dirty ? { base } : {}),
    };
    say(notes.length ? `${line}; ${notes.join("; ")}` : line, event);
  }
  try {
    const status = await runGraph(graphRunner(store, graph.id, { top, prefix, workspace, resolved, args, say }), signal);
    if (status === "complete" && args.flags["keep-worktrees"] !== true) await removeWorktrees(store, graph.id, top);
    return status;
  } finally {
    lock.release();
  }
}

function takeLock(id: string): ProcessLock {
  const lock = ProcessLock.take(graphLock(id));
  if (lock instanceof ProcessLock) return lock;
  const who = lock.held ? ` (pid ${lock.held.pid}, since ${new Date(lock.held.since).toLocaleTimeString()})` : "";
  throw new UserError(`graph ${id} is being run by another weir${who}; wait for it to end, or stop it, then resume`);
}

interface RunnerParts {
  top: string;
  prefix: string;
  workspace: string;
  resolved: Resolved;
  args: ParsedArgs;
  say: Say;
}

/** The graph's runner over the real parts: the store, git worktrees, goals on runtimes of their own. */
function graphRunner(store: SessionStore, id: string, p: RunnerParts): GraphRunner {
  const { top, prefix, resolved, args } = p;
  // Beside the repository, not in the data directory: a home dot-directory is no place to work in.
  const trees = treesOf(top, id);
  const mergedDir = join(trees, "merged");
  /** A node's branch: the graph's, suffixed with the node's id. */
  const nodeBranch = (node: string) => `${store.graphs.get(id).branch}-${node}`;
  /** Where a node works: the workspace's directory in its worktree. */
  const inTree = (tree: string) => join(tree, prefix);
  const runner: GraphRunner = {
    graph: () => store.graphs.get(id),
    nodes: () => store.graphs.nodes(id),
    transition(node, state, reason, fields) {
      const e = store.graphs.transition(id, node, state, reason, fields);
      p.say(`graph ${id}${node ? ` node ${node}` : ""} ${state.replace("_", "-")}: ${reason}`, { type: "graph_transition", ...e });
      return e;
    },
    goalComplete: (goal) => store.goals.get(goal).status === "complete",
    mergedTree: () => worktree(top, mergedDir, store.graphs.get(id).branch),
    async nodeTree(node) {
      const dir = join(trees, node);
      if (await addWorktree(top, dir, ["-B", nodeBranch(node), dir, store.graphs.get(id).branch])) return dir;
      throw new UserError(`could not add a worktree for node ${node}`);
    },
    async runNode(node, row, tree, budget, nodeSignal, spent) {
      const { budget: _, ...runArgs } = args;
      // The node's file actions write only inside the scope the plan gave it; they read everything.
      const scope = new PathScope(["**"], node.scope);
      const dir = inTree(tree);
      // A node's task is scoped by its plan: the router prefers the fast model unless its view says otherwise.
      const runtime = await buildRuntime(runOptions({ ...runArgs, resume: undefined, continue: false }), dir, resolved, { scope, prefer: "fast" });
      try {
        const check = node.check ?? store.graphs.get(id).check_command ?? undefined;
        const goal = row.goal_id ? { resume: row.goal_id, budget } : { objective: node.objective, check, budget, newSession: true };
        const recordGoal = (g: string) => runner.transition(node.id, "running", `running as goal ${g}`, { goal: g });
        // A node's run prints nothing of its own; its spend is written per turn, then the graph is told.
        const counting: Display = {
          emit(e) {
            if (e.type !== "turn_end") return;
            store.graphs.spend(id, node.id, (row.spent += tokensOf(e.usage)));
            spent();
          },
        };
        const resumeWith = `weir graph resume ${id} --budget N`;
        const r = await pursue(runtime, dir, goal, counting, nodeSignal, (g) => recordGoal(g.id), resumeWith);
        return { status: r.status, goal: r.goal, reason: r.line };
      } finally {
        await runtime.close();
      }
    },
    async merge(node, tree) {
      await settleTree(tree);
      await gitWrite(tree, ["add", "-A"]);
      // Nothing staged is a node that changed nothing: its commit fails and its merge is a no-op.
      await gitWrite(tree, ["commit", "-q", "-m", `weir graph ${id}: ${node.id}\n\n${node.objective}`]);
      faultPoint(`graph-committed:${node.id}`);
      // The merged tree is weir's alone: a merge stopped part way is undone before this one.
      await settleTree(mergedDir, true);
      const already = await gitWrite(mergedDir, ["merge-base", "--is-ancestor", nodeBranch(node.id), "HEAD"]);
      if (already !== undefined) return { merged: true, ...(await mergeCommitOf(mergedDir, nodeBranch(node.id))) };
      const message = `weir graph ${id}: merge ${node.id}`;
      if ((await gitWrite(mergedDir, ["merge", "--no-ff", "-q", "-m", message, nodeBranch(node.id)])) !== undefined) {
        // Made, not yet recorded: a resume finds the merge on the branch and records that commit.
        faultPoint(`graph-git-merged:${node.id}`);
        return { merged: true, ...(await mergeCommitOf(mergedDir, nodeBranch(node.id))) };
      }
      const conflicts = (await gitWrite(mergedDir, ["diff", "--name-only", "--diff-filter=U"]))?.trim().split("\n").filter(Boolean) ?? [];
      await gitWrite(mergedDir, ["merge", "--abort"]);
      return { merged: false, why: conflicts.length ? `a conflict in ${conflicts.join(", ")}` : "git merge failed" };
    },
    async removeTree(tree) {
      await gitWrite(top, ["worktree", "remove", "--force", tree]);
    },
    async finalCheck(dir, checkSignal) {
      const command = store.graphs.get(id).check_command;
      const here = inTree(dir);
      const tests = detectChecks(here).filter((c) => c.level === "quick");
      if (!command && tests.length === 0) return undefined;
      // The merged tree is the model's code: its check runs in the sandbox, as a goal's check does.
      const runtime = await buildRuntime(runOptions({ ...args, budget: undefined, resume: undefined, continue: false }), here, resolved, {});
      try {
        const callId = `graph-check-${id}`;
        const call: ToolCallBlock = command
          ? { type: "tool_call", id: callId, name: "shell", input: { command } }
          : { type: "tool_call", id: callId, name: "verify", input: { level: "quick" } };
        const r = await runtime.executor.executeForPerson(call, checkSignal);
        return { passed: !r.isError, summary: r.content.split("\n").slice(-40).join("\n") };
      } finally {
        await runtime.close();
      }
    },
  };
  return runner;
}

/**
 * Makes a worktree ready for weir's next git step after a process was killed in one: a lock file
 * the dead git left is removed (the graph's lock says no other weir runs here), and in the merged
 * tree a merge stopped part way is undone, so its files are the branch's again.
 */
async function settleTree(tree: string, mergedTree = false): Promise<void> {
  const gitPath = (name: string) => ["--git-path", name];
  const paths = await gitWrite(tree, ["rev-parse", "--path-format=absolute", ...gitPath("index.lock"), ...gitPath("HEAD.lock"), ...gitPath("MERGE_HEAD")]);
  const [index, head, mergeHead] = (paths ?? "").trim().split("\n");
  for (const lock of [index, head]) if (lock) rmSync(lock, { force: true });
  if (!mergedTree) return;
  // Only a tree a stopped merge left behind is put back: the usual one is clean, and asking costs one call.
  const dirty = (mergeHead && existsSync(mergeHead)) || (await gitWrite(tree, ["status", "--porcelain"]))?.trim() !== "";
  if (!dirty) return;
  await gitWrite(tree, ["merge", "--abort"]);
  await gitWrite(tree, ["reset", "-q", "--hard", "HEAD"]);
  await gitWrite(tree, ["clean", "-q", "-fd"]);
}

/** Removes a graph's worktrees and its node branches; the result branch stays. */
async function removeWorktrees(store: SessionStore, id: string, top: string): Promise<void> {
  const trees = treesOf(top, id);
  const graph = store.graphs.get(id);
  if (existsSync(trees)) for (const name of readdirSync(trees)) await gitWrite(top, ["worktree", "remove", "--force", join(trees, name)]);
  rmSync(trees, { recursive: true, force: true });
  await gitWrite(top, ["worktree", "prune"]);
  for (const n of store.graphs.nodes(id)) await gitWrite(top, ["branch", "-D", "-q", `${graph.branch}-${n.node_id}`]);
  // The folder of every graph's worktrees goes with its last graph.
  const parent = dirname(trees);
  if (existsSync(parent) && readdirSync(parent).length === 0) rmSync(parent, { recursive: true, force: true });
}

/** `weir graph clean [ID]`: a finished graph's worktrees and node branches, or every finished graph's. */
async function cleanGraphs(store: SessionStore, workspace: string, prefix: string | undefined): Promise<string> {
  const finished = (g: GraphRow) => g.status === "complete" || g.status === "failed";
  const graphs = prefix ? [store.graphs.find(prefix)] : store.graphs.list(workspace).filter(finished);
  const unfinished = graphs.find((g) => !finished(g));
  if (unfinished) {
    const { id, status } = unfinished;
    throw usageError(`graph ${id} is ${status.replace("_", "-")}, not finished: resume it first (weir graph resume ${id})`);
  }
  if (graphs.length === 0) return "no finished graphs in this workspace";
  const { top } = await repositoryOf(workspace);
  for (const g of graphs) await removeWorktrees(store, g.id, top);
  return `removed the worktrees and node branches of ${counted(graphs.length, "graph")} (${graphs.map((g) => g.id).join(", ")}); result branches are kept`;
}

const usageArg = (): never => {
  throw usageError("weir graph resume needs a graph id; weir graph list shows them");
};

async function worktree(top: string, dir: string, branch: string): Promise<string> {
  if (await addWorktree(top, dir, [dir, branch])) return dir;
  throw new UserError(`could not add the worktree of ${branch} at ${dir}`);
}

/**
 * A worktree at `dir`, made when it is not there. A directory without its .git is an add that was
 * stopped part way, and a registered worktree whose directory is gone is git's stale record: both
 * are cleared (`git worktree prune`) and the add tried again. Whether it is there.
 */
async function addWorktree(top: string, dir: string, args: string[]): Promise<boolean> {
  if (existsSync(join(dir, ".git"))) return true;
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  if ((await gitWrite(top, ["worktree", "add", "-q", ...args])) !== undefined) return true;
  await gitWrite(top, ["worktree", "prune"]);
  return (await gitWrite(top, ["worktree", "add", "-q", ...args])) !== undefined;
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
  for await (const ev of provider.stream({
    system,
    messages: [userText(`Objective: ${objective}\n\nThe repository's files:\n${listing}`)],
    tools: [],
    maxTokens: 4096,
    signal,
  }))
    acc.push(ev);
  try {
    return parsePlan(textOf(acc.message()));
  } catch (e) {
    throw new UserError(`the plan was refused, nothing ran: ${(e as Error).message}`);
  }
}

/** `/graph` in the REPL: `/graph OBJECTIVE`, `/graph resume ID [TOKENS]`, `/graph status [ID]`, `/graph list`. */
export async function replGraph(
  store: SessionStore,
  workspace: string,
  resolved: Resolved,
  args: ParsedArgs,
  words: string[],
  display: Display,
  signal: AbortSignal,
  running: (id: string | undefined) => void,
): Promise<string> {
  const verb = words[0]?.toLowerCase();
  if (verb === undefined || verb === "list") {
    const rows = store.graphs.list(workspace);
    return rows.length ? rows.map(graphLine).join("\n") : "no graphs in this workspace; /graph OBJECTIVE starts one";
  }
  if (verb === "status") {
    const g = words[1] ? store.graphs.find(words[1]) : store.graphs.list(workspace)[0];
    return g ? graphStatus(g, store.graphs.nodes(g.id), store.graphs.events(g.id)) : "no graphs in this workspace";
  }
  if (verb === "clean") return await cleanGraphs(store, workspace, words[1]);
  let spec: GraphSpec;
  if (verb === "resume") {
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

/**
 * A graph's status as a person reads it: an active graph no process runs (its runner was killed,
 * or the machine went down) is "stopped".
 */
function shownStatus(g: GraphRow): string {
  if (g.status === "active" && !ProcessLock.isHeld(graphLock(g.id))) return "stopped";
  return g.status.replace("_", "-");
}

const graphLine = (g: GraphRow) => `${g.id}  ${shownStatus(g).padEnd(14)} ${g.objective.split("\n")[0]!.slice(0, 60)}`;

/**
 * A graph as a picture: the head (status, spend against the budget, branch), a stopped graph's when
 * and how to go on, then each node in plan order with what it runs after, its state, its spend and
 * its last reason.
 */
export function graphStatus(g: GraphRow, nodes: readonly NodeRow[], events: readonly GraphEvent[]): string {
  const status = shownStatus(g);
  return renderStatus(g, status, nodes, events);
}

/** The picture `graphStatus` draws, given the status to show. Pure. */
export function renderStatus(g: GraphRow, status: string, nodes: readonly NodeRow[], events: readonly GraphEvent[]): string {
  const spent = nodes.reduce((s, n) => s + n.spent, 0);
  const current = nodes.filter((n) => n.state === "running").map((n) => n.node_id);
  const budget = g.budget !== null ? `/${g.budget}` : "";
  const head = `graph ${g.id}  ${status}  ${spent}${budget} tokens  branch ${g.branch}${current.length ? `  running: ${current.join(", ")}` : ""}`;
  const lines = [head];
  if (status === "stopped") {
    const at = new Date(events.at(-1)?.at ?? g.updated_at).toLocaleString();
    lines.push(`  stopped: weir was no longer running it after ${at} (killed, or the machine went down); resume: weir graph resume ${g.id}`);
  }
  lines.push(g.objective);
  const after = new Map((JSON.parse(g.plan) as GraphPlan).nodes.map((n) => [n.id, n.depends_on]));
  const width = Math.max(4, ...nodes.map((n) => n.node_id.length));
  const deps = nodes.map((n) => (after.get(n.node_id)?.length ? `after ${after.get(n.node_id)!.join(", ")}` : ""));
  const depWidth = Math.max(0, ...deps.map((d) => d.length));
  const spentWidth = Math.max(8, ...nodes.map((n) => `${n.spent}${n.reserved !== null ? ` of ${n.reserved}` : ""}`.length));
  nodes.forEach((n, i) => {
    const state = n.state.replace("_", "-").padEnd(14);
    const tokens = `${n.spent}${n.reserved !== null ? ` of ${n.reserved}` : ""}`.padStart(spentWidth);
    const merge = n.merge_commit ? `merge ${n.merge_commit.slice(0, 10)}  ` : "";
    lines.push(`  ${n.node_id.padEnd(width)}  ${deps[i]!.padEnd(depWidth)}  ${state} ${tokens} tokens  ${merge}${n.reason.split("\n")[0]}`);
  });
  return lines.join("\n");
}
