/**
 * The public surface of actions/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { ToolFailure, defineAction } from "./action.ts";
export type { Action, ActionContext, Risk } from "./action.ts";
export { builtinActionSet } from "./builtin/index.ts";
export { skillAction } from "./builtin/skills.ts";
export { Disclosure } from "./disclosure.ts";
export type { RecallStats, ToolRecall } from "./disclosure.ts";
export { applyEdits, textAfter } from "./edit-match.ts";
export type { EditSpec } from "./edit-match.ts";
export { ActionExecutor, FileLocks } from "./executor.ts";
export type { Approval, ApprovalRequest, Approver, ExecutorOptions } from "./executor.ts";
export { HOOK_EVENTS, Hooks, approvedProjectHooks, hookStartProblem, mergeHooks } from "./hooks.ts";
export { defaultPolicy, layerPolicy } from "./permissions.ts";
export { ActionRegistry } from "./registry.ts";
export { VerificationLedger, isDocumentation } from "./verification.ts";
export { planLines } from "./builtin/todo.ts";
export type { TodoItem } from "./builtin/todo.ts";
