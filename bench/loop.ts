/**
 * The agent loop's own cost, measured on the compiled binary against the mock wire server answering
 * instantly:
 *  (1) a one-shot two-turn task (read README.md, then answer): whole-process wall time and peak RSS,
 *      median of 10, against a compiled hello-world in the same run. Targets: < 0.15 s, < 80 MB.
 *  (2) a 200-turn scripted session (a read_file call each turn): harness overhead per turn (from the
 *      mock finishing one reply to receiving the next request) and peak RSS, against a plain fetch
 *      loop to the same server. Targets: < 5 ms per turn, < 120 MB.
 *   bun run bench loop
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer } from "../test/support/mock-server.ts";
import { hostBinary, median, quantile, referenceBinary, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-loop-"));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(home);
mkdirSync(ws);
writeFileSync(join(ws, "README.md"), "# demo\n\nA small project used by the loop benchmark.\n".repeat(20));
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const server = await new MockServer().start();
const args = ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--cwd", ws];

async function spawnMeasured(cmd: string[]): Promise<{ ms: number; rssMB: number }> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { env, stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(p.stderr).text()}`);
  return { ms, rssMB: (p.resourceUsage()?.maxRSS ?? 0) / (1024 * 1024) };
}

const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (p10–p90 ${quantile(xs, 0.1).toFixed(1)}–${quantile(xs, 0.9).toFixed(1)})`;
const ref = referenceBinary();
try {
  // (1) two-turn one-shot
  const runs = sized(10, 1);
  const weir: { ms: number; rssMB: number }[] = [];
  const hello: { ms: number; rssMB: number }[] = [];
  for (let i = 0; i <= runs; i++) {
    server.script({ turns: [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "README.md" } }] }, { text: "A small demo project." }] });
    const w = await spawnMeasured([bin, ...args, "read README.md and summarize it"]);
    const h = await spawnMeasured([ref.bin]);
    if (i > 0) weir.push(w), hello.push(h); // the first run warms the page cache
  }
  const w1 = median(weir.map((x) => x.ms));
  console.log(`loop (1): one-shot, 2 turns, compiled binary, ${runs} runs`);
  console.log(`  weir            ${fmt(weir.map((x) => x.ms))}   peak RSS ${Math.max(...weir.map((x) => x.rssMB)).toFixed(1)} MB`);
  console.log(`  reference hello ${fmt(hello.map((x) => x.ms))}   peak RSS ${Math.max(...hello.map((x) => x.rssMB)).toFixed(1)} MB`);
  console.log(`  ratio ${(w1 / median(hello.map((x) => x.ms))).toFixed(2)}x; target < 150 ms, < 80 MB`);

  // (2) 200-turn session
  const turns = 200;
  server.script({
    turns: [
      ...Array.from({ length: turns }, (_, i) => ({ toolCalls: [{ id: `t${i}`, name: "read_file", input: { path: "README.md", limit: 5 } }] })),
      { text: "done" },
    ],
  });
  const first = server.requests.length;
  const long = await spawnMeasured([bin, ...args, "--max-turns", String(turns + 1), "read README.md 200 times"]);
  const reqs = server.requests.slice(first);
  const gaps = reqs.slice(1).map((r, i) => r.receivedAt - reqs[i]!.answeredAt!);

  // Reference: a plain fetch loop to the same server from another process (transport cost only).
  const fetchScript = join(dir, "fetch-loop.ts");
  writeFileSync(
    fetchScript,
    `const url = process.argv[2]; const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] });
for (let i = 0; i < ${turns}; i++) { const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }); await r.text(); }`,
  );
  server.script({ turns: Array.from({ length: turns }, () => ({ text: "x" })) });
  const refFirst = server.requests.length;
  await spawnMeasured([process.execPath, fetchScript, `${server.url}/v1/chat/completions`]);
  const refReqs = server.requests.slice(refFirst);
  const refGaps = refReqs.slice(1).map((r, i) => r.receivedAt - refReqs[i]!.answeredAt!);

  console.log(`loop (2): ${turns}-turn session, compiled binary`);
  console.log(`  harness overhead per turn ${fmt(gaps)}   whole run ${(long.ms / 1000).toFixed(2)} s   peak RSS ${long.rssMB.toFixed(1)} MB`);
  console.log(`  reference fetch loop      ${fmt(refGaps)}`);
  console.log(`  ratio ${(median(gaps) / median(refGaps)).toFixed(2)}x; target < 5 ms per turn, < 120 MB`);
} finally {
  ref.cleanup();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
