import { confirm, isCancel, select } from "@clack/prompts";
import type { Approval, ApprovalRequest, Approver } from "../actions/executor.ts";

/** Asks at the terminal what to do with an action that needs approval, showing exactly what would run. */
export const terminalApprover: Approver = async (req: ApprovalRequest): Promise<Approval> => {
  const answer = await select<Approval>({
    message: `weir wants to ${req.action === "shell" || req.action === "run_command" ? "run" : `use ${req.action}`}:\n  ${req.summary}\n  (${req.risk}; asked by ${req.rule})`,
    options: [
      { value: "once", label: "allow once" },
      { value: "session", label: "allow for this session" },
      { value: "deny", label: "deny" },
    ],
    initialValue: "deny",
  });
  return isCancel(answer) ? "deny" : answer;
};

/** Asks once per workspace before a project's MCP server (from a cloned repository) may start a program. */
export async function confirmProjectServer(entry: { name: string; path: string; config: { command?: string; args?: string[]; url?: string } }): Promise<boolean> {
  const what = entry.config.command ? [entry.config.command, ...(entry.config.args ?? [])].join(" ") : entry.config.url;
  const answer = await confirm({ message: `${entry.path} wants to start the MCP server "${entry.name}":\n  ${what}\nAllow it for this workspace?`, initialValue: false });
  return answer === true;
}
