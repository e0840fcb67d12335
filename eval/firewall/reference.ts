/**
 * A reference beside the firewall's figures: a public prompt-injection classifier from the npm
 * registry (llm_guardrail@2.1.2, ISC: word 1–2-gram TF-IDF and a logistic regression trained by its
 * author on direct prompt-injection data), scored on the same held-out text as eval/firewall/report.ts
 * — each text's score is the highest of the whole text's and each of its units' — at the package's
 * own threshold (0.5) and at the threshold that flags 3% of the benign carrier texts. It says how hard
 * the held-out sets are for a classifier of words, not what weir ships. Nothing of it is committed:
 * `npm pack` fetches it into the READMEs' cache (docs.ts) the first time.
 *   bun eval/firewall/docs.ts && bun eval/firewall/reference.ts [--sets 32,33] [--lists 18,19]
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { units } from "../../src/context/requests.ts";
import type { FirewallText } from "./corpus.ts";
import { docsCache, HELD_OUT_LISTS, heldOutDocs } from "./docs.ts";

const PKG = "llm_guardrail@2.1.2";
const { values } = parseArgs({ options: { sets: { type: "string", default: "32,33,34,35,36" }, lists: { type: "string", default: "18,19,20,21,22" } } });

const dir = join(docsCache(), ".reference");
const modelFile = join(dir, "package", "model", "prompt_injection_model.json");
if (!existsSync(modelFile)) {
  mkdirSync(dir, { recursive: true });
  const pack = Bun.spawnSync(["npm", "pack", PKG, "--silent"], { cwd: dir });
  const tgz = pack.stdout.toString().trim().split("\n").at(-1);
  if (pack.exitCode !== 0 || !tgz) throw new Error(`npm pack ${PKG} failed: ${pack.stderr.toString().trim()}`);
  Bun.spawnSync(["tar", "-xzf", tgz], { cwd: dir });
}
const md = JSON.parse(readFileSync(modelFile, "utf8")) as { vocabulary: Record<string, number>; idf: number[]; coefficients: number[][]; intercept: number[]; ngram_range: [number, number]; lowercase: boolean; threshold?: number };
const coef = md.coefficients[0]!;
const [lo, hi] = md.ngram_range;

/** The package's own transform (its model/tfidf.js: sklearn's tokens, raw counts × idf, L2) and sigmoid. */
function p(text: string): number {
  const t = (md.lowercase ? text.toLowerCase() : text).match(/\b\w\w+\b/g) ?? [];
  const tf = new Map<number, number>();
  for (let n = lo; n <= hi; n++)
    for (let i = 0; i + n <= t.length; i++) {
      const ix = md.vocabulary[t.slice(i, i + n).join(" ")];
      if (ix !== undefined) tf.set(ix, (tf.get(ix) ?? 0) + 1);
    }
  let norm = 0;
  for (const [ix, f] of tf) norm += (f * md.idf[ix]!) ** 2;
  norm = Math.sqrt(norm) || 1;
  let z = md.intercept[0]!;
  for (const [ix, f] of tf) z += (coef[ix]! * f * md.idf[ix]!) / norm;
  return 1 / (1 + Math.exp(-z));
}
const score = (text: string) => Math.max(p(text), ...units(text).slice(0, 400).map((u) => p(u.text)));

const numbers = (s: string) => s.split(",").filter(Boolean).map(Number);
const inj: number[] = [];
const ben: number[] = [];
for (const n of numbers(values.sets)) {
  const build = (await import(`./holdout${n}.ts`))[`buildHoldout${n}`] as () => FirewallText[];
  for (const t of build()) (t.injection ? inj : ben).push(score(t.text));
}
const docs = numbers(values.lists).flatMap((n) => heldOutDocs(HELD_OUT_LISTS[n - 1]!)).map((d) => score(d.text));
const at = (thr: number, label: string) => {
  const c = (xs: number[]) => `${xs.filter((s) => s >= thr).length}/${xs.length} (${((100 * xs.filter((s) => s >= thr).length) / Math.max(1, xs.length)).toFixed(1)}%)`;
  console.log(`${PKG}, ${label} (${thr.toFixed(3)}): injections caught ${c(inj)}, benign carriers flagged ${c(ben)}, READMEs flagged ${c(docs)}`);
};
console.log(`sets ${values.sets}, README lists ${values.lists}`);
at(md.threshold ?? 0.5, "its own threshold");
// The lowest threshold that flags at most 3% of the benign carriers (ties counted whole).
const allowed = Math.floor(0.03 * ben.length);
const line = [...new Set(ben)].sort((a, b) => a - b).find((v) => ben.filter((s) => s >= v).length <= allowed) ?? Infinity;
if (line === Infinity) console.log(`${PKG}: no threshold flags at most 3% of benign carriers (${ben.filter((s) => s >= Math.max(...ben)).length} share the top score, ${Math.max(...ben)})`);
else at(line, "at most 3% of benign carriers");
