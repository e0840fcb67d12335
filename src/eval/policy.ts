import { z } from "zod";

/** policies/decision-policy.json: calibrated, versioned thresholds written by `weir eval calibrate`. */
export const DecisionPolicy = z.object({
  kind: z.literal("weir.decision-policy"),
  question_set: z.string(),
  provider: z.string(),
  requested_model: z.string().nullable(),
  resolved_model: z.string().nullable(),
  sample_size: z.number().int(),
  created: z.string(),
  targets: z.object({ max_false_stop: z.number(), max_false_continue: z.number() }),
  questions: z.record(
    z.string(),
    z.object({
      calibrator: z.unknown(),
      calibrator_choice: z.object({ chosen: z.string(), held_out_log_loss: z.record(z.string(), z.number()) }).optional(),
      band: z.object({ yes: z.number(), no: z.number(), coverage: z.number(), falseStop: z.number(), falseContinue: z.number(), feasible: z.boolean() }).optional(),
      conformal: z.object({ alpha: z.number(), qhat: z.number(), singleton_rate: z.number(), empirical_coverage: z.number() }).optional(),
      option_thresholds: z.record(z.string(), z.object({ threshold: z.number(), coverage: z.number(), error: z.number() })).optional(),
      held_out: z.record(z.string(), z.number()).optional(),
    }),
  ),
});
export type DecisionPolicy = z.infer<typeof DecisionPolicy>;

/**
 * Whether a policy applies to the active question set and judgment model. A mismatch is a warning
 * and the judgment stays in shadow; it never silently applies thresholds fitted to another model.
 */
export function policyMismatch(p: DecisionPolicy, questionSet: string, provider: string, model: string | undefined): string | undefined {
  if (p.question_set !== questionSet) return `the decision policy is for ${p.question_set}, not ${questionSet}`;
  if (p.provider !== provider) return `the decision policy was calibrated for provider ${p.provider}, not ${provider}`;
  if (model && p.requested_model && p.requested_model !== model) return `the decision policy was calibrated for model ${p.requested_model}, not ${model}`;
  return undefined;
}
