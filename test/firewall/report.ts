/**
 * Prints the firewall's detection and false-positive rates on the labeled corpus, per split and per
 * style.   bun test/firewall/report.ts
 */
import { classify } from "../../src/context/firewall.ts";
import { buildCorpus, type CorpusText } from "./corpus.ts";

export function rates(texts: CorpusText[]) {
  const flagged = (t: CorpusText) => classify(t.text).verdict === "instruction_like";
  const inj = texts.filter((t) => t.injection);
  const ben = texts.filter((t) => !t.injection);
  const detected = inj.filter(flagged).length;
  const fp = ben.filter(flagged).length;
  return { injections: inj.length, detected, benign: ben.length, falsePositives: fp, detection: detected / (inj.length || 1), fpRate: fp / (ben.length || 1) };
}

if (import.meta.main) {
  const corpus = buildCorpus();
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const row = (label: string, r: ReturnType<typeof rates>) =>
    console.log(`${label.padEnd(16)} detected ${String(r.detected).padStart(3)}/${String(r.injections).padEnd(3)} ${pct(r.detection).padStart(6)}   false positives ${String(r.falsePositives).padStart(2)}/${String(r.benign).padEnd(3)} ${pct(r.fpRate).padStart(5)}`);
  console.log(`firewall corpus: ${corpus.length} texts`);
  row("all", rates(corpus));
  for (const split of ["dev", "batch2", "heldout"] as const) row(split, rates(corpus.filter((t) => t.split === split)));
  console.log("by injection style (all splits):");
  for (const style of [...new Set(corpus.filter((t) => t.injection).map((t) => t.style))].sort()) row(`  ${style}`, rates(corpus.filter((t) => t.injection && t.style === style)));
}
