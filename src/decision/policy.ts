import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { join } from "node:path";
import type { Resolved } from "../config/resolve.ts";
import type { JudgmentMode } from "../config/options.ts";
import { configureJudge } from "./configure.ts";
import { type AnswerPolicy, type DecisionRecord, DecisionPlane } from "./plane.ts";
import { AGENT_CONTEXT, setKey } from "./questions.ts";
import type { JudgmentProvider } from "./judges.ts";
import { applyCalibrator, type Calibrator } from "./calibrator.ts";

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
  /** The eval run (and suite content) the policy was fitted on. */
  source: z.object({ run: z.string(), suite_hash: z.string().optional() }).optional(),
  questions: z.record(
    z.string(),
    z.object({
      calibrator: z.unknown(),
      calibrator_choice: z.object({ chosen: z.string(), held_out_log_loss: z.record(z.string(), z.number()) }).optional(),
      band: z
        .object({ yes: z.number(), no: z.number(), coverage: z.number(), falseStop: z.number(), falseContinue: z.number(), feasible: z.boolean() })
        .optional(),
      conformal: z.object({ alpha: z.number(), qhat: z.number(), singleton_rate: z.number(), empirical_coverage: z.number() }).optional(),
      option_thresholds: z.record(z.string(), z.object({ threshold: z.number(), coverage: z.number(), error: z.number() })).optional(),
      held_out: z.record(z.string(), z.number()).optional(),
      reduction: z
        .object({
          reducing: z.enum(["yes", "no"]),
          threshold: z.number(),
          n: z.number().int(),
          false_stops: z.number().int(),
          upper_bound: z.number(),
          alpha: z.number(),
          certified: z.boolean(),
          selection_n: z.number().int(),
        })
        .optional(),
    }),
  ),
});
export type DecisionPolicy = z.infer<typeof DecisionPolicy>;

/** Whether a policy applies to the active question set and judgment model; a mismatch never silently applies thresholds fitted to another. */
function policyMismatch(p: DecisionPolicy, questionSet: string, provider: string, model: string | undefined): string | undefined {
  if (p.question_set !== questionSet) return `the decision policy is for ${p.question_set}, not ${questionSet}`;
  if (p.provider !== provider) return `the decision policy was calibrated for provider ${p.provider}, not ${provider}`;
  if (model && p.requested_model && p.requested_model !== model) return `the decision policy was calibrated for model ${p.requested_model}, not ${model}`;
  return undefined;
}

/**
 * policies/decision-policy.json, when it was calibrated for the active question set, provider and
 * model. Otherwise a warning: for another question set the judge stays in shadow (`otherSet`); for
 * another provider or model its raw answers are used with the default threshold.
 */
function loadAnswerPolicy(file: string, questionSet: string, judge: JudgmentProvider, notices: string[]): { policy?: AnswerPolicy; otherSet?: true } {
  if (!existsSync(file)) return {};
  const parsed = DecisionPolicy.safeParse((() => {
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return undefined;
    }
  })());
  if (!parsed.success) {
    notices.push(`${file} is not a valid decision policy; ignored`);
    return {};
  }
  const why = policyMismatch(parsed.data, questionSet, judge.id, judge.requestedModel);
  if (why) {
    // A policy fitted on another question set says nothing of this one's answers: the baseline decides alone.
    if (parsed.data.question_set !== questionSet) {
      notices.push(`warning: ${why}; the baseline decides and the judgment stays in shadow (bun run eval calibrates this set)`);
      return { otherSet: true };
    }
    notices.push(`warning: ${why}; the policy is ignored and the judgment stays uncalibrated`);
    return {};
  }
  const qs = parsed.data.questions;
  const policy: AnswerPolicy = {
    calibrate: (q, p) => (qs[q]?.calibrator ? applyCalibrator(qs[q]!.calibrator as Calibrator, p) : p),
    bands: Object.fromEntries(Object.entries(qs).flatMap(([q, v]) => (v.band && v.band.coverage > 0 ? [[q, { yes: v.band.yes, no: v.band.no }]] : []))),
    // Only certified reductions, and only for the model the policy was fitted on.
    reductions: Object.fromEntries(
      Object.entries(qs).flatMap(([q, v]) => (v.reduction?.certified ? [[q, { reducing: v.reduction.reducing, threshold: v.reduction.threshold }]] : [])),
    ),
    resolvedModel: parsed.data.resolved_model,
  };
  return { policy };
}

/**
 * The run's decision plane: the configured judge (if any) under the policy pinned in the
 * workspace's `policies/decision-policy.json`, in the mode the flag or config asks (shadow by
 * default when a judge is configured, off without one). Calibrated mode says so when the policy
 * certifies no reduction for this judge. Problems are notices; the baseline always decides.
 */
export async function configurePlane(
  resolved: Resolved,
  o: { mode?: JudgmentMode; workspace: string; notices: string[]; record?: (r: DecisionRecord) => void },
): Promise<DecisionPlane> {
  const judge = await configureJudge(resolved, o.notices);
  const { policy, otherSet } = judge ? loadAnswerPolicy(join(o.workspace, "policies", "decision-policy.json"), setKey(AGENT_CONTEXT), judge, o.notices) : {};
  const asked: JudgmentMode = judge ? (o.mode ?? resolved.settings.judgment?.mode ?? "shadow") : "off";
  const mode: JudgmentMode = otherSet && asked !== "off" ? "shadow" : asked;
  if (mode === "calibrated" && !Object.keys(policy?.reductions ?? {}).length)
    o.notices.push(
      "--judgment calibrated: the pinned decision policy certifies no work reduction for this judge (each " +
        "needs >= 200 calibration cases in its band and an upper 95% false-stop bound <= 2%); the judgment " +
        "runs increase-only",
    );
  const timeoutMs = resolved.settings.judgment?.timeoutMs;
  return new DecisionPlane({
    ...(judge ? { provider: judge } : {}),
    ...(policy ? { policy } : {}),
    mode,
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(o.record ? { record: o.record } : {}),
  });
}
