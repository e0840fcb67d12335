/**
 * Background workers, measured on the compiled binary against the mock wire server answering
 * instantly (each worker's conversation routed to its own script by the goal in its first message):
 *  (1) spawn cost: from the mock finishing the main agent's spawn_agent turn to the worker's first
 *      request arriving, against the main agent's own turn gap (reply sent → next request, one
 *      read_file in between) in the same runs. Target: <= 20 ms.
 *  (2) fan-out: four workers reading one file each and reporting, spawned in one turn and collected
 *      with one wait_agents, against one worker doing one file: time from the spawn reply to the
 *      main agent's next request after the wait. Target: <= 1.5x one worker.
 *  (3) view, not chat: a worker's first request in bytes against the main agent's request at the
 *      same moment (the one carrying the spawn results), after the main agent read three 6 KB
 *      files. Target: <= 40%.
 *   bun run bench agents
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer, type RecordedRequest } from "../test/support/mock-server.ts";
import { hostBinary, median, quantile, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-agents-"));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(home);
mkdirSync(join(ws, "src"), { recursive: true });
const body = (n: number) => `// module ${n}\n${Array.from({ length: 150 }, (_, i) => `export const value${n}_${i} = ${i}; // some code`).join("\n")}\n`;
for (let i = 1; i <= 4; i++) writeFileSync(join(ws, "src", `m${i}.ts`), body(i));
for (const c of [["init", "-q"], ["add", "-A"], ["-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "seed"]]) Bun.spawnSync(["git", ...c], { cwd: ws });
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const server = await new MockServer().start();
const args = ["--provider", "anthropic-compatible", "--base-url", server.url, "--model", "mock", "--cwd", ws, "--verify-floor", "off"];

const call = (id: string, name: string, input: unknown) => ({ id, name, input });
const firstUser = (r: RecordedRequest) => JSON.stringify(r.body.messages.find((m: { role: string }) => m.role === "user"));
const bytes = (r: RecordedRequest) => Buffer.byteLength(JSON.stringify(r.body));

async function run(task: string): Promise<void> {
  const p = Bun.spawn([bin, ...args, task], { env, stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`weir exited ${code}: ${await new Response(p.stderr).text()}`);
}

/** One run: the main agent reads `reads` files, spawns `n` workers (one file each), waits, answers. */
async function fanOut(n: number, reads: number, tag: string) {
  const from = server.requests.length;
  const workers = Array.from({ length: n }, (_, i) => ({ marker: `FAN-${tag}-${i + 1}`, file: `src/m${i + 1}.ts` }));
  server.script({
    turns: [
      ...Array.from({ length: reads }, (_, i) => ({ toolCalls: [call(`r${i}`, "read_file", { path: `src/m${(i % 4) + 1}.ts` })] })),
      { toolCalls: workers.map((w, i) => call(`sp${i}`, "spawn_agent", { goal: `${w.marker}: report how many exports ${w.file} has`, reads: ["src/**"] })) },
      { toolCalls: [call("wt", "wait_agents", {})] },
      { text: "done" },
    ],
  });
  for (const w of workers) server.route(w.marker, [{ toolCalls: [call("x", "read_file", { path: w.file })] }, { text: '{"summary": "150 exports"}' }]);
  await run(`MAIN-${tag}: split the reading`);
  const reqs = server.requests.slice(from);
  const main = reqs.filter((r) => firstUser(r).includes(`MAIN-${tag}`));
  const spawnReply = main[reads]!; // the request answered with the spawn_agent calls
  const afterSpawn = main[reads + 1]!; // carries the spawn results
  const afterWait = main[reads + 2]!;
  const firsts = workers.map((w) => reqs.find((r) => firstUser(r).includes(w.marker))!);
  return {
    spawnMs: Math.min(...firsts.map((f) => f.receivedAt - spawnReply.answeredAt!)),
    fanOutMs: afterWait.receivedAt - spawnReply.answeredAt!,
    mainGapMs: reads > 0 ? main[1]!.receivedAt - main[0]!.answeredAt! : Number.NaN,
    workerBytes: bytes(firsts[0]!),
    mainBytes: bytes(afterSpawn),
  };
}

const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (p10–p90 ${quantile(xs, 0.1).toFixed(1)}–${quantile(xs, 0.9).toFixed(1)})`;
try {
  const runs = sized(8, 1);
  const one: Awaited<ReturnType<typeof fanOut>>[] = [];
  const four: Awaited<ReturnType<typeof fanOut>>[] = [];
  for (let i = 0; i <= runs; i++) {
    const a = await fanOut(1, 3, `one${i}`);
    const b = await fanOut(4, 3, `four${i}`);
    if (i > 0) one.push(a), four.push(b); // the first run warms the page cache
  }
  const spawn = [...one, ...four].map((r) => r.spawnMs);
  const gap = [...one, ...four].map((r) => r.mainGapMs);
  console.log(`agents (1): spawn_agent reply → the worker's first request, ${spawn.length} spawns`);
  console.log(`  spawn            ${fmt(spawn)}`);
  console.log(`  reference: main agent's own turn gap (read_file) ${fmt(gap)}`);
  console.log(`  ratio ${(median(spawn) / median(gap)).toFixed(2)}x; target <= 20 ms`);
  const t1 = median(one.map((r) => r.fanOutMs));
  const t4 = median(four.map((r) => r.fanOutMs));
  console.log(`agents (2): spawn reply → main request after wait_agents, ${runs} runs each`);
  console.log(`  one worker, one file     ${fmt(one.map((r) => r.fanOutMs))}`);
  console.log(`  four workers, four files ${fmt(four.map((r) => r.fanOutMs))}`);
  console.log(`  ratio ${(t4 / t1).toFixed(2)}x; target <= 1.5x`);
  const share = four.map((r) => r.workerBytes / r.mainBytes);
  console.log("agents (3): a worker's first request against the main agent's request at the same moment (after three 6 KB reads)");
  console.log(`  worker ${(median(four.map((r) => r.workerBytes)) / 1024).toFixed(1)} KB, main ${(median(four.map((r) => r.mainBytes)) / 1024).toFixed(1)} KB: ${(100 * median(share)).toFixed(1)}%; target <= 40%`);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
