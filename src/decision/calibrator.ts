/** A recalibration map from a provider's raw P(yes) to a calibrated one (fitted by `weir eval calibrate`). */
export type Calibrator = { kind: "platt"; a: number; b: number } | { kind: "isotonic"; xs: number[]; ys: number[] } | { kind: "identity" };

export const logit = (p: number) => Math.log(Math.min(1 - 1e-6, Math.max(1e-6, p)) / (1 - Math.min(1 - 1e-6, Math.max(1e-6, p))));

/** The calibrated P(yes) for a raw one. Pure. */
export function applyCalibrator(c: Calibrator, p: number): number {
  if (c.kind === "identity") return p;
  if (c.kind === "platt") return 1 / (1 + Math.exp(-(c.a * logit(p) + c.b)));
  for (let i = 0; i < c.xs.length; i++) if (p <= c.xs[i]!) return c.ys[i]!;
  return c.ys[c.ys.length - 1] ?? p;
}
