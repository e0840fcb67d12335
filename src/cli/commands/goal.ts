import { type GoalRunner, pursueGoal } from "../../agent/goal.ts";
import type { Resolved } from "../../config/resolve.ts";
import { quoteData } from "../../context/render.ts";
import { usageError } from "../../core/errors.ts";
import type { Display } from "../../core/events.ts";
import type { ToolCallBlock } from "../../core/messages.ts";
import type { GoalRow, GoalStatus } from "../../store/goals.ts";
import { detectChecks } from "../../workspace/checks.ts";
import type { ParsedArgs } from "../args.ts";
import { withExistingStore } from "../data.ts";
import { runOptions } from "../run-options.ts";
import { buildRuntime, type Runtime } from "../runtime.ts";
import { displayFor, type RunIO, terminalPrompts } from "./run.ts";

/** How a goal's (or a graph's) pursuit ended, as the process's exit code: done, stopped by the person, or not done. */
export const EXIT: Record<GoalStatus, number> = { complete: 0, paused: 130, budget_limited: 3, failed: 1, active: 1 };

/**
 * `weir goal "objective" [--budget TOKENS] [--check CMD]`, `weir goal resume ID [--budget N]`,
 * `weir goal list`, `weir goal status ID`. A goal lives in a session of its own; its state is in the
 * session database (store/goals.ts), so a stopped or killed process resumes where it was.
 */
export async function goalCommand(args: ParsedArgs, workspace: string, resolved: Resolved, io: RunIO, signal: AbortSignal): Promise<number> {
  const verb = args.command[1];
  const out = (s: string) => io.stdout.write(s);
  if (verb === "list")
    return withExistingStore("no goals yet", out, (store) => {
      const rows = store.goals.list(workspace);
      out(rows.length ? `${rows.map(goalLine).join("\n")}\n` : "no goals in this workspace\n");
      return 0;
    });
  if (verb === "status") {
    const id = args.command[2] ?? usageArg("status");
    return withExistingStore("no goals yet", out, (store) => {
      const g = store.goals.find(id);
      const steps = store.goals
        .transitions(g.id)
        .map((t) => `  ${new Date(t.at).toISOString()}  ${t.status.padEnd(14)} ${String(t.spent).padStart(8)} tokens  ${t.reason}`);
      out(`${goalLine(g)}\n${g.objective}\n${steps.join("\n")}\n`);
      return 0;
    });
  }
  const resuming = verb === "resume";
  const objective = resuming ? "" : args.command.slice(1).join(" ").trim();
  if (!resuming && objective === "") throw usageError('the goal is blank; pass what weir should achieve (weir goal "every test green")');
  if (args.budget !== undefined && !(args.budget > 0)) throw usageError("--budget takes a positive number of tokens");
  // --budget is the goal's here, not the working set's.
  const { budget: _, ...runArgs } = args;
  const runtime = await buildRuntime(runOptions(runArgs), workspace, resolved, io.interactive ? terminalPrompts : {});
  try {
    const display = displayFor(resolved, io, { cwd: workspace, tools: () => runtime.disclosure.names() });
    const check = typeof args.flags.check === "string" ? args.flags.check : undefined;
    const spec = resuming
      ? { resume: args.command[2] ?? usageArg("resume"), budget: args.budget }
      : { objective, check, budget: args.budget, newSession: true };
    // The run's notices (sandbox, --yes) once the goal is known to start: a refused one says only why.
    const started = () => runtime.notices.forEach((message) => display.emit({ type: "notice", level: "info", message }));
    const { status, line } = await pursue(runtime, workspace, spec, display, signal, started);
    io.stderr.write(`weir: ${line}\n`);
    return EXIT[status];
  } finally {
    await runtime.close();
  }
}

/** What to pursue: a new goal (in a session of its own, or the conversation's), or one to resume. */
export type GoalSpec =
  | { objective: string; check?: string | undefined; budget?: number | undefined; newSession: boolean }
  | { resume: string; budget?: number | undefined };

/**
 * Starts or resumes a goal on a runtime and pursues it; the CLI's `weir goal` and the REPL's `/goal`
 * both come here. Returns how it ended and the line that says so.
 */
export async function pursue(
  runtime: Runtime,
  workspace: string,
  spec: GoalSpec,
  display: Display,
  signal: AbortSignal,
  started?: (goal: GoalRow) => void,
  resumeWith?: string,
): Promise<{ status: GoalStatus; line: string; goal: string }> {
  const goals = runtime.store.goals;
  let goal: GoalRow;
  if ("resume" in spec) {
    goal = goals.find(spec.resume);
    if (goal.status === "complete") throw usageError(`goal ${goal.id} is complete; start a new one`);
    if (goal.workspace !== workspace) throw usageError(`goal ${goal.id} belongs to ${goal.workspace}; run weir there`);
    // A top-up re-arms a budget trip: the new budget is what was spent plus N.
    const budget = spec.budget !== undefined ? goal.spent + spec.budget : undefined;
    goals.transition(goal.id, "active", budget !== undefined ? `resumed with ${spec.budget} more tokens` : "resumed", goal.spent, budget);
    if (runtime.conversation.sessionId !== goal.session_id) runtime.conversation.resume(goal.session_id);
    goal = goals.get(goal.id);
  } else {
    let sessionId = spec.newSession ? undefined : runtime.conversation.sessionId;
    if (!sessionId) {
      const { preset, model } = runtime.conversation.provider.settings;
      sessionId = runtime.store.createSession(workspace, `goal: ${spec.objective}`.split("\n")[0]!, preset, model);
      runtime.conversation.resume(sessionId);
    }
    goal = goals.create({ sessionId, workspace, objective: spec.objective, check: spec.check, budget: spec.budget });
  }
  started?.(goal);
  const { runner, checkName } = goalRunner(goal, runtime, workspace);
  runtime.goalBudget(goal.spent, goal.budget);
  let status: GoalStatus;
  try {
    status = await pursueGoal(goal, runner, { display, signal, checkName, resumed: "resume" in spec, resumeWith });
  } finally {
    runtime.goalBudget(0, null);
  }
  const last = goals.transitions(goal.id).at(-1)!;
  return { status, line: `goal ${goal.id} ${status.replace("_", "-")}: ${last.reason} (${last.spent} tokens)`, goal: goal.id };
}

/** `/goal` in the REPL: `/goal OBJECTIVE`, `/goal resume ID [TOKENS]`, `/goal list`. */
export async function replGoal(runtime: Runtime, workspace: string, words: string[], display: Display, signal: AbortSignal): Promise<string> {
  if (words.length === 0 || words[0] === "list") {
    const rows = runtime.store.goals.list(workspace);
    return rows.length ? rows.map(goalLine).join("\n") : "no goals in this workspace; /goal OBJECTIVE starts one";
  }
  if (words[0] === "resume") {
    if (!words[1]) return "/goal resume ID [TOKENS]: /goal list shows the ids";
    const more = words[2] === undefined ? undefined : Number(words[2]);
    if (more !== undefined && !(more > 0)) return `/goal resume: ${words[2]} is not a number of tokens`;
    return (await pursue(runtime, workspace, { resume: words[1], budget: more }, display, signal)).line;
  }
  // In the REPL a goal continues the conversation's session.
  return (await pursue(runtime, workspace, { objective: words.join(" "), newSession: false }, display, signal)).line;
}

const usageArg = (verb: string): never => {
  throw usageError(`weir goal ${verb} needs a goal id; weir goal list shows them`);
};

const goalLine = (g: GoalRow) =>
  `${g.id}  ${g.status.replace("_", "-").padEnd(14)} ${g.spent}${g.budget !== null ? `/${g.budget}` : ""} tokens  ${g.objective.split("\n")[0]!.slice(0, 60)}`;

/** The goal's runner over the real parts: the conversation, the executor (the check runs as the person's command), the store. */
function goalRunner(goal: GoalRow, runtime: Runtime, workspace: string): { runner: GoalRunner; checkName: string | undefined } {
  const tests = detectChecks(workspace).filter((c) => c.level === "quick");
  const checkName = goal.check_command ?? (tests.length ? tests.map((c) => c.name).join(", ") : undefined);
  let n = 0;
  const runner: GoalRunner = {
    send: (message, display, signal) => runtime.conversation.send(message, runtime.watch(display), signal),
    async check(signal) {
      if (!checkName) return undefined;
      const id = `goal-check-${goal.id}-${++n}`;
      const call: ToolCallBlock = goal.check_command
        ? { type: "tool_call", id, name: "shell", input: { command: goal.check_command } }
        : { type: "tool_call", id, name: "verify", input: { level: "quick" } };
      const r = await runtime.executor.executeForPerson(call, signal);
      // The check's output is the repository's text: it goes back to the model quoted.
      return { passed: !r.isError, summary: quoteData(r.content.split("\n").slice(-40).join("\n")) };
    },
    spend(spent) {
      runtime.store.goals.spend(goal.id, spent);
      runtime.goalBudget(spent, goal.budget);
    },
    transition: (status, reason, spent) => runtime.store.goals.transition(goal.id, status, reason, spent),
  };
  return { runner, checkName };
}
