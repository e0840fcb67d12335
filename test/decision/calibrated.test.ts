import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { baseline } from "../../src/decision/baseline.ts";
import { type Guidance, guidanceFrom, mergeCalibrated, mergeIncreaseOnly, type ReducibleField } from "../../src/decision/merge.ts";
import { type AnswerPolicy, DecisionPlane, type DecisionRecord } from "../../src/decision/plane.ts";
import type { JudgmentProvider } from "../../src/decision/judges.ts";
import { binomialCdf, certifyReduction, clopperPearsonUpper } from "../../src/replay/calibrate.ts";
import { arbRequest, request } from "../support/requests.ts";

/** A seeded generator, so the synthetic judges below are the same on every run. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("Clopper–Pearson", () => {
  test("known values: 0 of 200 bounds at 1.49%, 1 of 200 at 2.35%; the bound is the exact binomial tail", () => {
    expect(clopperPearsonUpper(0, 200)).toBeCloseTo(1 - 0.05 ** (1 / 200), 6);
    expect(clopperPearsonUpper(1, 200)).toBeCloseTo(0.0235, 3);
    const u = clopperPearsonUpper(3, 150);
    expect(binomialCdf(3, 150, u)).toBeCloseTo(0.05, 6);
    expect(clopperPearsonUpper(5, 5)).toBe(1);
    expect(clopperPearsonUpper(0, 0)).toBe(1);
  });

  test("the bound is at least the observed rate, grows with k and shrinks with n (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.nat(400), (n, k0) => {
        const k = Math.min(k0, n - 1);
        const u = clopperPearsonUpper(k, n);
        expect(u).toBeGreaterThanOrEqual(k / n);
        expect(clopperPearsonUpper(k + 1, n)).toBeGreaterThanOrEqual(u - 1e-12);
        expect(clopperPearsonUpper(k, n + 50)).toBeLessThanOrEqual(u + 1e-12);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * A synthetic judge whose calibration is known: it reports q(p) while the truth is yes with
 * probability p. Its p are mostly confident (near 0 or 1), as a useful judge's are.
 */
function synthetic(n: number, seed: number, report: (p: number) => number) {
  const r = rng(seed);
  const p: number[] = [];
  const reported: number[] = [];
  const y: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const u = r() ** 4 * 0.5;
    const pi = r() < 0.5 ? u : 1 - u;
    p.push(pi);
    reported.push(report(pi));
    y.push(r() < pi);
  }
  return { p, reported, y };
}

/** The true false-stop rate of a "yes" reduction band on the known probabilities. */
const trueRate = (p: number[], reported: number[], t: number) => {
  const band = p.filter((_, i) => reported[i]! >= t);
  return band.reduce((s, x) => s + (1 - x), 0) / band.length;
};

describe("certifying a work reduction", () => {
  test("a calibrated judge with enough cases is certified, and its band's true false-stop rate is within the target", () => {
    const s = synthetic(6000, 7, (p) => p);
    const c = certifyReduction(s.reported, s.y, "yes", { maxFalseStop: 0.02, minCases: 200 });
    expect(c.certified).toBe(true);
    expect(c.n).toBeGreaterThanOrEqual(200);
    expect(c.upper_bound).toBeLessThanOrEqual(0.02);
    expect(trueRate(s.p, s.reported, c.threshold)).toBeLessThanOrEqual(0.02);
  });

  test("an overconfident judge is held to the labels, not to what it claims", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const s = synthetic(6000, seed, (p) => p ** 0.25);
      const c = certifyReduction(s.reported, s.y, "yes", { maxFalseStop: 0.02, minCases: 200 });
      if (c.certified) expect(trueRate(s.p, s.reported, c.threshold)).toBeLessThanOrEqual(0.02);
    }
  });

  test("over many calibration sets, a certified band's true rate exceeds the target far less often than 5%", () => {
    let certified = 0;
    let wrong = 0;
    for (let seed = 100; seed < 160; seed++) {
      const s = synthetic(2500, seed, (p) => Math.min(1, p * 1.02));
      const c = certifyReduction(s.reported, s.y, "yes", { maxFalseStop: 0.02, minCases: 200 });
      if (!c.certified) continue;
      certified++;
      if (trueRate(s.p, s.reported, c.threshold) > 0.02) wrong++;
    }
    expect(certified).toBeGreaterThan(10);
    expect(wrong / certified).toBeLessThanOrEqual(0.05);
  });

  test("too few cases, or a judge that cannot tell, is never certified", () => {
    const few = synthetic(300, 9, (p) => p);
    expect(certifyReduction(few.reported, few.y, "yes", { maxFalseStop: 0.02, minCases: 200 }).certified).toBe(false);
    const blind = synthetic(6000, 10, () => 0.97);
    expect(certifyReduction(blind.reported, blind.y, "yes", { maxFalseStop: 0.02, minCases: 200 }).certified).toBe(false);
    // A "no" reduction: a judge that says no only where the truth is almost surely no.
    const s = synthetic(6000, 11, (p) => p);
    const c = certifyReduction(s.reported, s.y, "no", { maxFalseStop: 0.02, minCases: 200 });
    expect(c.certified).toBe(true);
    expect(c.threshold).toBeLessThanOrEqual(0.05);
  });
});

const RANK = { none: 0, quick: 1, full: 2 } as const;
const arbGuidance: fc.Arbitrary<Guidance> = fc.record({
  retrieve: fc.boolean(),
  semantic_navigation: fc.boolean(),
  review_worktree: fc.boolean(),
  verification: fc.constantFrom("none", "quick", "full"),
  allow_edit: fc.boolean(),
  next_action: fc.constantFrom("retrieve", "semantic_navigation", "review_worktree", "edit_then_verify", "ask_user"),
  preload: fc.constant([]),
});
const arbFields = fc.subarray(["retrieve", "semantic_navigation", "verification"] as ReducibleField[]);

describe("the calibrated merge", () => {
  test("no floor moves: verification stays at quick or above once files changed, an edit is never newly allowed, uncertified fields are increase-only (property)", () => {
    fc.assert(
      fc.property(arbGuidance, arbGuidance, arbFields, fc.boolean(), (base, cand, fields, changed) => {
        const floorBase = changed && RANK[base.verification] < 1 ? { ...base, verification: "quick" as const } : base;
        const r = mergeCalibrated(floorBase, cand, new Set(fields), changed).guidance;
        const inc = mergeIncreaseOnly(floorBase, cand).guidance;
        if (changed) expect(RANK[r.verification]).toBeGreaterThanOrEqual(1);
        if (r.allow_edit) expect(floorBase.allow_edit).toBe(true);
        expect(r.review_worktree).toBe(inc.review_worktree);
        if (!fields.includes("retrieve")) expect(r.retrieve).toBe(inc.retrieve);
        if (!fields.includes("semantic_navigation")) expect(r.semantic_navigation).toBe(inc.semantic_navigation);
        if (!fields.includes("verification")) expect(r.verification).toBe(inc.verification);
      }),
      { numRuns: 500 },
    );
  });

  test("with nothing certified it is exactly the increase-only merge (property)", () => {
    fc.assert(
      fc.property(arbGuidance, arbGuidance, fc.boolean(), (base, cand, changed) => {
        expect(mergeCalibrated(base, cand, new Set(), changed).guidance).toEqual(mergeIncreaseOnly(base, cand).guidance);
      }),
    );
  });

  test("the baseline's guidance on any state, reduced where certified, keeps the verification floor (property)", () => {
    fc.assert(
      fc.property(arbRequest, fc.boolean(), (req, changed) => {
        const base = guidanceFrom(baseline(req), { yes: 0.5 }, changed);
        const none = guidanceFrom({ context_sufficient: { type: "yes_no", p_yes: 1 }, continue_retrieval: { type: "yes_no", p_yes: 0 }, semantic_navigation_required: { type: "yes_no", p_yes: 0 }, verification_escalation: { type: "yes_no", p_yes: 0 } }, { yes: 0.5 }, changed);
        const r = mergeCalibrated(base, none, new Set(["retrieve", "semantic_navigation", "verification"]), changed).guidance;
        if (changed) expect(r.verification).not.toBe("none");
        expect(r.allow_edit && !base.allow_edit).toBe(false);
      }),
    );
  });
});

describe("the plane in calibrated mode", () => {
  const judge = (p: number, resolvedModel = "judge-1"): JudgmentProvider => ({
    id: "synthetic",
    async judge() {
      return { answers: { continue_retrieval: { type: "yes_no", p_yes: p }, next_action: { type: "choice", distribution: { edit_then_verify: 0.9, retrieve: 0.1 } } }, resolvedModel, requestBytes: 10 };
    },
  });
  const policy: AnswerPolicy = { calibrate: (_q, p) => p, bands: {}, reductions: { continue_retrieval: { reducing: "no", threshold: 0.05 } }, resolvedModel: "judge-1" };
  // A state where the baseline wants more retrieval: the named target has not been read.
  const state = request({ targets: [{ path: "src/total.ts", named_by_user: true, read: false, sha_fresh: true, dirty_in_worktree: false, body_complete: false }] });
  const signal = new AbortController().signal;
  const run = async (mode: "calibrated" | "increase-only", j: JudgmentProvider, pol: AnswerPolicy | undefined = policy) => {
    const records: DecisionRecord[] = [];
    const plane = new DecisionPlane({ provider: j, mode, ...(pol ? { policy: pol } : {}), record: (r) => records.push(r) });
    return { d: await plane.decide(state, true, signal), records };
  };

  test("inside the certified band the judge removes the retrieval; outside it, or for another model, it cannot", async () => {
    expect(guidanceFrom(baseline(state), { yes: 0.5 }, true).retrieve).toBe(true);
    const inBand = await run("calibrated", judge(0.01));
    expect(inBand.d.guidance.retrieve).toBe(false);
    expect(inBand.records[0]!.reductions).toEqual(["retrieve"]);
    expect(inBand.d.guidance.verification).not.toBe("none");
    expect((await run("calibrated", judge(0.2))).d.guidance.retrieve).toBe(true);
    expect((await run("calibrated", judge(0.01, "another-model"))).d.guidance.retrieve).toBe(true);
    expect((await run("increase-only", judge(0.01))).d.guidance.retrieve).toBe(true);
    expect((await run("calibrated", judge(0.01), { calibrate: (_q, p) => p, bands: {} })).d.guidance.retrieve).toBe(true);
  });
});
