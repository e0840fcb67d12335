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

const top = (a: ReturnType<typeof baseline>[string]) => (a?.type === "yes_no" ? a.p_yes >= 0.5 : a?.type === "choice" ? Object.entries(a.distribution).sort((x, y) => y[1] - x[1])[0]![0] : a?.value);
/** The answer of each yes/no question that removes work. */
const STOPS: Record<string, boolean> = { context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false, verification_escalation: false };

export function scorePreEdit(split: string) {
  const cases = loadSuites([PRE_EDIT_SUITE], AGENT_CONTEXT, true).cases.filter((c) => c.tags?.includes(split));
  const rows = [...Object.keys(STOPS), "risk_surface"].map((q) => {
    const labelled = cases.filter((c) => c.labels[q] !== undefined);
    const answers = labelled.map((c) => ({ id: c.id, got: top(baseline(c.state, AGENT_CONTEXT)[q]!), want: c.labels[q] }));
    const wrong = answers.filter((a) => a.got !== a.want);
    const stops = q in STOPS ? wrong.filter((a) => a.got === STOPS[q]).length : 0;
    return { question: q, n: labelled.length, accuracy: labelled.length ? 1 - wrong.length / labelled.length : 1, falseStop: labelled.length ? stops / labelled.length : 0, wrong: wrong.map((w) => `${w.id}: ${String(w.got)} (label ${String(w.want)})`) };
  });
  return { cases: cases.length, rows };
}

if (import.meta.main) {
  const at = process.argv.indexOf("--split");
  for (const split of at > 0 ? [process.argv[at + 1]!] : ["dev", "test"]) {
    const { cases, rows } = scorePreEdit(split);
    console.log(`pre-edit suite, ${split} split: ${cases} cases`);
    for (const r of rows) {
      console.log(`  ${r.question.padEnd(30)} n ${String(r.n).padStart(3)}  accuracy ${r.accuracy.toFixed(3)}  false-stop ${r.falseStop.toFixed(3)}`);
      if (split === "dev") for (const w of r.wrong) console.log(`      ${w}`);
    }
  }
}
