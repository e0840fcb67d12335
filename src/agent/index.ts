/**
 * The public surface of agent/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { agentActions } from "./agent-actions.ts";
export { Conversation } from "./conversation.ts";
export { withFleet } from "./fleet-seams.ts";
export { Fleet, formatAgentRow } from "./fleet.ts";
export type { AgentRow } from "./fleet.ts";
export { PLAN_ACCEPTED, planTask, systemPrompt } from "./prompt.ts";
export { workspaceRevision } from "./revision.ts";
export { runSeams } from "./run-seams.ts";
export type { RunSeamDeps } from "./run-seams.ts";
export { WorkState } from "./state.ts";
export { linesNaming } from "./shown-lines.ts";
export { workerActionsFor, workerStarter } from "./worker.ts";
export type { WorkerDeps } from "./worker.ts";
export { pursueGoal, tokensOf } from "./goal.ts";
export { blockedNodes, readyNodes, runGraph } from "./graph.ts";
export type { GraphRunner } from "./graph.ts";
export { GraphPlan, PLAN_SHAPE, parsePlan, PlanNode, validatePlan } from "./graph-plan.ts";
export type { GoalRunner } from "./goal.ts";
