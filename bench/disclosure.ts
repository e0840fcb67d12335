/**
 * Progressive disclosure against the full catalog. A synthetic MCP server offers 20, 100 and 500
 * tools beside the built-ins; the same scripted 10-turn session runs on the compiled binary against
 * the mock wire server, with disclosure on and with --tools all. Prints tool-definition bytes and
 * estimated tokens (4 chars a token) per request and in total, and the ratios; plus the size of the
 * whole first request with no MCP server. Targets: at 100 tools the first request's tool
 * definitions <= 10% of the full catalog's, the session <= 25%; first request < 6 KB.
 *   bun run bench disclosure
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer, type Turn } from "../test/support/mock-server.ts";
import { hostBinary } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-disclosure-"));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(join(home, ".config", "weir"), { recursive: true });
mkdirSync(ws);
writeFileSync(join(ws, "README.md"), "# demo\n\nSmall project.\n");
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const server = await new MockServer().start();
server.simulateCache = true;

const script = (): Turn[] => [
  { toolCalls: [{ id: "t1", name: "read_file", input: { path: "README.md" } }] },
  { toolCalls: [{ id: "t2", name: "search", input: { pattern: "demo" } }] },
  { toolCalls: [{ id: "t3", name: "load_actions", input: { actions: ["mcp__synth__tool_3", "mcp__synth__tool_11"] } }] },
  { toolCalls: [{ id: "t4", name: "mcp__synth__tool_3", input: { id: "ABC-1" } }] },
  { toolCalls: [{ id: "t5", name: "mcp__synth__tool_11", input: { id: "ABC-2" } }] },
  { toolCalls: [{ id: "t6", name: "load_actions", input: { capabilities: ["command"] } }] },
  { toolCalls: [{ id: "t7", name: "run_command", input: { program: "echo", args: ["hi"] } }] },
  { toolCalls: [{ id: "t8", name: "list_files", input: {} }] },
  { toolCalls: [{ id: "t9", name: "read_file", input: { path: "README.md", offset: 2 } }] },
  { text: "Summary of the work." },
];

async function session(mode: "auto" | "all", withMcp: number | undefined) {
  writeFileSync(
    join(home, ".config", "weir", "mcp.json"),
    JSON.stringify({ mcpServers: withMcp ? { synth: { command: process.execPath, args: [join(import.meta.dir, "lib", "synthetic-mcp.ts"), String(withMcp)] } } : {} }),
  );
  const turns = script();
  server.script({ turns });
  const first = server.requests.length;
  const p = Bun.spawn([bin, "--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "m", "--cwd", ws, "--tools", mode, "look at the tracker tickets"], { env, stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(await new Response(p.stderr).text());
  const reqs = server.requests.slice(first);
  const toolBytes = reqs.map((r) => JSON.stringify(r.body.tools ?? []).length);
  const cacheRead = turns.reduce((n, t) => n + (t.usage?.cacheRead ?? 0), 0);
  const input = turns.reduce((n, t) => n + (t.usage?.input ?? 0), 0);
  return { toolBytes, firstBody: JSON.stringify(reqs[0]!.body).length, cacheHit: cacheRead / (cacheRead + input) };
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const tok = (b: number) => Math.round(b / 4);
try {
  const bare = await session("auto", undefined);
  console.log(`first request with no MCP server (system + tools + task): ${kb(bare.firstBody)} (target < 6 KB); tool definitions ${kb(bare.toolBytes[0]!)}`);
  for (const n of [20, 100, 500]) {
    const auto = await session("auto", n);
    const all = await session("all", n);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(`\n${n} MCP tools + built-ins, 10-turn session`);
    console.log(`  per request tool tokens, disclosure: ${auto.toolBytes.map(tok).join(" ")}`);
    console.log(`  per request tool tokens, --tools all: ${all.toolBytes.map(tok).join(" ")}`);
    console.log(
      `  first request: ${tok(auto.toolBytes[0]!)} vs ${tok(all.toolBytes[0]!)} tokens = ${((100 * auto.toolBytes[0]!) / all.toolBytes[0]!).toFixed(1)}%` +
        `   session: ${tok(sum(auto.toolBytes))} vs ${tok(sum(all.toolBytes))} tokens = ${((100 * sum(auto.toolBytes)) / sum(all.toolBytes)).toFixed(1)}%`,
    );
    console.log(`  simulated prompt-cache hit rate: disclosure ${(100 * auto.cacheHit).toFixed(0)}%, --tools all ${(100 * all.cacheHit).toFixed(0)}%`);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
