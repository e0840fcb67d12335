/**
 * The decision plane's own cost: the baseline per decision (pure function, 100,000 generated
 * requests) against a JSON round trip of the same request as the reference in the same run, the
 * increase-only merge, and the size of one batched judgment request (llm and logprobs prompts).
 * Then the baseline on labelled states, as the wcode seed publishes its own (Brier 0.0188, no false
 * stops, 60 model-free cases): Brier and false stops over every yes/no label, and the cost per
 * decision on those states, for the independent suite (states written from the criteria) and for
 * states the loop built in its own runs through the binary (the loop suite, the pre-edit suite's
 * dev and test splits). Target: baseline under 1 ms per decision.   bun run bench decision
 */
import fc from "fast-check";
import { join } from "node:path";
import { baseline } from "../src/decision/baseline.ts";
import { guidanceFrom, mergeIncreaseOnly } from "../src/decision/merge.ts";
import { answerSchema, judgmentPrompt, logprobPrompt } from "../src/decision/judges.ts";
import { AGENT_CONTEXT, AGENT_CONTEXT_V1 } from "../src/decision/questions.ts";
import { brier } from "../src/replay/metrics.ts";
import { loadSuites } from "../src/replay/suite.ts";
import { STOPS, top } from "../eval/pre-edit/score.ts";
import { arbRequest } from "../test/support/requests.ts";
import { median, sized } from "./lib/measure.ts";

const N = sized(100_000, 1_000);
const requests = fc.sample(arbRequest, { numRuns: N, seed: 42 });
const time = (f: () => void) => {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    f();
    runs.push(((performance.now() - t0) * 1000) / N);
  }
  return median(runs);
};
let sink = 0;
const base = time(() => {
  for (const r of requests) sink += Object.keys(baseline(r)).length;
});
const roundTrip = time(() => {
  for (const r of requests) sink += JSON.parse(JSON.stringify(r)).targets.length;
});
const answers = requests.map((r) => baseline(r));
const merge = time(() => {
  for (let i = 0; i < N; i++) sink += mergeIncreaseOnly(guidanceFrom(answers[i]!), guidanceFrom(answers[(i + 1) % N]!)).violations.length;
});
const sample = JSON.stringify(requests[7]);
const llmBytes = judgmentPrompt(AGENT_CONTEXT_V1).length + JSON.stringify(answerSchema(AGENT_CONTEXT_V1)).length + sample.length + 60;
const lpBytes = logprobPrompt(AGENT_CONTEXT_V1).length + sample.length;
console.log(`decision (${N} generated requests, median of 5)`);
console.log(`  baseline             ${base.toFixed(2)} µs per decision (target < 1000 µs)`);
console.log(`  reference: JSON round trip of the request ${roundTrip.toFixed(2)} µs; ratio ${(base / roundTrip).toFixed(2)}x`);
console.log(`  guidance + increase-only merge ${merge.toFixed(2)} µs`);
console.log(`  one batched judgment request: llm ${llmBytes} bytes (~${Math.round(llmBytes / 4)} tokens), logprobs ${lpBytes} bytes; the state itself ${sample.length} bytes`);

/** The baseline on one suite's labelled states: Brier and false stops over its yes/no labels, µs per decision. */
function onSuite(name: string, file: string, split?: string) {
  const cases = loadSuites([join(import.meta.dir, "..", "eval", "suites", file)], AGENT_CONTEXT, true).cases.filter((c) => !split || c.tags?.includes(split));
  const y: boolean[] = [];
  const p: number[] = [];
  let stops = 0;
  for (const c of cases) {
    const answers = baseline(c.state, AGENT_CONTEXT);
    for (const [q, stop] of Object.entries(STOPS)) {
      const label = c.labels[q];
      if (typeof label !== "boolean") continue;
      y.push(label);
      p.push((answers[q] as { p_yes: number }).p_yes);
      if (top(answers[q]!) === stop && label !== stop) stops++;
    }
  }
  const runs: number[] = [];
  // The first round warms the code up and is not counted.
  for (let r = 0; r <= 5; r++) {
    const t0 = performance.now();
    for (const c of cases) sink += Object.keys(baseline(c.state, AGENT_CONTEXT)).length;
    if (r > 0) runs.push(((performance.now() - t0) * 1000) / cases.length);
  }
  const row = `${name.padEnd(32)} ${String(cases.length).padStart(5)} ${String(y.length).padStart(7)}`;
  console.log(`  ${row}  ${brier(y, p).toFixed(4)}  ${(stops / y.length).toFixed(3)}  ${median(runs).toFixed(2).padStart(6)}`);
}
console.log(`the baseline on labelled states (${AGENT_CONTEXT.id}@${AGENT_CONTEXT.version}): the seed publishes Brier 0.0188, no false stops, 60 cases`);
console.log(`  ${"suite".padEnd(32)} cases  labels  Brier   false-stop  µs/decision`);
onSuite("independent (from the criteria)", "agent-context-independent.jsonl");
onSuite("loop (the loop's own runs)", "agent-context-loop.jsonl");
onSuite("pre-edit, dev", "agent-context-pre-edit.jsonl", "dev");
onSuite("pre-edit, test (held out)", "agent-context-pre-edit.jsonl", "test");
if (sink < 0) console.log(sink);
