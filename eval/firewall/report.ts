/**
 * The firewall's figures on the third held-out set (eval/firewall/holdout3.ts: written after the rules
 * and the learned layer were frozen, the one figure untouched by any choice), on the second
 * (eval/firewall/holdout.ts: new phrasings and new carriers, read while the learned layer changed)
 * and on the TEST
 * split (template families and READMEs the rules and the model were not fitted to): recall per
 * attack class and per carrier (held-out set), false positives on generated benign texts, and the
 * share of real documentation flagged (the test half of installed packages' READMEs, and weir's own
 * README and docs). Train figures are printed apart, for contrast only.
 *   bun eval/firewall/report.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { classify } from "../../src/context/firewall.ts";
import { learnedScore } from "../../src/context/firewall-model.ts";
import { buildFirewallCorpus, type FirewallText, realReadmes } from "./corpus.ts";
import { buildHoldout } from "./holdout.ts";
import { buildHoldout3 } from "./holdout3.ts";

const ROOT = join(import.meta.dir, "..", "..");
/** The verdict as weir gives it (the rules), and the learned layer alone and in union, which run in shadow. */
const byRules = (t: { text: string }) => classify(t.text).verdict === "instruction_like";
const byModel = (t: { text: string }) => learnedScore(t.text).flagged;
const MODES = { rules: byRules, learned: byModel, union: (t: { text: string }) => byRules(t) || byModel(t) } as const;
let flagged = byRules;
const pct = (a: number, b: number) => `${a}/${b} ${((100 * a) / Math.max(1, b)).toFixed(1)}%`;

export function figures(corpus: FirewallText[], docs: FirewallText[], split: "train" | "test") {
  const inj = corpus.filter((t) => t.injection && t.split === split);
  const ben = corpus.filter((t) => !t.injection && t.split === split);
  const d = docs.filter((t) => t.split === split);
  return { recall: inj.filter(flagged).length / inj.length, fp: ben.filter(flagged).length / ben.length, docFp: d.filter(flagged).length / d.length, inj, ben, d };
}

if (import.meta.main) {
  const corpus = buildFirewallCorpus();
  const docs = realReadmes();
  const holdout = buildHoldout();
  const holdout3 = buildHoldout3();
  for (const [mode, fn] of Object.entries(MODES))
  for (const split of ["holdout3", "holdout", "test", "train"] as const) {
    flagged = fn;
    // The held-out sets are corpora of their own; their documentation figure is the test READMEs'.
    const f = split === "holdout3" ? figures(holdout3, docs, "test") : split === "holdout" ? figures(holdout, docs, "test") : figures(corpus, docs, split);
    console.log(`${mode} ${split.toUpperCase()}: recall ${pct(f.inj.filter(flagged).length, f.inj.length)}; false positives on generated benign ${pct(f.ben.filter(flagged).length, f.ben.length)}; real READMEs flagged ${pct(f.d.filter(flagged).length, f.d.length)}`);
    if (split !== "holdout" && split !== "holdout3") continue;
    console.log("  by class:");
    for (const cls of [...new Set(f.inj.map((t) => t.cls))].sort()) {
      const xs = f.inj.filter((t) => t.cls === cls);
      console.log(`    ${cls.padEnd(12)} ${pct(xs.filter(flagged).length, xs.length)}`);
    }
    console.log("  by carrier (injections / benign flagged):");
    for (const c of [...new Set(f.inj.map((t) => t.carrier))].sort()) {
      const xs = f.inj.filter((t) => t.carrier === c);
      const bs = f.ben.filter((t) => t.carrier === c);
      console.log(`    ${c.padEnd(14)} ${pct(xs.filter(flagged).length, xs.length).padEnd(16)} ${pct(bs.filter(flagged).length, bs.length)}`);
    }
    for (const t of f.d.filter(flagged)) console.log(`  flagged README ${t.id}: ${classify(t.text).findings.map((x) => `${x.rule}: ${x.excerpt.slice(0, 70)}`).join(" | ")}`);
  }
  flagged = byRules;
  const own = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).map((n) => `docs/${n}`)];
  const ownFlagged = own.filter((p) => flagged({ text: readFileSync(join(ROOT, p), "utf8") }));
  console.log(`weir's own documentation flagged: ${pct(ownFlagged.length, own.length)}${ownFlagged.length ? ` (${ownFlagged.join(", ")})` : ""}`);
}
