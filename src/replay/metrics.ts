/**
 * Metrics for probabilistic yes/no answers and choices. Pure functions, checked against
 * scikit-learn's documented examples in test/replay/metrics.test.ts.
 */

const EPS = 1e-15;
const clip = (p: number) => Math.min(1 - EPS, Math.max(EPS, p));

export function accuracy(y: boolean[], p: number[], threshold = 0.5): number {
  if (y.length === 0) return NaN;
  let ok = 0;
  for (let i = 0; i < y.length; i++) if (p[i]! >= threshold === y[i]) ok++;
  return ok / y.length;
}

/** Mean squared difference between P(yes) and the outcome (sklearn's brier_score_loss). */
export function brier(y: boolean[], p: number[]): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += (p[i]! - (y[i] ? 1 : 0)) ** 2;
  return s / y.length;
}

/** Binary cross-entropy with probabilities clipped away from 0 and 1 (sklearn's log_loss). */
export function logLoss(y: boolean[], p: number[]): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s -= y[i] ? Math.log(clip(p[i]!)) : Math.log(1 - clip(p[i]!));
  return s / y.length;
}

/** Multiclass log loss: `probs[i][k]` for class k, `y[i]` the true class index. */
export function multiLogLoss(y: number[], probs: number[][]): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) {
    const row = probs[i]!;
    const total = row.reduce((a, b) => a + b, 0);
    s -= Math.log(clip(row[y[i]!]! / total));
  }
  return s / y.length;
}

export interface Bin {
  lo: number;
  hi: number;
  count: number;
  meanPredicted: number;
  observed: number;
}

type Binning = "equal-width" | "equal-mass";

/** Reliability-diagram bins: mean predicted probability against observed frequency per bin. */
export function reliabilityBins(y: boolean[], p: number[], bins = 10, binning: Binning = "equal-width"): Bin[] {
  const idx = p.map((_, i) => i);
  const groups: number[][] = Array.from({ length: bins }, () => []);
  if (binning === "equal-width") {
    for (const i of idx) groups[Math.min(bins - 1, Math.floor(p[i]! * bins))]!.push(i);
  } else {
    idx.sort((a, b) => p[a]! - p[b]!);
    idx.forEach((i, rank) => groups[Math.min(bins - 1, Math.floor((rank * bins) / idx.length))]!.push(i));
  }
  return groups.map((g, b) => {
    const mp = g.length ? g.reduce((s, i) => s + p[i]!, 0) / g.length : NaN;
    const ob = g.length ? g.filter((i) => y[i]).length / g.length : NaN;
    const lo = binning === "equal-width" ? b / bins : g.length ? p[g[0]!]! : NaN;
    const hi = binning === "equal-width" ? (b + 1) / bins : g.length ? p[g[g.length - 1]!]! : NaN;
    return { lo, hi, count: g.length, meanPredicted: mp, observed: ob };
  });
}

/** Expected calibration error: the count-weighted gap between predicted and observed per bin. */
export function ece(y: boolean[], p: number[], bins = 10, binning: Binning = "equal-width"): number {
  if (binning === "equal-mass") {
    let s = 0;
    for (const b of reliabilityBins(y, p, bins, binning)) if (b.count) s += (b.count / y.length) * Math.abs(b.meanPredicted - b.observed);
    return s;
  }
  // Equal-width without allocations: ECE runs thousands of times in bootstraps and simulations.
  const count = new Float64Array(bins);
  const sumP = new Float64Array(bins);
  const sumY = new Float64Array(bins);
  for (let i = 0; i < p.length; i++) {
    const b = Math.min(bins - 1, Math.floor(p[i]! * bins));
    count[b]!++;
    sumP[b]! += p[i]!;
    if (y[i]) sumY[b]!++;
  }
  let s = 0;
  for (let b = 0; b < bins; b++) if (count[b]) s += Math.abs(sumP[b]! - sumY[b]!) / p.length;
  return s;
}

/** Mulberry32, so bootstraps and simulations give the same figures on every run. */
export function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A percentile bootstrap interval for any metric of (y, p). */
export function bootstrapCI(y: boolean[], p: number[], metric: (y: boolean[], p: number[]) => number, b = 500, alpha = 0.05, seed = 7): [number, number] {
  const r = rng(seed);
  const vals: number[] = [];
  // Buffers reused across resamples: the bootstrap runs hundreds of times per report.
  const ys: boolean[] = new Array(y.length);
  const ps: number[] = new Array(y.length);
  for (let k = 0; k < b; k++) {
    for (let i = 0; i < y.length; i++) {
      const j = Math.floor(r() * y.length);
      ys[i] = y[j]!;
      ps[i] = p[j]!;
    }
    vals.push(metric(ys, ps));
  }
  vals.sort((a, c) => a - c);
  return [vals[Math.floor((alpha / 2) * b)]!, vals[Math.min(b - 1, Math.floor((1 - alpha / 2) * b))]!];
}

/**
 * The ECE a perfectly calibrated source with these same predictions would show at this sample size
 * (outcomes drawn as Bernoulli(p)): small suites inflate ECE, and this is the floor to compare with.
 */
export function expectedEceIfCalibrated(p: number[], bins = 10, binning: Binning = "equal-width", sims = 200, seed = 11): number {
  const r = rng(seed);
  let s = 0;
  const ys: boolean[] = new Array(p.length);
  for (let k = 0; k < sims; k++) {
    for (let i = 0; i < p.length; i++) ys[i] = r() < p[i]!;
    s += ece(ys, p, bins, binning);
  }
  return s / sims;
}

/**
 * Selective prediction: sort by confidence (max(p, 1-p)), and for each coverage report the error
 * rate among the covered cases; AURC is the mean risk over coverages.
 */
export function riskCoverage(y: boolean[], p: number[], threshold = 0.5): { coverage: number; risk: number }[] {
  const order = p.map((_, i) => i).sort((a, b) => Math.max(p[b]!, 1 - p[b]!) - Math.max(p[a]!, 1 - p[a]!));
  const out: { coverage: number; risk: number }[] = [];
  let errors = 0;
  order.forEach((i, k) => {
    if (p[i]! >= threshold !== y[i]) errors++;
    out.push({ coverage: (k + 1) / order.length, risk: errors / (k + 1) });
  });
  return out;
}

export const aurc = (curve: { risk: number }[]) => (curve.length ? curve.reduce((s, c) => s + c.risk, 0) / curve.length : NaN);

/** A confusion matrix over class ids: rows are the true class, columns the predicted. */
export function confusion(classes: string[], truth: string[], predicted: string[]): number[][] {
  const m = classes.map(() => classes.map(() => 0));
  for (let i = 0; i < truth.length; i++) {
    const a = classes.indexOf(truth[i]!);
    const b = classes.indexOf(predicted[i]!);
    if (a >= 0 && b >= 0) m[a]![b]!++;
  }
  return m;
}
