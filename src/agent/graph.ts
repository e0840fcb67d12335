import type { GoalStatus } from "../store/goals.ts";
import type { GraphEvent, GraphRow, GraphStatus, NodeRow, NodeState } from "../store/graphs.ts";
import type { GraphPlan, PlanNode } from "./graph-plan.ts";

/** What running a graph needs; the CLI wires each to the real part (store, git, goals). */
export interface GraphRunner {
  graph(): GraphRow;
  nodes(): NodeRow[];
  /** The one writer of a state change (store/graphs.ts `transition`); the event is emitted. */
  transition(node: string | undefined, state: GraphStatus | NodeState, reason: string, fields?: { goal?: string; worktree?: string | null; budget?: number | null }): GraphEvent;
  /** The merged tree's worktree, made when missing. */
  mergedTree(): Promise<string>;
  /** A node's worktree, made from the merged tree's tip when missing. */
  nodeTree(node: string): Promise<string>;
  /** Runs (or resumes) a node as one goal in its worktree, with at most `budget` more tokens. */
  runNode(node: PlanNode, row: NodeRow, worktree: string, budget: number | undefined, signal: AbortSignal): Promise<{ status: GoalStatus; goal: string; reason: string }>;
  /** Commits a finished node's worktree and merges it into the merged tree; a conflict is undone and named. */
  merge(node: PlanNode, worktree: string): Promise<{ merged: true } | { merged: false; why: string }>;
  removeTree(worktree: string): Promise<void>;
  /** The graph's own check on the merged tree; undefined when it has none. */
  finalCheck(dir: string, signal: AbortSignal): Promise<{ passed: boolean; summary: string } | undefined>;
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
 * Runs a graph from the state its store holds: nodes left running by a stopped process are ready
 * again; up to `concurrency` ready nodes run at once, each as a goal in its own worktree; a finished
 * node is merged into the merged tree one at a time, and a node starts only once every dependency
 * is merged; a failed node (its goal, or its merge) blocks its dependents while other chains go on.
 * When every node is merged, the graph's check runs on the merged tree. Returns the graph's status.
 */
export async function runGraph(r: GraphRunner, signal: AbortSignal): Promise<GraphStatus> {
  const graph = r.graph();
  const plan = JSON.parse(graph.plan) as GraphPlan;
  for (const row of r.nodes()) if (row.state === "running" || row.state === "budget_limited") r.transition(row.node_id, "ready", row.state === "running" ? "was running when weir stopped" : "resumed");
  if (graph.status !== "active") r.transition(undefined, "active", "resumed");
  const merged = await r.mergedTree();
  const running = new Map<string, Promise<{ node: PlanNode; tree: string; end: Awaited<ReturnType<GraphRunner["runNode"]>> }>>();
  let tripped = false;
  const spent = () => r.nodes().reduce((s, n) => s + n.spent, 0);
  for (;;) {
    for (const b of blockedNodes(plan, r.nodes())) r.transition(b.node, "blocked", `its dependency ${b.by} did not merge`);
    if (!signal.aborted && !tripped)
      for (const n of readyNodes(plan, r.nodes())) {
        if (running.size >= graph.concurrency) break;
        if (running.has(n.id)) continue;
        const budget = r.graph().budget;
        const left = budget === null ? undefined : budget - spent();
        if (left !== undefined && left <= 0) {
          tripped = true;
          break;
        }
        const tree = await r.nodeTree(n.id);
        const row = r.nodes().find((x) => x.node_id === n.id)!;
        r.transition(n.id, "running", "started", { worktree: tree });
        running.set(
          n.id,
          r.runNode(n, row, tree, left, signal).then((end) => ({ node: n, tree, end })),
        );
      }
    if (running.size === 0) break;
    const { node, tree, end } = await Promise.race(running.values());
    running.delete(node.id);
    if (end.status === "complete") {
      const m = await r.merge(node, tree);
      if (m.merged) {
        r.transition(node.id, "merged", end.reason, { goal: end.goal, worktree: null });
        await r.removeTree(tree);
      } else r.transition(node.id, "failed", `its merge failed: ${m.why}; its worktree is kept at ${tree}`, { goal: end.goal });
    } else if (end.status === "budget_limited") {
      tripped = true;
      r.transition(node.id, "budget_limited", end.reason, { goal: end.goal });
    } else if (end.status === "paused" || signal.aborted) r.transition(node.id, "ready", "stopped by the person", { goal: end.goal });
    else r.transition(node.id, "failed", `${end.reason}; its worktree is kept at ${tree}`, { goal: end.goal });
  }
  if (signal.aborted) return r.transition(undefined, "paused", "the person stopped it; resume with weir graph resume " + graph.id).state as GraphStatus;
  if (tripped) {
    const b = r.graph().budget;
    return r.transition(undefined, "budget_limited", `spent ${spent()} of ${b} tokens; resume with more: weir graph resume ${graph.id} --budget N`).state as GraphStatus;
  }
  const rows = r.nodes();
  const bad = rows.filter((n) => n.state === "failed" || n.state === "blocked");
  if (bad.length) return r.transition(undefined, "failed", bad.map((n) => `${n.node_id} ${n.state}`).join(", ")).state as GraphStatus;
  const check = await r.finalCheck(merged, signal);
  if (check && !check.passed) return r.transition(undefined, "failed", `the graph's check failed on the merged tree (branch ${graph.branch})`).state as GraphStatus;
  await r.removeTree(merged);
  return r.transition(undefined, "complete", `every node merged${check ? " and the check passed" : ""}; the result is on branch ${graph.branch} (git merge ${graph.branch})`).state as GraphStatus;
}
