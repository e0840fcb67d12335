import { applyCalibrator, type Calibrator, logit } from "../decision/calibrator.ts";
import { fitLogistic } from "./learned.ts";
import { logLoss } from "./metrics.ts";


/** Platt scaling: a logistic fit on logit(p). */
export function fitPlatt(p: number[], y: boolean[]): Calibrator {
  const w = fitLogistic(p.map((x) => [logit(x) / 10]), y.map((v) => (v ? 1 : 0)), 0.001, 800, 1);
  return { kind: "platt", a: w[1]! / 10, b: w[0]! };
}

/** Isotonic regression by pool-adjacent-violators: a monotone step function. */
export function fitIsotonic(p: number[], y: boolean[]): Calibrator {
  const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const blocks: { x: number; sum: number; n: number }[] = [];
  for (const i of order) {
    blocks.push({ x: p[i]!, sum: y[i] ? 1 : 0, n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n > blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n) {
      const b = blocks.pop()!;
      const a = blocks[blocks.length - 1]!;
      a.sum += b.sum;
      a.n += b.n;
      a.x = b.x;
    }
  }
  return { kind: "isotonic", xs: blocks.map((b) => b.x), ys: blocks.map((b) => b.sum / b.n) };
}

/** Chooses Platt or isotonic by log loss on held-out folds; returns the choice refitted on all data. */
export function chooseCalibrator(p: number[], y: boolean[], folds: number[], k: number): { calibrator: Calibrator; heldOut: Record<string, number> } {
  const heldOut: Record<string, number> = {};
  for (const [name, fit] of [
    ["platt", fitPlatt],
    ["isotonic", fitIsotonic],
  ] as const) {
    const pred: number[] = [];
    const truth: boolean[] = [];
    for (let f = 0; f < k; f++) {
      const train = p.map((_, i) => i).filter((i) => folds[i] !== f);
      const test = p.map((_, i) => i).filter((i) => folds[i] === f);
      if (!train.length || !test.length) continue;
      const c = fit(train.map((i) => p[i]!), train.map((i) => y[i]!));
      for (const i of test) {
        pred.push(applyCalibrator(c, p[i]!));
        truth.push(y[i]!);
      }
    }
    heldOut[name] = pred.length ? logLoss(truth, pred) : Infinity;
  }
  const best = heldOut.platt! <= heldOut.isotonic! ? "platt" : "isotonic";
  return { calibrator: best === "platt" ? fitPlatt(p, y) : fitIsotonic(p, y), heldOut };
}

interface Band {
  /** P(yes) at or above `yes` answers yes; at or below `no` answers no; between, abstain to the baseline. */
  yes: number;
  no: number;
  coverage: number;
  falseStop: number;
  falseContinue: number;
  feasible: boolean;
}

/**
 * Chooses a threshold and an abstain band that meet the error targets at the highest coverage.
 * `reducing` says which answer removes work (e.g. context_sufficient=yes stops retrieval): a wrong
 * work-reducing answer is a false stop and gets the stricter target.
 */
export function chooseBand(p: number[], y: boolean[], reducing: boolean, maxFalseStop: number, maxFalseContinue: number): Band {
  const grid = Array.from({ length: 101 }, (_, i) => i / 100);
  let best: Band = { yes: 1.01, no: -0.01, coverage: 0, falseStop: 0, falseContinue: 0, feasible: true };
  for (const no of grid)
    for (const yes of grid) {
      if (yes <= no) continue;
      let covered = 0;
      let fs = 0;
      let fc = 0;
      for (let i = 0; i < p.length; i++) {
        const ans = p[i]! >= yes ? true : p[i]! <= no ? false : undefined;
        if (ans === undefined) continue;
        covered++;
        if (ans !== y[i]) {
          if (ans === reducing) fs++;
          else fc++;
        }
      }
      const rateFs = fs / p.length;
      const rateFc = fc / p.length;
      if (rateFs <= maxFalseStop && rateFc <= maxFalseContinue && covered / p.length > best.coverage)
        best = { yes, no, coverage: covered / p.length, falseStop: rateFs, falseContinue: rateFc, feasible: true };
    }
  return best;
}

/**
 * Split-conformal prediction sets for a yes/no question at miscoverage `alpha`: the nonconformity of
 * a label is 1 - P(label). A set holding both answers means "escalate", which suits increase-only.
 */
export function conformal(calP: number[], calY: boolean[], alpha: number): { qhat: number; setFor: (p: number) => boolean[] } {
  const scores = calP.map((p, i) => 1 - (calY[i] ? p : 1 - p)).sort((a, b) => a - b);
  const n = scores.length;
  const rank = Math.min(n - 1, Math.ceil((n + 1) * (1 - alpha)) - 1);
  const qhat = n ? scores[Math.max(0, rank)]! : 1;
  return { qhat, setFor: (p) => [true, false].filter((label) => 1 - (label ? p : 1 - p) <= qhat) };
}


/** P(X <= k) for X ~ Binomial(n, p), summed in log space. Pure. */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let logC = 0;
  let sum = 0;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logC + i * lp + (n - i) * lq);
  }
  return Math.min(1, sum);
}

/**
 * The one-sided upper Clopper–Pearson bound on a rate from k events in n trials: the largest p
 * still giving P(X <= k) >= alpha. Exact (no normal approximation), by bisection. Pure.
 */
export function clopperPearsonUpper(k: number, n: number, alpha = 0.05): number {
  if (n <= 0) return 1;
  if (k >= n) return 1;
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(k, n, mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A certified work reduction for one yes/no question: the band where the judge may lower the baseline's work. */
export interface Certification {
  /** The answer that removes work (context_sufficient: yes; the others: no). */
  reducing: "yes" | "no";
  /** Calibrated P(yes) at or above (reducing yes) or at or below (reducing no) which the judge may reduce. */
  threshold: number;
  /** Certification cases inside the band, and the false stops among them. */
  n: number;
  false_stops: number;
  /** Upper one-sided Clopper–Pearson bound on the false-stop rate in the band, at `alpha`. */
  upper_bound: number;
  alpha: number;
  certified: boolean;
  /** Cases the threshold was chosen on (never the ones it was certified on). */
  selection_n: number;
}

/**
 * Certifies where a judge may reduce work on one question. The threshold is chosen on one half of
 * the cases (the most permissive one whose band has at most half the allowed false-stop rate), and
 * certified on the other half only: at least `minCases` cases in the band and an upper 95%
 * Clopper–Pearson bound on their false-stop rate at or below `maxFalseStop`. Choosing and certifying
 * on the same cases would let the search over thresholds flatter the bound. Pure.
 */
export function certifyReduction(
  cal: readonly number[],
  y: readonly boolean[],
  reducing: "yes" | "no",
  o: { maxFalseStop: number; minCases: number; alpha?: number },
): Certification {
  const alpha = o.alpha ?? 0.05;
  const inBand = (p: number, t: number) => (reducing === "yes" ? p >= t : p <= t);
  const falseStop = (truth: boolean) => (reducing === "yes" ? !truth : truth);
  const select = cal.map((_, i) => i).filter((i) => i % 2 === 0);
  const certify = cal.map((_, i) => i).filter((i) => i % 2 === 1);
  const grid = Array.from({ length: 101 }, (_, i) => i / 100);
  // Most permissive first: for "yes" the lowest threshold, for "no" the highest.
  const order = reducing === "yes" ? grid : [...grid].reverse();
  let threshold = reducing === "yes" ? 1.01 : -0.01;
  for (const t of order) {
    const band = select.filter((i) => inBand(cal[i]!, t));
    if (band.length < o.minCases / 2) continue;
    const rate = band.filter((i) => falseStop(y[i]!)).length / band.length;
    if (rate <= o.maxFalseStop / 2) {
      threshold = t;
      break;
    }
  }
  const band = certify.filter((i) => inBand(cal[i]!, threshold));
  const k = band.filter((i) => falseStop(y[i]!)).length;
  const upper = clopperPearsonUpper(k, band.length, alpha);
  return {
    reducing,
    threshold,
    n: band.length,
    false_stops: k,
    upper_bound: upper,
    alpha,
    certified: band.length >= o.minCases && upper <= o.maxFalseStop,
    selection_n: select.length,
  };
}

/** The answer of each yes/no question that removes work. */
export const REDUCING_ANSWER: Record<string, "yes" | "no"> = {
  context_sufficient: "yes",
  continue_retrieval: "no",
  semantic_navigation_required: "no",
  verification_escalation: "no",
};
