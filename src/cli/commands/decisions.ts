import type { DecisionRecord } from "../../decision/plane.ts";
import type { ParsedArgs } from "../args.ts";
import { withExistingStore } from "../data.ts";

interface SignalSummary {
  signal: string;
  compared: number;
  disagree: number;
  meanAbsDelta?: number;
}

/** Per signal: how often the candidate and the baseline disagreed, and by how much. Pure. */
function summariseDecisions(records: DecisionRecord[]) {
  const by = new Map<string, { n: number; dis: number; abs: number; numeric: boolean }>();
  for (const r of records)
    for (const [k, v] of Object.entries(r.deltas)) {
      const s = by.get(k) ?? { n: 0, dis: 0, abs: 0, numeric: typeof v === "number" };
      s.n++;
      if (typeof v === "number") {
        s.abs += Math.abs(v);
        const b = r.baseline[k];
        const base = b?.type === "yes_no" ? b.p_yes : b?.type === "score" ? b.value : 0;
        if (b?.type === "yes_no" && base >= 0.5 !== base + v >= 0.5) s.dis++;
      } else if (v) s.dis++;
      by.set(k, s);
    }
  const signals: SignalSummary[] = [...by].map(([signal, s]) => ({
    signal,
    compared: s.n,
    disagree: s.dis,
    ...(s.numeric ? { meanAbsDelta: s.abs / s.n } : {}),
  }));
  const lat = records.map((r) => r.latency_ms ?? 0).filter((x) => x > 0);
  return {
    decisions: records.length,
    errors: records.filter((r) => r.error).length,
    violations: records.reduce((n, r) => n + r.violations.length, 0),
    missing: records.reduce((n, r) => n + r.missing.length, 0),
    mismatched: records.reduce((n, r) => n + r.mismatched.length, 0),
    meanLatencyMs: lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : 0,
    meanRequestBytes: records.length ? records.reduce((n, r) => n + (r.request_bytes ?? 0), 0) / records.length : 0,
    signals,
  };
}

/** Records grouped by question-set version, provider and resolved model: their figures never mix. Pure. */
function groupDecisions(records: DecisionRecord[]) {
  const groups = new Map<string, DecisionRecord[]>();
  for (const r of records) {
    const key = JSON.stringify([r.question_set, r.provider, r.resolved_model ?? r.requested_model ?? null]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups].map(([key, rs]) => {
    const [question_set, provider, model] = JSON.parse(key) as [string, string, string | null];
    return { question_set, provider, model, ...summariseDecisions(rs) };
  });
}

/** `weir decisions [--session ID] [--json]`: per question-set version, provider and model. */
export function decisionsCommand(args: ParsedArgs, out: (s: string) => void): number {
  return withExistingStore("no decisions recorded yet", out, (store) => {
    const groups = groupDecisions(store.decisions(args.session) as DecisionRecord[]);
    if (args.json) {
      out(`${JSON.stringify({ groups }, null, 2)}\n`);
      return 0;
    }
    if (groups.length === 0) out("no decisions recorded yet\n");
    for (const s of groups) {
      const who = s.provider === "baseline" ? "baseline only (no judgment provider)" : `${s.provider}${s.model ? `/${s.model}` : ""}`;
      out(`${s.question_set} · ${who}: ${s.decisions} decisions${args.session ? ` in session ${args.session}` : ""}`);
      if (s.provider === "baseline") {
        out("\n");
        continue;
      }
      out(
        `; ${s.errors} provider failures (baseline used), ${s.violations} floor violations refused, mean ` +
          `latency ${Math.round(s.meanLatencyMs)} ms, mean request ${Math.round(s.meanRequestBytes)} bytes\n`,
      );
      out("  signal                          compared  disagree  mean |delta|\n");
      for (const x of s.signals)
        out(
          `  ${x.signal.padEnd(30)}  ${String(x.compared).padStart(8)}  ${String(x.disagree).padStart(8)}  ` +
            `${x.meanAbsDelta === undefined ? "" : x.meanAbsDelta.toFixed(3)}\n`,
        );
    }
    return 0;
  });
}
