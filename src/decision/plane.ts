import type { JudgmentMode } from "../config/options.ts";
import { baseline } from "./baseline.ts";
import { type Guidance, guidanceFrom, mergeCalibrated, mergeIncreaseOnly, REDUCES, type Thresholds } from "./merge.ts";
import type { JudgmentProvider } from "./judges.ts";
import { AGENT_CONTEXT, type Answers, checkShape, type QuestionSet, setKey, topChoice } from "./questions.ts";
import { type DecisionRequest, requestHash } from "./request.ts";

export type { JudgmentMode };

/** One compared decision: what the baseline and the candidate said about the same request. */
export interface DecisionRecord {
  request_hash: string;
  question_set: string;
  provider: string;
  requested_model?: string;
  resolved_model?: string;
  latency_ms?: number;
  tokens?: { input: number; output: number };
  request_bytes?: number;
  baseline: Answers;
  candidate?: Answers;
  /** Per signal: the candidate's P(yes) or score minus the baseline's; for choices whether the top option differs. */
  deltas: Record<string, number | boolean>;
  missing: string[];
  mismatched: string[];
  violations: string[];
  /** Calibrated mode: the guidance fields the candidate lowered inside a certified band. */
  reductions?: string[];
  error?: string;
  mode: JudgmentMode;
  /** The state the decision was made on, so a session's decisions can be captured and replayed. */
  request?: DecisionRequest;
  /** Where in the session it was made: the index of the assistant message that followed. */
  at?: number;
}

/** Compares two answer sets signal by signal. Pure. */
export function compare(set: QuestionSet, base: Answers, cand: Answers): Record<string, number | boolean> {
  const out: Record<string, number | boolean> = {};
  for (const q of set.questions) {
    const b = base[q.id];
    const c = cand[q.id];
    if (!b || !c) continue;
    if (b.type === "yes_no" && c.type === "yes_no") out[q.id] = c.p_yes - b.p_yes;
    else if (b.type === "score" && c.type === "score") out[q.id] = c.value - b.value;
    else if (b.type === "choice" && c.type === "choice" && q.type === "choice") out[q.id] = topChoice(q, b) !== topChoice(q, c);
  }
  return out;
}

/** A calibrated band per yes/no question: the candidate's calibrated P(yes) counts only outside it. */
export interface AnswerPolicy {
  calibrate: (question: string, p: number) => number;
  bands: Record<string, { yes: number; no: number }>;
  /** Certified work reductions (calibrated mode): per question, the reducing answer and its threshold. */
  reductions?: Record<string, { reducing: "yes" | "no"; threshold: number }>;
  /** The model the policy was fitted on; a judge that reports another gets no reductions. */
  resolvedModel?: string | null;
}

interface PlaneOptions {
  policy?: AnswerPolicy;
  set?: QuestionSet;
  provider?: JudgmentProvider;
  mode: JudgmentMode;
  thresholds?: Thresholds;
  /** How long increase-only waits for the candidate before going on with the baseline alone. */
  timeoutMs?: number;
  record?: (r: DecisionRecord) => void;
}

/**
 * The decision plane at a turn boundary: the baseline decides; a configured judgment provider answers
 * the same request in one batched call, in shadow (recorded only, never waited for) or increase-only
 * (merged so it can only add work). Any provider failure leaves the baseline alone in charge.
 */
export class DecisionPlane {
  private set: QuestionSet;

  constructor(private opts: PlaneOptions) {
    this.set = opts.set ?? AGENT_CONTEXT;
  }

  /**
   * The judge's semantic check for chunks, where it may act: increase-only and calibrated modes (in
   * shadow the judge only records) and a provider that can answer it.
   */
  chunkJudge(): ((items: { id: string; text: string }[]) => Promise<Set<string>>) | undefined {
    const p = this.opts.provider;
    if (!p?.flagChunks || (this.opts.mode !== "increase-only" && this.opts.mode !== "calibrated")) return undefined;
    return (items) => p.flagChunks!(items, AbortSignal.timeout(this.opts.timeoutMs ?? 20_000));
  }

  /** `at`: where in the session the decision was made (the index its next assistant message gets), so a capture can see what followed. */
  async decide(request: DecisionRequest, changed: boolean, signal: AbortSignal, at?: number): Promise<{ guidance: Guidance; baseline: Answers }> {
    const base = baseline(request, this.set);
    const baseGuidance = guidanceFrom(base, { yes: 0.5 }, changed);
    const { provider, mode } = this.opts;
    if (!provider || mode === "off") {
      // Every decision is recorded, with its state, even when no judge is configured.
      this.opts.record?.({
        request_hash: requestHash(request),
        question_set: setKey(this.set),
        provider: "baseline",
        baseline: base,
        deltas: {},
        missing: [],
        mismatched: [],
        violations: [],
        mode: "off",
        request,
        ...(at !== undefined ? { at } : {}),
      });
      return { guidance: baseGuidance, baseline: base };
    }
    const pending = this.ask(provider, request, base, baseGuidance, changed, signal, at);
    if (mode === "shadow") {
      void pending; // recorded when it lands; the run never waits for it
      return { guidance: baseGuidance, baseline: base };
    }
    const merged = await Promise.race([pending, Bun.sleep(this.opts.timeoutMs ?? 20_000).then(() => undefined)]);
    const guidance = merged ?? baseGuidance;
    return { guidance, baseline: base };
  }

  /**
   * The fields the candidate may lower this time: questions the pinned policy certified, whose
   * calibrated answer lies inside the certified band, from the model the policy was fitted on.
   */
  private certified(answers: Answers, resolvedModel: string | undefined): { id: string; reducing: "yes" | "no" }[] {
    const policy = this.opts.policy;
    if (!policy?.reductions) return [];
    if (policy.resolvedModel && resolvedModel && policy.resolvedModel !== resolvedModel) return [];
    const out: { id: string; reducing: "yes" | "no" }[] = [];
    for (const [id, r] of Object.entries(policy.reductions)) {
      const a = answers[id];
      if (a?.type !== "yes_no" || !REDUCES[id]) continue;
      const p = policy.calibrate(id, a.p_yes);
      if (r.reducing === "yes" ? p >= r.threshold : p <= r.threshold) out.push({ id, reducing: r.reducing });
    }
    return out;
  }

  private async ask(
    provider: JudgmentProvider,
    request: DecisionRequest,
    base: Answers,
    baseGuidance: Guidance,
    changed: boolean,
    signal: AbortSignal,
    at?: number,
  ): Promise<Guidance | undefined> {
    const rec: DecisionRecord = {
      request_hash: requestHash(request),
      question_set: setKey(this.set),
      provider: provider.id,
      ...(provider.requestedModel ? { requested_model: provider.requestedModel } : {}),
      baseline: base,
      deltas: {},
      missing: [],
      mismatched: [],
      violations: [],
      mode: this.opts.mode,
      request,
      ...(at !== undefined ? { at } : {}),
    };
    const started = performance.now();
    try {
      const j = await provider.judge(this.set, request, signal);
      rec.latency_ms = Math.round(performance.now() - started);
      if (j.resolvedModel) rec.resolved_model = j.resolvedModel;
      if (j.tokens) rec.tokens = j.tokens;
      rec.request_bytes = j.requestBytes;
      const shape = checkShape(this.set, j.answers);
      rec.candidate = shape.valid;
      rec.missing = shape.missing;
      rec.mismatched = shape.mismatched;
      rec.deltas = compare(this.set, base, shape.valid);
      // Missing signals, and answers inside a calibrated abstain band, fall back to the baseline's.
      const used: Answers = { ...base };
      for (const [id, a] of Object.entries(shape.valid)) {
        const band = this.opts.policy?.bands[id];
        if (a.type === "yes_no" && band) {
          const p = this.opts.policy!.calibrate(id, a.p_yes);
          if (p >= band.yes) used[id] = { type: "yes_no", p_yes: 1 };
          else if (p <= band.no) used[id] = { type: "yes_no", p_yes: 0 };
        } else used[id] = a;
      }
      // Calibrated mode: inside a certified band the judge's work-reducing answer stands.
      const certified = this.opts.mode === "calibrated" ? this.certified(shape.valid, j.resolvedModel) : [];
      for (const c of certified) used[c.id] = { type: "yes_no", p_yes: c.reducing === "yes" ? 1 : 0 };
      const candGuidance = guidanceFrom(used, this.opts.thresholds ?? { yes: 0.5 }, changed);
      let merged: { guidance: Guidance; violations: string[]; reductions?: string[] };
      if (this.opts.mode === "calibrated") merged = mergeCalibrated(baseGuidance, candGuidance, new Set(certified.map((c) => REDUCES[c.id]!)), changed);
      else merged = mergeIncreaseOnly(baseGuidance, candGuidance);
      rec.violations = merged.violations;
      if (merged.reductions?.length) rec.reductions = merged.reductions;
      this.opts.record?.(rec);
      return merged.guidance;
    } catch (e) {
      rec.latency_ms = Math.round(performance.now() - started);
      rec.error = ((e as Error).message ?? String(e)).slice(0, 300);
      this.opts.record?.(rec);
      return undefined;
    }
  }
}
