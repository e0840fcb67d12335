/**
 * The firewall's cost per text: the verdict (rules and learned layer) against the rules alone, over
 * the READMEs of the installed packages (real documentation, 1 KB to 60 KB each). Prints the median
 * time per kilobyte of each and their ratio; the verdict runs once per untrusted chunk, so this is
 * what reading a file adds before the model sees it.
 *   bun run bench firewall
 */
import { realReadmes } from "../eval/firewall/corpus.ts";
import { classify } from "../src/context/firewall.ts";
import { ruleFindings } from "../src/context/firewall-rules.ts";
import { median } from "./lib/measure.ts";

const docs = realReadmes().map((t) => t.text);
const kb = docs.reduce((a, t) => a + t.length, 0) / 1024;
/** Median over runs of the total time for every README, per kilobyte. */
function perKB(f: (t: string) => unknown, runs = 7): number {
  for (const t of docs) f(t);
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    for (const t of docs) f(t);
    xs.push((performance.now() - t0) / kb);
  }
  return median(xs);
}

const rules = perKB(ruleFindings);
const verdict = perKB(classify);
const biggest = docs.reduce((a, t) => (t.length > a.length ? t : a), "");
const big = median(Array.from({ length: 7 }, () => {
  const t0 = performance.now();
  classify(biggest);
  return performance.now() - t0;
}));
console.log(`firewall over ${docs.length} READMEs (${kb.toFixed(0)} KB): rules ${(rules * 1000).toFixed(0)} µs/KB, verdict ${(verdict * 1000).toFixed(0)} µs/KB = ${(verdict / rules).toFixed(2)}x the rules alone; the largest (${(biggest.length / 1024).toFixed(0)} KB) ${big.toFixed(1)} ms`);
