/**
 * The decision plane's own cost: the baseline per decision (pure function, 100,000 generated
 * requests) against a JSON round trip of the same request as the reference in the same run, the
 * increase-only merge, and the size of one batched judgment request (llm and logprobs prompts).
 * Target: baseline under 1 ms per decision.   bun run bench decision
 */
import fc from "fast-check";
import { baseline } from "../src/decision/baseline.ts";
import { guidanceFrom, mergeIncreaseOnly } from "../src/decision/merge.ts";
import { answerSchema, judgmentPrompt, logprobPrompt } from "../src/decision/judges.ts";
import { AGENT_CONTEXT_V1 } from "../src/decision/questions.ts";
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
if (sink < 0) console.log(sink);
