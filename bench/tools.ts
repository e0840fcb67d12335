/**
 * Which tools the model sees first. Four real MCP servers from npm (server-everything,
 * server-filesystem, server-memory, server-sequential-thinking) plus weir's built-ins; for each of
 * the 60 developer tasks in eval/tools/tasks.jsonl (labelled with the tools a task needs, written
 * before the ranking was run on them), the first request's tools are built as a run builds them
 * (fresh disclosure, the router's pre-load). Prints how often a needed tool is offered, how often
 * it is offered or one load_actions away with its name visible in the index, and the first
 * request's tool bytes against --tools all. Targets: reachable >= 90% at <= 25% of all tool bytes.
 *   bun run bench tools
 */
import { readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_ACTIONS } from "../src/actions/builtin/index.ts";
import { findReferences } from "../src/actions/builtin/references.ts";
import { verifyAction } from "../src/actions/builtin/verify.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction } from "../src/actions/disclosure.ts";
import { ActionRegistry } from "../src/actions/registry.ts";
import { VerificationLedger } from "../src/actions/verification.ts";
import { McpHub } from "../src/mcp/hub.ts";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from "../test/support/mcp-servers.ts";

const ROOT = join(import.meta.dir, "..");
const tasks = readFileSync(join(ROOT, "eval", "tools", "tasks.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { task: string; needed: string[] });
const dir = mkdtempSync(join(tmpdir(), "weir-bench-tools-"));
const registry = new ActionRegistry();
for (const a of [...BUILTIN_ACTIONS, findReferences, verifyAction(new VerificationLedger(dir))]) registry.register(a);
let current: Disclosure | undefined;
registry.register(loadActionsAction(() => current!));
const hub = new McpHub(registry, { workspace: dir, serverHomes: join(dir, ".mcp-homes"), startTimeoutMs: 20_000, callTimeoutMs: 5_000, isApproved: () => true, clientVersion: "bench" });
const server = (name: string, args: string[], env: Record<string, string> = {}) => ({ name, config: { command: process.execPath, args, env }, origin: "user" as const, path: "bench", fingerprint: name });
await hub.start([
  server("everything", [EVERYTHING_SERVER, "stdio"]),
  server("filesystem", [FILESYSTEM_SERVER, dir]),
  server("memory", [join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") }),
  server("thinking", [join(ROOT, "node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js")]),
]);
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const all = new Disclosure(registry, { mode: "all", core: DEFAULT_CORE }).offer();
let offered = 0;
let reachable = 0;
const shares: number[] = [];
const misses: string[] = [];
for (const t of tasks) {
  current = new Disclosure(registry, { mode: "auto", core: DEFAULT_CORE });
  current.preloadFor(t.task);
  const tools = current.offer();
  const names = new Set(tools.map((x) => x.name));
  const index = tools.find((x) => x.name === "load_actions")?.description ?? "";
  const short = (id: string) => id.replace(/^mcp__.+?__/, "");
  const isOffered = t.needed.some((n) => names.has(n));
  const isReachable = isOffered || t.needed.some((n) => registry.get(n) && new RegExp(`(?:^|[\\s,:(])${short(n).replace(/[-]/g, "\\-")}(?:[\\s,)]|$)`, "m").test(index));
  offered += isOffered ? 1 : 0;
  reachable += isReachable ? 1 : 0;
  shares.push(bytes(tools) / bytes(all));
  if (!isReachable) misses.push(`${t.task}  (needs ${t.needed.join(" | ")})`);
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
console.log(`${registry.ids().length} actions (${registry.ids().filter((i) => i.startsWith("mcp__")).length} from 4 MCP servers); ${tasks.length} tasks`);
console.log(`needed tool offered in the first request: ${offered}/${tasks.length} (${pct(offered / tasks.length)})`);
console.log(`offered or one load_actions away with its name in the index: ${reachable}/${tasks.length} (${pct(reachable / tasks.length)}; target >= 90%)`);
console.log(`first-request tool bytes vs --tools all: mean ${pct(mean)}, max ${pct(Math.max(...shares))} of ${(bytes(all) / 1024).toFixed(1)} KB (target <= 25%)`);
for (const m of misses) console.log(`  miss: ${m}`);
await hub.closeAll();
rmSync(dir, { recursive: true, force: true });
