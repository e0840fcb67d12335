import type { Message, ToolCallBlock, ToolResultBlock } from "../core/messages.ts";
import type { DecisionRecord } from "../decision/plane.ts";
import type { DecisionRequest } from "../decision/request.ts";
import type { EvalCase } from "./suite.ts";

/**
 * `weir eval capture`: recorded decision states become suite cases, labelled from what happened
 * next in the session by the rules below (each label marked `label_source: outcome`, the rule named
 * in `notes`); a question no rule speaks to stays unlabelled for a person (`weir eval label`).
 * Pure: the sessions' messages and decision records in, cases out.
 *
 * What follows a decision is its *window*: the tool calls of the assistant message the decision
 * preceded (`record.at`) and of the turns after it, up to the next message a person or weir sent
 * that is not tool results (a new task, a reminder), at most WINDOW messages.
 *
 * Rules, each citing the criterion of weir.agent_context@1 it applies:
 * - `stale-edit`: the state's own next call was an edit, refused because the file changed on disk
 *   since it was read → context_sufficient no ("each edit target's SHA is fresh"), next_action review_worktree
 *   ("its SHA is stale").
 * - `missed-target`: before its first successful edit the model read the file it then edited, and
 *   that file was not among the state's targets → context_sufficient no ("every target the edit
 *   needs has been read"), continue_retrieval yes ("source bodies … still missing"), next_action
 *   retrieve.
 * - `direct-edit-verified`: the window starts with a successful edit of a state target, no reads
 *   before it, and the next verification after it passed → context_sufficient yes, continue_retrieval
 *   no, next_action edit_then_verify.
 * - `verify-failed-after-edit`: an edit succeeded in the window and a later verification in it
 *   failed → verification_escalation yes ("a previous failed run").
 */
export const OUTCOME_RULES = ["stale-edit", "missed-target", "direct-edit-verified", "verify-failed-after-edit"] as const;
type OutcomeRule = (typeof OUTCOME_RULES)[number];

const WINDOW = 12;
const EDITS = new Set(["edit_file", "write_file"]);
const READS = new Set(["read_file"]);

interface CapturedSession {
  id: string;
  messages: readonly Message[];
  decisions: readonly DecisionRecord[];
}

interface Step {
  call: ToolCallBlock;
  result: ToolResultBlock | undefined;
}

const pathOf = (c: ToolCallBlock) => String((c.input as { path?: unknown })?.path ?? "").replace(/^\.\//, "");

/** The tool calls (with their results) from message `at` on, until a non-tool user message. Pure. */
export function windowAfter(messages: readonly Message[], at: number): Step[] {
  const steps: Step[] = [];
  for (let i = at; i < Math.min(messages.length, at + WINDOW); i++) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      for (const b of m.content) if (b.type === "tool_call") steps.push({ call: b, result: undefined });
      continue;
    }
    const results = m.content.filter((b): b is ToolResultBlock => b.type === "tool_result");
    if (results.length === 0) break;
    for (const r of results) {
      const s = steps.find((x) => x.call.id === r.callId && !x.result);
      if (s) s.result = r;
    }
  }
  return steps;
}

const ok = (s: Step) => s.result !== undefined && !s.result.isError;
/** A verification outcome of a step: passed, failed, or not a verification. */
function verification(s: Step): "passed" | "failed" | undefined {
  const d = s.result?.details;
  if (d?.kind === "verify") return d.passed ? "passed" : "failed";
  if (d?.kind === "command" && /\b(?:test|check|vitest|jest|pytest|cargo test|go test|tsc)\b/.test(d.line)) return d.exitCode === 0 ? "passed" : "failed";
  return undefined;
}

/** The labels the outcome rules give one state, and which rules fired. Pure. */
export function outcomeLabels(state: DecisionRequest, steps: readonly Step[]): { labels: Record<string, boolean | string>; rules: OutcomeRule[] } {
  const labels: Record<string, boolean | string> = {};
  const rules: OutcomeRule[] = [];
  const targets = new Set(state.targets.map((t) => t.path.replace(/^\.\//, "")));
  const firstEdit = steps.findIndex((s) => EDITS.has(s.call.name));
  const edit = firstEdit >= 0 ? steps[firstEdit]! : undefined;
  // Only for the state the edit was made from: an earlier state did not yet claim the file was fresh.
  if (firstEdit === 0 && edit?.result?.refused?.rule === "sha" && /changed (?:on disk|by .+) since/.test(edit.result.content)) {
    rules.push("stale-edit");
    Object.assign(labels, { context_sufficient: false, next_action: "review_worktree" });
  }
  const firstOkEdit = steps.findIndex((s) => EDITS.has(s.call.name) && ok(s));
  if (firstOkEdit >= 0) {
    const e = steps[firstOkEdit]!;
    const p = pathOf(e.call);
    const before = steps.slice(0, firstOkEdit);
    const readIt = before.some((s) => READS.has(s.call.name) && ok(s) && pathOf(s.call) === p);
    if (!rules.length && readIt && !targets.has(p)) {
      rules.push("missed-target");
      Object.assign(labels, { context_sufficient: false, continue_retrieval: true, next_action: "retrieve" });
    }
    const after = steps.slice(firstOkEdit + 1);
    const checks = after.map(verification).filter((v) => v !== undefined);
    if (!rules.length && firstOkEdit === 0 && targets.has(p) && checks[0] === "passed") {
      rules.push("direct-edit-verified");
      Object.assign(labels, { context_sufficient: true, continue_retrieval: false, next_action: "edit_then_verify" });
    }
    if (checks.includes("failed")) {
      rules.push("verify-failed-after-edit");
      labels.verification_escalation = true;
    }
  }
  return { labels, rules };
}

/**
 * Suite cases from sessions' decision records. One case per distinct state a rule spoke to (the
 * same state captured twice is kept once); untrusted notes are dropped unless `includeUntrusted`
 * (they are text from the repository or tools, and a suite is meant to be shared). Pure.
 */
export function captureCases(
  sessions: readonly CapturedSession[],
  o: { includeUntrusted?: boolean; all?: boolean } = {},
): { cases: EvalCase[]; unlabelled: number; withoutPosition: number } {
  const cases: EvalCase[] = [];
  const seen = new Set<string>();
  let unlabelled = 0;
  let withoutPosition = 0;
  for (const s of sessions)
    for (const d of s.decisions) {
      if (!d.request) continue;
      if (d.at === undefined) {
        withoutPosition++;
        continue;
      }
      const { labels, rules } = outcomeLabels(d.request, windowAfter(s.messages, d.at));
      if (!rules.length) {
        unlabelled++;
        if (!o.all) continue;
      }
      const key = `${d.request_hash}:${JSON.stringify(labels)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const state = o.includeUntrusted ? d.request : { ...d.request, untrusted_notes: [] };
      cases.push({
        id: `${s.id.slice(0, 8)}-${d.at}`,
        question_set: d.question_set,
        state,
        labels,
        label_source: Object.fromEntries(Object.keys(labels).map((k) => [k, "outcome" as const])),
        notes: rules.map((r) => `outcome rule ${r}`),
        tags: ["captured", ...rules],
      });
    }
  return { cases, unlabelled, withoutPosition };
}
