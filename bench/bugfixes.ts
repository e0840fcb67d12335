/**
 * Localisation on real bug-fix commits of public repositories (eval/localisation/commits.jsonl,
 * mined by eval/localisation/mine.ts): for each case, the repository at the fix's parent, the
 * commit message as the task, and the files the fix changed as the gold. The working set a run
 * compiles (gatherCandidates + fitWorkingSet, the run's own code) at 8k and 32k tokens in all, the
 * floor, the framing and the task counted as a run's --budget counts them, against plain BM25 over
 * file contents filling the same budget. Prints mean recall of the gold files per split, at each
 * depth (shown at all, as an outline or whole, whole; and the share of the fix's hunks whose changed
 * lines the 8k working set shows), how many cases weir does worse than BM25 on,
 * and how many working sets went over their budget (with the floor alone over it, and without). Goals (issue 34, on test): >= 0.85 at 8k,
 * >= 0.95 at 32k, worse than BM25 on at most 2% of cases. Needs the repositories' git mirrors
 * (the search tool's fetch) under WEIR_MIRRORS (default /work/.mirror); without them it says so.
 *   bun run bench bugfixes [--split dev|test] [--misses]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RenderLevel } from "../src/core/chunk.ts";
import { fitWorkingSet } from "../src/context/working-set.ts";
import { ContextIndex, gatherCandidates } from "../src/context/sources.ts";
import { walk } from "../src/workspace/walker.ts";
import { bm25Fill, sized } from "./lib/measure.ts";

interface Case {
  id: string;
  repo: string;
  commit: string;
  parent: string;
  task: string;
  gold: string[];
  split: "dev" | "test";
}
const ROOT = join(import.meta.dir, "..");
const MIRRORS = process.env.WEIR_MIRRORS ?? "/work/.mirror";
const only = process.argv.includes("--split") ? process.argv[process.argv.indexOf("--split") + 1] : undefined;
const mined = readFileSync(join(ROOT, "eval", "localisation", "commits.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Case);
const wanted = mined.filter((c) => !only || c.split === only);
// A smoke run takes the first case of each split.
const cases = sized(wanted, wanted.filter((c, i) => wanted.findIndex((d) => d.split === c.split) === i));
const mirror = (repo: string) => join(MIRRORS, repo.replace("/", "+"), "repo");
const missing = [...new Set(cases.map((c) => c.repo))].filter((r) => !existsSync(mirror(r)));
if (missing.length) {
  console.log(`bugfixes: skipped, no git mirror of ${missing.join(", ")} under ${MIRRORS} (fetch them, or set WEIR_MIRRORS)`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "weir-bench-fixes-"));
interface Row {
  c: Case;
  w8: number;
  w32: number;
  b8: number;
  b32: number;
  /** Recall at 8k counting only gold files shown as an outline or whole, and only whole. */
  summary8: number;
  whole8: number;
  /** Of the lines the fix changed in files that existed before it, the share of its hunks the 8k working set shows. */
  regions8: number;
  /** Working sets over their budget: with the floor alone over it (stated), and without (a bug). */
  floorOver: number;
  unstatedOver: number;
}
const rows: Row[] = [];
try {
  for (const repo of [...new Set(cases.map((c) => c.repo))]) {
    const work = join(dir, repo.replace("/", "+"));
    Bun.spawnSync(["git", "clone", "-q", "--no-checkout", mirror(repo), work]);
    const git = (...a: string[]) => Bun.spawnSync(["git", "-C", work, ...a], { stdout: "ignore", stderr: "ignore" });
    for (const c of cases.filter((x) => x.repo === repo)) {
      git("checkout", "-q", "-f", c.parent);
      git("clean", "-qfdx");
      const files = Array.from(walk(work), (e) => e.path);
      const texts = new Map<string, string>();
      for (const f of files) {
        try {
          const t = readFileSync(join(work, f), "utf8");
          if (!t.includes("\u0000") && t.length < 500_000) texts.set(f, t);
        } catch {
          // unreadable: not a candidate for either
        }
      }
      const readable = files.filter((f) => texts.has(f));
      const g = await gatherCandidates(work, c.task, { home: dir, index: new ContextIndex() });
      const recall = (shown: (f: string) => boolean) => c.gold.filter(shown).length / c.gold.length;
      const levels: RenderLevel[][] = [["full", "summary", "one_line"], ["full", "summary"], ["full"]];
      let floorOver = 0;
      let unstatedOver = 0;
      const weirAt = (budget: number) => {
        const { compiled, tokens } = fitWorkingSet(g.candidates, budget);
        if (tokens > budget) compiled.overBudget ? floorOver++ : unstatedOver++;
        const recalls = levels.map((ls) => {
          const seen = new Set(compiled.entries.filter((e) => ls.includes(e.level)).map((e) => e.chunk.source));
          return recall((f) => seen.has(f));
        });
        return { recalls, entries: compiled.entries.filter((e) => e.level !== "omit") };
      };
      const b8 = bm25Fill(readable, texts, c.task, 8_000);
      const b32 = bm25Fill(readable, texts, c.task, 32_000);
      const at8 = weirAt(8_000);
      const [w8, summary8, whole8] = at8.recalls as [number, number, number];
      const w32 = weirAt(32_000).recalls[0]!;
      const hunks = c.gold.flatMap((f) => (texts.has(f) ? goldHunks(work, c, f, texts.get(f)!) : []));
      const shown8 = new Map(at8.entries.map((e) => [e.chunk.source, linesShown(e.rendered)]));
      const regions8 = hunks.length ? hunks.filter((h) => h.lines.every((l) => shown8.get(h.path)?.has(l))).length / hunks.length : 1;
      rows.push({ c, w8, w32, b8: recall((f) => b8.has(f)), b32: recall((f) => b32.has(f)), summary8, whole8, regions8, floorOver, unstatedOver });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The fix's hunks in one file, as the lines of the parent it changed (`git diff -U0`): a hunk that
 * only adds is anchored on the line it follows. Blank lines are dropped; a hunk of none is skipped.
 */
function goldHunks(work: string, c: Case, path: string, text: string): { path: string; lines: string[] }[] {
  const out = Bun.spawnSync(["git", "-C", work, "diff", "-U0", "--no-color", c.parent, c.commit, "--", path]).stdout.toString();
  const before = text.split("\n");
  const hunks: { path: string; lines: string[] }[] = [];
  for (const m of out.matchAll(/^@@ -(\d+)(?:,(\d+))? /gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    const range = count === 0 ? [start, start + 1] : [start, start + count];
    const lines = before.slice(Math.max(0, range[0]! - 1), range[1]! - 1).map((l) => l.trim()).filter(Boolean);
    if (lines.length) hunks.push({ path, lines });
  }
  return hunks;
}

/**
 * The lines an entry shows as the model reads it, trimmed, each also with a leading line number (an
 * outline's or a region's) taken off: a hunk is shown when every line of it is one of these.
 */
function linesShown(rendered: string): Set<string> {
  return new Set(rendered.split("\n").flatMap((l) => [l.trim(), l.replace(/^\s*\d+:?\s/, "").trim()]));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
console.log(`bug-fix localisation: ${rows.length} commits of ${new Set(rows.map((r) => r.c.repo)).size} repositories`);
console.log("split  cases  weir 8k  BM25 8k  weir 32k  BM25 32k  worse than BM25 (8k or 32k)");
const fixed = (x: number, w: number) => x.toFixed(2).padStart(w);
for (const split of ["dev", "test"] as const) {
  const r = rows.filter((x) => x.c.split === split);
  if (!r.length) continue;
  const worse = r.filter((x) => x.w8 < x.b8 || x.w32 < x.b32).length;
  const [w8, b8, w32, b32] = [mean(r.map((x) => x.w8)), mean(r.map((x) => x.b8)), mean(r.map((x) => x.w32)), mean(r.map((x) => x.b32))];
  const share = `${worse} (${((100 * worse) / r.length).toFixed(1)}%)`;
  console.log(`${split.padEnd(5)}  ${String(r.length).padStart(5)}  ${fixed(w8, 7)}  ${fixed(b8, 7)}  ${fixed(w32, 8)}  ${fixed(b32, 8)}  ${share}`);
}
console.log("split  recall at 8k by depth: any level  outline or whole  whole  changed lines shown   over budget: floor alone (stated)  otherwise");
for (const split of ["dev", "test"] as const) {
  const r = rows.filter((x) => x.c.split === split);
  if (!r.length) continue;
  const over = (k: "floorOver" | "unstatedOver") => r.reduce((n, x) => n + x[k], 0);
  const depth =
    `${fixed(mean(r.map((x) => x.w8)), 9)}  ${fixed(mean(r.map((x) => x.summary8)), 16)}  ${fixed(mean(r.map((x) => x.whole8)), 5)}` +
    `  ${fixed(mean(r.map((x) => x.regions8)), 19)}`;
  const overs = `${String(over("floorOver")).padStart(27)} of ${r.length * 2}  ${String(over("unstatedOver")).padStart(9)}`;
  console.log(`${split.padEnd(5)}  ${" ".repeat(20)}${depth}   ${overs}`);
}
// Per repository on dev only: the test split is read as a whole, never case by case.
for (const repo of [...new Set(rows.map((r) => r.c.repo))]) {
  const r = rows.filter((x) => x.c.repo === repo && x.c.split === "dev");
  if (r.length) console.log(`  dev ${repo.padEnd(20)} ${String(r.length).padStart(3)}  weir ${mean(r.map((x) => x.w8)).toFixed(2)}/${mean(r.map((x) => x.w32)).toFixed(2)}  BM25 ${mean(r.map((x) => x.b8)).toFixed(2)}/${mean(r.map((x) => x.b32)).toFixed(2)}`);
}
if (process.argv.includes("--misses")) for (const r of rows.filter((x) => x.c.split === "dev" && (x.w8 < 1 || x.w32 < 1))) console.log(`  dev miss ${r.w8.toFixed(2)}/${r.w32.toFixed(2)} ${r.c.id} ${r.c.gold.join(",")} :: ${r.c.task.split("\n")[0]}`);
