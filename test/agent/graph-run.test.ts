import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { BudgetSpent } from "../../src/core/errors.ts";
import { type GraphRunner, nodeShare, runGraph } from "../../src/agent/graph.ts";
import type { GraphPlan } from "../../src/agent/graph-plan.ts";
import type { GraphEvent, GraphRow, GraphStatus, NodeRow, NodeState } from "../../src/store/graphs.ts";

/**
 * The graph's orchestration against an in-memory runner: each node is a goal of a few turns with a
 * cost each, stopped as a goal is (its own share spent, or its signal), turns interleaved by timers.
 */
function world(plan: GraphPlan, o: { budget: number | null; concurrency: number; turns: Record<string, number[]> }) {
  const graph: GraphRow = { id: "g", workspace: "/w", objective: "o", base: "b", branch: "weir/graph-g", check_command: null, budget: o.budget, concurrency: o.concurrency, plan: JSON.stringify(plan), status: "active", created_at: 0, updated_at: 0 };
  const rows: NodeRow[] = plan.nodes.map((n) => ({ graph_id: "g", node_id: n.id, state: "waiting", goal_id: null, worktree: null, spent: 0, reason: "planned", reserved: null, merge_commit: null }));
  const done = new Map<string, number>();
  const merges: string[] = [];
  let maxRunning = 0;
  let runningNow = 0;
  const runner: GraphRunner = {
    graph: () => ({ ...graph }),
    nodes: () => rows.map((r) => ({ ...r })),
    transition(node, state, reason, fields = {}): GraphEvent {
      if (node === undefined) {
        graph.status = state as GraphStatus;
        if (fields.budget !== undefined) graph.budget = fields.budget;
      } else Object.assign(rows.find((r) => r.node_id === node)!, { state: state as NodeState, reason, ...(fields.goal ? { goal_id: fields.goal } : {}) });
      return { graph_id: "g", node_id: node ?? null, at: 0, state, reason };
    },
    goalComplete: (goal) => done.get(goal) === o.turns[goal]!.length,
    mergedTree: async () => "/m",
    nodeTree: async (n) => `/t/${n}`,
    async runNode(node, row, _tree, budget, signal, spent) {
      runningNow++;
      maxRunning = Math.max(maxRunning, runningNow);
      const self = rows.find((r) => r.node_id === node.id)!;
      const cap = budget === undefined ? Infinity : self.spent + budget;
      try {
        let turn = done.get(node.id) ?? 0;
        const costs = o.turns[node.id]!;
        while (turn < costs.length) {
          if (signal.aborted) return { status: signal.reason instanceof BudgetSpent ? "budget_limited" : "paused", goal: node.id, reason: "stopped" };
          await Bun.sleep(Math.random() * 3);
          if (signal.aborted) return { status: signal.reason instanceof BudgetSpent ? "budget_limited" : "paused", goal: node.id, reason: "stopped" };
          self.spent += costs[turn]!;
          done.set(node.id, ++turn);
          spent();
          if (self.spent >= cap && turn < costs.length) return { status: "budget_limited", goal: node.id, reason: "share spent" };
        }
        return { status: "complete", goal: node.id, reason: "done" };
      } finally {
        runningNow--;
        void row;
      }
    },
    merge: async (node) => {
      merges.push(node.id);
      return { merged: true };
    },
    removeTree: async () => {},
    finalCheck: async () => undefined,
  };
  return { runner, rows, merges, graph, maxRunning: () => maxRunning };
}

const planArb = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => `n${j}`), { maxLength: Math.min(2, i) })),
  ).map((deps) => ({ nodes: deps.map((d, i) => ({ id: `n${i}`, objective: `o${i}`, scope: [`f${i}`], depends_on: d })) }) as GraphPlan),
);

describe("running a graph", () => {
  test("a node's share is what is free split among the nodes starting; none when nothing is free", () => {
    expect(nodeShare(3000, 3)).toBe(1000);
    expect(nodeShare(1000, 3)).toBe(333);
    expect(nodeShare(0, 2)).toBe(0);
    expect(nodeShare(-5, 1)).toBeLessThan(1);
  });

  test("the graph spends at most its budget and one turn; without a budget every node merges once, in dependency order", async () => {
    await fc.assert(
      fc.asyncProperty(
        planArb,
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.integer({ min: 100, max: 5000 }), { nil: null }),
        fc.array(fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 5 }), { minLength: 6, maxLength: 6 }),
        async (plan, concurrency, budget, costs) => {
          const turns = Object.fromEntries(plan.nodes.map((n, i) => [n.id, costs[i]!]));
          const w = world(plan, { budget, concurrency, turns });
          const status = await runGraph(w.runner, new AbortController().signal);
          const spent = w.rows.reduce((s, r) => s + r.spent, 0);
          const turn = Math.max(...costs.flat());
          expect(w.maxRunning()).toBeLessThanOrEqual(concurrency);
          expect(new Set(w.merges).size).toBe(w.merges.length);
          for (const id of w.merges) for (const d of plan.nodes.find((n) => n.id === id)!.depends_on) expect(w.merges.indexOf(d)).toBeLessThan(w.merges.indexOf(id));
          if (budget === null) {
            expect(status).toBe("complete");
            expect(w.merges.length).toBe(plan.nodes.length);
          } else {
            expect(spent).toBeLessThanOrEqual(budget + turn);
            expect(status === "complete" || status === "budget_limited").toBe(true);
            if (status === "budget_limited") {
              // A top-up as weir graph resume gives it: the graph goes on to completion.
              w.runner.transition(undefined, "active", "resumed", { budget: spent + 100_000 });
              expect(await runGraph(w.runner, new AbortController().signal)).toBe("complete");
              expect(w.merges.length).toBe(plan.nodes.length);
              expect(new Set(w.merges).size).toBe(w.merges.length);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
