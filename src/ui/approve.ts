import { confirm, isCancel, select } from "@clack/prompts";
import type { Approval, ApprovalRequest, Approver } from "../actions/executor.ts";
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
  const message = `weir wants to ${verb}:\n${req.summary.replace(/^/gm, "  ")}\n  (${req.risk}; asked by ${req.rule})`;
  const answer = await select<Approval>({
    message,
    options: [
      { value: "once", label: "allow once" },
      { value: "session", label: "allow for this session" },
      { value: "deny", label: "deny" },
    ],
    initialValue: "deny",
  });
  const chosen: Approval = isCancel(answer) ? "deny" : answer;
  const out = process.stdout;
  if (out.isTTY) {
    const optionLabel = { once: "allow once", session: "allow for this session", deny: "deny" }[chosen];
    const rows = answeredRows(message, optionLabel, out.columns ?? 80);
    out.write(`\x1b[${rows}A\x1b[J${chosen === "deny" ? "✗" : "✓"} ${LABEL[chosen]}: ${req.summary.split("\n")[0]!.slice(0, Math.max(20, (out.columns ?? 80) - 30))}\n`);
  }
  return chosen;
};

/** A yes/no question that collapses to one line once answered (clack leaves its frame otherwise). */
async function confirmCollapsed(message: string, said: (yes: boolean) => string): Promise<boolean> {
  const answer = await confirm({ message, initialValue: false });
  const yes = answer === true;
  const out = process.stdout;
  if (out.isTTY) out.write(`\x1b[${answeredRows(message, yes ? "Yes" : "No", out.columns ?? 80)}A\x1b[J${yes ? "✓" : "✗"} ${said(yes)}\n`);
  return yes;
}

/**
 * Asks once per workspace before a project's MCP server (from a cloned repository) may start a
 * program. Everything shown comes from the repository, so all of it is `reviewable`.
 */
export async function confirmProjectServer(entry: { name: string; path: string; config: { command?: string; args?: string[]; url?: string } }): Promise<boolean> {
  const what = reviewable(entry.config.command ? [entry.config.command, ...(entry.config.args ?? [])].join(" ") : (entry.config.url ?? ""));
  const name = reviewable(entry.name);
  return confirmCollapsed(`${reviewable(entry.path)} wants to start the MCP server "${name}":\n${what.replace(/^/gm, "  ")}\nAllow it for this workspace?`, (yes) => `MCP server ${name} ${yes ? "allowed for this workspace" : "not allowed"}`);
}

/**
 * Asks once per workspace (and again whenever they change) before a project's hooks may run: every
 * command whole, as `reviewable` shows it, since the repository wrote them.
 */
export async function confirmProjectHooks(file: string, commands: string[]): Promise<boolean> {
  const shown = commands.map((c) => reviewable(c).replace(/^/gm, "  "));
  return confirmCollapsed(`${reviewable(file)} declares hooks (they run in the command sandbox on these events):\n${shown.join("\n")}\nRun them in this workspace?`, (yes) => `${reviewable(file)} hooks ${yes ? "allowed for this workspace" : "not run"}`);
}
