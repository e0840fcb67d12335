import { type Answers, type QuestionSet, topChoice } from "../decision/questions.ts";
import type { DecisionRequest } from "../decision/request.ts";
import { accuracy, aurc, type Bin, bootstrapCI, brier, confusion, ece, expectedEceIfCalibrated, logLoss, reliabilityBins, riskCoverage } from "./metrics.ts";

/** Which yes/no answer removes work: a wrong one of these is a false stop. */
const REDUCING: Record<string, boolean> = {
  context_sufficient: true,
  continue_retrieval: false,
  semantic_navigation_required: false,
  verification_escalation: false,
};

export interface CaseResult {
  id: string;
  state: DecisionRequest;
  labels: Record<string, boolean | string | number>;
  baseline: Answers;
  candidate?: Answers;
}

export interface SourceMetrics {
  n: number;
  accuracy: number;
  brier: number;
  logLoss: number;
  ece: { equalWidth: number; equalMass: number; ci95: [number, number]; ifCalibrated: number; bins: 10 };
  reliability: { equalWidth: Bin[]; equalMass: Bin[] };
  falseStop: number;
  falseContinue: number;
  aurc: number;
  riskCoverage: { coverage: number; risk: number }[];
}

export interface YesNoReport {
  type: "yes_no";
  id: string;
  baseline: SourceMetrics;
  candidate?: SourceMetrics;
  disagreement?: number;
}

export interface ChoiceReport {
  type: "choice";
  id: string;
  classes: string[];
  baseline: { n: number; accuracy: number; topEce: number; confusion: number[][] };
  candidate?: { n: number; accuracy: number; topEce: number; confusion: number[][] };
  disagreement?: number;
}

interface ScoreReport {
  type: "score";
  id: string;
  baseline: { n: number; mae: number; mse: number };
  candidate?: { n: number; mae: number; mse: number };
}

type QuestionReport = YesNoReport | ChoiceReport | ScoreReport;

export interface EvalReport {
  cases: number;
  withCandidate: number;
  questions: QuestionReport[];
  disagreements: { id: string; signals: string[] }[];
}

function yesNoMetrics(id: string, y: boolean[], p: number[]): SourceMetrics {
  const reducing = REDUCING[id] ?? true;
  let fs = 0;
  let fc = 0;
  for (let i = 0; i < y.length; i++) {
    const ans = p[i]! >= 0.5;
    if (ans !== y[i]) {
      if (ans === reducing) fs++;
      else fc++;
    }
  }
  const curve = riskCoverage(y, p);
  return {
    n: y.length,
    accuracy: accuracy(y, p),
    brier: brier(y, p),
    logLoss: logLoss(y, p),
    ece: {
      equalWidth: ece(y, p, 10, "equal-width"),
      equalMass: ece(y, p, 10, "equal-mass"),
      ci95: bootstrapCI(y, p, (a, b) => ece(a, b), 200),
      ifCalibrated: expectedEceIfCalibrated(p, 10, "equal-width", 100),
      bins: 10,
    },
    reliability: { equalWidth: reliabilityBins(y, p, 10, "equal-width"), equalMass: reliabilityBins(y, p, 10, "equal-mass") },
    falseStop: y.length ? fs / y.length : 0,
    falseContinue: y.length ? fc / y.length : 0,
    aurc: aurc(curve),
    riskCoverage: curve.filter((_, i) => i % Math.max(1, Math.floor(curve.length / 50)) === 0 || i === curve.length - 1),
  };
}

/** Every metric for every question, baseline and candidate side by side. Pure. */
export function analyse(set: QuestionSet, results: CaseResult[]): EvalReport {
  const questions: QuestionReport[] = [];
  const dis = new Map<string, string[]>();
  const flag = (id: string, q: string) => dis.set(id, [...(dis.get(id) ?? []), q]);
  for (const q of set.questions) {
    const rows = results.filter((r) => r.labels[q.id] !== undefined && r.baseline[q.id]);
    const withCand = rows.filter((r) => r.candidate?.[q.id]);
    if (q.type === "yes_no") {
      const p = (a: Answers | undefined) => (a?.[q.id] as { p_yes: number }).p_yes;
      const rep: YesNoReport = {
        type: "yes_no",
        id: q.id,
        baseline: yesNoMetrics(
          q.id,
          rows.map((r) => r.labels[q.id] === true),
          rows.map((r) => p(r.baseline)),
        ),
      };
      if (withCand.length) {
        rep.candidate = yesNoMetrics(q.id, withCand.map((r) => r.labels[q.id] === true), withCand.map((r) => p(r.candidate)));
        let d = 0;
        for (const r of withCand)
          if (p(r.baseline) >= 0.5 !== p(r.candidate) >= 0.5) {
            d++;
            flag(r.id, q.id);
          }
        rep.disagreement = d / withCand.length;
      }
      questions.push(rep);
    } else if (q.type === "choice") {
      const classes = q.options.map((o) => o.id);
      const stats = (rs: CaseResult[], pick: (r: CaseResult) => Answers) => {
        const truth = rs.map((r) => String(r.labels[q.id]));
        const pred = rs.map((r) => topChoice(q, pick(r)[q.id] as never));
        const top = rs.map((r) => {
          const dist = (pick(r)[q.id] as { distribution: Record<string, number> }).distribution;
          return Math.max(...Object.values(dist));
        });
        const correct = pred.map((x, i) => x === truth[i]);
        return {
          n: rs.length,
          accuracy: rs.length ? correct.filter(Boolean).length / rs.length : NaN,
          topEce: ece(correct, top),
          confusion: confusion(classes, truth, pred),
        };
      };
      const rep: ChoiceReport = { type: "choice", id: q.id, classes, baseline: stats(rows, (r) => r.baseline) };
      if (withCand.length) {
        rep.candidate = stats(withCand, (r) => r.candidate!);
        let d = 0;
        for (const r of withCand)
          if (topChoice(q, r.baseline[q.id] as never) !== topChoice(q, r.candidate![q.id] as never)) {
            d++;
            flag(r.id, q.id);
          }
        rep.disagreement = d / withCand.length;
      }
      questions.push(rep);
    } else {
      const err = (rs: CaseResult[], pick: (r: CaseResult) => Answers) => {
        const e = rs.map((r) => (pick(r)[q.id] as { value: number }).value - Number(r.labels[q.id]));
        return { n: rs.length, mae: e.reduce((s, x) => s + Math.abs(x), 0) / (rs.length || 1), mse: e.reduce((s, x) => s + x * x, 0) / (rs.length || 1) };
      };
      questions.push({
        type: "score",
        id: q.id,
        baseline: err(rows, (r) => r.baseline),
        ...(withCand.length ? { candidate: err(withCand, (r) => r.candidate!) } : {}),
      });
    }
  }
  return {
    cases: results.length,
    withCandidate: results.filter((r) => r.candidate).length,
    questions,
    disagreements: [...dis].map(([id, signals]) => ({ id, signals })),
  };
}
