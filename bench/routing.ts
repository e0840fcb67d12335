/**
 * Tool routing on catalogs of real MCP servers: which tools the first request offers for a task.
 * The catalogs (eval/tools/catalogs/, captured from 11 servers by eval/tools/capture-catalogs.ts)
 * are registered as weir's hub registers live servers (`mcpToolAction`), beside weir's built-ins
 * and agent actions. For each of the tasks in eval/tools/routing.jsonl (labelled with the tools
 * that would do it, written before routing was changed on them, split dev/test by position) the
 * first request is built as a run builds it (fresh disclosure, the router's pre-load), and
 * reported per split:
 *   offered    a needed tool is in the first request;
 *   reachable  offered, or named in load_actions' index (one load_actions call away);
 *   bytes      the first request's tools against every tool, mean.
 * Goals: offered >= 0.9 at <= 20% of the tool bytes, reachable 1.0. Only dev misses are listed.
 *
 * Then the model's own search (load_actions' query, `Disclosure.search`) with the task's words as
 * the query, on a fresh disclosure: for each task that needs a tool the core does not offer, whether
 * one needed tool (any) and every needed tool (all) is in the search's top 5. Goal: any >= 0.95.
 *
 * Then the same with a tool memory (store/tool-memory.ts, a real session database) that holds
 * earlier tasks, each recorded as calling the first tool it needs: on dev, two folds (each half of
 * dev remembered, the other half routed); on test, all of dev remembered. This stands for a person
 * who has asked for such things before, in other words.
 *   bun run bench routing [--misses]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_ACTIONS } from "../src/actions/builtin/index.ts";
import { findReferences } from "../src/actions/builtin/references.ts";
import { verifyAction } from "../src/actions/builtin/verify.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction, tokens, type ToolRecall } from "../src/actions/disclosure.ts";
import { ActionRegistry } from "../src/actions/registry.ts";
import { VerificationLedger } from "../src/actions/verification.ts";
import { agentActions } from "../src/agent/agent-actions.ts";
import type { Fleet } from "../src/agent/fleet.ts";
import { mcpToolAction } from "../src/mcp/hub.ts";
import { SessionStore } from "../src/store/sessions.ts";

const ROOT = join(import.meta.dir, "..");
const TOOLS = join(ROOT, "eval", "tools");
interface Task {
  id: string;
  split: "dev" | "test";
  task: string;
  needed: string[];
}
const tasks = readFileSync(join(TOOLS, "routing.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Task);

/** The registry a run with these servers has: built-ins, agent actions, load_actions and every catalog's tools. */
export function catalogRegistry(): { registry: ActionRegistry; bind: (d: Disclosure) => void } {
  const registry = new ActionRegistry();
  for (const a of [...BUILTIN_ACTIONS, findReferences, verifyAction(new VerificationLedger(ROOT))]) registry.register(a);
  // The agent actions' definitions only: nothing here runs them.
  for (const a of agentActions({} as Fleet)) registry.register(a);
  let current: Disclosure | undefined;
  registry.register(loadActionsAction(() => current!));
  for (const f of readdirSync(join(TOOLS, "catalogs")).filter((x) => x.endsWith(".json")).sort()) {
    const c = JSON.parse(readFileSync(join(TOOLS, "catalogs", f), "utf8")) as { server: string; tools: { name: string; description: string; inputSchema: Record<string, unknown> }[] };
    for (const t of c.tools) {
      const a = mcpToolAction(c.server, "user", t as never, async () => ({ content: "" }));
      if (!registry.get(a.id)) registry.register(a, `tools of the MCP server ${c.server}`);
    }
  }
  return { registry, bind: (d) => void (current = d) };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const short = (id: string) => id.replace(/^mcp__.+?__/, "");

export function routingFigures(memoryOf: (t: Task) => ToolRecall | undefined = () => undefined) {
  const { registry, bind } = catalogRegistry();
  const all = bytes(new Disclosure(registry, { mode: "all", core: DEFAULT_CORE }).offer());
  const out = { dev: { n: 0, offered: 0, reachable: 0, share: 0, misses: [] as string[] }, test: { n: 0, offered: 0, reachable: 0, share: 0, misses: [] as string[] } };
  for (const t of tasks) {
    const memory = memoryOf(t);
    const d = new Disclosure(registry, { mode: "auto", core: DEFAULT_CORE, ...(memory ? { memory } : {}) });
    bind(d);
    d.preloadFor(t.task);
    const tools = d.offer();
    const names = new Set(tools.map((x) => x.name));
    const index = tools.find((x) => x.name === "load_actions")?.description ?? "";
    const offered = t.needed.some((n) => names.has(n));
    const named = (n: string) => new RegExp(`(?:^|[\\s,:(])${short(n).replace(/[-]/g, "\\-")}(?:[\\s,)]|$)`, "m").test(index);
    const reachable = offered || t.needed.some((n) => registry.get(n) !== undefined && named(n));
    const s = out[t.split];
    s.n++;
    s.offered += offered ? 1 : 0;
    s.reachable += reachable ? 1 : 0;
    s.share += bytes(tools) / all;
    if (!offered) s.misses.push(`${t.task}  (needs ${t.needed.join(" | ")}; offered ${[...names].filter((x) => x !== "load_actions").join(", ")})`);
  }
  return { tools: registry.ids().length, out };
}

/** The catalog search with each task's own words: one needed tool in the top 5 (any), and all of them. */
export function searchFigures() {
  const { registry, bind } = catalogRegistry();
  const out = { dev: { n: 0, any: 0, all: 0, misses: [] as string[] }, test: { n: 0, any: 0, all: 0, misses: [] as string[] } };
  for (const t of tasks) {
    const d = new Disclosure(registry, { mode: "auto", core: DEFAULT_CORE });
    bind(d);
    const offered = new Set(d.names());
    const needed = t.needed.filter((n) => !offered.has(n) && registry.get(n));
    if (needed.length === 0) continue;
    const found = d.search(t.task);
    const s = out[t.split];
    s.n++;
    s.any += needed.some((n) => found.includes(n)) ? 1 : 0;
    s.all += needed.every((n) => found.includes(n)) ? 1 : 0;
    if (!needed.some((n) => found.includes(n))) s.misses.push(`${t.task}  (needs ${needed.join(" | ")}; found ${found.join(", ")})`);
  }
  return out;
}

/** A tool memory in a fresh session database holding these tasks, each as calling its first needed tool. */
function memoryOf(history: Task[], dir: string, name: string): ToolRecall {
  const store = SessionStore.open(join(dir, `${name}.db`));
  const memory = store.toolMemory;
  for (const t of history) memory.record(tokens(t.task), [t.needed[0]!]);
  return memory;
}

if (import.meta.main) {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const print = (title: string, out: ReturnType<typeof routingFigures>["out"]) => {
    console.log(title);
    console.log("split  tasks  offered first  reachable  mean tool bytes");
    for (const [k, s] of Object.entries(out)) if (s.n) console.log(`${k.padEnd(5)}  ${String(s.n).padStart(5)}  ${pct(s.offered / s.n).padStart(13)}  ${pct(s.reachable / s.n).padStart(9)}  ${pct(s.share / s.n).padStart(15)}`);
  };
  const { tools, out } = routingFigures();
  print(`tool routing over ${tools} tools (11 real MCP servers' catalogs and weir's own)`, out);
  if (process.argv.includes("--misses")) for (const m of out.dev.misses) console.log(`dev miss: ${m}`);
  const searched = searchFigures();
  console.log("the model's search with the task's words (load_actions query), top 5, tasks needing a tool beyond the core");
  console.log("split  tasks  one needed found  all needed found");
  for (const [k, s] of Object.entries(searched)) if (s.n) console.log(`${k.padEnd(5)}  ${String(s.n).padStart(5)}  ${pct(s.any / s.n).padStart(16)}  ${pct(s.all / s.n).padStart(16)}`);
  if (process.argv.includes("--misses")) for (const m of searched.dev.misses) console.log(`dev search miss: ${m}`);
  const dir = mkdtempSync(join(tmpdir(), "weir-bench-routing-"));
  try {
    const dev = tasks.filter((t) => t.split === "dev");
    const fold = (t: Task) => dev.indexOf(t) % 2;
    const halves = [0, 1].map((k) => memoryOf(dev.filter((t) => fold(t) !== k), dir, `fold${k}`));
    const all = memoryOf(dev, dir, "dev");
    const remembered = routingFigures((t) => (t.split === "dev" ? halves[fold(t)] : all));
    print("with a memory of earlier tasks (dev: the other half of dev; test: all of dev)", remembered.out);
    if (process.argv.includes("--misses")) for (const m of remembered.out.dev.misses) console.log(`dev miss with memory: ${m}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
