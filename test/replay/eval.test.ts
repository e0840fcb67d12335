import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseline } from "../../src/decision/baseline.ts";
import { AGENT_CONTEXT_V2 } from "../../src/decision/questions.ts";
import { applyCalibrator } from "../../src/decision/calibrator.ts";
import { chooseBand, conformal, fitIsotonic, fitPlatt } from "../../src/replay/calibrate.ts";
import { features, FEATURES, foldOf, predictLearned, trainLearned } from "../../src/replay/learned.ts";
import { joinResults, replay, shardCases } from "../../src/replay/replay.ts";
import { loadSuites } from "../../src/replay/suite.ts";
import { EvalStore } from "../../src/store/eval.ts";
import { request } from "../support/requests.ts";
import { tempDir } from "../support/temp.ts";

const SUITE = join(import.meta.dir, "..", "..", "eval", "suites", "agent-context.jsonl");
let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp?.cleanup());

describe("suites", () => {
  test("the bundled suite: at least 150 valid cases covering every question and every option, with adversarial and boundary cases", () => {
    const s = loadSuites([SUITE], AGENT_CONTEXT_V2);
    expect(s.problems).toEqual([]);
    expect(s.cases.length).toBeGreaterThanOrEqual(150);
    for (const q of AGENT_CONTEXT_V2.questions) {
      expect(s.cases.every((c) => c.labels[q.id] !== undefined)).toBe(true);
      if (q.type === "choice") for (const o of q.options) expect(s.cases.some((c) => c.labels[q.id] === o.id)).toBe(true);
      if (q.type === "yes_no") expect(new Set(s.cases.map((c) => c.labels[q.id])).size).toBe(2);
    }
    expect(s.cases.filter((c) => c.tags?.includes("adversarial")).length).toBeGreaterThan(20);
    expect(s.cases.filter((c) => c.tags?.includes("boundary")).length).toBeGreaterThan(20);
  });

  test("a bad line is reported with its line number and field and skipped; --strict stops; another version is refused", () => {
    tmp = tempDir();
    const good = readFileSync(SUITE, "utf8").split("\n")[0]!;
    const c = JSON.parse(good);
    const file = join(tmp.path, "s.jsonl");
    writeFileSync(
      file,
      [good, "{not json", JSON.stringify({ ...c, id: "x2", state: { ...c.state, targets: "nope" } }), JSON.stringify({ ...c, id: "x3", question_set: "weir.agent_context@1" }), JSON.stringify({ ...c, id: "x4", labels: { next_action: "teleport" } })].join("\n"),
    );
    const s = loadSuites([file], AGENT_CONTEXT_V2);
    expect(s.cases.map((x) => x.id)).toEqual([c.id]);
    expect(s.problems.map((p) => [p.line, p.message.split(":")[0]])).toEqual([
      [2, "not valid JSON"],
      [3, "field state.targets"],
      [4, "case x3 is for question set weir.agent_context@1; this replay uses weir.agent_context@2 (a new version needs its own suite)"],
      [5, "case x4"],
    ]);
    expect(() => loadSuites([file], AGENT_CONTEXT_V2, true)).toThrow(`${file}:2: not valid JSON`);
  });
});

describe("the learned provider", () => {
  test("learns a separable signal and gives probabilities between 0 and 1", () => {
    const cases = Array.from({ length: 60 }, (_, i) => {
      const unread = i % 2 === 0;
      const state = request({ targets: [{ ...request().targets[0]!, read: !unread, body_complete: !unread }] });
      return { state, labels: { context_sufficient: !unread } as Record<string, unknown> };
    });
    const m = trainLearned(AGENT_CONTEXT_V2, "weir.agent_context@2", cases, "h");
    expect(m.features).toEqual([...FEATURES]);
    const pRead = (predictLearned(m, AGENT_CONTEXT_V2, cases[1]!.state).context_sufficient as { p_yes: number }).p_yes;
    const pUnread = (predictLearned(m, AGENT_CONTEXT_V2, cases[0]!.state).context_sufficient as { p_yes: number }).p_yes;
    expect(pRead).toBeGreaterThan(0.8);
    expect(pUnread).toBeLessThan(0.2);
  });

  test("features are a fixed-length numeric vector in [0,1]; folds are stable", () => {
    const f = features(request());
    expect(f).toHaveLength(FEATURES.length);
    for (const x of f) expect(x >= 0 && x <= 1).toBe(true);
    expect(foldOf("case-a", 5)).toBe(foldOf("case-a", 5));
  });
});

describe("calibration", () => {
  test("isotonic is monotone; Platt fixes a systematically overconfident source", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), { minLength: 2, maxLength: 60 }), (pairs) => {
        const c = fitIsotonic(pairs.map((x) => x[0]), pairs.map((x) => x[1]));
        const xs = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1].map((x) => applyCalibrator(c, x));
        for (let i = 1; i < xs.length; i++) expect(xs[i]!).toBeGreaterThanOrEqual(xs[i - 1]!);
      }),
    );
    // Says 0.95 when the truth is 60%: Platt pulls it toward 0.6.
    const p = Array.from({ length: 200 }, (_, i) => (i % 2 ? 0.95 : 0.05));
    const y = p.map((x, i) => (x > 0.5 ? i % 10 < 6 : i % 10 >= 6));
    const c = fitPlatt(p, y);
    expect(applyCalibrator(c, 0.95)).toBeGreaterThan(0.5);
    expect(applyCalibrator(c, 0.95)).toBeLessThan(0.8);
  });

  test("the band meets the false-stop target at the highest coverage it can", () => {
    const p = [0.99, 0.95, 0.9, 0.8, 0.7, 0.4, 0.3, 0.1, 0.05, 0.01];
    const y = [true, true, true, false, true, false, false, false, false, false];
    const b = chooseBand(p, y, true, 0, 0.5);
    expect(b.falseStop).toBe(0);
    expect(b.yes).toBeGreaterThan(0.8);
    expect(b.coverage).toBeGreaterThan(0.5);
  });

  test("split-conformal sets reach their coverage; uncertain cases get both answers", () => {
    const p = Array.from({ length: 400 }, (_, i) => (i % 100) / 100);
    const y = p.map((x, i) => ((i * 7919) % 100) / 100 < x);
    const c = conformal(p.slice(0, 200), y.slice(0, 200), 0.1);
    const covered = p.slice(200).filter((x, i) => c.setFor(x).includes(y[200 + i]!)).length / 200;
    expect(covered).toBeGreaterThanOrEqual(0.85);
    expect(c.setFor(0.5)).toEqual([true, false]);
  });
});

describe("replay, resume, shards and merge", () => {
  const suite = () => loadSuites([SUITE], AGENT_CONTEXT_V2);

  test("an interrupted run resumes where it stopped, storing each result once", async () => {
    tmp = tempDir();
    const s = suite();
    const store = EvalStore.open(join(tmp.path, "eval.db"));
    const runId = store.createRun({ suite_hash: s.hash, suites: JSON.stringify([SUITE]), provider: "baseline", model: null, question_set: "weir.agent_context@2", shard: "all", total: s.cases.length });
    const controller = new AbortController();
    await replay({ set: AGENT_CONTEXT_V2, questionSet: "weir.agent_context@2", cases: s.cases, store, runId, source: { kind: "baseline" }, concurrency: 1, signal: controller.signal, onProgress: (p) => p.done === 40 && controller.abort() });
    expect(store.done(runId).size).toBe(40);
    const p = await replay({ set: AGENT_CONTEXT_V2, questionSet: "weir.agent_context@2", cases: s.cases, store, runId, source: { kind: "baseline" }, concurrency: 3 });
    expect(p.done).toBe(s.cases.length);
    expect(store.results(runId)).toHaveLength(s.cases.length);
    const joined = joinResults(s.cases, store.results(runId));
    expect(joined[0]!.baseline).toEqual(baseline(s.cases.find((c) => c.id === joined[0]!.id)!.state));
    store.close();
  });

  test("shards cover every case exactly once", () => {
    const ids = Array.from({ length: 23 }, (_, i) => i);
    const all = [...shardCases(ids, "1/3"), ...shardCases(ids, "2/3"), ...shardCases(ids, "3/3")].sort((a, b) => a - b);
    expect(all).toEqual(ids);
    expect(() => shardCases(ids, "4/3")).toThrow("1 <= i <= n");
  });
});

describe("the report's plain summary", () => {
  test("it says what was measured, gives a verdict per yes/no question, and warns when the baseline matches every label", async () => {
    const { plainSummary } = await import("../../src/replay/report.ts");
    const yes = (acc: number, fs: number) => ({ n: 10, accuracy: acc, falseStop: fs }) as never;
    const base = { cases: 10, withCandidate: 0, disagreements: [] } as never as Record<string, unknown>;
    const perfect = plainSummary({ ...base, questions: [{ type: "yes_no", id: "context_sufficient", baseline: yes(1, 0) }, { type: "choice", id: "next_action", baseline: { accuracy: 1 } }] } as never, { question_set: "weir.agent_context@2" });
    expect(perfect.lines[0]).toContain("10 labelled cases");
    expect(perfect.lines.join("\n")).toContain("context_sufficient: baseline meets the target");
    expect(perfect.labelsFromBaseline).toBe(true);
    const real = plainSummary({ ...base, questions: [{ type: "yes_no", id: "context_sufficient", baseline: yes(0.84, 0.078) }, { type: "choice", id: "next_action", baseline: { accuracy: 0.79 } }] } as never, {});
    expect(real.lines.join("\n")).toContain("context_sufficient: baseline misses the target (accuracy 0.840, false-stop 0.078)");
    expect(real.labelsFromBaseline).toBe(false);
    // Where the labels came from is said, and the caution fits it.
    const perfectQs = [{ type: "yes_no", id: "context_sufficient", baseline: yes(1, 0) }];
    const fromCriteria = plainSummary({ ...base, questions: perfectQs } as never, { label_sources: { criteria: 30, outcome: 0, human: 0, unmarked: 0 } }).lines.join("\n");
    expect(fromCriteria).toContain("Labels: 30 written from the criteria.");
    expect(fromCriteria).toContain("two readings of the criteria agree");
    const mixed = plainSummary({ ...base, questions: perfectQs } as never, { label_sources: { criteria: 0, outcome: 4, human: 2, unmarked: 1 } }).lines.join("\n");
    expect(mixed).toContain("Labels: 4 from what happened next in real sessions, 2 set or confirmed by a person, 1 with no recorded source.");
  });
});

describe("the HTML report", () => {
  test("a disagreement whose case is in no suite read (another shard's) is listed without its state, not a crash", async () => {
    const { htmlReport } = await import("../../src/replay/report.ts");
    const { analyse } = await import("../../src/replay/analysis.ts");
    const state = request();
    const b = baseline(state);
    const labels = Object.fromEntries(Object.entries(b).map(([q, a]) => [q, a.type === "yes_no" ? a.p_yes >= 0.5 : a.type === "choice" ? Object.keys(a.distribution)[0]! : a.value]));
    // A candidate that answers every yes/no question the other way: the case is a disagreement.
    const flipped = Object.fromEntries(Object.entries(b).map(([q, a]) => [q, a.type === "yes_no" ? { ...a, p_yes: 1 - a.p_yes } : a]));
    const c = { id: "elsewhere", question_set: AGENT_CONTEXT_V2.id, state, labels };
    const row = { case_id: "elsewhere", baseline: JSON.stringify(b), candidate: JSON.stringify(flipped) };
    const report = analyse(AGENT_CONTEXT_V2, joinResults([c], [row]));
    expect(report.disagreements.map((d) => d.id)).toEqual(["elsewhere"]);
    const without = htmlReport(report, { run: "r" }, new Map());
    expect(without).toContain("<summary>elsewhere:");
    expect(without).toContain("not in the suites read");
    const withState = htmlReport(report, { run: "r" }, new Map([["elsewhere", { state, labels }]]));
    expect(withState).not.toContain("not in the suites read");
    expect(withState).toContain("&quot;labels&quot;");
  });
});
