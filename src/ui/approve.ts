import { confirm, isCancel, select } from "@clack/prompts";
import type { Approval, ApprovalRequest, Approver } from "../actions/executor.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reviewable } from "./visible.ts";

const LABEL: Record<Approval, string> = { once: "allowed once", session: "allowed for this session", deny: "denied" };

/**
 * Terminal rows the answered prompt's frame takes: a spacer, the message lines and the answer, each
 * line as many rows as it wraps to. Pure.
 */
export function answeredRows(message: string, answer: string, columns: number): number {
  const lines = ["│", ...message.split("\n").map((l, i) => (i === 0 ? `◇  ${l}` : `│  ${l}`)), `│  ${answer}`];
  return lines.reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / Math.max(1, columns))), 0);
}

/** Asks at the terminal what to do with an action that needs approval, showing exactly what would run; once answered, the prompt collapses to one line. */
export const terminalApprover: Approver = async (asked: ApprovalRequest): Promise<Approval> => {
  // What would run is shown as it is, escape sequences and all made visible, so the prompt cannot be
  // redrawn by it, and runs of blanks counted, so no part of it can be pushed off the screen.
  const req = { ...asked, summary: reviewable(asked.summary) };
  const verb = req.action === "shell" || req.action === "run_command" ? "run" : `use ${req.action}`;
  const whole = `weir wants to ${verb}:\n${req.summary.replace(/^/gm, "  ")}\n  (${req.risk}; asked by ${req.rule})`;
  // Everything or nothing: what does not fit the screen is not shown in part (its start would scroll
  // off the top); a summary that fits says so and where the whole of it is, and only "once" is offered.
  const out0 = process.stdout;
  const tooLong = out0.isTTY === true && answeredRows(whole, "allow for this session", out0.columns ?? 80) + 6 > (out0.rows ?? 24);
  const message = tooLong ? summaryOf(req, verb, out0.columns ?? 80) : whole;
  const answer = await select<Approval>({
    message,
    options: [
      { value: "once", label: tooLong ? "allow once: I have read the whole of it in that file" : "allow once" },
      ...(tooLong ? [] : [{ value: "session" as const, label: "allow for this session" }]),
      { value: "deny", label: "deny" },
    ],
    initialValue: "deny",
  });
  const chosen: Approval = isCancel(answer) ? "deny" : answer;
  const out = process.stdout;
  if (out.isTTY) {
    const optionLabel = { once: "allow once", session: "allow for this session", deny: "deny" }[chosen];
    const rows = answeredRows(message, optionLabel, out.columns ?? 80);
    const summary = req.summary.split("\n")[0]!.slice(0, Math.max(20, (out.columns ?? 80) - 30));
    out.write(`\x1b[${rows}A\x1b[J${chosen === "deny" ? "✗" : "✓"} ${LABEL[chosen]}: ${summary}\n`);
  }
  return chosen;
};

/**
 * The prompt for what is too long for the screen: its size, its first line cut to the width, and a
 * file (0600, in the temporary directory) holding the whole of it as the prompt would have shown it.
 */
function summaryOf(req: ApprovalRequest, verb: string, columns: number): string {
  const dir = mkdtempSync(join(tmpdir(), "weir-approval-"));
  const file = join(dir, "request.txt");
  writeFileSync(file, `${req.action}: ${req.summary}\n`, { mode: 0o600 });
  const lines = req.summary.split("\n");
  const first = lines[0]!.slice(0, Math.max(20, columns - 12));
  const size = `${lines.length} lines, ${req.summary.length} characters`;
  return (
    `weir wants to ${verb} something too long for this screen (${size}); it begins:\n  ${first}…\n` +
    `  The whole of it, as it would run: ${file}\n  (${req.risk}; asked by ${req.rule})`
  );
}

/** A yes/no question that collapses to one line once answered (clack leaves its frame otherwise). */
async function confirmCollapsed(message: string, said: (yes: boolean) => string): Promise<boolean> {
  const answer = await confirm({ message, initialValue: false });
  const yes = answer === true;
  const out = process.stdout;
  if (out.isTTY) out.write(`\x1b[${answeredRows(message, yes ? "Yes" : "No", out.columns ?? 80)}A\x1b[J${yes ? "✓" : "✗"} ${said(yes)}\n`);
  return yes;
}

/** After a run in plan mode: whether to carry the plan out now (default no: nothing has changed yet). */
export async function confirmPlan(): Promise<boolean> {
  return confirmCollapsed("Carry out this plan now?", (yes) => (yes ? "plan accepted: carrying it out" : "plan kept; nothing was changed"));
}

/**
 * Asks once per workspace before a project's MCP server (from a cloned repository) may start a
 * program. Everything shown comes from the repository, so all of it is `reviewable`.
 */
export async function confirmProjectServer(entry: {
  name: string;
  path: string;
  config: { command?: string; args?: string[]; url?: string; env?: Record<string, string>; network?: boolean };
  covers?: { files: number };
}): Promise<boolean> {
  const c = entry.config;
  const what = reviewable(c.command ? [c.command, ...(c.args ?? [])].join(" ") : (c.url ?? ""));
  const name = reviewable(entry.name);
  // Its environment runs code too (NODE_OPTIONS=--require …), and the network is a widening: both are shown.
  const env = Object.entries(c.env ?? {}).map(([k, v]) => `  env ${reviewable(k)}=${reviewable(v)}`);
  const network = c.command ? [`  network: ${c.network ? "yes, it may reach any host" : "none"}`] : [];
  // What it can load of the workspace is covered too: a file changed since asks again.
  const files = entry.covers ? [`  loads: ${entry.covers.files === 1 ? "1 file" : `${entry.covers.files} files`} of the workspace, as they are now`] : [];
  const shown = [what.replace(/^/gm, "  "), ...env, ...network, ...files].join("\n");
  const question = `${reviewable(entry.path)} wants to start the MCP server "${name}":\n${shown}\nAllow it for this workspace?`;
  return confirmCollapsed(question, (yes) => `MCP server ${name} ${yes ? "allowed for this workspace" : "not allowed"}`);
}

/**
 * Asks once per workspace (and again whenever they change) before a project's hooks may run: every
 * command whole, as `reviewable` shows it, since the repository wrote them.
 */
export async function confirmProjectHooks(file: string, commands: string[]): Promise<boolean> {
  const shown = commands.map((c) => reviewable(c).replace(/^/gm, "  "));
  const question = `${reviewable(file)} declares hooks (they run in the command sandbox on these events):\n${shown.join("\n")}\nRun them in this workspace?`;
  return confirmCollapsed(question, (yes) => `${reviewable(file)} hooks ${yes ? "allowed for this workspace" : "not run"}`);
}
