/**
 * Eval replay at scale: 10,000 generated cases replayed through the baseline with recorded
 * judgments (the replay source), results committed to bun:sqlite one by one; then report generation
 * (analysis + HTML). Targets: replay under 2 s and under 200 MB; report under 1 s.
 *   bun run bench eval
 */
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { baseline } from "../src/decision/baseline.ts";
import { AGENT_CONTEXT_V1 } from "../src/decision/questions.ts";
import { analyse } from "../src/replay/analysis.ts";
import { joinResults, replay } from "../src/replay/replay.ts";
import { htmlReport } from "../src/replay/report.ts";
import type { EvalCase } from "../src/replay/suite.ts";
import { EvalStore } from "../src/store/eval.ts";
import { arbRequest } from "../test/support/requests.ts";

const N = 10_000;
const dir = mkdtempSync(join(tmpdir(), "weir-bench-eval-"));
try {
  const states = fc.sample(arbRequest, { numRuns: N, seed: 3 });
  const cases: EvalCase[] = states.map((state, i) => {
    const b = baseline(state);
    // Labels and a recorded judgment that disagree with the baseline now and then.
    const flip = (i * 2654435761) % 7 === 0;
    const labels = Object.fromEntries(Object.entries(b).map(([q, a]) => [q, a.type === "yes_no" ? (a.p_yes >= 0.5) !== flip : a.type === "choice" ? Object.keys(a.distribution)[0]! : a.value]));
    const judged = Object.fromEntries(Object.entries(b).map(([q, a]) => [q, a.type === "yes_no" ? { type: "yes_no", p_yes: Math.abs(a.p_yes - ((i % 10) / 25)) } : a]));
    return { id: `c${i}`, question_set: "weir.agent_context@1", state, labels, judgments: { "bench/model": judged } };
  });
  const rss0 = process.memoryUsage().rss;
  const store = EvalStore.open(join(dir, "eval.db"));
  const runId = store.createRun({ suite_hash: "bench", suites: "[]", provider: "replay", model: "bench/model", question_set: "weir.agent_context@1", shard: "all", total: N });
  let t0 = performance.now();
  await replay({ set: AGENT_CONTEXT_V1, questionSet: "weir.agent_context@1", cases, store, runId, source: { kind: "replay", key: "bench/model" }, concurrency: 1 });
  const replayMs = performance.now() - t0;
  t0 = performance.now();
  const report = analyse(AGENT_CONTEXT_V1, joinResults(cases, store.results(runId)));
  const html = htmlReport(report, { run: runId }, new Map());
  const reportMs = performance.now() - t0;
  const peak = Math.max(process.memoryUsage().rss, rss0) / (1024 * 1024);
  store.close();
  console.log(`eval: ${N} generated cases, baseline + recorded judgments, each result committed to sqlite`);
  console.log(`  replay ${(replayMs / 1000).toFixed(2)} s (target < 2 s); ${((replayMs * 1000) / N).toFixed(0)} µs per case`);
  console.log(`  report (analysis + ${(html.length / 1024).toFixed(0)} KB HTML) ${(reportMs / 1000).toFixed(2)} s (target < 1 s)`);
  console.log(`  process RSS after both ${peak.toFixed(0)} MB (target < 200 MB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
