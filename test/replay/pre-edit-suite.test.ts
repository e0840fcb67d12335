import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { buildSuite } from "../../eval/loop/build.ts";
import { PRE_EDIT_SUITE } from "../../eval/pre-edit/build.ts";
import { PRE_EDIT } from "../../eval/pre-edit/scenarios.ts";
import { scorePreEdit } from "../../eval/pre-edit/score.ts";
import { AGENT_CONTEXT } from "../../src/decision/questions.ts";
import { loadSuites } from "../../src/replay/suite.ts";

/**
 * The pre-edit suite (eval/pre-edit/): states the loop builds right before an edit, labelled from the
 * criteria. Its dev split holds the baseline to the targets; the test split is measured and reported
 * (bun eval/pre-edit/score.ts), not held here, so that nothing is tuned to pass it.
 */
describe("eval/suites/agent-context-pre-edit.jsonl", () => {
  test("60 cases or more in three languages, split by situation into dev and test, every label from the criteria", () => {
    const suite = loadSuites([PRE_EDIT_SUITE], AGENT_CONTEXT, true);
    expect(suite.problems).toEqual([]);
    expect(suite.cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(suite.cases.map((c) => c.tags![1])).size).toBe(3);
    const splitOf = (id: string) => suite.cases.find((c) => c.id === id)!.tags![2];
    // A situation's three languages share a split: no language of a held-out situation is tuned on.
    for (const s of PRE_EDIT) expect(splitOf(`pre-edit-${s.id}`)).toBe(PRE_EDIT.find((x) => x.id.replace(/^\w+-/, "") === s.id.replace(/^\w+-/, ""))!.split);
    expect(suite.cases.filter((c) => c.tags!.includes("test")).length).toBeGreaterThanOrEqual(20);
  });

  test("on the dev split, each labelled yes/no question is answered with accuracy >= 0.95 and false stops <= 0.02", () => {
    for (const r of scorePreEdit("dev").rows.filter((x) => x.question !== "risk_surface")) {
      expect([r.question, r.accuracy >= 0.95, r.falseStop <= 0.02]).toEqual([r.question, true, true]);
    }
  });

  test("its states are what the loop builds today", async () => {
    const lines = await buildSuite(PRE_EDIT, "pre-edit", (s) => [s.split]);
    const committed = readFileSync(PRE_EDIT_SUITE, "utf8").trimEnd().split("\n");
    expect(lines.flatMap((l, i) => (l === committed[i] ? [] : [(JSON.parse(l) as { id: string }).id]))).toEqual([]);
  }, 120_000);
});
