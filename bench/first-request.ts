/**
 * How soon a one-shot run's first request leaves, as a person runs it: from spawning the compiled
 * binary to the mock wire server receiving the request, in the first 250 of weir's tracked files
 * (the goal's size), in all of them (about 480), in a tree past 20,000 files (the installed
 * packages, twice) and in a generated repository of 20,001 files with a task naming a symbol
 * defined in one of them, with the outline cache warm and cold; against `weir --version` in the same run, and against
 * another build when one is given (interleaved run by run, each build with its own data directory:
 * on a shared machine only a same-run ratio tells two builds apart). Medians of 7. Each run is
 * measured alone: the index refresh a run leaves behind in the large tree is waited for, so a warm
 * run there finds the index fresh. Goals (issues 34 and 52): warm, ≤ 150 ms on ~250 files and
 * ≤ 300 ms on 20k; cold ≤ 2 s on 20k.
 *   bun run bench first-request
 *   bun bench/first-request.ts OTHER_BIN
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer } from "../test/support/mock-server.ts";
import { BENCH_GIT, copyTrackedTree, hostBinary, inTurns, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? sized(7, 1));
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-first-"));
const home = join(dir, "home");
mkdirSync(home);
const gitEnv = { PATH: process.env.PATH ?? "", HOME: home, ...BENCH_GIT };
const commit = (cwd: string) => {
  for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "bench"]]) Bun.spawnSync(["git", ...a], { cwd, env: gitEnv });
};

// A real repository: weir's tracked files, and the first 250 of them.
const small = join(dir, "weir");
copyTrackedTree(ROOT, small);
commit(small);
const goalSized = join(dir, "weir-250");
copyTrackedTree(ROOT, goalSized, 250);
commit(goalSized);
// A large one: the installed packages twice, over 20,000 files.
const large = join(dir, "large");
// A smoke run copies one package once.
const vendor = sized(join(ROOT, "node_modules"), join(ROOT, "node_modules", "zod"));
for (const copy of sized(["vendor-a", "vendor-b"], ["vendor-a"])) cpSync(vendor, join(large, copy), { recursive: true, dereference: false });
commit(large);
// A generated one at the goal's size: 20,001 TypeScript files, the task naming a symbol defined on a path that shares no word with it.
const generated = join(dir, "generated");
const GENERATED = sized(20_000, 200);
for (let i = 0; i < GENERATED; i++) {
  const d = join(generated, `pkg${String(Math.floor(i / 200)).padStart(3, "0")}`, `mod${Math.floor(i / 20) % 10}`);
  if (i % 20 === 0) mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `file${i}.ts`), `export function helper${i}(x: number) {\n  return x + ${i};\n}\n`);
}
mkdirSync(join(generated, "pkg050", "mod3"), { recursive: true });
writeFileSync(join(generated, "pkg050", "mod3", "file10001b.ts"), "export function parseConfigValue(raw: string) {\n  return Number(raw);\n}\n");
commit(generated);
const count = (cwd: string) => Bun.spawnSync(["git", "ls-files"], { cwd }).stdout.toString().split("\n").length - 1;

const server = await new MockServer().start();
const builds: [string, string][] = [["this build", bin], ...(process.argv[2] ? [["other build", process.argv[2]] as [string, string]] : [])];
const task = (b: string, goal: string) => [b, "--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--verify-floor", "off", goal];

/** Milliseconds from spawn to the first request at the server (the run then ends on the scripted answer). */
async function firstRequestMs(cmd: string[], cwd: string, data: string): Promise<number> {
  server.script({ turns: [{ text: "ok" }] });
  const before = server.requests.length;
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { cwd, env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: data }, stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(p.stderr).text()}`);
  const req = server.requests[before];
  if (!req) throw new Error("no request reached the server");
  return req.receivedAt - t0;
}

/**
 * Waits for the symbol index refresh a run of `build` starts after it ends (in a tree past 2,000
 * files), so the next run, of either build, is measured alone and finds the index fresh, as the
 * issue's goal states it.
 */
async function refreshed(build: string): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 100) {
    if (Bun.spawnSync(["pgrep", "-f", `${build} index --cwd`]).exitCode !== 0) return;
    await Bun.sleep(100);
  }
}

function versionMs(): number {
  const t0 = performance.now();
  Bun.spawnSync([bin, "--version"], { stdout: "ignore" });
  return performance.now() - t0;
}

try {
  const goal = "fix the rounding of token counts in the context compiler";
  const symbolGoal = "parseConfigValue returns the wrong value";
  const rows: [string, string, boolean, string][] = [
    [`weir's first ${count(goalSized)} files, warm`, goalSized, false, goal],
    [`weir's first ${count(goalSized)} files, cold`, goalSized, true, goal],
    [`weir's tree (${count(small)} files), warm`, small, false, goal],
    [`weir's tree (${count(small)} files), cold`, small, true, goal],
    [`packages (${count(large)} files), warm`, large, false, goal],
    [`packages (${count(large)} files), cold`, large, true, goal],
    [`generated (${count(generated)} files, a symbol), warm`, generated, false, symbolGoal],
    [`generated (${count(generated)} files, a symbol), cold`, generated, true, symbolGoal],
  ];
  const times = new Map<string, number[]>(builds.flatMap(([b]) => rows.map(([name]) => [`${b}, ${name}`, []] as [string, number[]])));
  const version: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const v = versionMs();
    if (i > 0) version.push(v);
    // Row by row, the builds back to back (inTurns).
    for (const [name, cwd, cold, rowGoal] of rows)
      for (const k of inTurns(builds.length, i)) {
        const [b, path] = builds[k]!;
        const data = join(dir, cold ? `cold-data-${k}` : `data-${k}`);
        if (cold) rmSync(data, { recursive: true, force: true });
        const ms = await firstRequestMs(task(path, rowGoal), cwd, data);
        await refreshed(path);
        if (i > 0) times.get(`${b}, ${name}`)!.push(ms); // the first round warms the page cache and the outline cache
      }
  }
  const v = median(version);
  console.log(`first request after start, median of ${RUNS}; weir --version ${v.toFixed(1)} ms`);
  for (const [name, xs] of times) console.log(`  ${name.padEnd(48)} ${median(xs).toFixed(0).padStart(6)} ms  (${(median(xs) / v).toFixed(1)}x --version)`);
  if (builds.length > 1)
    for (const [name] of rows) console.log(`  this build / other build, ${name.padEnd(30)} ${(median(times.get(`this build, ${name}`)!) / median(times.get(`other build, ${name}`)!)).toFixed(2)}x`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
