/**
 * Eval replay at scale: 10,000 generated cases replayed through the baseline with recorded
 * judgments (the replay source), results committed to bun:sqlite one by one; then report generation
 * (analysis + HTML). The reference, in the same run: the baseline alone answering the same states
 * (no judgments, no store). Memory is the process's peak (the kernel's high-water mark), on Linux.
 * Targets: replay under 2 s and under 200 MB; report under 1 s.
 *   bun run bench eval
 */
import fc from "fast-check";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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
import { sized } from "./lib/measure.ts";

const N = sized(10_000, 200);

/** The process's peak resident set (VmHWM) in MB, where the kernel reports it; else undefined. */
function peakMB(): number | undefined {
  const status = existsSync("/proc/self/status") ? readFileSync("/proc/self/status", "utf8") : "";
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}
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
  let t0 = performance.now();
  for (const c of cases) baseline(c.state);
  const referenceMs = performance.now() - t0;
  const store = EvalStore.open(join(dir, "eval.db"));
  const runId = store.createRun({ suite_hash: "bench", suites: "[]", provider: "replay", model: "bench/model", question_set: "weir.agent_context@1", shard: "all", total: N });
  t0 = performance.now();
  await replay({ set: AGENT_CONTEXT_V1, questionSet: "weir.agent_context@1", cases, store, runId, source: { kind: "replay", key: "bench/model" }, concurrency: 1 });
  const replayMs = performance.now() - t0;
  t0 = performance.now();
  const report = analyse(AGENT_CONTEXT_V1, joinResults(cases, store.results(runId)));
  const html = htmlReport(report, { run: runId }, new Map(cases.map((c) => [c.id, { state: c.state, labels: c.labels }])));
  const reportMs = performance.now() - t0;
  const peak = peakMB();
  store.close();
  console.log(`eval: ${N} generated cases, baseline + recorded judgments, each result committed to sqlite`);
  const perCase = (ms: number) => `${((ms * 1000) / N).toFixed(0)} µs per case`;
  console.log(`  replay ${(replayMs / 1000).toFixed(2)} s (target < 2 s); ${perCase(replayMs)}`);
  console.log(`  reference: the baseline alone on the same states ${perCase(referenceMs)}; replay ${(replayMs / referenceMs).toFixed(1)}x`);
  console.log(`  report (analysis + ${(html.length / 1024).toFixed(0)} KB HTML) ${(reportMs / 1000).toFixed(2)} s (target < 1 s)`);
  console.log(peak === undefined ? "  peak memory: not reported by this OS" : `  process peak RSS ${peak.toFixed(0)} MB (target < 200 MB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
