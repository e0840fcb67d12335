import { type AgentRow, formatAgentRow } from "../agent/fleet.ts";
import type { SessionRow } from "../store/sessions.ts";

function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}

/** One line per session: id prefix, age, runs, provider/model, title (and workspace with --all). */
export function formatSessions(rows: SessionRow[], withWorkspace: boolean, now = Date.now(), current?: string): string {
  if (rows.length === 0) return "no sessions yet";
  return rows
    .map((r) => {
      const title = r.title.length > 60 ? `${r.title.slice(0, 57)}...` : r.title;
      // The session in use is marked; one whose last run did not end with an answer says how it ended.
      const mark = current === r.id ? "* " : "  ";
      const ended = r.last_status && ENDED_BADLY.has(r.last_status) ? `  [last run: ${r.last_status.replace("_", " ")}]` : "";
      const runs = `${String(r.runs).padStart(3)} run${r.runs === 1 ? " " : "s"}`;
      const where = withWorkspace ? `  (${r.workspace})` : "";
      return `${mark}${r.id.slice(0, 8)}  ${ago(r.updated_at, now).padStart(8)}  ${runs}  ${`${r.provider}/${r.model}`.padEnd(28)}  ${title}${ended}${where}`;
    })
    .join("\n");
}

/** How a run can end without the model's answer. */
const ENDED_BADLY = new Set(["error", "cancelled", "max_turns", "max_tokens", "refusal", "repeating", "running"]);

/** One line per in-flight call: id, action, age, severity and verdicts, redacted preview. */
interface CallLine {
  id: string;
  action: string;
  preview: string;
  ageMs: number;
  severity: string;
  verdicts: { id: string; detail: string }[];
  stoppable: boolean;
  pid?: number;
}

export function formatCalls(calls: CallLine[]): string {
  if (calls.length === 0) return "no calls in flight";
  const line = (c: CallLine) => {
    const verdicts = c.verdicts.length ? ` (${c.verdicts.map((v) => `${v.id}: ${v.detail}`).join("; ")})` : "";
    const pid = c.pid ? `  pid ${c.pid}` : "";
    return `${c.id}  ${c.action}  ${(c.ageMs / 1000).toFixed(1)}s  ${c.severity}${verdicts}${pid}${c.stoppable ? "" : "  [cannot be stopped]"}  ${c.preview}`;
  };
  return calls.map(line).join("\n");
}

/** `/agents`: one line per worker — id, label, state, elapsed, turns, calls, tokens, health, scope. */
export function formatAgents(rows: AgentRow[]): string {
  return rows.length === 0 ? "no workers" : rows.map(formatAgentRow).join("\n");
}

/** What to tell the user when a session is resumed: which, on which model, and what its workers did. Pure. */
export function resumeNotices(
  row: Pick<SessionRow, "id" | "title" | "provider" | "model" | "workspace">,
  last: { provider: string; model: string } | undefined,
  workers: readonly { id: string; label: string; title: string; status: string; turns: number }[],
  now: string,
  workspace: string,
): string[] {
  const before = last ? `${last.provider}/${last.model}` : `${row.provider}/${row.model}`;
  const moved = before !== now ? `, started on ${before}, now on ${now}` : "";
  const elsewhere = row.workspace !== workspace ? `; it began in ${row.workspace}` : "";
  // Their transcripts are sessions of their own under this one.
  const worker = (w: (typeof workers)[number]) =>
    `worker ${w.label}: ${w.status}, ${w.turns} turn${w.turns === 1 ? "" : "s"} (transcript: session ${w.id.slice(0, 8)}) — ${w.title.slice(0, 80)}`;
  return [`resuming session ${row.id.slice(0, 8)} ("${row.title}")${moved}${elsewhere}`, ...workers.map(worker)];
}
