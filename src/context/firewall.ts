/**
 * The context firewall's verdict. Pure: text in, verdict and findings out. Two layers decide
 * together: the rules (firewall-rules.ts: telltale shapes — role markers, override phrases, hidden
 * characters, data-carrying links, exfiltration and destructive commands) and the learned layer
 * (firewall-model.ts: a sentence that asks the reader for a task of its own, in any phrasing). A text
 * is instruction-like when either finds something; each finding names its rule and lines.
 */
import { learnedScore } from "./firewall-model.ts";
import { ruleFindings, visible } from "./firewall-rules.ts";

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
  if (trust === "trusted") return { verdict: "evidence", findings: [] };
  const findings = ruleFindings(text);
  const learned = learnedScore(text, findings);
  if (learned.flagged && learned.unit && !findings.some((f) => f.startLine === learned.unit!.line)) {
    const line = learned.unit.line;
    findings.push({ rule: "learned", startLine: line, endLine: line, excerpt: clip(learned.unit.text) });
    findings.sort((a, b) => a.startLine - b.startLine || a.rule.localeCompare(b.rule));
  }
  return { verdict: findings.length > 0 ? "instruction_like" : "evidence", findings };
}

const clip = (s: string) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
};
