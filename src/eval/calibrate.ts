import { fitLogistic } from "./learned.ts";
import { logLoss } from "./metrics.ts";

/** A recalibration map from a provider's raw P(yes) to a calibrated one. */
export type Calibrator = { kind: "platt"; a: number; b: number } | { kind: "isotonic"; xs: number[]; ys: number[] } | { kind: "identity" };

const logit = (p: number) => Math.log(Math.min(1 - 1e-6, Math.max(1e-6, p)) / (1 - Math.min(1 - 1e-6, Math.max(1e-6, p))));

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

export function applyCalibrator(c: Calibrator, p: number): number {
  if (c.kind === "identity") return p;
  if (c.kind === "platt") return 1 / (1 + Math.exp(-(c.a * logit(p) + c.b)));
  for (let i = 0; i < c.xs.length; i++) if (p <= c.xs[i]!) return c.ys[i]!;
  return c.ys[c.ys.length - 1] ?? p;
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

export interface Band {
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

