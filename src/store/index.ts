/**
 * The public surface of store/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { EvalStore } from "./eval.ts";
export type { GoalRow, GoalStatus, GoalTransition } from "./goals.ts";
export { GoalStore } from "./goals.ts";
export { reviewHolds, Reviews } from "./reviews.ts";
export type { Review, ReviewFinding } from "./reviews.ts";
export { TestLinks } from "./test-links.ts";
export { ToolMemory } from "./tool-memory.ts";
export type { GraphEvent, GraphRow, GraphStatus, NodeRow, NodeState, TransitionFields } from "./graphs.ts";
export { GraphStore } from "./graphs.ts";
export { OutlineCache } from "./outlines.ts";
export { SymbolIndex } from "./symbol-index.ts";
export type { FileState, IndexedFile, IndexStatus } from "./symbol-index.ts";
export type { LockHolder } from "./process-lock.ts";
export { ProcessLock } from "./process-lock.ts";
export { SessionStore } from "./sessions.ts";
export type { RouteRecord, SessionRow } from "./sessions.ts";
