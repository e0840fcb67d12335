import { UserError } from "../core/errors.ts";
import { eachLimited } from "../core/pool.ts";
import { baseline } from "../decision/baseline.ts";
import type { JudgmentProvider } from "../decision/judges.ts";
import { type Answers, checkShape, type QuestionSet } from "../decision/questions.ts";
import type { EvalStore } from "../store/eval.ts";
import { type CaseResult } from "./analysis.ts";
import { foldOf, predictLearned, trainLearned } from "./learned.ts";
import type { EvalCase } from "./suite.ts";

export type CandidateSource =
  | { kind: "baseline" }
  | { kind: "learned"; folds: number }
  | { kind: "replay"; key: string }
  | { kind: "live"; provider: JudgmentProvider; key: string };

interface Progress {
  done: number;
  total: number;
  failures: number;
}

/** Cases that vary one scenario share a group, so no fold trains on a near-copy of what it tests. */
export const groupOf = (id: string) => id.replace(/-\d+$/, "");

/** Selects this shard's cases: `i/n` takes every n-th case starting at i (1-based). */
export function shardCases<T>(cases: T[], shard: string | undefined): T[] {
  if (!shard) return cases;
  const m = shard.match(/^(\d+)\/(\d+)$/);
  const i = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || i < 1 || i > n) throw new Error(`--shard ${shard}: use i/n with 1 <= i <= n`);
  return cases.filter((_, k) => k % n === i - 1);
}

/**
 * Replays cases through the baseline and a candidate source, committing each result as it lands.
 * `learned` predicts each case from a model trained on the other folds (grouped by scenario), so
 * every figure it gets is held out. Live providers run with bounded concurrency, a rate limit and
 * retries; a failure is recorded and the case keeps its baseline answer.
 */
export async function replay(o: {
  set: QuestionSet;
  questionSet: string;
  cases: EvalCase[];
  store: EvalStore;
  runId: string;
  source: CandidateSource;
  concurrency: number;
  minIntervalMs?: number;
  retries?: number;
  onProgress?: (p: Progress) => void;
  onRecord?: (c: EvalCase, answers: Record<string, unknown>, model?: string) => void;
  signal?: AbortSignal;
}): Promise<Progress> {
  const done = o.store.done(o.runId);
  const todo = o.cases.filter((c) => !done.has(c.id));
  const progress: Progress = { done: done.size, total: o.cases.length, failures: 0 };
  const models = new Map<number, ReturnType<typeof trainLearned>>();
  if (o.source.kind === "learned") {
    const k = o.source.folds;
    for (let f = 0; f < k; f++) models.set(f, trainLearned(o.set, o.questionSet, o.cases.filter((c) => foldOf(groupOf(c.id), k) !== f), "cv"));
  }
  let lastStart = 0;
  await eachLimited(
    todo,
    o.concurrency,
    async (c) => {
      const base = baseline(c.state, o.set);
      let candidate: Answers | undefined;
      let error: string | undefined;
      const t0 = performance.now();
      const src = o.source;
      if (src.kind === "learned") candidate = predictLearned(models.get(foldOf(groupOf(c.id), src.folds))!, o.set, c.state);
      else if (src.kind === "replay") {
        const rec = c.judgments?.[src.key];
        if (rec) candidate = checkShape(o.set, rec).valid;
        else error = `no recorded judgment "${src.key}" in this case`;
      } else if (src.kind === "live") {
        for (let attempt = 0; attempt <= (o.retries ?? 2); attempt++) {
          const wait = lastStart + (o.minIntervalMs ?? 0) - Date.now();
          if (wait > 0) await Bun.sleep(wait);
          lastStart = Date.now();
          try {
            const j = await src.provider.judge(o.set, c.state, o.signal ?? new AbortController().signal);
            candidate = checkShape(o.set, j.answers).valid;
            o.onRecord?.(c, j.answers, j.resolvedModel);
            error = undefined;
            break;
          } catch (e) {
            error = ((e as Error).message ?? String(e)).slice(0, 300);
            await Bun.sleep(200 * 2 ** attempt);
          }
        }
      }
      if (error) progress.failures++;
      o.store.addResult({
        run_id: o.runId,
        case_id: c.id,
        baseline: JSON.stringify(base),
        candidate: candidate ? JSON.stringify(candidate) : null,
        latency_ms: Math.round(performance.now() - t0),
        error: error ?? null,
      });
      progress.done++;
      o.onProgress?.({ ...progress });
    },
    () => o.signal?.aborted === true,
  );
  return progress;
}

/** Whether an eval `--provider` names the configured judgment provider (live calls). */
export const isJudgmentSource = (name: string): boolean => ["judgment", "llm", "logprobs", "http"].includes(name);

/**
 * The recorded judgments a `--provider replay[:KEY]` source reads: KEY, else the suite's only key. A
 * user error names the keys to pick from, or `howToRecord` when there are none.
 */
export function replayKey(providerName: string, keys: readonly string[], howToRecord: string): string {
  const key = providerName.startsWith("replay:") ? providerName.slice(7) : keys.length === 1 ? keys[0] : undefined;
  if (!key)
    throw new UserError(
      keys.length
        ? `the suite holds judgments from ${keys.join(", ")}; pick one with --provider replay:<key>`
        : `the suite holds no recorded judgments; record some with ${howToRecord}`,
      2,
    );
  return key;
}

/** Joins stored results with their cases for analysis. */
export function joinResults(cases: EvalCase[], rows: { case_id: string; baseline: string; candidate: string | null }[]): CaseResult[] {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return rows.flatMap((r) => {
    const c = byId.get(r.case_id);
    if (!c) return [];
    return [
      {
        id: c.id,
        state: c.state,
        labels: c.labels,
        baseline: JSON.parse(r.baseline) as Answers,
        ...(r.candidate ? { candidate: JSON.parse(r.candidate) as Answers } : {}),
      },
    ];
  });
}
