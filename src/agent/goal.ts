import { BudgetSpent } from "../core/errors.ts";
import type { Display } from "../core/events.ts";
import type { Usage } from "../core/usage.ts";
import type { GoalRow, GoalStatus } from "../store/goals.ts";
import type { RunResult } from "./run.ts";

/** Rounds of "work, then check" a goal gets before a check that keeps failing ends it. */
export const MAX_ROUNDS = 10;

/** What a goal's pursuit needs from the run it lives in; the CLI wires each to the real part. */
export interface GoalRunner {
  /** One run of the goal's session: a message, then the loop until the model ends its turn. */
  send(message: string, display: Display, signal: AbortSignal): Promise<RunResult>;
  /** The completion check, run as the person's own command; undefined when the goal has none. */
  check(signal: AbortSignal): Promise<{ passed: boolean; summary: string } | undefined>;
  /** Tokens spent so far, written as they are spent. */
  spend(spent: number): void;
  /** The one place the goal's status changes, with the reason. */
  transition(status: GoalStatus, reason: string, spent: number): void;
}

/** Every token a turn cost: input, cache reads and writes, output. Pure. */
export const tokensOf = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite + u.output;

/** The message that starts a goal, or continues it after a pause or a budget top-up. Pure. */
export function goalMessage(goal: GoalRow, checkName: string | undefined, resumed: boolean): string {
  const check = checkName
    ? `When you stop, weir runs the completion check (${checkName}); if it fails you get its output and go on.`
    : "There is no completion check: the goal ends when you say it is done.";
  const budget = goal.budget === null ? "no token budget" : `a budget of ${goal.budget} tokens, ${goal.spent} spent so far`;
  const lead = resumed ? `[weir goal ${goal.id}] Resumed. Carry on towards the goal` : `[weir goal ${goal.id}] Work towards this goal until it is done`;
  return `${lead}: ${goal.objective}\n${check} It has ${budget}.`;
}

export interface GoalOptions {
  display: Display;
  signal: AbortSignal;
  checkName: string | undefined;
  resumed: boolean;
  /** The command that resumes this goal with more budget; a graph's node names its graph's. */
  resumeWith?: string | undefined;
}

/**
 * Pursues a goal: a run, then the completion check; a failed check goes back to the model with its
 * output, up to `MAX_ROUNDS`. The spend is counted per turn, so the turn that trips the budget is
 * counted before the run stops; a budget trip is resumable (`budget_limited`), as is a stop by the
 * person (`paused`). Returns the status the goal ended the pursuit in.
 */
export async function pursueGoal(goal: GoalRow, r: GoalRunner, opts: GoalOptions): Promise<GoalStatus> {
  let spent = goal.spent;
  const over = () => goal.budget !== null && spent >= goal.budget;
  const end = (status: GoalStatus, reason: string): GoalStatus => {
    r.transition(status, reason, spent);
    return status;
  };
  const resume = opts.resumeWith ?? `weir goal resume ${goal.id} --budget N`;
  const budgetReason = () => `spent ${spent} of ${goal.budget} tokens; resume with more: ${resume}`;
  if (over()) return end("budget_limited", budgetReason());
  let message = goalMessage(goal, opts.checkName, opts.resumed);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const run = new AbortController();
    const stop = () => run.abort(opts.signal.reason);
    opts.signal.addEventListener("abort", stop, { once: true });
    let tripped = false;
    const watching: Display = {
      emit(e) {
        opts.display.emit(e);
        if (e.type !== "turn_end") return;
        spent += tokensOf(e.usage);
        r.spend(spent);
        if (over() && !tripped) {
          tripped = true;
          run.abort(new BudgetSpent(`the token budget ran out (${spent} of ${goal.budget} spent)`));
        }
      },
    };
    let result: RunResult;
    try {
      result = await r.send(message, watching, run.signal);
    } finally {
      opts.signal.removeEventListener("abort", stop);
    }
    if (tripped || opts.signal.reason instanceof BudgetSpent) return end("budget_limited", budgetReason());
    if (opts.signal.aborted || result.stop === "cancelled") return end("paused", "the person stopped it; resume with weir goal resume " + goal.id);
    if (result.stop === "error") return end("failed", `the run failed: ${result.error ?? "no reason given"}`);
    const c = await r.check(opts.signal);
    if (!c) return end("complete", "the model said it is done (the goal has no check)");
    if (c.passed) return end("complete", `the completion check passed (${opts.checkName})`);
    if (opts.signal.aborted) return end("paused", "the person stopped it during the check");
    message =
      `[weir goal ${goal.id}] The completion check (${opts.checkName}) failed after round ${round}; its ` +
      `output:\n${c.summary}\nGo on towards the goal: ${goal.objective}`;
  }
  return end("failed", `the completion check still failed after ${MAX_ROUNDS} rounds`);
}
