/**
 * Trains the firewall's learned layer on the TRAIN split only (generated texts of the train
 * template families and the train half of real READMEs) and writes policies/firewall-model.json.
 * The threshold is chosen on training texts: the lowest score that keeps false positives at or
 * under 1% of benign texts and of READMEs. Test figures come from eval/firewall/report.ts.
 *   bun eval/firewall/train.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { features, type FirewallModel, windows } from "../../src/context/firewall-model.ts";
import { rng } from "../../src/eval/metrics.ts";
import { buildFirewallCorpus, type FirewallText, payloadKeys, realReadmes } from "./corpus.ts";

const DIMS = 1 << 18;
const OUT = join(import.meta.dir, "..", "..", "policies", "firewall-model.json");

/** Training windows: the window holding the payload is positive; every other window is negative. */
function samples(texts: FirewallText[]): { f: number[]; y: number }[] {
  const out: { f: number[]; y: number }[] = [];
  for (const t of texts) {
    const ws = windows(t.text);
    const keys = t.payload ? payloadKeys(t.payload) : [];
    for (const w of t.cls === "real-readme" ? ws.slice(0, 120) : ws) out.push({ f: features(w, DIMS), y: keys.some((k) => w.includes(k)) ? 1 : 0 });
    // The payload alone too: the model must know the request, not its carrier.
    if (t.payload) out.push({ f: features(t.payload, DIMS), y: 1 });
  }
  return out;
}

export function train(texts: FirewallText[], epochs = 3): { w: Float32Array; b: number } {
  const data = samples(texts);
  const pos = data.filter((d) => d.y === 1).length;
  const neg = data.length - pos;
  // Positives weighted up, but not to parity: parity made every imperative look like an attack.
  const cw = [1, 0.5 * Math.sqrt(neg / Math.max(1, pos))];
  const w = new Float32Array(DIMS);
  let b = 0;
  const r = rng(7);
  const order = data.map((_, i) => i);
  for (let e = 0; e < epochs; e++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const lr = 0.1 / (1 + e);
    for (const i of order) {
      const d = data[i]!;
      let z = b;
      for (const f of d.f) z += w[f]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - d.y) * cw[d.y]! * lr;
      for (const f of d.f) w[f] = w[f]! * (1 - 1e-5) - g;
      b -= g;
    }
  }
  return { w, b };
}

function scoreOf(w: Float32Array, b: number, text: string): number {
  let best = 0;
  for (const win of windows(text)) {
    let z = b;
    for (const f of features(win, DIMS)) z += w[f]!;
    best = Math.max(best, 1 / (1 + Math.exp(-z)));
  }
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
    const { w, b } = train(texts.filter((t) => !held(t)));
    for (const t of texts.filter((x) => foldOf(familyOf(x), k) === f && (!carriers || x.cls === "real-readme" || carrierHeld(x)))) scores.set(t.id, scoreOf(w, b, t.text));
  }
  return scores;
}

const q98 = (xs: number[]) => [...xs].sort((a, c) => a - c)[Math.max(0, Math.ceil(xs.length * 0.98) - 1)] ?? 0.5;

/** The threshold out-of-fold scores give (at most 2% of benign texts and of READMEs above it), and what it catches there. */
function thresholdOf(texts: FirewallText[], oof: Map<string, number>) {
  const scored = texts.filter((t) => oof.has(t.id));
  const benign = scored.filter((t) => !t.injection && t.cls !== "real-readme").map((t) => oof.get(t.id)!);
  const readmes = scored.filter((t) => t.cls === "real-readme").map((t) => oof.get(t.id)!);
  const threshold = Math.min(0.995, Math.max(0.5, q98(benign), q98(readmes)) + 1e-4);
  const inj = scored.filter((t) => t.injection);
  return { threshold, n: scored.length, recall: inj.filter((t) => oof.get(t.id)! >= threshold).length / Math.max(1, inj.length), fp: benign.filter((p) => p >= threshold).length / Math.max(1, benign.length) };
}

if (import.meta.main) {
  const corpus = buildFirewallCorpus();
  const docs = realReadmes();
  const trainSet = [...corpus.filter((t) => t.split === "train"), ...docs.filter((t) => t.split === "train")];
  const t0 = performance.now();
  const byFamily = thresholdOf(trainSet, outOfFoldScores(trainSet, 4, false));
  const byBoth = thresholdOf(trainSet, outOfFoldScores(trainSet, 3, true));
  const { w, b } = train(trainSet);
  const weights: [number, number][] = [];
  for (let i = 0; i < DIMS; i++) if (Math.abs(w[i]!) >= 0.02) weights.push([i, Math.round(w[i]! * 1000) / 1000]);
  const hash = new Bun.CryptoHasher("sha256").update(JSON.stringify(trainSet.map((t) => [t.id, t.injection, t.text]))).digest("hex");
  // The harder cross-validation sets the shipped threshold: new carriers are what the held-out sets showed it misses.
  const model: FirewallModel = { kind: "weir.firewall-model", version: 2, training_hash: hash, dims: DIMS, bias: Math.round(b * 1000) / 1000, threshold: Math.round(byBoth.threshold * 10000) / 10000, weights };
  writeFileSync(OUT, `${JSON.stringify(model)}\n`);
  const pc = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`trained on ${trainSet.length} texts (${trainSet.filter((t) => t.injection).length} injections) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${weights.length} weights kept; threshold ${model.threshold}; wrote ${OUT}`);
  console.log(`cross-validated by template family (train split only, ${byFamily.n} texts): recall ${pc(byFamily.recall)} at ${pc(byFamily.fp)} false positives (threshold ${byFamily.threshold.toFixed(4)})`);
  console.log(`cross-validated by template family and carrier (${byBoth.n} texts): recall ${pc(byBoth.recall)} at ${pc(byBoth.fp)} false positives (threshold ${byBoth.threshold.toFixed(4)})`);
}
