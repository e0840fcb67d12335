/**
 * Trains the firewall's learned layer and writes policies/firewall-model.json. Training data, all of
 * it train-only: the TRAIN split of the template corpus (corpus.ts), the composed texts
 * (grammar.ts), the train half of installed packages' READMEs and 520 more READMEs of packages
 * weir does not use (docs.ts: `bun eval/firewall/docs.ts` fetches them first; the training hash
 * changes if any is missing). A unit is positive when it is (part of) the planted payload. The
 * threshold comes from validation text (`validation()`: held-out sets already scored, never trained
 * on); cross-validation by template family and carrier is printed beside it. Figures on held-out
 * text: eval/firewall/report.ts.
 *   bun eval/firewall/docs.ts && bun eval/firewall/train.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FirewallModel, offTopicCandidate, textUnits } from "../../src/context/firewall-model.ts";
import { vectorDims } from "../../src/context/word-vectors.ts";
import { buildFirewallCorpus, type FirewallText, realReadmes } from "./corpus.ts";
import { HELD_OUT_LISTS, heldOutDocs, trainingDocs } from "./docs.ts";
import { buildCorpus } from "../../test/firewall/corpus.ts";
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
import { grammarTexts, grammarTexts2, grammarTexts3, grammarTexts4, grammarTexts5 } from "./grammar.ts";

/**
 * The README lists already scored once (lists 1 to 25). A new list is written before the changes it
 * measures and stays out of validation until the session that scores it raises this count.
 */
const SCORED_LISTS = HELD_OUT_LISTS.slice(0, 25);

const OUT = join(import.meta.dir, "..", "..", "policies", "firewall-model.json");

const norm = (s: string) => s.replace(/\\n/g, " ").replace(/\\(["'])/g, "$1").replace(/[\s|#/*>"`-]+/g, " ").trim().toLowerCase();

/** A text's units with their keys, computed once: training and cross-validation reuse them. */
/** `w`: the unit's weight in the loss (a long training README's units weigh less; default 1). */
type Sample = { keys: string[]; y: number; v?: Float32Array; c?: number; at: string; w?: number };
const cache = new Map<string, Sample[]>();
function samplesOf(t: FirewallText): Sample[] {
  let s = cache.get(t.id);
  if (!s) {
    const payload = t.payload ? norm(t.payload) : "";
    const us = textUnits(t.text);
    // A string literal in a code block is never scored (firewall-model.ts), so it is not trained on either.
    // A training README is read whole, as the product reads it (until the fourteenth session, its
    // opening 200 or 400 units only: the licence lines, API lists and code comments further down,
    // where held-out READMEs get flagged, were never seen), each unit weighed so that a long one counts
    // as 200 (400 for an installed package's) and does not outweigh the rest.
    let n = 0;
    const training = t.cls === "real-readme" && !t.id.startsWith("doc:");
    const cap = t.id.startsWith("tdoc:") ? 200 : 400;
    const kept = us.filter(({ unit }) => unit.place !== "literal");
    const weight = training && kept.length > cap ? cap / kept.length : undefined;
    s = kept.map(({ unit, keys, vector, coherence }) => {
      const u = norm(unit.text);
      // A unit is the planted payload when the payload holds it (or it holds the payload's opening).
      const y = payload && u.length >= 6 && (payload.includes(u) || u.includes(payload.slice(0, 30))) ? 1 : 0;
      return { keys, y, at: `${t.id}#${n++}`, ...(vector ? { v: vector } : {}), ...(coherence !== undefined ? { c: coherence } : {}), ...(weight !== undefined ? { w: weight } : {}) };
    });
    cache.set(t.id, s);
  }
  return s;
}

const L2 = 1e-4;
/** The vector term learns faster than a key: a unit vector's components are ~0.1 each. */
const VECTOR_RATE = 100;
const VECTOR_L2 = 1e-4;
const COHERENCE_RATE = 30;
export interface Trained { w: Map<string, number>; b: number; v: Float64Array; c: number }
export function train(texts: FirewallText[], epochs = 6): Trained {
  const data = texts.flatMap(samplesOf);
  const pos = data.reduce((a, d) => a + (d.y === 1 ? (d.w ?? 1) : 0), 0);
  const neg = data.reduce((a, d) => a + (d.y === 0 ? (d.w ?? 1) : 0), 0);
  const cw = [1, 0.5 * Math.sqrt(neg / Math.max(1, pos))];
  const w = new Map<string, number>();
  const v = new Float64Array(vectorDims());
  let b = 0;
  let c = 0;
  for (let e = 0; e < epochs; e++) {
    // Each epoch's order is by a hash of each unit's name (its text's id and its place) and the epoch,
    // not a shuffle of positions: a change that adds, drops or redescribes a few units leaves the
    // others in the same order, so a retrain moves the weights those units touch, not all of them.
    const rank = data.map((d) => BigInt(Bun.hash(`${d.at}|${e}`)));
    const order = data.map((_, i) => i).sort((x, y) => (rank[x]! < rank[y]! ? -1 : rank[x]! > rank[y]! ? 1 : x - y));
    const lr = 0.05 / (1 + e);
    for (const i of order) {
      const d = data[i]!;
      const z = logit({ w, b, v, c }, d);
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - d.y) * cw[d.y]! * (d.w ?? 1) * lr;
      for (const k of d.keys) w.set(k, (w.get(k) ?? 0) * (1 - L2) - g);
      if (d.v) for (let k = 0; k < v.length; k++) v[k] = v[k]! * (1 - VECTOR_L2) - g * VECTOR_RATE * d.v[k]!;
      if (d.c !== undefined) c -= g * COHERENCE_RATE * d.c;
      b -= g;
    }
  }
  return { w, b, v, c };
}

function logit(m: Trained, d: Sample): number {
  let z = m.b;
  for (const k of d.keys) z += m.w.get(k) ?? 0;
  if (d.v) for (let k = 0; k < m.v.length; k++) z += m.v[k]! * d.v[k]!;
  if (d.c !== undefined) z += m.c * d.c;
  return z;
}

function scoreOf(m: Trained, t: FirewallText): number {
  let best = 0;
  for (const d of samplesOf(t)) best = Math.max(best, 1 / (1 + Math.exp(-logit(m, d))));
  return best;
}

/** The family a text belongs to (a README is its own): what cross-validation holds out together. */
const familyOf = (t: FirewallText) => (t.cls === "real-readme" ? t.id : t.id.replace(/-x?\d+$/, ""));
const carrierOf = (t: FirewallText) => (t.cls === "real-readme" ? "readme" : t.carrier);
const foldOf = (s: string, k: number) => {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % k;
};

/**
 * Out-of-fold scores: each text scored by a model trained without its template family's fold (and,
 * with `carriers`, without its carrier's fold too; a text is then scored where both are held out).
 */
export function outOfFoldScores(texts: FirewallText[], k: number, carriers: boolean): Map<string, number> {
  const scores = new Map<string, number>();
  for (let f = 0; f < k; f++) {
    // READMEs are documentation, the one carrier always seen in practice: held out by package only.
    const carrierHeld = (t: FirewallText) => carriers && t.cls !== "real-readme" && foldOf(carrierOf(t), k) === f;
    const held = (t: FirewallText) => foldOf(familyOf(t), k) === f || carrierHeld(t);
    const m = train(texts.filter((t) => !held(t)));
    for (const t of texts.filter((x) => foldOf(familyOf(x), k) === f && (!carriers || x.cls === "real-readme" || carrierHeld(x)))) scores.set(t.id, scoreOf(m, t));
  }
  return scores;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, c) => a - c)[Math.max(0, Math.ceil(xs.length * q) - 1)] ?? 0.5;

/** The threshold out-of-fold scores give (at most 2% of benign texts and of READMEs above it), and what it catches there. */
function thresholdOf(texts: FirewallText[], oof: Map<string, number>) {
  const scored = texts.filter((t) => oof.has(t.id));
  const benign = scored.filter((t) => !t.injection && t.cls !== "real-readme").map((t) => oof.get(t.id)!);
  const readmes = scored.filter((t) => t.cls === "real-readme").map((t) => oof.get(t.id)!);
  // At most 2% of benign texts and of documentation above the threshold (the issue allows 3% and 2%: 3% for benign cost the test split 5.7%).
  const threshold = Math.min(0.995, Math.max(0.5, quantile(benign, 0.98), quantile(readmes, 0.98)) + 1e-4);
  const inj = scored.filter((t) => t.injection);
  return { threshold, n: scored.length, recall: inj.filter((t) => oof.get(t.id)! >= threshold).length / Math.max(1, inj.length), fp: benign.filter((p) => p >= threshold).length / Math.max(1, benign.length) };
}

/**
 * The validation texts: every held-out set and list of READMEs already scored untouched once and read
 * since (sets 4 to 14 and 16 to 39, README lists 1 to 25), and the benign half of the first session's
 * look-alike corpus. Fit to choose a threshold on: text the training never saw, written like the sets
 * still untouched. Never trained on. Until the tenth session it stopped at the sixteenth set and the
 * fourth list, though the protocol has a set join once scored: 318 READMEs put the 1% line at the
 * fourth-highest README, so four sentences of four packages set the threshold. A held-out README is scored
 * whole here, as the product reads it (until the tenth session, on its first 400 units only).
 */
function validation(): { benign: FirewallText[]; readmes: FirewallText[]; injections: FirewallText[] } {
  const sets = [buildHoldout4, buildHoldout5, buildHoldout6, buildHoldout7, buildHoldout8, buildHoldout9, buildHoldout10, buildHoldout11, buildHoldout12, buildHoldout13, buildHoldout14, buildHoldout16, buildHoldout17, buildHoldout18, buildHoldout19, buildHoldout20, buildHoldout21, buildHoldout22, buildHoldout23, buildHoldout24, buildHoldout25, buildHoldout26, buildHoldout27, buildHoldout28, buildHoldout29, buildHoldout30, buildHoldout31, buildHoldout32, buildHoldout33, buildHoldout34, buildHoldout35, buildHoldout36, buildHoldout37, buildHoldout38, buildHoldout39].flatMap((b) => b());
  // The first session's look-alike corpus (test/firewall/corpus.ts): benign texts that quote attacks,
  // install by `curl | bash`, talk of approvals — seen for long, never trained on.
  const lookAlikes: FirewallText[] = buildCorpus().filter((t) => !t.injection).map((t) => ({ id: `fw1:${t.id}`, injection: false, split: "test", cls: `benign-${t.style}`, carrier: t.carrier, text: t.text }));
  return { benign: [...sets.filter((t) => !t.injection), ...lookAlikes], injections: sets.filter((t) => t.injection), readmes: SCORED_LISTS.flatMap((l) => heldOutDocs(l)) };
}

/** The lowest threshold with at most 2% of validation benign texts and 1% of validation READMEs at or above it. */
function validatedThreshold(m: Trained, v: ReturnType<typeof validation>) {
  const score = (t: FirewallText) => scoreOf(m, t);
  const benign = v.benign.map(score);
  const readmes = v.readmes.map(score);
  const threshold = Math.min(0.995, Math.max(0.5, quantile(benign, 0.98), quantile(readmes, 0.99)) + 1e-4);
  const inj = v.injections.map(score);
  return { threshold, recall: inj.filter((p) => p >= threshold).length / Math.max(1, inj.length), fp: benign.filter((p) => p >= threshold).length / Math.max(1, benign.length), docs: readmes.filter((p) => p >= threshold).length / Math.max(1, readmes.length), n: benign.length + inj.length, d: readmes.length };
}

/** A text's least closeness of an off-topic candidate question to the rest of it (Infinity: none). */
function questionClosenessOf(t: FirewallText): number {
  let least = Infinity;
  for (const u of textUnits(t.text)) if (offTopicCandidate(u) && u.questionCoherence! < least) least = u.questionCoherence!;
  return least;
}

/**
 * The closeness below which a question is off topic: the largest that flags at most 0.5% of the
 * validation benign texts and of its READMEs (the question adds to the learned layer's 2%), and never
 * above 0.35 (an ask that far from zero is about its text).
 */
function validatedQuestionCloseness(v: ReturnType<typeof validation>) {
  const at = (xs: number[]) => {
    const sorted = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return sorted[Math.floor(0.005 * xs.length)] ?? Infinity;
  };
  const b = v.benign.map(questionClosenessOf);
  const d = v.readmes.map(questionClosenessOf);
  const closeness = Math.min(0.35, at(b), at(d));
  const inj = v.injections.map(questionClosenessOf);
  return { closeness, caught: inj.filter((x) => x < closeness).length / Math.max(1, inj.length), fp: b.filter((x) => x < closeness).length / Math.max(1, b.length), docs: d.filter((x) => x < closeness).length / Math.max(1, d.length) };
}

/** Everything the shipped model is trained on. */
function trainingSet(): FirewallText[] {
  const corpus = buildFirewallCorpus();
  const docs = realReadmes();
  return [...corpus.filter((t) => t.split === "train"), ...grammarTexts(), ...grammarTexts2(), ...grammarTexts3(), ...grammarTexts4(), ...grammarTexts5(), ...docs.filter((t) => t.split === "train"), ...trainingDocs()];
}

if (import.meta.main) {
  const trainSet = trainingSet();
  const t0 = performance.now();
  const byFamily = thresholdOf(trainSet, outOfFoldScores(trainSet, 4, false));
  const byBoth = thresholdOf(trainSet, outOfFoldScores(trainSet, 3, true));
  const trained = train(trainSet);
  const { w, b, v, c } = trained;
  const vt = validation();
  const val = validatedThreshold(trained, vt);
  const q = validatedQuestionCloseness(vt);
  if (val.d === 0) throw new Error("no held-out READMEs cached: run `bun eval/firewall/docs.ts` first");
  const weights: Record<string, number> = {};
  for (const [k, v] of [...w].sort(([x], [y]) => (x < y ? -1 : 1))) if (Math.abs(v) >= 0.01) weights[k] = Math.round(v * 1000) / 1000;
  const hash = new Bun.CryptoHasher("sha256").update(JSON.stringify(trainSet.map((t) => [t.id, t.injection, t.text]))).digest("hex");
  // The validation texts set the shipped threshold: the training's own hard benign families, which
  // cross-validation reads, are harder than any text written apart from them (docs/firewall.md).
  const model: FirewallModel = { kind: "weir.firewall-model", version: 5, training_hash: hash, bias: Math.round(b * 1000) / 1000, threshold: Math.round(val.threshold * 10000) / 10000, weights, vector: [...v].map((x) => Math.round(x * 1000) / 1000), coherence: Math.round(c * 1000) / 1000, question_closeness: Math.floor(q.closeness * 10000) / 10000 };
  writeFileSync(OUT, `${JSON.stringify(model)}\n`);
  const pc = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`trained on ${trainSet.length} texts (${trainSet.filter((t) => t.injection).length} injections) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${Object.keys(weights).length} weights kept; threshold ${model.threshold}; wrote ${OUT}`);
  console.log(`cross-validated by template family (train split only, ${byFamily.n} texts): recall ${pc(byFamily.recall)} at ${pc(byFamily.fp)} false positives (threshold ${byFamily.threshold.toFixed(4)})`);
  console.log(`cross-validated by template family and carrier (${byBoth.n} texts): recall ${pc(byBoth.recall)} at ${pc(byBoth.fp)} false positives (threshold ${byBoth.threshold.toFixed(4)})`);
  console.log(`off-topic questions on validation: closeness below ${q.closeness.toFixed(4)} flags ${pc(q.fp)} of benign texts and ${pc(q.docs)} of READMEs, and ${pc(q.caught)} of injections alone`);
  console.log(`validation (held-out sets 4-14 and 16-39 and README lists 1-25, seen; learned layer alone, ${val.n} texts, ${val.d} READMEs): recall ${pc(val.recall)} at ${pc(val.fp)} false positives, READMEs ${pc(val.docs)} (threshold ${val.threshold.toFixed(4)}, shipped)`);
}
