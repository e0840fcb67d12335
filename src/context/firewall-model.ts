import shipped from "../../policies/firewall-model.json" with { type: "json" };
import { visible } from "./firewall.ts";

/**
 * The firewall's learned layer: a logistic regression over hashed word unigrams and bigrams and
 * character 4-grams of words, scored on every window (paragraph or group of lines) of a text; the
 * text's score is its highest window's. Trained by eval/firewall/train.ts on the train split of the
 * generated corpus and the train half of real documentation; the weights ship in
 * policies/firewall-model.json with their version and the training set's hash. Pure once loaded.
 */

export interface FirewallModel {
  kind: "weir.firewall-model";
  version: number;
  /** sha256 of the training texts and labels, so a figure can name the data it came from. */
  training_hash: string;
  dims: number;
  bias: number;
  /** Score at or above which a window is instruction-like (chosen on training data only). */
  threshold: number;
  /** Sparse weights: [feature index, weight]. */
  weights: [number, number][];
}

/** FNV-1a, 32-bit: a stable hash for feature strings. Pure. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashed feature indexes of one window (repeats kept: term frequency). Pure. */
export function features(text: string, dims: number): number[] {
  const words = text.toLowerCase().match(/[a-z0-9_$'./~-]+|[^\s\w]/g) ?? [];
  const out: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    out.push(fnv(`w:${w}`) % dims);
    if (i + 1 < words.length) out.push(fnv(`b:${w} ${words[i + 1]}`) % dims);
    if (w.length > 3) {
      const padded = `^${w}$`;
      for (let k = 0; k + 4 <= padded.length; k++) out.push(fnv(`c:${padded.slice(k, k + 4)}`) % dims);
    }
  }
  return out;
}

/** A text's windows: paragraphs, long ones cut into groups of lines of about `size` characters. Pure. */
export function windows(text: string, size = 320): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const lines = para.split("\n");
    let cur = "";
    for (const l of lines) {
      if (cur && cur.length + l.length > size) {
        out.push(cur);
        cur = "";
      }
      cur = cur ? `${cur}\n${l}` : l;
    }
    if (cur.trim()) out.push(cur);
  }
  return out;
}

export interface LoadedModel {
  model: FirewallModel;
  weights: Float32Array;
}

export function loadModel(m: FirewallModel): LoadedModel {
  const weights = new Float32Array(m.dims);
  for (const [i, w] of m.weights) weights[i] = w;
  return { model: m, weights };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The probability one window is instruction-like. Pure. */
export function scoreWindow(lm: LoadedModel, text: string): number {
  let z = lm.model.bias;
  for (const f of features(text, lm.model.dims)) z += lm.weights[f]!;
  return sigmoid(z);
}

/** The highest window score of a text, with that window. Pure. */
export function scoreText(lm: LoadedModel, text: string): { p: number; window: string; index: number } {
  let best = { p: 0, window: "", index: -1 };
  windows(text).forEach((w, i) => {
    const p = scoreWindow(lm, w);
    if (p > best.p) best = { p, window: w, index: i };
  });
  return best;
}

let loaded: LoadedModel | undefined;
/** The shipped model (policies/firewall-model.json), loaded once. */
function model(): LoadedModel {
  loaded ??= loadModel(shipped as FirewallModel);
  return loaded;
}

/**
 * The learned layer's opinion, in shadow: its highest window score and whether it reaches the
 * shipped threshold. It does not change a verdict yet: on the test split it found what the rules
 * miss but also flagged 14% of benign texts and out-of-distribution text (eval/firewall/report.ts),
 * so it is reported (`weir firewall check`, the eval report) until it earns the gate.
 */
export function learnedScore(text: string): { p: number; flagged: boolean; window: string } {
  const m = model();
  const s = scoreText(m, visible(text));
  return { p: s.p, flagged: s.p >= m.model.threshold, window: s.window };
}
