/**
 * The public surface of mcp/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { NO_SERVERS, loadMcpServers, uncoverable } from "./config.ts";
export type { ServerEntry } from "./config.ts";
export { McpHub, startServers } from "./hub.ts";
export { serveOverStdio } from "./server.ts";
export type { ServedTool } from "./server.ts";
