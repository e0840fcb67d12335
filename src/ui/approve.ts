import { isCancel, select } from "@clack/prompts";
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
