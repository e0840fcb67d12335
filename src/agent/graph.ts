import { BudgetSpent } from "../core/errors.ts";
import { faultPoint } from "../core/fault-point.ts";
import type { GoalStatus } from "../store/goals.ts";
import type { GraphEvent, GraphRow, GraphStatus, NodeRow, NodeState, TransitionFields } from "../store/graphs.ts";
import type { GraphPlan, PlanNode } from "./graph-plan.ts";

/** How a node's goal ended its run. */
export interface NodeEnd {
  status: GoalStatus;
  goal: string;
  reason: string;
}

/** What running a graph needs; the CLI wires each to the real part (store, git, goals). */
export interface GraphRunner {
  graph(): GraphRow;
  nodes(): NodeRow[];
  /** The one writer of a state change (store/graphs.ts `transition`); the event is emitted. */
  transition(node: string | undefined, state: GraphStatus | NodeState, reason: string, fields?: TransitionFields): GraphEvent;
  /** Whether the goal a node ran as completed (a process may have stopped before its merge). */
  goalComplete(goal: string): boolean;
  /** The merged tree's worktree, made when missing. */
  mergedTree(): Promise<string>;
  /** A node's worktree, made from the merged tree's tip when missing. */
  nodeTree(node: string): Promise<string>;
  /**
   * Runs (or resumes) a node as one goal in its worktree, with at most `budget` more tokens;
   * `spent` is called after each turn, once the node's spend is written.
   */
  runNode(node: PlanNode, row: NodeRow, worktree: string, budget: number | undefined, signal: AbortSignal, spent: () => void): Promise<NodeEnd>;
  /**
   * Commits a finished node's worktree and merges it into the merged tree; a conflict is undone and
   * named. Idempotent: a node whose work is already on the graph's branch is merged, not again.
   */
  merge(node: PlanNode, worktree: string): Promise<{ merged: true; commit?: string } | { merged: false; why: string }>;
  removeTree(worktree: string): Promise<void>;
  /** The graph's check on the merged tree (its own, or the project's tests); undefined when it has none. */
  finalCheck(dir: string, signal: AbortSignal): Promise<{ passed: boolean; summary: string } | undefined>;
}

/** A node's share of the graph's budget: what no node holds, split among the nodes starting now. Pure. */
export function nodeShare(free: number, starting: number): number {
  return starting > 0 ? Math.floor(free / starting) : 0;
}

/** Nodes whose dependencies are all merged and that have not started. Pure. */
export function readyNodes(plan: GraphPlan, rows: readonly NodeRow[]): PlanNode[] {
  const state = new Map(rows.map((r) => [r.node_id, r.state]));
  return plan.nodes.filter((n) => (state.get(n.id) === "waiting" || state.get(n.id) === "ready") && n.depends_on.every((d) => state.get(d) === "merged"));
}

/** Nodes that can never run: a dependency failed or is blocked. Pure. */
export function blockedNodes(plan: GraphPlan, rows: readonly NodeRow[]): { node: string; by: string }[] {
  const state = new Map(rows.map((r) => [r.node_id, r.state]));
  const out: { node: string; by: string }[] = [];
  for (const n of plan.nodes) {
    if (state.get(n.id) !== "waiting" && state.get(n.id) !== "ready") continue;
    const by = n.depends_on.find((d) => state.get(d) === "failed" || state.get(d) === "blocked");
    if (by) out.push({ node: n.id, by });
  }
  return out;
}

/**
 * Runs a graph from the state its store holds. Each node goes waiting → running → merging → merged
 * (or failed, blocked, budget_limited), each step written before the next begins, so a process killed
 * at any step resumes from it: a node whose goal completed is merged (the merge is idempotent), a node
 * left running runs on. Up to `concurrency` ready nodes run at once, each as a goal in its own
 * worktree, with a share of the budget reserved before it starts and settled when it stops; once the
 * graph's spend reaches its budget every running node is stopped, so the graph spends at most its
 * budget and the turn that crossed it. Finished nodes merge one at a time, a node starts only once
 * every dependency is merged, and a failed node blocks its dependents while other chains go on. When
 * every node is merged, the check runs on the merged tree. Returns the graph's status.
 */
export async function runGraph(r: GraphRunner, signal: AbortSignal): Promise<GraphStatus> {
  const graph = r.graph();
  const plan = JSON.parse(graph.plan) as GraphPlan;
  const planned = new Map(plan.nodes.map((n) => [n.id, n]));
  if (graph.status !== "active") r.transition(undefined, "active", "resumed");
  const merged = await r.mergedTree();
  for (const row of r.nodes()) {
    const goalDone = row.state === "running" && row.goal_id !== null && r.goalComplete(row.goal_id);
    if (row.state === "merging" || goalDone) {
      const tree = row.worktree ?? (await r.nodeTree(row.node_id));
      await mergeNode(r, planned.get(row.node_id)!, tree, "its goal had completed when weir stopped");
    } else if (row.state === "running" || row.state === "budget_limited")
      r.transition(row.node_id, "ready", row.state === "running" ? "was running when weir stopped" : "resumed");
  }
  const running = new Map<string, { done: Promise<{ node: PlanNode; tree: string; end: NodeEnd }>; stop: AbortController; cap: number | undefined }>();
  let tripped = false;
  const budget = () => r.graph().budget;
  const spent = (rows = r.nodes()) => rows.reduce((s, n) => s + n.spent, 0);
  /** The budget neither spent nor held by a running node's share; undefined without a budget. */
  const free = (): number | undefined => {
    const b = budget();
    if (b === null) return undefined;
    const rows = r.nodes();
    const spentBy = new Map(rows.map((n) => [n.node_id, n.spent]));
    let held = 0;
    for (const [id, x] of running) held += Math.max(0, (x.cap ?? 0) - (spentBy.get(id) ?? 0));
    return b - spent(rows) - held;
  };
  const onSpend = () => {
    const b = budget();
    if (tripped || b === null || spent() < b) return;
    tripped = true;
    const why = new BudgetSpent(`the graph's token budget ran out (${spent()} of ${b} spent)`);
    for (const x of running.values()) x.stop.abort(why);
  };
  for (;;) {
    for (const b of blockedNodes(plan, r.nodes())) r.transition(b.node, "blocked", `its dependency ${b.by} did not merge`);
    const ready = signal.aborted || tripped ? [] : readyNodes(plan, r.nodes()).filter((n) => !running.has(n.id));
    let starting = Math.min(graph.concurrency - running.size, ready.length);
    for (const n of ready) {
      if (starting <= 0) break;
      const left = free();
      const share = left === undefined ? undefined : nodeShare(left, starting);
      if (share !== undefined && share <= 0) {
        // Nothing to give it: wait for a running node to settle, or stop when none runs.
        if (running.size === 0) tripped = true;
        break;
      }
      starting--;
      const tree = await r.nodeTree(n.id);
      const row = r.nodes().find((x) => x.node_id === n.id)!;
      const started = share === undefined ? "started" : `started with ${share} tokens of the graph's budget`;
      r.transition(n.id, "running", started, { worktree: tree, reserved: share ?? null });
      const stop = new AbortController();
      const forward = () => stop.abort(signal.reason);
      signal.addEventListener("abort", forward, { once: true });
      const done = r
        .runNode(n, row, tree, share, stop.signal, onSpend)
        .then((end) => ({ node: n, tree, end }))
        .finally(() => signal.removeEventListener("abort", forward));
      running.set(n.id, { done, stop, cap: share === undefined ? undefined : row.spent + share });
    }
    if (running.size === 0) break;
    const { node, tree, end } = await Promise.race([...running.values()].map((x) => x.done));
    running.delete(node.id);
    if (end.status === "complete") {
      faultPoint(`graph-goal-done:${node.id}`);
      await mergeNode(r, node, tree, end.reason, end.goal);
    } else if (end.status === "budget_limited") {
      // Its share ran out: it goes on with a new share while the graph has budget no node holds.
      const more = !tripped && (free() ?? 0) > 0;
      const why = more ? "its share of the budget ran out; it goes on with more of the graph's" : end.reason;
      r.transition(node.id, more ? "ready" : "budget_limited", why, { goal: end.goal });
    } else if (end.status === "paused" || signal.aborted) r.transition(node.id, "ready", "stopped by the person", { goal: end.goal });
    else r.transition(node.id, "failed", `${end.reason}; its worktree is kept at ${tree}`, { goal: end.goal });
  }
  if (signal.aborted) return r.transition(undefined, "paused", "the person stopped it; resume with weir graph resume " + graph.id).state as GraphStatus;
  const rows = r.nodes();
  if (tripped || rows.some((n) => n.state === "budget_limited")) {
    const b = r.graph().budget;
    const reason = `spent ${spent(rows)} of ${b} tokens; resume with more: weir graph resume ${graph.id} --budget N`;
    return r.transition(undefined, "budget_limited", reason).state as GraphStatus;
  }
  const bad = rows.filter((n) => n.state === "failed" || n.state === "blocked");
  if (bad.length) return r.transition(undefined, "failed", bad.map((n) => `${n.node_id} ${n.state}`).join(", ")).state as GraphStatus;
  const check = await r.finalCheck(merged, signal);
  const resume = `weir graph resume ${graph.id}`;
  if (signal.aborted) return r.transition(undefined, "paused", `the person stopped it during the check; resume with ${resume}`).state as GraphStatus;
  if (check && !check.passed) {
    const reason = `the check failed on the merged tree; the branch ${graph.branch} is kept; its output:\n${check.summary}`;
    return r.transition(undefined, "failed", reason).state as GraphStatus;
  }
  faultPoint("graph-checked");
  await r.removeTree(merged);
  const result = `the result is on branch ${graph.branch} (git merge ${graph.branch})`;
  return r.transition(undefined, "complete", `every node merged${check ? " and the check passed" : ""}; ${result}`).state as GraphStatus;
}

/** Merges a node whose goal completed: merging is written first, so a stop here resumes the merge. */
async function mergeNode(r: GraphRunner, node: PlanNode, tree: string, reason: string, goal?: string): Promise<void> {
  r.transition(node.id, "merging", reason, goal === undefined ? {} : { goal });
  faultPoint(`graph-merging:${node.id}`);
  const m = await r.merge(node, tree);
  if (!m.merged) {
    r.transition(node.id, "failed", `its merge failed: ${m.why}; its worktree is kept at ${tree}`);
    return;
  }
  r.transition(node.id, "merged", reason, { worktree: null, commit: m.commit ?? null });
  faultPoint(`graph-merged:${node.id}`);
  await r.removeTree(tree);
}
