import type { Answers, QuestionSet } from "../decision/questions.ts";
import type { DecisionRequest } from "../decision/request.ts";

/**
 * The `learned` judgment provider: per question a small logistic model over the request's boolean
 * and numeric features, trained on a suite's training folds. It gives real probabilities offline
 * at no cost: a statistical second opinion, not a semantic one.
 */
export const FEATURES = [
  "targets",
  "any_unread",
  "any_partial",
  "any_stale",
  "any_dirty",
  "all_named",
  "exported_callers_unknown",
  "exported_symbols",
  "tests_mapped",
  "tests_read",
  "failures",
  "failure_target_unread",
  "changed_since_pass",
  "last_run_failed",
  "last_run_current",
  "rounds",
  "budget_used",
  "scope_none",
  "scope_local",
  "scope_module",
  "scope_cross",
  "security",
  "public_api",
  "behaviour_change",
  "persistence",
  "ambiguous",
  "conflicts",
  "untrusted_notes",
] as const;

export function features(r: DecisionRequest): number[] {
  const failed = new Set(r.failures.map((f) => f.path));
  const last = r.verification.last_run;
  const f: Record<(typeof FEATURES)[number], number> = {
    targets: Math.min(r.targets.length, 5) / 5,
    any_unread: +r.targets.some((t) => !t.read),
    any_partial: +r.targets.some((t) => t.read && !t.body_complete),
    any_stale: +r.targets.some((t) => !t.sha_fresh),
    any_dirty: +r.targets.some((t) => t.dirty_in_worktree),
    all_named: +(r.targets.length > 0 && r.targets.every((t) => t.named_by_user)),
    exported_callers_unknown: +r.symbols.some((s) => s.exported && !s.callers_known),
    exported_symbols: Math.min(r.symbols.filter((s) => s.exported).length, 4) / 4,
    tests_mapped: +(r.tests.mapped.length > 0),
    tests_read: +r.tests.read,
    failures: Math.min(r.failures.length, 3) / 3,
    failure_target_unread: +r.targets.some((t) => failed.has(t.path) && !t.read),
    changed_since_pass: +r.verification.files_changed_since_last_pass,
    last_run_failed: +(last !== null && !last.passed),
    last_run_current: +(last?.revision_current ?? false),
    rounds: Math.min(r.retrieval.rounds, 10) / 10,
    budget_used: r.retrieval.budget_used_ratio,
    scope_none: +(r.change.planned_scope === "none"),
    scope_local: +(r.change.planned_scope === "local"),
    scope_module: +(r.change.planned_scope === "module"),
    scope_cross: +(r.change.planned_scope === "cross_module"),
    security: +r.change.security_sensitive,
    public_api: +r.change.public_api,
    behaviour_change: +r.change.behaviour_change,
    persistence: +r.change.persistence,
    ambiguous: +r.task_flags.ambiguous,
    conflicts: +r.task_flags.conflicts_with_constraints,
    untrusted_notes: +(r.untrusted_notes.length > 0),
  };
  return FEATURES.map((k) => f[k]);
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** L2-regularised logistic regression by batch gradient descent; weights[0] is the bias. Pure. */
export function fitLogistic(x: number[][], y: number[], l2 = 0.01, epochs = 400, lr = 0.5): number[] {
  const d = x[0]?.length ?? 0;
  const w = new Array(d + 1).fill(0);
  if (x.length === 0) return w;
  for (let e = 0; e < epochs; e++) {
    const g = new Array(d + 1).fill(0);
    for (let i = 0; i < x.length; i++) {
      let z = w[0];
      for (let j = 0; j < d; j++) z += w[j + 1] * x[i]![j]!;
      const err = sigmoid(z) - y[i]!;
      g[0] += err;
      for (let j = 0; j < d; j++) g[j + 1] += err * x[i]![j]!;
    }
    for (let j = 0; j <= d; j++) w[j] -= lr * (g[j] / x.length + (j > 0 ? l2 * w[j] : 0));
  }
  return w;
}

const predictLogistic = (w: number[], x: number[]) => sigmoid(w.reduce((z, wj, j) => z + (j === 0 ? wj : wj * x[j - 1]!), 0));

interface LearnedModel {
  kind: "weir.learned";
  question_set: string;
  features: string[];
  trained_on: { cases: number; suite_hash: string };
  /** yes/no and score: one weight vector; choice: one per option (one-vs-rest, normalised). */
  weights: Record<string, number[] | Record<string, number[]>>;
}

export function trainLearned(
  set: QuestionSet,
  questionSet: string,
  cases: { state: DecisionRequest; labels: Record<string, unknown> }[],
  suiteHash: string,
): LearnedModel {
  const weights: LearnedModel["weights"] = {};
  for (const q of set.questions) {
    const rows = cases.filter((c) => c.labels[q.id] !== undefined);
    const x = rows.map((c) => features(c.state));
    if (q.type === "yes_no") weights[q.id] = fitLogistic(x, rows.map((c) => (c.labels[q.id] ? 1 : 0)));
    else if (q.type === "score") weights[q.id] = fitLogistic(x, rows.map((c) => Number(c.labels[q.id])));
    else weights[q.id] = Object.fromEntries(q.options.map((o) => [o.id, fitLogistic(x, rows.map((c) => (c.labels[q.id] === o.id ? 1 : 0)))]));
  }
  return { kind: "weir.learned", question_set: questionSet, features: [...FEATURES], trained_on: { cases: cases.length, suite_hash: suiteHash }, weights };
}

export function predictLearned(model: LearnedModel, set: QuestionSet, r: DecisionRequest): Answers {
  const x = features(r);
  const out: Answers = {};
  for (const q of set.questions) {
    const w = model.weights[q.id];
    if (!w) continue;
    if (q.type === "yes_no") out[q.id] = { type: "yes_no", p_yes: predictLogistic(w as number[], x) };
    else if (q.type === "score") out[q.id] = { type: "score", value: predictLogistic(w as number[], x) };
    else {
      const raw = Object.fromEntries(q.options.map((o) => [o.id, predictLogistic((w as Record<string, number[]>)[o.id]!, x)]));
      const total = Object.values(raw).reduce((a, b) => a + b, 0) || 1;
      out[q.id] = { type: "choice", distribution: Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v / total])) };
    }
  }
  return out;
}

/** Deterministic fold of a case id, so folds are stable across runs and machines. */
export function foldOf(id: string, k: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % k;
}
