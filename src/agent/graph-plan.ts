import { z } from "zod";
import { badGlob, writeOverlap } from "../workspace/scope.ts";

/**
 * A goal graph's plan, as the planner returns it: nodes with an id, an objective, the acceptance
 * check that completes it, the files it may write (globs) and the nodes it depends on. Validated
 * deterministically before anything runs (`validatePlan`). Pure.
 */
export const PlanNode = z
  .object({
    id: z.string(),
    objective: z.string().min(1),
    /** A shell command whose success accepts the node; absent: the project's tests. */
    check: z.string().min(1).optional(),
    /** Globs of the files the node may write, relative to the workspace root. */
    scope: z.array(z.string()).min(1),
    depends_on: z.array(z.string()).default([]),
  })
  .strict();
export type PlanNode = z.infer<typeof PlanNode>;

export const GraphPlan = z.object({ nodes: z.array(PlanNode).min(1).max(32) }).strict();
export type GraphPlan = z.infer<typeof GraphPlan>;

/** The JSON schema the planner is asked to answer in, as text for its prompt. */
export const PLAN_SHAPE =
  `{"nodes": [{"id": "lower-case-id", "objective": "what this step achieves", "check": "shell command ` +
  `that passes when it is done (optional)", "scope": ["globs of the files it may write"], ` +
  `"depends_on": ["ids of steps that must be merged first"]}]}`;

const ID = /^[a-z][a-z0-9-]{0,31}$/;

/** Every node's ancestors (the nodes it depends on, directly or not). Assumes an acyclic plan. */
function ancestors(plan: GraphPlan): Map<string, Set<string>> {
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  const memo = new Map<string, Set<string>>();
  const of = (id: string): Set<string> => {
    const known = memo.get(id);
    if (known) return known;
    const out = new Set<string>();
    memo.set(id, out);
    for (const d of byId.get(id)?.depends_on ?? []) {
      out.add(d);
      for (const a of of(d)) out.add(a);
    }
    return out;
  };
  for (const n of plan.nodes) of(n.id);
  return memo;
}

/** A cycle among the nodes, as ids in order (first repeated last), or undefined. */
function cycleOf(plan: GraphPlan): string[] | undefined {
  const deps = new Map(plan.nodes.map((n) => [n.id, n.depends_on]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "open") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "open");
    path.push(id);
    for (const d of deps.get(id) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    path.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const n of plan.nodes) {
    const c = visit(n.id);
    if (c) return c;
  }
  return undefined;
}

/**
 * Why a plan cannot run, each reason a sentence; empty when it can. Checks, in order: ids canonical
 * and unique, every dependency exists (and is not the node itself), no cycle, every scope inside
 * the workspace, and no two nodes that may run at once (neither depends on the other) able to write
 * the same file. `files` are the workspace's files, for overlaps globs alone do not show.
 */
export function validatePlan(plan: GraphPlan, files: readonly string[] = []): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const n of plan.nodes) {
    if (!ID.test(n.id)) problems.push(`node id "${n.id}" is not canonical (lower-case letters, digits and dashes, starting with a letter)`);
    if (ids.has(n.id)) problems.push(`node id ${n.id} is used twice`);
    ids.add(n.id);
  }
  for (const n of plan.nodes)
    for (const d of n.depends_on) {
      if (d === n.id) problems.push(`node ${n.id} depends on itself`);
      else if (!ids.has(d)) problems.push(`node ${n.id} depends on ${d}, which is not in the plan`);
    }
  if (problems.length) return problems;
  const cycle = cycleOf(plan);
  if (cycle) return [`the plan has a cycle: ${cycle.join(" -> ")}`];
  for (const n of plan.nodes)
    for (const g of n.scope) {
      const bad = badGlob(g);
      if (bad) problems.push(`node ${n.id}'s scope: ${bad}`);
    }
  if (problems.length) return problems;
  const up = ancestors(plan);
  plan.nodes.forEach((a, i) => {
    for (const b of plan.nodes.slice(i + 1)) {
      if (up.get(a.id)!.has(b.id) || up.get(b.id)!.has(a.id)) continue;
      const overlap = writeOverlap(a.scope, b.scope, files);
      if (overlap) problems.push(`nodes ${a.id} and ${b.id} may run at once and both write ${overlap}; make one depend on the other or split the files`);
    }
  });
  return problems;
}

/**
 * The plan's JSON in a planner's answer: the answer itself, or its first fenced or braced block.
 * Throws with the reason when there is none or it does not fit the schema.
 */
export function parsePlan(answer: string): GraphPlan {
  const fenced = answer.match(/```(?:json)?\s*([\s\S]*?)```/)?.[1];
  const braced = answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1);
  let json: unknown;
  try {
    json = JSON.parse(fenced ?? braced);
  } catch {
    throw new Error("the planner's answer holds no JSON plan");
  }
  const parsed = GraphPlan.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`the plan does not fit the schema: ${issue.path.join(".") || "(plan)"}: ${issue.message}`);
  }
  return parsed.data;
}
