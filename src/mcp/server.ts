import type { z } from "zod";

/** One tool weir serves: its input's shape, and what it answers (an error result when `isError`). */
export interface ServedTool {
  name: string;
  description: string;
  input: z.ZodRawShape;
  /** Reads only: the client may call it without asking (MCP's readOnlyHint). */
  readOnly: boolean;
  run(input: Record<string, unknown>): Promise<{ text: string; isError?: boolean }>;
}

/**
 * Serves `tools` over stdio MCP until the client closes its end (`weir serve --mcp`). The SDK loads
 * only here, when a person asks for the server.
 */
export async function serveOverStdio(tools: readonly ServedTool[], version: string): Promise<void> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = new McpServer({ name: "weir", version });
  for (const t of tools) {
    const config = { description: t.description, inputSchema: t.input, annotations: { readOnlyHint: t.readOnly } };
    server.registerTool(t.name, config, async (input: Record<string, unknown>) => {
      const r = await t.run(input);
      return { content: [{ type: "text" as const, text: r.text }], ...(r.isError ? { isError: true } : {}) };
    });
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
}
