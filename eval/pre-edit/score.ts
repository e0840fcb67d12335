/**
 * The baseline on the pre-edit suite, per split: accuracy and false stops per labelled question
 * (a false stop: the answer that removes work where the label needs it). The test split is reported,
 * never tuned on.
 *   bun eval/pre-edit/score.ts [--split dev|test]
 */
import { baseline } from "../../src/decision/baseline.ts";
import { AGENT_CONTEXT } from "../../src/decision/questions.ts";
import { loadSuites } from "../../src/replay/suite.ts";
import { PRE_EDIT_SUITE } from "./build.ts";

/** The answer a baseline's distribution stands for: yes or no, the likeliest option, or the score. */
export function top(a: ReturnType<typeof baseline>[string]): unknown {
  if (a?.type === "yes_no") return a.p_yes >= 0.5;
  if (a?.type === "choice") return Object.entries(a.distribution).sort((x, y) => y[1] - x[1])[0]![0];
  return a?.value;
}
/** The answer of each yes/no question that removes work. */
export const STOPS: Record<string, boolean> = { context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false, verification_escalation: false };

export function scorePreEdit(split: string) {
  const cases = loadSuites([PRE_EDIT_SUITE], AGENT_CONTEXT, true).cases.filter((c) => c.tags?.includes(split));
  const rows = [...Object.keys(STOPS), "risk_surface"].map((q) => {
    const labelled = cases.filter((c) => c.labels[q] !== undefined);
    const answers = labelled.map((c) => ({ id: c.id, got: top(baseline(c.state, AGENT_CONTEXT)[q]!), want: c.labels[q] }));
    const wrong = answers.filter((a) => a.got !== a.want);
    const stops = q in STOPS ? wrong.filter((a) => a.got === STOPS[q]).length : 0;
    const share = (k: number) => (labelled.length ? k / labelled.length : 0);
    const named = wrong.map((w) => `${w.id}: ${String(w.got)} (label ${String(w.want)})`);
    return { question: q, n: labelled.length, accuracy: 1 - share(wrong.length), falseStop: share(stops), wrong: named };
  });
  return { cases: cases.length, rows };
}

if (import.meta.main) {
  const at = process.argv.indexOf("--split");
  for (const split of at > 0 ? [process.argv[at + 1]!] : ["dev", "test"]) {
    const { cases, rows } = scorePreEdit(split);
    console.log(`pre-edit suite, ${split} split: ${cases} cases`);
    for (const r of rows) {
      const figures = `n ${String(r.n).padStart(3)}  accuracy ${r.accuracy.toFixed(3)}  false-stop ${r.falseStop.toFixed(3)}`;
      console.log(`  ${r.question.padEnd(30)} ${figures}`);
      if (split === "dev") for (const w of r.wrong) console.log(`      ${w}`);
    }
  }
}
