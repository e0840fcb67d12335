import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { accuracy, aurc, bootstrapCI, brier, confusion, ece, expectedEceIfCalibrated, logLoss, multiLogLoss, reliabilityBins, riskCoverage } from "../../src/replay/metrics.ts";

describe("metrics against scikit-learn's documented examples", () => {
  test("brier_score_loss([0,1,1,0], [0.1,0.9,0.8,0.3]) = 0.0375", () => {
    expect(brier([false, true, true, false], [0.1, 0.9, 0.8, 0.3])).toBeCloseTo(0.0375, 10);
  });

  test("log_loss(['spam','ham','ham','spam'], [[.1,.9],[.9,.1],[.8,.2],[.35,.65]]) = 0.21616...", () => {
    // Classes sorted: ham=0, spam=1.
    expect(multiLogLoss([1, 0, 0, 1], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]])).toBeCloseTo(0.21616187468057912, 12);
    expect(logLoss([true, false, false, true], [0.9, 0.1, 0.2, 0.65])).toBeCloseTo(0.21616187468057912, 12);
  });

  test("accuracy_score: 2 of 4 right is 0.5", () => {
    expect(accuracy([false, true, true, false], [0.2, 0.4, 0.9, 0.7])).toBe(0.5);
  });

  test("confusion_matrix(['cat','ant','cat','cat','ant','bird'], ['ant','ant','cat','cat','ant','cat'], labels=['ant','bird','cat'])", () => {
    expect(confusion(["ant", "bird", "cat"], ["cat", "ant", "cat", "cat", "ant", "bird"], ["ant", "ant", "cat", "cat", "ant", "cat"])).toEqual([
      [2, 0, 0],
      [0, 0, 1],
      [1, 0, 2],
    ]);
  });
});

describe("calibration metrics", () => {
  test("ECE by hand: two bins", () => {
    // Bin [0.2,0.3): predicted 0.2, observed 0/2; bin [0.8,0.9): predicted 0.8, observed 2/2.
    expect(ece([false, false, true, true], [0.2, 0.2, 0.8, 0.8])).toBeCloseTo(0.2, 12);
    expect(reliabilityBins([false, true], [0.05, 0.95]).filter((b) => b.count).map((b) => [b.lo, b.observed])).toEqual([
      [0, 0],
      [0.9, 1],
    ]);
  });

  test("equal-mass bins hold equal counts", () => {
    const p = Array.from({ length: 100 }, (_, i) => (i / 100) ** 3);
    const counts = reliabilityBins(p.map((x) => x > 0.5), p, 10, "equal-mass").map((b) => b.count);
    expect(counts).toEqual(Array(10).fill(10));
  });

  test("property: brier and log loss are zero for perfect certain answers and ECE lies in [0,1]", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 50 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 50, maxLength: 50 }), (y, raw) => {
        const p = raw.slice(0, y.length);
        expect(brier(y, y.map((v) => (v ? 1 : 0)))).toBe(0);
        expect(logLoss(y, y.map((v) => (v ? 1 : 0)))).toBeLessThan(1e-10);
        const e = ece(y, p);
        expect(e).toBeGreaterThanOrEqual(0);
        expect(e).toBeLessThanOrEqual(1);
      }),
    );
  });

  test("a perfectly calibrated source at small n still shows ECE well above zero; the expectation says how much", () => {
    const p = Array.from({ length: 40 }, (_, i) => 0.1 + 0.8 * (i / 39));
    const floor = expectedEceIfCalibrated(p);
    expect(floor).toBeGreaterThan(0.05);
    expect(expectedEceIfCalibrated(Array.from({ length: 4000 }, (_, i) => 0.1 + 0.8 * (i / 3999)), 10, "equal-width", 20)).toBeLessThan(floor / 3);
  });

  test("bootstrap intervals contain the point estimate and are deterministic", () => {
    const y = [true, false, true, true, false, false, true, false, true, true];
    const p = [0.9, 0.2, 0.7, 0.6, 0.4, 0.1, 0.8, 0.3, 0.55, 0.95];
    const [lo, hi] = bootstrapCI(y, p, brier);
    expect(lo).toBeLessThanOrEqual(brier(y, p));
    expect(hi).toBeGreaterThanOrEqual(brier(y, p));
    expect(bootstrapCI(y, p, brier)).toEqual([lo, hi]);
  });

  test("risk-coverage: confident right answers first; AURC of a perfect ranker is lower than a reversed one", () => {
    const y = [true, true, false, false];
    const good = riskCoverage(y, [0.99, 0.9, 0.4, 0.3]);
    expect(good.map((c) => c.risk)).toEqual([0, 0, 0, 0]);
    const bad = riskCoverage(y, [0.45, 0.4, 0.99, 0.95]);
    expect(aurc(bad)).toBeGreaterThan(aurc(good));
  });
});
