/**
 * A stdio MCP server offering N synthetic tools with realistic descriptions and schemas, for the
 * disclosure benchmark.   bun bench/lib/synthetic-mcp.ts 100
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const n = Number(process.argv[2] ?? 20);
const server = new McpServer({ name: "synthetic", version: "1.0.0" });
const nouns = ["issue", "ticket", "deployment", "pipeline", "dashboard", "alert", "incident", "repository", "branch", "release"];
const verbs = ["list", "get", "create", "update", "delete", "search", "archive", "assign", "comment on", "export"];
for (let i = 0; i < n; i++) {
  const noun = nouns[i % nouns.length]!;
  const verb = verbs[Math.floor(i / nouns.length) % verbs.length]!;
  server.registerTool(
    `tool_${i}`,
    {
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${noun} in the tracking system. Use this when the user asks to ${verb} a ${noun}; it returns the ${noun} as JSON with its id, title, state, owner and timestamps. Fails when the ${noun} does not exist or you lack access.`,
      inputSchema: {
        id: z.string().describe(`the ${noun} id, e.g. ABC-123`),
        project: z.string().optional().describe("project key; defaults to the user's current project"),
        fields: z.array(z.string()).optional().describe("fields to include in the answer"),
        limit: z.number().int().min(1).max(100).optional().describe("most results to return"),
      },
      annotations: { readOnlyHint: verb === "list" || verb === "get" || verb === "search" },
    },
    async ({ id }) => ({ content: [{ type: "text", text: JSON.stringify({ id, title: `${noun} ${id}`, state: "open" }) }] }),
  );
}
await server.connect(new StdioServerTransport());
