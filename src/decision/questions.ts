import { z } from "zod";
import agentContextV1 from "../../policies/question-sets/weir.agent_context@1.json" with { type: "json" };
import agentContextV2 from "../../policies/question-sets/weir.agent_context@2.json" with { type: "json" };
import agentContextV3 from "../../policies/question-sets/weir.agent_context@3.json" with { type: "json" };
import agentContextV4 from "../../policies/question-sets/weir.agent_context@4.json" with { type: "json" };

/** A question set is a versioned API contract; changing a question's meaning makes a new version. */
const Question = z.discriminatedUnion("type", [
  z.object({ id: z.string(), type: z.literal("yes_no"), text: z.string(), true_when: z.string(), false_when: z.string() }),
  z.object({
    id: z.string(),
    type: z.literal("choice"),
    text: z.string(),
    priority: z.string(),
    options: z.array(z.object({ id: z.string(), use_when: z.string(), do_not_use_when: z.string() })).min(2),
  }),
  z.object({ id: z.string(), type: z.literal("score"), text: z.string(), criteria: z.string() }),
]);
export const QuestionSet = z.object({ id: z.string(), version: z.number().int().positive(), description: z.string(), questions: z.array(Question).min(1) });
export type QuestionSet = z.infer<typeof QuestionSet>;
type Question = QuestionSet["questions"][number];

/** @1 stays loadable: its records, suites and policies keep their meaning. */
export const AGENT_CONTEXT_V1: QuestionSet = QuestionSet.parse(agentContextV1);
/** @2 reads @1's criteria as written and settles where it was silent (docs/decision-plane.md). */
export const AGENT_CONTEXT_V2: QuestionSet = QuestionSet.parse(agentContextV2);
/** @3 settles what an independent reading of @2 found ambiguous or contradictory (docs/decision-plane.md). */
export const AGENT_CONTEXT_V3: QuestionSet = QuestionSet.parse(agentContextV3);
/** @4 settles three states in which @3's reading asked for work that cannot help (docs/decision-plane.md). */
export const AGENT_CONTEXT_V4: QuestionSet = QuestionSet.parse(agentContextV4);
/** The set runs ask and record today. */
export const AGENT_CONTEXT: QuestionSet = AGENT_CONTEXT_V4;
export const setKey = (q: QuestionSet) => `${q.id}@${q.version}`;

/** The question set a key (`weir.agent_context@1`) names, if weir knows it. */
export function questionSetFor(key: string): QuestionSet | undefined {
  return [AGENT_CONTEXT_V1, AGENT_CONTEXT_V2, AGENT_CONTEXT_V3, AGENT_CONTEXT_V4].find((q) => setKey(q) === key);
}

/** Answers of one source to one request, in the same typed shape for the baseline and any provider. */
export const Answer = z.discriminatedUnion("type", [
  z.object({ type: z.literal("yes_no"), p_yes: z.number().min(0).max(1) }),
  z.object({ type: z.literal("choice"), distribution: z.record(z.string(), z.number().min(0)) }),
  z.object({ type: z.literal("score"), value: z.number().min(0).max(1) }),
]);
export type Answer = z.infer<typeof Answer>;
export type Answers = Record<string, Answer>;

/** The most probable option of a choice answer (ties: the option listed first). */
export function topChoice(q: Extract<Question, { type: "choice" }>, a: Extract<Answer, { type: "choice" }>): string {
  let best = q.options[0]!.id;
  for (const o of q.options) if ((a.distribution[o.id] ?? 0) > (a.distribution[best] ?? 0)) best = o.id;
  return best;
}

/** Checks an answer set against its question set: what is missing and what has the wrong shape. Pure. */
export function checkShape(set: QuestionSet, answers: Record<string, unknown>): { valid: Answers; missing: string[]; mismatched: string[] } {
  const valid: Answers = {};
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const q of set.questions) {
    const raw = answers[q.id];
    if (raw === undefined) {
      missing.push(q.id);
      continue;
    }
    const parsed = Answer.safeParse(raw);
    if (!parsed.success || parsed.data.type !== q.type) {
      mismatched.push(q.id);
      continue;
    }
    if (parsed.data.type === "choice") {
      const total = Object.values(parsed.data.distribution).reduce((a, b) => a + b, 0);
      if (total <= 0 || Object.keys(parsed.data.distribution).some((k) => q.type === "choice" && !q.options.some((o) => o.id === k))) {
        mismatched.push(q.id);
        continue;
      }
      parsed.data.distribution = Object.fromEntries(Object.entries(parsed.data.distribution).map(([k, v]) => [k, v / total]));
    }
    valid[q.id] = parsed.data;
  }
  return { valid, missing, mismatched };
}
