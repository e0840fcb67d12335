/**
 * The public surface of eval/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { analyse } from "./analysis.ts";
export { OUTCOME_RULES, captureCases } from "./capture.ts";
export { fitPolicy } from "./fit-policy.ts";
export { FirewallCase, firewallReport, layerFigures, loadFirewallSuite } from "./firewall-suite.ts";
export { applyLabel, labelPage, suiteText } from "./label.ts";
export type { LabelEdit } from "./label.ts";
export { foldOf, predictLearned, trainLearned } from "./learned.ts";
export { groupOf, isJudgmentSource, joinResults, replay, replayKey, shardCases } from "./replay.ts";
export type { CandidateSource } from "./replay.ts";
export { replayRouting } from "./routing.ts";
export type { PolicyCost, RoutedRequest, RoutingPolicy } from "./routing.ts";
export { htmlReport, plainSummary, terminalReport } from "./report.ts";
export { EvalCase, loadSuites } from "./suite.ts";
