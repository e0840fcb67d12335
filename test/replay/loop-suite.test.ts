import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { buildLoopSuite, SUITE } from "../../eval/loop/build.ts";
import { baseline } from "../../src/decision/baseline.ts";
import { questionSetFor } from "../../src/decision/questions.ts";
import { loadSuites } from "../../src/replay/suite.ts";

/**
 * The suite of states the loop's own state builder produced (eval/loop/): it loads under
 * weir.agent_context@4, spans the languages, carries criteria labels, the baseline answers each
 * label, and it is what the loop builds today (a drift in the state builder shows here first).
 */
describe("eval/suites/agent-context-loop.jsonl", () => {
  const set = questionSetFor("weir.agent_context@4")!;
  const suite = loadSuites([SUITE], set, true);

  test("loads under @4 with at least 30 cases in at least four languages, every label from the criteria", () => {
    expect(suite.problems).toEqual([]);
    expect(suite.cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(suite.cases.map((c) => c.tags![1])).size).toBeGreaterThanOrEqual(4);
    for (const c of suite.cases) {
      expect(Object.keys(c.labels).length).toBeGreaterThan(0);
      expect(Object.values(c.label_source!).every((s) => s === "criteria")).toBe(true);
    }
  });

  test("the baseline gives every labelled answer", () => {
    const wrong: string[] = [];
    for (const c of suite.cases) {
      const a = baseline(c.state, set);
      for (const [q, want] of Object.entries(c.labels)) {
        const got = a[q]!;
        const said = got.type === "yes_no" ? got.p_yes >= 0.5 : got.type === "choice" ? Object.entries(got.distribution).sort((x, y) => y[1] - x[1])[0]![0] : got.value;
        if (said !== want) wrong.push(`${c.id} ${q}: ${String(said)} (label ${String(want)})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("its states are what the loop builds today from the same repositories and scripts", async () => {
    const lines = await buildLoopSuite();
    const committed = readFileSync(SUITE, "utf8").trimEnd().split("\n");
    const differing = lines.flatMap((l, i) => (l === committed[i] ? [] : [(JSON.parse(l) as { id: string }).id]));
    expect(differing).toEqual([]);
    expect(lines.length).toBe(committed.length);
  }, 120_000);
});
