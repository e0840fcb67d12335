/**
 * The public surface of core/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { ContextChunk, FloorReason, RenderLevel, tokensOf } from "./chunk.ts";
export { addKnownSecrets, redactCredentials, secretVariable, useKnownSecrets } from "./credentials.ts";
export { BudgetSpent, UserError, isUserError, machineRefusal, refusalReason, usageError } from "./errors.ts";
export { faultPoint } from "./fault-point.ts";
export type { AgentEvent, Display, ModelUsage, RunStop } from "./events.ts";
export { textOf, toolCallsOf, userText } from "./messages.ts";
export type { AssistantMessage, ImageBlock, Message, ToolCallBlock, ToolDetails, ToolResultBlock, ToolSpec, UserMessage } from "./messages.ts";
export { eachLimited } from "./pool.ts";
export { TurnAccumulator } from "./stream.ts";
export type { StopReason, StreamEvent } from "./stream.ts";
export { addUsage, cacheHitRate, costOf, emptyUsage, promptTokens } from "./usage.ts";
export type { Price, Usage } from "./usage.ts";
export { counted, cutLine, MAX_LINE, middleCut, numberedLine, taskRoom } from "./text-fit.ts";
