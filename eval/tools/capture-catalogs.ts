/**
 * Captures the tool catalogs of real MCP servers into eval/tools/catalogs/: each server is started
 * over stdio and asked for its tools (name, description, input schema), exactly what weir's hub
 * registers. Install the servers into a directory of your own first, then point this at it:
 *   cd /tmp/servers && npm install @modelcontextprotocol/server-github @modelcontextprotocol/server-gitlab \
 *     @modelcontextprotocol/server-slack @modelcontextprotocol/server-postgres @modelcontextprotocol/server-brave-search \
 *     @modelcontextprotocol/server-google-maps @modelcontextprotocol/server-puppeteer mcp-server-kubernetes @notionhq/notion-mcp-server
 *   bun eval/tools/capture-catalogs.ts /tmp/servers/node_modules
 * Credentials are placeholders: listing tools needs none of them. memory and filesystem come from
 * weir's own dev dependencies.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const installed = process.argv[2];
if (!installed) throw new Error("usage: bun eval/tools/capture-catalogs.ts NODE_MODULES_OF_THE_SERVERS");
const own = join(import.meta.dir, "..", "..", "node_modules", "@modelcontextprotocol");
const scratch = mkdtempSync(join(tmpdir(), "weir-catalogs-"));
const SERVERS: Record<string, [string, string[], Record<string, string>]> = {
  github: [`${installed}/@modelcontextprotocol/server-github/dist/index.js`, [], { GITHUB_PERSONAL_ACCESS_TOKEN: "x" }],
  gitlab: [`${installed}/@modelcontextprotocol/server-gitlab/dist/index.js`, [], { GITLAB_PERSONAL_ACCESS_TOKEN: "x" }],
  slack: [`${installed}/@modelcontextprotocol/server-slack/dist/index.js`, [], { SLACK_BOT_TOKEN: "x", SLACK_TEAM_ID: "T1" }],
  postgres: [`${installed}/@modelcontextprotocol/server-postgres/dist/index.js`, ["postgresql://localhost/none"], {}],
  "brave-search": [`${installed}/@modelcontextprotocol/server-brave-search/dist/index.js`, [], { BRAVE_API_KEY: "x" }],
  "google-maps": [`${installed}/@modelcontextprotocol/server-google-maps/dist/index.js`, [], { GOOGLE_MAPS_API_KEY: "x" }],
  puppeteer: [`${installed}/@modelcontextprotocol/server-puppeteer/dist/index.js`, [], {}],
  kubernetes: [`${installed}/mcp-server-kubernetes/dist/index.js`, [], {}],
  notion: [`${installed}/@notionhq/notion-mcp-server/bin/cli.mjs`, [], { NOTION_TOKEN: "x" }],
  memory: [`${own}/server-memory/dist/index.js`, [], { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") }],
  filesystem: [`${own}/server-filesystem/dist/index.js`, [scratch], {}],
};
for (const [name, [script, args, env]] of Object.entries(SERVERS)) {
  const client = new Client({ name: "weir-catalogs", version: "1" });
  const transport = new StdioClientTransport({ command: "node", args: [script, ...args], env: { PATH: process.env.PATH ?? "", HOME: scratch, ...env }, stderr: "ignore" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const catalog = { server: name, package: client.getServerVersion(), tools: tools.map((t) => ({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema })) };
  writeFileSync(join(import.meta.dir, "catalogs", `${name}.json`), `${JSON.stringify(catalog, null, 1)}\n`);
  console.log(`${name}: ${tools.length} tools (${catalog.package?.name} ${catalog.package?.version})`);
  await client.close();
}
