import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { blockedNodes, readyNodes } from "../../src/agent/graph.ts";
import { type GraphPlan, parsePlan, validatePlan } from "../../src/agent/graph-plan.ts";
import type { NodeRow } from "../../src/store/graphs.ts";

const node = (id: string, depends_on: string[] = [], scope = [`${id}.txt`]) => ({ id, objective: `make ${id}`, scope, depends_on });
const rows = (states: Record<string, string>): NodeRow[] => Object.entries(states).map(([node_id, state]) => ({ graph_id: "g", node_id, state: state as NodeRow["state"], goal_id: null, worktree: null, spent: 0, reason: "", reserved: null, merge_commit: null }));

describe("a goal graph's plan", () => {
  test("a diamond is valid; parallel writers of one file are not, unless one depends on the other", () => {
    expect(validatePlan({ nodes: [node("a"), node("b", ["a"]), node("c", ["a"]), node("d", ["b", "c"])] })).toEqual([]);
    expect(validatePlan({ nodes: [node("a", [], ["src/**"]), node("b", [], ["src/x.ts"])] })[0]).toContain("may run at once");
    expect(validatePlan({ nodes: [node("a", [], ["src/**"]), node("b", ["a"], ["src/x.ts"])] })).toEqual([]);
    // A file both globs match, found in the workspace's listing.
    expect(validatePlan({ nodes: [node("a", [], ["src/*.ts"]), node("b", [], ["**/x.ts"])] }, ["src/x.ts"])[0]).toContain("both match src/x.ts");
  });

  test("property: a plan whose dependencies all point to earlier nodes is acyclic; adding a back edge makes a cycle the refusal names", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(), { maxLength: 3 }), { minLength: 2, maxLength: 8 }), (deps) => {
        const nodes = deps.map((d, i) => node(`n${i}`, i === 0 ? [] : [...new Set(d.map((x) => `n${x % i}`))]));
        // Chain every node after the first to its predecessor so no two may run at once.
        nodes.forEach((n, i) => i > 0 && !n.depends_on.includes(`n${i - 1}`) && n.depends_on.push(`n${i - 1}`));
        const plan: GraphPlan = { nodes };
        if (validatePlan(plan).length !== 0) return false;
        nodes[0]!.depends_on.push(`n${nodes.length - 1}`);
        const problems = validatePlan(plan);
        return problems.length === 1 && problems[0]!.startsWith("the plan has a cycle: n0 ->");
      }),
    );
  });

  test("a planner's answer: bare JSON or a fenced block; anything else is refused with the reason", () => {
    const plan = { nodes: [node("a")] };
    expect(parsePlan(JSON.stringify(plan)).nodes[0]!.id).toBe("a");
    expect(parsePlan(`Plan:\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\nGood luck`).nodes).toHaveLength(1);
    expect(() => parsePlan("I cannot plan that")).toThrow("holds no JSON plan");
    expect(() => parsePlan(JSON.stringify({ nodes: [{ id: "a", objective: "x", scope: [] }] }))).toThrow("nodes.0.scope");
  });

  test("ready: waiting nodes whose dependencies are merged; blocked: a dependency failed or is blocked", () => {
    const plan = { nodes: [node("a"), node("b", ["a"]), node("c", ["a"]), node("d", ["b", "c"])] };
    expect(readyNodes(plan, rows({ a: "merged", b: "waiting", c: "running", d: "waiting" })).map((n) => n.id)).toEqual(["b"]);
    expect(blockedNodes(plan, rows({ a: "merged", b: "merged", c: "failed", d: "waiting" }))).toEqual([{ node: "d", by: "c" }]);
  });
});
