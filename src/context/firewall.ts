/**
 * The context firewall's verdict. Pure: text in, verdict and findings out. Two layers decide
 * together: the rules (firewall-rules.ts: telltale shapes — role markers, override phrases, hidden
 * characters, data-carrying links, exfiltration and destructive commands) and the learned layer
 * (firewall-model.ts: a sentence that asks the reader for a task of its own, in any phrasing, or a
 * question about something its text is not about, a permission asserted to the reader, earlier
 * orders voided, and off topic a task of its own, a deletion of everything, data sent away or the
 * reader's answer steered). A text
 * is instruction-like when either finds something; each finding names its rule and lines.
 */
import { learnedScore, UNIT_FINDINGS } from "./firewall-model.ts";
import { clip, ruleFindings, visible } from "./firewall-rules.ts";

export { visible };

export type Verdict = "evidence" | "conflict" | "instruction_like" | "irrelevant";

export interface Finding {
  rule: string;
  /** 1-based line range of the span that triggered the rule. */
  startLine: number;
  endLine: number;
  excerpt: string;
}

export interface FirewallResult {
  verdict: Verdict;
  findings: Finding[];
}

/** Classifies one text. Trusted text (the user's task, weir's policies) is never instruction-like. */
export function classify(text: string, trust: "trusted" | "untrusted" = "untrusted"): FirewallResult {
  return trust === "trusted" ? { verdict: "evidence", findings: [] } : scored(text).result;
}

/** The verdict of an untrusted text with the learned layer's own score, from one pass over it. */
export function scored(text: string): { result: FirewallResult; learned: { p: number; flagged: boolean } } {
  const findings = ruleFindings(text);
  const learned = learnedScore(text, findings);
  const add = (rule: string, unit: { line: number; text: string }) => {
    if (!findings.some((f) => f.startLine === unit.line)) findings.push({ rule, startLine: unit.line, endLine: unit.line, excerpt: clip(unit.text) });
  };
  // One finding per line, the most telling first: what the sentence does (a unit finding), then an
  // off-topic question, then the learned layer's bare score — so a line's name does not depend on
  // whether a retrain put its score over the threshold too.
  for (const [key, , rule] of UNIT_FINDINGS) {
    const unit = learned[key];
    if (unit) add(rule, unit);
  }
  if (learned.offTopic) add("offtopic-question", learned.offTopic);
  if (learned.flagged && learned.unit) add("learned", learned.unit);
  findings.sort((a, b) => a.startLine - b.startLine || a.rule.localeCompare(b.rule));
  return { result: { verdict: findings.length > 0 ? "instruction_like" : "evidence", findings }, learned: { p: learned.p, flagged: learned.flagged } };
}
