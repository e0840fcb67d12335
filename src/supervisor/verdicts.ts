/**
 * Verdict rules for in-flight calls. Pure: the state of a call and the time in, verdicts out. Each
 * rule has an id, a threshold from config, and can be turned off.
 */
export type VerdictId = "slow" | "hanging" | "stuck" | "silent" | "awaiting_approval" | "error_storm" | "memory_growth";
type Severity = "stalled" | "erroring" | "degraded" | "busy";

const SEVERITY: Record<VerdictId, Severity> = {
  hanging: "stalled",
  stuck: "stalled",
  silent: "stalled",
  error_storm: "erroring",
  slow: "degraded",
  memory_growth: "degraded",
  awaiting_approval: "degraded",
};
const ORDER: Severity[] = ["stalled", "erroring", "degraded", "busy"];

export interface RuleConfig {
  enabled: boolean;
  /** Milliseconds, or a count (error_storm), or a ratio (memory_growth). */
  threshold: number;
}

export const DEFAULT_RULES: Record<VerdictId, RuleConfig> = {
  slow: { enabled: true, threshold: 30_000 },
  hanging: { enabled: true, threshold: 120_000 },
  stuck: { enabled: true, threshold: 300_000 },
  silent: { enabled: true, threshold: 90_000 },
  awaiting_approval: { enabled: true, threshold: 20_000 },
  error_storm: { enabled: true, threshold: 3 },
  memory_growth: { enabled: true, threshold: 0.1 },
};

interface CallState {
  startedAt: number;
  /** Last time the call produced output (a subprocess wrote), or its start. */
  lastOutputAt: number;
  /** Set while the call waits for a person's approval. */
  awaitingSince?: number;
  /** Consecutive failures of this action, ending with the previous call. */
  consecutiveFailures: number;
  /** The model stream: last event time, when this "call" is the model. */
  model?: boolean;
}

export interface Verdict {
  id: VerdictId;
  severity: Severity;
  detail: string;
}

const secs = (ms: number) => `${Math.round(ms / 1000)}s`;

export function verdictsFor(c: CallState, now: number, rules: Record<VerdictId, RuleConfig> = DEFAULT_RULES, rss: number[] = []): Verdict[] {
  const out: Verdict[] = [];
  const on = (id: VerdictId) => rules[id].enabled;
  const add = (id: VerdictId, detail: string) => out.push({ id, severity: SEVERITY[id], detail });
  const age = now - c.startedAt;
  const quiet = now - c.lastOutputAt;
  if (c.model) {
    if (on("silent") && quiet > rules.silent.threshold) add("silent", `the model stream sent nothing for ${secs(quiet)}`);
  } else if (c.awaitingSince !== undefined) {
    const waited = now - c.awaitingSince;
    if (on("awaiting_approval") && waited > rules.awaiting_approval.threshold) add("awaiting_approval", `waiting for approval for ${secs(waited)}`);
  } else {
    if (on("stuck") && quiet > rules.stuck.threshold) add("stuck", `no output for ${secs(quiet)}`);
    if (on("hanging") && age > rules.hanging.threshold) add("hanging", `running for ${secs(age)}`);
    else if (on("slow") && age > rules.slow.threshold) add("slow", `running for ${secs(age)}`);
  }
  if (on("error_storm") && c.consecutiveFailures >= rules.error_storm.threshold)
    add("error_storm", `${c.consecutiveFailures} failures of this action in a row`);
  if (on("memory_growth") && rss.length >= 5) {
    const last = rss.slice(-5);
    const rising = last.every((v, i) => i === 0 || v >= last[i - 1]!);
    const grew = Math.round((100 * (last[4]! - last[0]!)) / last[0]!);
    if (rising && last[4]! > last[0]! * (1 + rules.memory_growth.threshold)) add("memory_growth", `weir's memory grew ${grew}% over 5 heartbeats`);
  }
  return out.sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity));
}

/** The call's overall state: the most severe verdict, or busy. */
export const severityOf = (v: Verdict[]): Severity => v[0]?.severity ?? "busy";
