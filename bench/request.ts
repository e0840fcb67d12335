/**
 * What the compiled run sends, measured on the compiled binary against the mock wire server:
 *  1. the first request for "summarise README.md" in a repository with a 1 KB AGENTS.md (target
 *     <= 6 KB), on both wires;
 *  2. with the reference MCP servers (server-everything + server-filesystem) configured, the first
 *     request's tool bytes against --tools all (target <= 25%);
 *  3. a long session (13 turns, 12 reads of 6 KB files): total bytes sent (target <= 500 KB; and when
 *     the task names the files, how many reads a pointer answers), raw
 *     prefix reuse between consecutive requests in cache order (tools, system, messages; cache
 *     markers removed) — median >= 99%, minimum >= 97% — and on the Messages wire the share of each
 *     later request's input that lies inside the previous request's last cache breakpoint (>= 90%),
 *     and of all input after the first request, beside its bound (what a turn adds is new to any cache);
 *     then the same share over a conversation of 13 turns (12 follow-ups with -c, each naming and
 *     reading a 6 KB file), counted after the first turn as issue 57 counts it;
 *  4. a 200-turn session with --context-size 60000: every request within the window, the floor
 *     (AGENTS.md sentinel, the named file) in every request, no model call spent on compaction.
 *   bun run bench request
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer, type Turn } from "../test/support/mock-server.ts";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from "../test/support/mcp-servers.ts";
import { hostBinary, median } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-request-"));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(join(home, ".config", "weir"), { recursive: true });
mkdirSync(ws);
const agents = `# Working on this repository SENTINEL-AGENTS\n\n${"Keep functions small; prefer pure helpers; write a test for every fix. ".repeat(14)}\n`;
writeFileSync(join(ws, "AGENTS.md"), agents.slice(0, 1024));
writeFileSync(join(ws, "README.md"), "# demo\n\nA small project that greets people.\n\n## Use\n\n```sh\nnode greet.js Ada\n```\n");
for (let i = 0; i < 12; i++) writeFileSync(join(ws, `f${i}.txt`), Array.from({ length: 100 }, (_, k) => `file ${i} line ${k} `.padEnd(60, "x")).join("\n"));
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const server = await new MockServer().start();
const wireArgs = (w: "messages" | "chat") =>
  w === "messages" ? ["--provider", "anthropic-compatible", "--base-url", server.url, "--model", "m"] : ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "m"];

async function run(w: "messages" | "chat", turns: Turn[], task: string, extra: string[] = []) {
  server.script({ turns });
  const first = server.requests.length;
  const p = Bun.spawn([bin, ...wireArgs(w), "--cwd", ws, "--verify-floor", "off", ...extra, task], { env, stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(await new Response(p.stderr).text());
  return server.requests.slice(first).map((r) => r.body);
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const unmark = (v: unknown) => JSON.stringify(v).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "");
const material = (w: "messages" | "chat", b: any) => (w === "messages" ? `[${unmark(b.tools ?? [])},${unmark(b.system ?? "")},${unmark(b.messages)}]` : `[${unmark(b.tools ?? [])},${unmark(b.messages)}]`);
function common(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
/** A Messages request's blocks in cache order: tools, system, then each message's content. */
const blocks = (b: any): any[] => [...(b.tools ?? []), ...(b.system ?? []), ...b.messages.flatMap((m: any) => m.content)];
/** Bytes of a Messages request in cache order up to and including its last breakpoint. */
function cachedPrefix(b: any): number {
  let upto = 0;
  let n = 0;
  for (const part of blocks(b)) {
    n += Buffer.byteLength(unmark(part));
    if (part.cache_control) upto = n;
  }
  return upto;
}
const cacheBytes = (b: any) => blocks(b).reduce((n: number, p: any) => n + Buffer.byteLength(unmark(p)), 0);

/**
 * Of all input from request `from` on, the share a cache read serves: the blocks of the previous
 * request up to its last breakpoint, when the request starts with them unchanged. Its bound: every
 * byte a request carries beyond the one before it is new to any cache.
 */
function cacheShare(reqs: any[], from: number): { read: number; bound: number } {
  let read = 0;
  let fresh = 0;
  let size = 0;
  for (let i = from; i < reqs.length; i++) {
    const [prev, next] = [blocks(reqs[i - 1]), blocks(reqs[i])];
    let n = 0;
    let hit = 0;
    for (let k = 0; k < prev.length && unmark(prev[k]) === unmark(next[k]); k++) {
      n += Buffer.byteLength(unmark(prev[k]));
      if (prev[k].cache_control) hit = n;
    }
    read += hit;
    fresh += Math.max(0, cacheBytes(reqs[i]) - cacheBytes(reqs[i - 1]));
    size += cacheBytes(reqs[i]);
  }
  return { read: read / size, bound: 1 - fresh / size };
}

try {
  console.log("1. first request, \"summarise README.md\", 1 KB AGENTS.md (target <= 6 KB; pi 5.4 KB, Claude Code 75 KB)");
  for (const w of ["messages", "chat"] as const) {
    const [b] = await run(w, [{ text: "A small greeting project." }], "summarise README.md");
    console.log(`   ${w.padEnd(8)} ${kb(bytes(b))}  (tools ${kb(bytes(b.tools ?? []))}, messages ${kb(bytes(b.messages))}), AGENTS.md in it: ${JSON.stringify(b).includes("SENTINEL-AGENTS")}`);
  }

  console.log("\n2. first-request tool bytes with server-everything + server-filesystem (target <= 25% of --tools all)");
  writeFileSync(
    join(home, ".config", "weir", "mcp.json"),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] }, filesystem: { command: process.execPath, args: [FILESYSTEM_SERVER, ws] } } }),
  );
  for (const task of ["summarise README.md", "read README.md and list the files", "print an environment variable with the everything server"]) {
    const [auto] = await run("chat", [{ text: "ok" }], task);
    const [all] = await run("chat", [{ text: "ok" }], task, ["--tools", "all"]);
    console.log(`   ${JSON.stringify(task).padEnd(60)} ${kb(bytes(auto.tools))} of ${kb(bytes(all.tools))} = ${pct(bytes(auto.tools) / bytes(all.tools))}  (${auto.tools.length} of ${all.tools.length} tools)`);
  }
  rmSync(join(home, ".config", "weir", "mcp.json"));

  console.log("\n3. long session: 13 turns, 12 reads of 6 KB files (targets: total <= 500 KB; reuse median >= 99%, min >= 97%; cached >= 90%)");
  for (const w of ["messages", "chat"] as const) {
    const turns: Turn[] = [...Array.from({ length: 12 }, (_, i) => ({ toolCalls: [{ id: `r${i}`, name: "read_file", input: { path: `f${i}.txt` } }] })), { text: "read them all" }];
    const reqs = await run(w, turns, "read the twelve numbered text files and tell me what they hold");
    const total = reqs.reduce((n, b) => n + bytes(b), 0);
    const reuse = reqs.slice(1).map((b, i) => common(material(w, reqs[i]), material(w, b)) / material(w, reqs[i]).length);
    let line = `   ${w.padEnd(8)} ${reqs.length} requests, total ${kb(total)}; prefix reuse median ${pct(median(reuse))}, min ${pct(Math.min(...reuse))}`;
    if (w === "messages") {
      const inside = reqs.slice(1).map((b, i) => Math.min(cachedPrefix(reqs[i]), common(material(w, reqs[i]), material(w, b))) / cacheBytes(b));
      const own = reqs.slice(1).map((b) => cachedPrefix(b) / cacheBytes(b));
      line += `; covered by the request's own breakpoints median ${pct(median(own))}, min ${pct(Math.min(...own))}; readable from the previous request's cache write median ${pct(median(inside))}, min ${pct(Math.min(...inside))}`;
      const { read, bound } = cacheShare(reqs, 1);
      line += `; of all input after the first request ${pct(read)} (bound by what each turn adds: ${pct(bound)})`;
    }
    console.log(line);
  }
  {
    // A conversation of 13 turns: a task and 12 follow-ups (`-c`), each naming a 6 KB file it then
    // reads. The measure counts the input after the first turn.
    writeFileSync(join(ws, "f12.txt"), Array.from({ length: 100 }, (_, k) => `file 12 line ${k} `.padEnd(60, "x")).join("\n"));
    const reqs: any[] = [];
    let secondTurn = 0;
    for (let t = 0; t < 13; t++) {
      const turns: Turn[] = [{ toolCalls: [{ id: `c${t}`, name: "read_file", input: { path: `f${t}.txt` } }] }, { text: `f${t}.txt holds numbered lines.` }];
      if (t === 1) secondTurn = reqs.length;
      const task = `${t ? "now " : ""}read f${t}.txt and tell me what it holds`;
      reqs.push(...(await run("messages", turns, task, t ? ["-c"] : [])));
    }
    const { read, bound } = cacheShare(reqs, secondTurn);
    const total = kb(reqs.reduce((n, b) => n + bytes(b), 0));
    console.log(`   messages, 13 turns (12 follow-ups with -c): ${reqs.length} requests, total ${total}; of all input after the first turn ${pct(read)} read from the cache (bound by what each turn adds: ${pct(bound)})`);
  }
  {
    // The same reads when the task names the twelve files: they open the working set whole, and a
    // read of unchanged bytes points there instead of sending them again.
    const turns: Turn[] = [...Array.from({ length: 12 }, (_, i) => ({ toolCalls: [{ id: `n${i}`, name: "read_file", input: { path: `f${i}.txt` } }] })), { text: "read them all" }];
    const reqs = await run("chat", turns, `read ${Array.from({ length: 12 }, (_, i) => `f${i}.txt`).join(", ")} and tell me what they hold`);
    const pointers = reqs.at(-1)!.messages.filter((m: { content?: unknown }) => JSON.stringify(m.content ?? "").includes("is unchanged since the working set")).length;
    console.log(`   chat, the task naming the files: ${reqs.length} requests, total ${kb(reqs.reduce((n, b) => n + bytes(b), 0))}; reads answered by a pointer: ${pointers} of 12`);
  }

  console.log("\n4. 200-turn session, --context-size 60000 (every request within the window, floor in every request, no compaction call)");
  {
    writeFileSync(join(ws, "greet.js"), "export const greet = (n) => `hi ${n}`; // FLOOR-FILE\n");
    const turns: Turn[] = [...Array.from({ length: 199 }, (_, i) => ({ toolCalls: [{ id: `s${i}`, name: "read_file", input: { path: `f${i % 12}.txt` } }] })), { text: "done" }];
    const reqs = await run("messages", turns, "look at greet.js and the f files", ["--context-size", "60000", "--max-turns", "200"]);
    const tokens = reqs.map((b) => Math.ceil(bytes(b) / 4));
    const floor = reqs.every((b) => JSON.stringify(b.messages).includes("SENTINEL-AGENTS") && JSON.stringify(b.messages).includes("FLOOR-FILE"));
    console.log(`   ${reqs.length} requests (one per turn: none spent on compaction); largest ~${Math.max(...tokens)} tokens of 60000; floor in every request: ${floor}`);
  }

  console.log("\n5. 150-turn session reading six 8 KB files in turn, default window (target: the last request <= 500 KB; a file read again unchanged is not sent again)");
  {
    const body = (i: number) => Array.from({ length: 200 }, (_, k) => `six ${i} line ${k}: ${"text ".repeat(6)}`).join("\n");
    for (let i = 0; i < 6; i++) writeFileSync(join(ws, `six${i}.txt`), body(i));
    const readSix = (i: number): Turn => ({ toolCalls: [{ id: `x${i}`, name: "read_file", input: { path: `six${i % 6}.txt` } }] });
    const turns: Turn[] = [...Array.from({ length: 149 }, (_, i) => readSix(i)), { text: "done" }];
    const reqs = await run("messages", turns, "look through the six files again and again", ["--max-turns", "150"]);
    const reuse = reqs.slice(1).map((b, i) => common(material("messages", reqs[i]), material("messages", b)) / material("messages", reqs[i]).length);
    const total = kb(reqs.reduce((n, b) => n + bytes(b), 0));
    const reused = `prefix reuse median ${pct(median(reuse))}, min ${pct(Math.min(...reuse))}`;
    console.log(`   ${reqs.length} requests, total ${total}; the last request ${kb(bytes(reqs.at(-1)))}; ${reused}`);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
