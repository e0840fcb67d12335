/**
 * The baseline on the independent suite, reported the way the suite's notes ask: accuracy and
 * false-stop per question on the scored cases (main + boundary), and the invariance cases apart
 * (whether the answer stayed what it was for the original state).
 *   bun eval/independent/score.ts [--json]
 */
import { join } from "node:path";
import { baseline } from "../../src/decision/baseline.ts";
import { AGENT_CONTEXT } from "../../src/decision/questions.ts";
import { analyse } from "../../src/replay/analysis.ts";
import { loadSuites } from "../../src/replay/suite.ts";

const FILE = join(import.meta.dir, "..", "suites", "agent-context-independent.jsonl");
const suite = loadSuites([FILE], AGENT_CONTEXT, true);
const scored = suite.cases.filter((c) => !c.tags?.includes("invariance"));
const invariance = suite.cases.filter((c) => c.tags?.includes("invariance"));
const report = analyse(
  AGENT_CONTEXT,
  scored.map((c) => ({ id: c.id, state: c.state, labels: c.labels, baseline: baseline(c.state, AGENT_CONTEXT) })),
);
const byId = new Map(suite.cases.map((c) => [c.id, c]));
let held = 0;
for (const c of invariance) {
  const original = byId.get(c.id.replace(/-2$/, "-1"))!;
  if (JSON.stringify(baseline(c.state, AGENT_CONTEXT)) === JSON.stringify(baseline(original.state, AGENT_CONTEXT))) held++;
}
const rows = report.questions.map((q) => {
  const m = q.baseline as { n: number; accuracy: number; falseStop?: number };
  return { question: q.id, n: m.n, accuracy: m.accuracy, falseStop: m.falseStop };
});
if (process.argv.includes("--json")) console.log(JSON.stringify({ cases: suite.cases.length, scored: scored.length, invariance: { cases: invariance.length, held }, questions: rows }, null, 2));
else {
  console.log(`independent suite: ${scored.length} scored cases (main + boundary), ${invariance.length} invariance cases apart`);
  for (const r of rows.filter((x) => x.n > 0)) console.log(`  ${r.question.padEnd(30)} n ${String(r.n).padStart(3)}  accuracy ${r.accuracy.toFixed(3)}${r.falseStop !== undefined ? `  false-stop ${r.falseStop.toFixed(3)}` : ""}`);
  console.log(`  invariance: the baseline's answers unchanged on ${held}/${invariance.length} (counters, paths and an untrusted note changed)`);
}
