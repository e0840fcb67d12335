import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { baseline } from "../../src/decision/baseline.ts";
import { AGENT_CONTEXT } from "../../src/decision/questions.ts";
import { loadSuites } from "../../src/replay/suite.ts";
import { CLAUSES, oracle, type State } from "../../eval/independent/oracle.ts";

/** The independent suite, for the question set runs ask: what it must cover, that its labels are the oracle's, and where the baseline stands on it. */
const FILE = join(import.meta.dir, "..", "..", "eval", "suites", "agent-context-independent.jsonl");
const suite = loadSuites([FILE], AGENT_CONTEXT, true);
const scored = suite.cases.filter((c) => !c.tags?.includes("invariance"));
const top = (a: ReturnType<typeof baseline>[string] | undefined) => (a?.type === "yes_no" ? a.p_yes >= 0.5 : a?.type === "choice" ? Object.entries(a.distribution).sort((x, y) => y[1] - x[1])[0]![0] : a?.value);

describe("the independent suite", () => {
  test("at least 300 cases over at least 200 states distinct in what answers read; every clause both holds and fails; each sufficiency clause has boundary pairs", () => {
    expect(suite.cases.length).toBeGreaterThanOrEqual(300);
    const distinct = new Set(scored.map((c) => JSON.stringify({ ...c.state, task: "", retrieval: null, untrusted_notes: [], targets: c.state.targets.map((t) => ({ ...t, path: "" })), symbols: c.state.symbols.map((s) => ({ ...s, path: "", name: "" })) })));
    expect(distinct.size).toBeGreaterThanOrEqual(200);
    for (const cl of CLAUSES) {
      const n = scored.filter((c) => cl.holds(c.state as State)).length;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(scored.length);
    }
    for (const cl of CLAUSES.filter((c) => c.question === "context_sufficient")) expect(scored.filter((c) => c.tags?.includes(cl.id)).length).toBeGreaterThan(0);
  });

  test("its labels are the criteria oracle's, marked so (nobody edited them by hand or from the baseline)", () => {
    for (const c of suite.cases) {
      expect(c.labels).toEqual(oracle(c.state as State).labels);
      expect(Object.values(c.label_source ?? {}).every((s) => s === "criteria")).toBe(true);
    }
  });

  test("the baseline reaches accuracy >= 0.95 with false-stop <= 2% on every yes/no question, and invariance cases move nothing", () => {
    const answers = new Map(suite.cases.map((c) => [c.id, baseline(c.state, AGENT_CONTEXT)]));
    for (const q of AGENT_CONTEXT.questions.filter((x) => x.type === "yes_no")) {
      const right = scored.filter((c) => top(answers.get(c.id)![q.id]) === c.labels[q.id]).length;
      // A false stop: the answer that removes work (context sufficient; no retrieval, navigation or escalation) where the label needs it.
      const stops = scored.filter((c) => top(answers.get(c.id)![q.id]) === (q.id === "context_sufficient") && c.labels[q.id] !== (q.id === "context_sufficient")).length;
      expect(right / scored.length).toBeGreaterThanOrEqual(0.95);
      expect(stops / scored.length).toBeLessThanOrEqual(0.02);
    }
    for (const c of suite.cases.filter((x) => x.tags?.includes("invariance"))) expect(answers.get(c.id)).toEqual(answers.get(c.id.replace(/-2$/, "-1")));
  });
});
