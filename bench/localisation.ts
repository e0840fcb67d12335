/**
 * Does the compiler find what a fix needs? Real code from installed packages (undici, the OpenAI
 * and Anthropic SDK sources, ~700 files) in a git repository; 24 bugs planted one at a time in
 * eval/localisation/bugs.jsonl, each with an issue-style description written before any ranking
 * was run (the gold is the file the bug is in; the plant is committed, so no diff points at it).
 * For each, the working set a run would compile (gatherCandidates + compileContext, the run's own
 * code) at 8k and 32k tokens, against plain BM25 over file contents filling the same budget.
 * Prints recall of the gold file. Goal: recall at 8k >= 0.6 and >= 1.2x BM25.
 *   bun run bench localisation
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileContext } from "../src/context/compiler.ts";
import { ContextIndex, gatherCandidates } from "../src/context/sources.ts";
import { walk } from "../src/workspace/walker.ts";
import { BENCH_GIT, bm25Fill, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bugs = readFileSync(join(ROOT, "eval", "localisation", "bugs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { gold: string; issue: string })
  .slice(0, sized(Infinity, 2));
const dir = mkdtempSync(join(tmpdir(), "weir-bench-loc-"));
const repo = join(dir, "repo");
const keep = (src: string) => !/\.d\.ts$|\.map$/.test(src);
cpSync(join(ROOT, "node_modules", "undici", "lib"), join(repo, "undici"), { recursive: true, filter: keep });
cpSync(join(ROOT, "node_modules", "openai", "src"), join(repo, "openai"), { recursive: true, filter: keep });
cpSync(join(ROOT, "node_modules", "@anthropic-ai", "sdk", "src"), join(repo, "anthropic"), { recursive: true, filter: keep });
const env = { ...process.env, ...BENCH_GIT };
const git = (...a: string[]) => Bun.spawnSync(["git", ...a], { cwd: repo, env, stdout: "ignore", stderr: "ignore" });
git("init", "-q");
git("add", "-A");
git("commit", "-qm", "base");
const files = Array.from(walk(repo), (e) => e.path);
const texts = new Map(files.map((f) => [f, readFileSync(join(repo, f), "utf8")]));

const index = new ContextIndex();
const results: { gold: string; weir8: boolean; weir32: boolean; bm8: boolean; bm32: boolean; used8: number }[] = [];
try {
  for (const b of bugs) {
    const file = join(repo, b.gold);
    const before = readFileSync(file, "utf8");
    // The plant: the first strict comparison flipped (or a boundary moved), committed.
    const planted = before.includes("===") ? before.replace("===", "!==") : before.replace(/ < /, " <= ");
    writeFileSync(file, planted);
    git("commit", "-qam", "plant");
    const g = await gatherCandidates(repo, b.issue, { home: dir, index });
    const at = (budget: number) => compileContext(g.candidates, budget);
    const c8 = at(8_000);
    const c32 = at(32_000);
    const admitted = (c: ReturnType<typeof at>) => c.entries.some((e) => e.level !== "omit" && e.chunk.source === b.gold);
    results.push({ gold: b.gold, weir8: admitted(c8), weir32: admitted(c32), bm8: bm25Fill(files, texts, b.issue, 8_000).has(b.gold), bm32: bm25Fill(files, texts, b.issue, 32_000).has(b.gold), used8: c8.used });
    git("reset", "-q", "--hard", "HEAD~1");
  }
  const rate = (k: keyof (typeof results)[number]) => results.filter((r) => r[k] === true).length / results.length;
  console.log(`localisation: ${results.length} planted bugs in ${files.length} files`);
  console.log(`  recall at 8k:  weir ${rate("weir8").toFixed(2)}  BM25 ${rate("bm8").toFixed(2)}  ratio ${(rate("weir8") / Math.max(rate("bm8"), 1e-9)).toFixed(2)}x (goal >= 0.6 and >= 1.2x)`);
  console.log(`  recall at 32k: weir ${rate("weir32").toFixed(2)}  BM25 ${rate("bm32").toFixed(2)}`);
  console.log(`  median tokens used at 8k: ${results.map((r) => r.used8).sort((a, b) => a - b)[results.length >> 1]}`);
  for (const r of results) console.log(`  ${r.weir8 ? "hit " : "miss"} 8k ${r.weir32 ? "hit " : "miss"} 32k  bm25 ${r.bm8 ? "hit " : "miss"}/${r.bm32 ? "hit " : "miss"}  ${r.gold}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
