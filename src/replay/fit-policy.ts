import type { QuestionSet } from "../decision/questions.ts";
import { topChoice } from "../decision/questions.ts";
import type { CaseResult } from "./analysis.ts";
import { applyCalibrator } from "../decision/calibrator.ts";
import { certifyReduction, chooseBand, chooseCalibrator, conformal, REDUCING_ANSWER } from "./calibrate.ts";
import { foldOf } from "./learned.ts";
import { brier } from "./metrics.ts";
import type { DecisionPolicy } from "../decision/policy.ts";
import { groupOf } from "./replay.ts";

interface FitOptions {
  folds: number;
  maxFalseStop: number;
  maxFalseContinue: number;
  run: { question_set: string; provider: string; model: string | null | undefined; id?: string; suite_hash?: string };
  /** Certification cases a work reduction needs inside its band (calibrated mode). */
  minCertifyCases?: number;
  now?: Date;
}

/**
 * Fits a decision policy from replayed results with candidate answers: per yes/no question the
 * calibrator chosen on held-out folds, the band meeting the false-stop / false-continue targets,
 * split-conformal figures and held-out Brier; per choice question the option thresholds. Pure
 * (the caller writes the file). Returns the policy and one summary line per question.
 */
export function fitPolicy(withCand: CaseResult[], set: QuestionSet, opts: FitOptions): { policy: DecisionPolicy; lines: string[] } {
  const k = opts.folds;
  const maxFs = opts.maxFalseStop;
  const maxFc = opts.maxFalseContinue;
  const lines: string[] = [];
  const questions: DecisionPolicy["questions"] = {};
  for (const q of set.questions) {
    const rows = withCand.filter((r) => r.labels[q.id] !== undefined && r.candidate![q.id]);
    if (q.type === "yes_no" && rows.length) {
      const p = rows.map((r) => (r.candidate![q.id] as { p_yes: number }).p_yes);
      const y = rows.map((r) => r.labels[q.id] === true);
      const fi = rows.map((r) => foldOf(groupOf(r.id), k));
      const { calibrator, heldOut } = chooseCalibrator(p, y, fi, k);
      // Held-out calibrated probabilities: each fold calibrated by a map fitted on the others.
      const perFold = new Map<number, ReturnType<typeof chooseCalibrator>["calibrator"]>();
      for (const f of new Set(fi)) {
        const trainIdx = p.map((_, j) => j).filter((j) => fi[j] !== f);
        perFold.set(
          f,
          trainIdx.length
            ? chooseCalibrator(
                trainIdx.map((j) => p[j]!),
                trainIdx.map((j) => y[j]!),
                trainIdx.map((j) => fi[j]!),
                k,
              ).calibrator
            : { kind: "identity" },
        );
      }
      const cal = p.map((x, i) => applyCalibrator(perFold.get(fi[i]!)!, x));
      const reducing = q.id === "context_sufficient";
      const band = chooseBand(cal, y, reducing, maxFs, maxFc);
      const half = cal.map((_, i) => i % 2 === 0);
      const conf = conformal(cal.filter((_, i) => half[i]), y.filter((_, i) => half[i]), 0.1);
      const evalIdx = cal.map((_, i) => i).filter((i) => !half[i]);
      const sets = evalIdx.map((i) => conf.setFor(cal[i]!));
      questions[q.id] = {
        calibrator,
        calibrator_choice: { chosen: calibrator.kind, held_out_log_loss: heldOut },
        band,
        conformal: {
          alpha: 0.1,
          qhat: conf.qhat,
          singleton_rate: sets.filter((s) => s.length === 1).length / (sets.length || 1),
          empirical_coverage: evalIdx.filter((i, k2) => sets[k2]!.includes(y[i]!)).length / (evalIdx.length || 1),
        },
        held_out: { raw_brier: brier(y, p), calibrated_brier: brier(y, cal) },
        // Calibrated mode: where (if anywhere) the judge may reduce work on this question.
        ...(REDUCING_ANSWER[q.id]
          ? { reduction: certifyReduction(cal, y, REDUCING_ANSWER[q.id]!, { maxFalseStop: maxFs, minCases: opts.minCertifyCases ?? 200 }) }
          : {}),
      };
      const red = questions[q.id]!.reduction;
      if (red) {
        const verdict = red.certified ? `certified at ${red.reducing === "yes" ? ">=" : "<="}${red.threshold.toFixed(2)}` : "not certified";
        const needs = `needs >= ${opts.minCertifyCases ?? 200} cases and <= ${maxFs}`;
        lines.push(
          `${"".padEnd(30)} calibrated reduction (${red.reducing}): ${verdict}: ${red.false_stops} false ` +
            `stops in ${red.n} certification cases, upper 95% bound ${red.upper_bound.toFixed(3)} (${needs})`,
        );
      }
      const rates = `coverage ${(100 * band.coverage).toFixed(0)}% false-stop ${band.falseStop.toFixed(3)} false-continue ${band.falseContinue.toFixed(3)}`;
      const abstains = band.coverage === 0 ? "  (abstains everywhere: targets not met)" : "";
      lines.push(`${q.id.padEnd(30)} ${calibrator.kind.padEnd(8)} band no<=${band.no.toFixed(2)} yes>=${band.yes.toFixed(2)} ${rates}${abstains}`);
    } else if (q.type === "choice" && rows.length) {
      const thresholds: Record<string, { threshold: number; coverage: number; error: number }> = {};
      for (const o of q.options) {
        // Options that remove work (edit_then_verify, risk none) get the stricter target.
        const limit = o.id === "edit_then_verify" || o.id === "none" ? maxFs : maxFc;
        let best = { threshold: 1.01, coverage: 0, error: 0 };
        for (let t = 0; t <= 100; t++) {
          const th = t / 100;
          const picked = rows.filter(
            (r) =>
              topChoice(q, r.candidate![q.id] as never) === o.id &&
              ((r.candidate![q.id] as { distribution: Record<string, number> }).distribution[o.id] ?? 0) >= th,
          );
          const wrong = picked.filter((r) => r.labels[q.id] !== o.id).length;
          if (picked.length && wrong / rows.length <= limit && picked.length / rows.length > best.coverage)
            best = { threshold: th, coverage: picked.length / rows.length, error: wrong / rows.length };
        }
        thresholds[o.id] = best;
      }
      questions[q.id] = { calibrator: { kind: "identity" }, option_thresholds: thresholds };
    }
  }
  const policy: DecisionPolicy = {
    kind: "weir.decision-policy",
    question_set: opts.run.question_set,
    provider: opts.run.provider,
    requested_model: opts.run.model ?? null,
    resolved_model: opts.run.model ?? null,
    sample_size: withCand.length,
    created: (opts.now ?? new Date()).toISOString(),
    targets: { max_false_stop: maxFs, max_false_continue: maxFc },
    ...(opts.run.id ? { source: { run: opts.run.id, ...(opts.run.suite_hash ? { suite_hash: opts.run.suite_hash } : {}) } } : {}),
    questions,
  };
  return { policy, lines };
}
