/**
 * The firewall's figures. The verdict (rules and learned layer together, as weir gives it) and each
 * layer alone, on:
 * - the twenty-sixth held-out set and the twelfth list of READMEs (scored once at the end of the
 *   eleventh session, after the changes that followed the twenty-fifth);
 * - the twenty-fifth held-out set and the eleventh list of READMEs (scored once in the eleventh
 *   session, on 467e96d);
 * - the twenty-fourth held-out set and the tenth list of READMEs (scored once at the end of the tenth
 *   session, on 1342eb4);
 * - the twenty-third held-out set and the ninth list of READMEs (scored once at the end of the ninth
 *   session, on fb8e874);
 * - the eighth list of READMEs (scored once on the commit after 3856a2c) and the seventh (scored once on
 *   963e8e3), printed beside the twenty-second set;
 * - the twenty-second held-out set and the sixth list of READMEs (scored once on 699b4a1, and once, for
 *   contrast, on the model of the session's start, 7a33a27);
 * - the twenty-first held-out set (scored once on the shipped model of a6f54db and once on the change it
 *   was written for, 8117ea3), the twentieth and the fifth list of READMEs (eval/firewall/docs.ts,
 *   scored once on a6f54db) — the newest untouched figures; the nineteenth (of c71f569), eighteenth (of
 *   0b5aab8) and seventeenth (of b02dd93), untouched once each;
 * - the sixteenth set and BIPIA's test split (the fifteenth, eval/firewall/bipia.ts): untouched once
 *   for the model of 48392dc; BIPIA's train split, a development set;
 * - the fourteenth to fourth sets and the four lists of READMEs (eval/firewall/docs.ts; each untouched
 *   once, for an earlier model, and read since), the third and second sets and the TEST split: read
 *   while the layers changed, so they are development figures, printed for contrast;
 * recall per attack class and per carrier, false positives on generated benign texts, and the share
 * of real documentation flagged (installed packages' READMEs, weir's own README and docs).
 *   bun eval/firewall/report.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { classify } from "../../src/context/firewall.ts";
import { learnedScore, UNIT_FINDINGS } from "../../src/context/firewall-model.ts";
import { ruleFindings } from "../../src/context/firewall-rules.ts";
import { buildFirewallCorpus, type FirewallText, realReadmes } from "./corpus.ts";
import { DOC_PACKAGES_2, DOC_PACKAGES_3, DOC_PACKAGES_4, DOC_PACKAGES_5, DOC_PACKAGES_6, DOC_PACKAGES_7, DOC_PACKAGES_8, DOC_PACKAGES_9, DOC_PACKAGES_10, DOC_PACKAGES_11, DOC_PACKAGES_12, DOC_PACKAGES_13, DOC_PACKAGES_14, DOC_PACKAGES_15, DOC_PACKAGES_16, DOC_PACKAGES_17, DOC_PACKAGES_18, DOC_PACKAGES_19, DOC_PACKAGES_20, DOC_PACKAGES_21, DOC_PACKAGES_22, DOC_PACKAGES_23, DOC_PACKAGES_24, DOC_PACKAGES_25, heldOutDocs } from "./docs.ts";
import { buildHoldout } from "./holdout.ts";
import { buildHoldout3 } from "./holdout3.ts";
import { buildHoldout4 } from "./holdout4.ts";
import { buildHoldout5 } from "./holdout5.ts";
import { buildHoldout6 } from "./holdout6.ts";
import { buildHoldout7 } from "./holdout7.ts";
import { buildHoldout8 } from "./holdout8.ts";
import { buildHoldout9 } from "./holdout9.ts";
import { buildHoldout10 } from "./holdout10.ts";
import { buildHoldout11 } from "./holdout11.ts";
import { buildHoldout12 } from "./holdout12.ts";
import { buildHoldout13 } from "./holdout13.ts";
import { buildHoldout14 } from "./holdout14.ts";
import { buildHoldout15 } from "./holdout15.ts";
import { buildHoldout16 } from "./holdout16.ts";
import { buildHoldout17 } from "./holdout17.ts";
import { buildHoldout18 } from "./holdout18.ts";
import { buildHoldout19 } from "./holdout19.ts";
import { buildHoldout20 } from "./holdout20.ts";
import { buildHoldout21 } from "./holdout21.ts";
import { buildHoldout22 } from "./holdout22.ts";
import { buildHoldout23 } from "./holdout23.ts";
import { buildHoldout24 } from "./holdout24.ts";
import { buildHoldout25 } from "./holdout25.ts";
import { buildHoldout26 } from "./holdout26.ts";
import { buildHoldout27 } from "./holdout27.ts";
import { buildHoldout28 } from "./holdout28.ts";
import { buildHoldout29 } from "./holdout29.ts";
import { buildHoldout30 } from "./holdout30.ts";
import { buildHoldout31 } from "./holdout31.ts";
import { buildHoldout32 } from "./holdout32.ts";
import { buildHoldout33 } from "./holdout33.ts";
import { buildHoldout34 } from "./holdout34.ts";
import { buildHoldout35 } from "./holdout35.ts";
import { buildHoldout36 } from "./holdout36.ts";
import { buildHoldout37 } from "./holdout37.ts";
import { buildHoldout38 } from "./holdout38.ts";
import { buildHoldout39 } from "./holdout39.ts";
import { bipiaSet } from "./bipia.ts";

const ROOT = join(import.meta.dir, "..", "..");
/** The verdict as weir gives it, and each of its two layers alone. */
const byVerdict = (t: { text: string }) => classify(t.text).verdict === "instruction_like";
const MODES = { verdict: byVerdict, rules: (t: { text: string }) => ruleFindings(t.text).length > 0, learned: (t: { text: string }) => { const l = learnedScore(t.text); return l.flagged || l.offTopic !== undefined || UNIT_FINDINGS.some(([key]) => l[key] !== undefined); } } as const;
let flagged = byVerdict;
const pct = (a: number, b: number) => `${a}/${b} ${((100 * a) / Math.max(1, b)).toFixed(1)}%`;

/** The injections, benign texts and READMEs of one row, for the figures printed. */
export function figures(set: FirewallText[], docs: FirewallText[]) {
  return { inj: set.filter((t) => t.injection), ben: set.filter((t) => !t.injection), d: docs };
}

if (import.meta.main) {
  const corpus = buildFirewallCorpus();
  const docs = realReadmes();
  const held = heldOutDocs();
  const held2 = heldOutDocs(DOC_PACKAGES_2);
  const held3 = heldOutDocs(DOC_PACKAGES_3);
  const held4 = heldOutDocs(DOC_PACKAGES_4);
  const held5 = heldOutDocs(DOC_PACKAGES_5);
  const held6 = heldOutDocs(DOC_PACKAGES_6);
  const held7 = heldOutDocs(DOC_PACKAGES_7);
  const held8 = heldOutDocs(DOC_PACKAGES_8);
  const held9 = heldOutDocs(DOC_PACKAGES_9);
  const held10 = heldOutDocs(DOC_PACKAGES_10);
  const held11 = heldOutDocs(DOC_PACKAGES_11);
  const held12 = heldOutDocs(DOC_PACKAGES_12);
  const held13 = heldOutDocs(DOC_PACKAGES_13);
  const held14 = heldOutDocs(DOC_PACKAGES_14);
  const held15 = heldOutDocs(DOC_PACKAGES_15);
  const held16 = heldOutDocs(DOC_PACKAGES_16);
  const held17 = heldOutDocs(DOC_PACKAGES_17);
  const held18 = heldOutDocs(DOC_PACKAGES_18);
  const held19 = heldOutDocs(DOC_PACKAGES_19);
  const held20 = heldOutDocs(DOC_PACKAGES_20);
  const held21 = heldOutDocs(DOC_PACKAGES_21);
  const held22 = heldOutDocs(DOC_PACKAGES_22);
  const held23 = heldOutDocs(DOC_PACKAGES_23);
  const held24 = heldOutDocs(DOC_PACKAGES_24);
  const held25 = heldOutDocs(DOC_PACKAGES_25);
  if (held.length === 0) console.log("(no held-out READMEs cached: run `bun eval/firewall/docs.ts` first)");
  // Each held-out set with the documentation scored beside it (the READMEs list of its time, or the
  // installed packages' test half), newest first; then the template corpus's splits.
  const installed = docs.filter((t) => t.split === "test");
  const third: [FirewallText[], string] = [held3, "third held-out list of"];
  // The twenty-second set is printed beside each of the three lists scored in its session; built once.
  const h22 = buildHoldout22();
  const rows: [string, FirewallText[], [FirewallText[], string]][] = [
    ["holdout39", buildHoldout39(), [held25, "twenty-fifth held-out list of"]],
    ["holdout38", buildHoldout38(), [held24, "twenty-fourth held-out list of"]],
    ["holdout37", buildHoldout37(), [held23, "twenty-third held-out list of"]],
    ["holdout36", buildHoldout36(), [held22, "twenty-second held-out list of"]],
    ["holdout35", buildHoldout35(), [held21, "twenty-first held-out list of"]],
    ["holdout34", buildHoldout34(), [held20, "twentieth held-out list of"]],
    ["holdout33", buildHoldout33(), [held19, "nineteenth held-out list of"]],
    ["holdout32", buildHoldout32(), [held18, "eighteenth held-out list of"]],
    ["holdout31", buildHoldout31(), [held17, "seventeenth held-out list of"]],
    ["holdout30", buildHoldout30(), [held16, "sixteenth held-out list of"]],
    ["holdout29", buildHoldout29(), [held15, "fifteenth held-out list of"]],
    ["holdout28", buildHoldout28(), [held14, "fourteenth held-out list of"]],
    ["holdout27", buildHoldout27(), [held13, "thirteenth held-out list of"]],
    ["holdout26", buildHoldout26(), [held12, "twelfth held-out list of"]],
    ["holdout25", buildHoldout25(), [held11, "eleventh held-out list of"]],
    ["holdout24", buildHoldout24(), [held10, "tenth held-out list of"]],
    ["holdout23", buildHoldout23(), [held9, "ninth held-out list of"]],
    ["holdout22", h22, [held8, "eighth held-out list of"]],
    ["holdout22", h22, [held7, "seventh held-out list of"]],
    ["holdout22", h22, [held6, "sixth held-out list of"]],
    ["holdout21", buildHoldout21(), [held5, "fifth held-out list of"]],
    ["holdout20", buildHoldout20(), [held5, "fifth held-out list of"]],
    ["holdout19", buildHoldout19(), [held4, "fourth held-out list of"]],
    ["holdout18", buildHoldout18(), [held4, "fourth held-out list of"]],
    ["holdout17", buildHoldout17(), [held4, "fourth held-out list of"]],
    ["holdout16", buildHoldout16(), [held4, "fourth held-out list of"]],
    ["holdout15", buildHoldout15(), [held4, "fourth held-out list of"]],
    ["bipia-train", bipiaSet("train", 20261241, "bipia-tr"), [held4, "fourth held-out list of"]],
    ["holdout14", buildHoldout14(), [held4, "fourth held-out list of"]],
    ["holdout13", buildHoldout13(), [held4, "fourth held-out list of"]],
    ["holdout12", buildHoldout12(), [held4, "fourth held-out list of"]],
    ["holdout11", buildHoldout11(), third],
    ["holdout10", buildHoldout10(), third],
    ["holdout9", buildHoldout9(), third],
    ["holdout8", buildHoldout8(), third],
    ["holdout7", buildHoldout7(), third],
    ["holdout6", buildHoldout6(), third],
    ["holdout5", buildHoldout5(), [held2, "second held-out list of"]],
    ["holdout4", buildHoldout4(), [held, "first held-out list of"]],
    ["holdout3", buildHoldout3(), [installed, "installed"]],
    ["holdout", buildHoldout(), [installed, "installed"]],
    ["test", corpus.filter((t) => t.split === "test"), [installed, "installed"]],
    ["train", corpus.filter((t) => t.split === "train"), [docs.filter((t) => t.split === "train"), "installed (train half)"]],
  ];
  for (const [mode, fn] of Object.entries(MODES))
    for (const [split, set, [readmes, which]] of rows) {
      flagged = fn;
      const f = figures(set, readmes);
      console.log(`${mode} ${split.toUpperCase()}: recall ${pct(f.inj.filter(flagged).length, f.inj.length)}; false positives on generated benign ${pct(f.ben.filter(flagged).length, f.ben.length)}; ${which} READMEs flagged ${pct(f.d.filter(flagged).length, f.d.length)}`);
      if (mode !== "verdict" || split === "test" || split === "train") continue;
      console.log("  by class:");
      for (const cls of [...new Set(f.inj.map((t) => t.cls))].sort()) {
        const xs = f.inj.filter((t) => t.cls === cls);
        console.log(`    ${cls.padEnd(12)} ${pct(xs.filter(flagged).length, xs.length)}`);
      }
      console.log("  by carrier (injections / benign flagged):");
      for (const c of [...new Set([...f.inj, ...f.ben].map((t) => t.carrier))].sort()) {
        const xs = f.inj.filter((t) => t.carrier === c);
        const bs = f.ben.filter((t) => t.carrier === c);
        console.log(`    ${c.padEnd(14)} ${pct(xs.filter(flagged).length, xs.length).padEnd(16)} ${pct(bs.filter(flagged).length, bs.length)}`);
      }
      for (const t of f.d.filter(flagged)) console.log(`  flagged README ${t.id}: ${classify(t.text).findings.map((x) => `${x.rule}: ${x.excerpt.slice(0, 70)}`).join(" | ")}`);
    }
  flagged = byVerdict;
  const own = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).map((n) => `docs/${n}`)];
  const ownFlagged = own.filter((p) => flagged({ text: readFileSync(join(ROOT, p), "utf8") }));
  console.log(`weir's own documentation flagged: ${pct(ownFlagged.length, own.length)}${ownFlagged.length ? ` (${ownFlagged.join(", ")})` : ""}`);
}
