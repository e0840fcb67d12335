/**
 * The public surface of ui/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { confirmProjectHooks, confirmProjectServer, terminalApprover } from "./approve.ts";
export { claudeStreamDisplay, jsonDisplay, streamJsonDisplay } from "./json.ts";
export type { RunMeta } from "./json.ts";
export { plainDisplay } from "./plain.ts";
export { withSpinner } from "./spinner.ts";
export { reviewable, visible } from "./visible.ts";
export type { Sink } from "./plain.ts";
export { replApprover, runRepl } from "./repl.ts";
export { formatAgents, formatCalls, formatSessions, resumeNotices } from "./sessions.ts";
export { clackPrompts } from "./setup.ts";
export type { SetupPrompts } from "./setup.ts";
export { makeStyle } from "./style.ts";
