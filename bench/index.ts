/**
 * The symbol index on a generated 20,000-file TypeScript tree, through the compiled binary: a whole
 * build with a fresh data directory, a refresh after a one-file change, and `weir context` for a
 * name defined on a path that shares no word with it (before and after the index), each the median
 * of 5, against `weir --version` in the same run. Goals (issue 52): index in ≤ 20 s, re-derive a
 * one-file change in ≤ 100 ms.
 *   bun run bench index
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostBinary, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-index-"));
const ws = join(dir, "ws");
const FILES = sized(20_000, 200);
const ROUNDS = sized(5, 1);

/** The directory of generated file `i`: 200 files a package, 20 a module. */
const dirOf = (i: number) => join(ws, `pkg${String(Math.floor(i / 200)).padStart(3, "0")}`, `mod${Math.floor(i / 20) % 10}`);
for (let i = 0; i < FILES; i++) {
  const d = dirOf(i);
  if (i % 20 === 0) mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `file${i}.ts`), `export function helper${i}(x: number) {\n  return x + ${i};\n}\nexport class Thing${i} {}\n`);
}
mkdirSync(join(ws, "pkg050", "mod3"), { recursive: true });
writeFileSync(join(ws, "pkg050", "mod3", "file10001b.ts"), "export function parseConfigValue(raw: string) {\n  return Number(raw);\n}\n");

const envFor = (home: string) => ({ PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") });
function timed(args: string[], home: string): { ms: number; out: string } {
  const t0 = performance.now();
  const p = Bun.spawnSync([bin, "--cwd", ws, ...args], { env: envFor(home), stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - t0;
  if (p.exitCode !== 0) throw new Error(`${args.join(" ")} exited ${p.exitCode}: ${p.stderr.toString()}`);
  return { ms, out: p.stdout.toString() };
}

try {
  const version: number[] = [];
  const build: number[] = [];
  const refresh: number[] = [];
  const work: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  let foundBefore = false;
  let foundAfter = false;
  const task = ["context", "--json", "parseConfigValue returns the wrong value"];
  for (let round = 0; round < ROUNDS; round++) {
    const home = join(dir, `home${round}`);
    mkdirSync(home);
    version.push(timed(["--version"], home).ms);
    const b = timed(task, home);
    before.push(b.ms);
    foundBefore ||= b.out.includes("file10001b.ts");
    build.push(timed(["index"], home).ms);
    const changed = FILES / 10;
    writeFileSync(join(dirOf(changed), `file${changed}.ts`), `export function changed${round}() {}\n`);
    const r = timed(["index"], home);
    refresh.push(r.ms);
    // The refresh's own time, as weir index reports it: the walk, the stat of every source file, the reads.
    work.push(Number(/ in (\d+) ms/.exec(r.out)?.[1] ?? Number.NaN));
    const a = timed(task, home);
    after.push(a.ms);
    foundAfter ||= a.out.includes("file10001b.ts");
  }
  const v = median(version);
  const row = (name: string, xs: number[], goal = "") => console.log(`  ${name.padEnd(44)} ${median(xs).toFixed(0).padStart(6)} ms  ${(median(xs) / v).toFixed(1).padStart(6)}x --version${goal}`);
  console.log(`symbol index: ${FILES + 1} TypeScript files, median of ${ROUNDS} (weir --version ${v.toFixed(0)} ms)`);
  row("weir index, fresh data directory", build, " (goal ≤ 20,000 ms)");
  row("weir index after a one-file change", refresh);
  row("  of which the refresh itself", work, " (goal ≤ 100 ms: the walk, the stat of every source file, the reads)");
  row(`weir context, no index (found the definer: ${foundBefore ? "yes" : "no"})`, before);
  row(`weir context, with the index (found: ${foundAfter ? "yes" : "no"})`, after);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
