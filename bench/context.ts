/**
 * The context compiler on a large real tree: the project's installed packages copied twice into a
 * git repository (well over 20,000 files). Times a compile for a goal cold (first in a fresh
 * process, parsers loading; median of 5 processes) and warm (median of 5 in each), each against
 * `git ls-files` on the same tree in the same run, and the ignore-aware walk against `rg --files`
 * (Debian's ripgrep). Targets: warm compile < 200 ms; walk within 2x of ripgrep.
 *   bun run bench context
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walk } from "../src/workspace/walker.ts";
import { BENCH_GIT, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const ROUNDS = sized(5, 1);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-context-"));
const repo = join(dir, "repo");
try {
  // Real code from real packages, twice over, so the tree passes 20,000 files.
  // A smoke run copies one package once.
  const vendor = sized(join(ROOT, "node_modules"), join(ROOT, "node_modules", "zod"));
  for (const copy of sized(["vendor-a", "vendor-b"], ["vendor-a"])) cpSync(vendor, join(repo, copy), { recursive: true, dereference: false });
  cpSync(join(ROOT, "src"), join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, ".gitignore"), "*.map\n");
  const git = (...a: string[]) => Bun.spawnSync(["git", ...a], { cwd: repo, env: { ...process.env, ...BENCH_GIT } });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "bench");
  // A fresh commit leaves "racily clean" index entries that make every git status re-read files; a
  // working repository's index has long been refreshed, so refresh it as git itself would.
  await Bun.sleep(1100);
  git("update-index", "-q", "--refresh");
  writeFileSync(join(repo, "src", "context", "compiler.ts"), `${await Bun.file(join(ROOT, "src", "context", "compiler.ts")).text()}\n// changed\n`);

  const walked = Array.from(walk(repo)).length;
  const goal = "fix the render policy in src/context/compiler.ts so summaries fit the budget; see `compileContext`";
  // Compiles run in a fresh process holding one index, as the loop does, so this bench's own copying
  // and walking do not weigh on the figures.
  type Timed = { cold: { ms: number; candidates: number; used: number }; warm: { ms: number; gatherMs: number }[] };
  const processes: Timed[] = [];
  const lsFiles: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const timer = Bun.spawnSync([process.execPath, join(import.meta.dir, "lib", "compile-timer.ts"), repo, goal], { stdout: "pipe", stderr: "inherit" });
    processes.push(JSON.parse(timer.stdout.toString()) as Timed);
    const t0 = performance.now();
    git("ls-files");
    lsFiles.push(performance.now() - t0);
  }
  const cold = processes.map((p) => p.cold.ms);
  const warm = processes.flatMap((p) => p.warm.map((w) => w.ms));
  const warmGather = processes.flatMap((p) => p.warm.map((w) => w.gatherMs));
  const reference = median(lsFiles);

  const walkMs: number[] = [];
  const rgMs: number[] = [];
  let rgCount = 0;
  const hasRg = Bun.which("rg") !== null;
  for (let i = 0; i < ROUNDS; i++) {
    let t0 = performance.now();
    Array.from(walk(repo));
    walkMs.push(performance.now() - t0);
    if (hasRg) {
      t0 = performance.now();
      const r = Bun.spawnSync(["rg", "--files"], { cwd: repo, stdout: "pipe" });
      rgMs.push(performance.now() - t0);
      rgCount = r.stdout.toString().split("\n").filter(Boolean).length;
    }
  }
  console.log(`context: ${walked} files after ignore rules (git repository, ${goal.length}-char goal)`);
  const { candidates, used } = processes[0]!.cold;
  const ratio = (ms: number) => `${(ms / reference).toFixed(1)}x git ls-files (${reference.toFixed(0)} ms)`;
  console.log(`  compile cold median ${median(cold).toFixed(0)} ms over ${ROUNDS} processes, ${ratio(median(cold))}; ${candidates} candidates, ${used} tokens used of 20000`);
  console.log(`  compile warm median ${median(warm).toFixed(0)} ms over ${warm.length}, ${ratio(median(warm))}; gathering candidates ${median(warmGather).toFixed(0)} ms (target < 200 ms)`);
  if (hasRg) {
    console.log(`  walk median ${median(walkMs).toFixed(0)} ms (${walked} files) vs rg --files ${median(rgMs).toFixed(0)} ms (${rgCount} files): ratio ${(median(walkMs) / median(rgMs)).toFixed(2)}x (target <= 2x)`);
  } else console.log(`  walk median ${median(walkMs).toFixed(0)} ms; ripgrep not installed (apt-get install ripgrep) so no ratio`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
