import { PLAN_ACCEPTED, planTask } from "../../agent/prompt.ts";
import type { Resolved } from "../../config/resolve.ts";
import { priceOf } from "../../providers/prices.ts";
import type { Display } from "../../core/events.ts";
import { claudeStreamDisplay, jsonDisplay, type RunMeta, streamJsonDisplay } from "../../ui/json.ts";
import { plainDisplay, type Sink } from "../../ui/plain.ts";
import { withSpinner } from "../../ui/spinner.ts";
import { makeStyle } from "../../ui/style.ts";
import type { ParsedArgs } from "../args.ts";
import { runOptions } from "../run-options.ts";
import { type ActionOptions, buildRuntime } from "../runtime.ts";

export interface RunIO {
  stdout: Sink;
  stderr: Sink;
  isTTY: boolean;
  /** A person can answer prompts (stdin is a terminal). */
  interactive: boolean;
}

export function displayFor(resolved: Resolved, io: RunIO, meta: Omit<RunMeta, "provider" | "model" | "priceOf">): Display {
  const s = resolved.settings;
  const full = { ...meta, provider: s.provider, model: s.model, priceOf: (m: string) => priceOf(m, s.prices) };
  if (s.outputFormat === "json") return jsonDisplay(io.stdout, full);
  if (s.outputFormat === "stream-json") return claudeStreamDisplay(io.stdout, full);
  if (s.outputFormat === "events") return streamJsonDisplay(io.stdout);
  const color = s.color && io.isTTY;
  const plain = plainDisplay(io.stdout, io.stderr, makeStyle(color), s.verbose, { markdown: color, columns: process.stdout.columns ?? 80 });
  // On a terminal a one-shot run says what it waits for, on stderr, as the REPL's pane does.
  return io.isTTY && process.stderr.isTTY ? withSpinner(plain, io.stderr) : plain;
}

/**
 * The terminal's prompts, loaded when something first asks: their module (@clack/prompts and what it
 * pulls from node:util) costs about 50 ms at start-up, and most runs never ask.
 */
const prompts = () => import("../../ui/approve.ts");
export const terminalPrompts: Required<Pick<ActionOptions, "approver" | "approveServer" | "approveHooks">> = {
  approver: async (asked) => (await prompts()).terminalApprover(asked),
  approveServer: async (entry) => (await prompts()).confirmProjectServer(entry),
  approveHooks: async (file, commands) => (await prompts()).confirmProjectHooks(file, commands),
};

const EXIT = { end_turn: 0, max_turns: 1, max_tokens: 1, refusal: 1, error: 1, repeating: 1, cancelled: 130 } as const;

/** One-shot: run the task in a (new or continued) session, print per --output-format, exit with the run's status. */
export async function runCommand(args: ParsedArgs, task: string, workspace: string, resolved: Resolved, io: RunIO, signal: AbortSignal): Promise<number> {
  const opts = runOptions(args);
  const runtime = await buildRuntime(opts, workspace, resolved, io.interactive ? terminalPrompts : {});
  try {
    const display = displayFor(resolved, io, { cwd: workspace, tools: () => runtime.disclosure.names() });
    for (const message of runtime.notices) display.emit({ type: "notice", level: "info", message });
    const planning = opts.mode === "plan";
    // What the person typed on the command line: a template's own text and piped input are not.
    let result = await runtime.conversation.send(planning ? planTask(task) : task, runtime.watch(display), signal, args.task);
    if (planning && result.stop === "end_turn") {
      // The plan is the person's to accept: asked on a terminal, otherwise said how to go on.
      if (io.interactive && (await (await prompts()).confirmPlan())) {
        runtime.setMode("default");
        result = await runtime.conversation.send(PLAN_ACCEPTED, runtime.watch(display), signal);
      } else display.emit({ type: "notice", level: "info", message: 'plan mode: nothing was changed; to carry the plan out: weir -c "carry out the plan"' });
    }
    if (runtime.autorunWrites.length > 0)
      display.emit({
        type: "notice",
        level: "warn",
        message:
          `weir wrote files that other tools run or agents read later: ${runtime.autorunWrites.join(", ")}; ` +
          `review them before you open the folder in an editor, commit or start another session`,
      });
    return EXIT[result.stop];
  } finally {
    await runtime.close();
  }
}
