/**
 * The context compiler on a large real tree: the project's installed packages copied twice into a
 * git repository (well over 20,000 files). Times a compile for a goal cold (first in the process,
 * parsers loading) and warm (median of 5), and the ignore-aware walk against `rg --files` (Debian's
 * ripgrep) on the same tree. Targets: warm compile < 200 ms; walk within 2x of ripgrep.
 *   bun run bench context
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walk } from "../src/workspace/walker.ts";
import { median } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "weir-bench-context-"));
const repo = join(dir, "repo");
try {
  // Real code from real packages, twice over, so the tree passes 20,000 files.
  cpSync(join(ROOT, "node_modules"), join(repo, "vendor-a"), { recursive: true, dereference: false });
  cpSync(join(ROOT, "node_modules"), join(repo, "vendor-b"), { recursive: true, dereference: false });
  cpSync(join(ROOT, "src"), join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, ".gitignore"), "*.map\n");
  const git = (...a: string[]) => Bun.spawnSync(["git", ...a], { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@e", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@e" } });
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
  const timer = Bun.spawnSync([process.execPath, join(import.meta.dir, "lib", "compile-timer.ts"), repo, goal], { stdout: "pipe", stderr: "inherit" });
  const timed = JSON.parse(timer.stdout.toString()) as { cold: { ms: number; candidates: number; used: number }; warm: { ms: number; gatherMs: number }[] };
  const cold = timed.cold;
  const warm = timed.warm.map((w) => w.ms);
  const warmGather = timed.warm.map((w) => w.gatherMs);

  const walkMs: number[] = [];
  const rgMs: number[] = [];
  let rgCount = 0;
  const hasRg = Bun.which("rg") !== null;
  for (let i = 0; i < 5; i++) {
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
  console.log(`  compile cold ${cold.ms.toFixed(0)} ms (${cold.candidates} candidates, ${cold.used} tokens used of 20000)`);
  console.log(`  compile warm median ${median(warm).toFixed(0)} ms over 5, of which gathering candidates ${median(warmGather).toFixed(0)} ms (target < 200 ms)`);
  if (hasRg) {
    console.log(`  walk median ${median(walkMs).toFixed(0)} ms (${walked} files) vs rg --files ${median(rgMs).toFixed(0)} ms (${rgCount} files): ratio ${(median(walkMs) / median(rgMs)).toFixed(2)}x (target <= 2x)`);
  } else console.log(`  walk median ${median(walkMs).toFixed(0)} ms; ripgrep not installed (apt-get install ripgrep) so no ratio`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
