/**
 * The public surface of decision/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { baseline } from "./baseline.ts";
export { configureJudge, judgmentFor } from "./configure.ts";
export { applyCalibrator, logit } from "./calibrator.ts";
export type { Calibrator } from "./calibrator.ts";
export { NO_CHECKS, reminder } from "./merge.ts";
export { DecisionPlane } from "./plane.ts";
export { DecisionPolicy, configurePlane } from "./policy.ts";
export type { AnswerPolicy, DecisionRecord } from "./plane.ts";
export type { JudgmentProvider } from "./judges.ts";
export { AGENT_CONTEXT, AGENT_CONTEXT_V1, QuestionSet, checkShape, questionSetFor, setKey, topChoice } from "./questions.ts";
export type { Answer, Answers } from "./questions.ts";
export { DecisionRequest } from "./request.ts";
export { REVIEW_PROMPT, reviewFile } from "./review.ts";
export { chooseRoute, FAST_VIEW_LIMIT, ModelRouter, requestCost, routeFacts } from "./router.ts";
export { changeScope, moduleOf } from "./scope.ts";
export type { ModelSide, Route, RouteFacts, RouteRole, RouterMemory } from "./router.ts";
