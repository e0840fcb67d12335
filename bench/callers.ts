/**
 * The caller search with and without the symbol index's import graph, on the public repositories
 * of the localisation set (eval/localisation/commits.jsonl), each at the parent of its newest mined
 * fix, and on one PHP framework at a pinned commit. For each of the first 150 source files with a resolver, its top-level names (at most 8):
 * callers resolved reading every file, and reading only what `indexedCallers` leaves. The graph
 * may only narrow: prints how many targets found the same callers (the goal: all), the file reads
 * and time each way, and their ratio. Needs the repositories' git mirrors under WEIR_MIRRORS
 * (default /work/.mirror); without them it says so.
 *   bun run bench callers
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveCallers } from "../src/context/callers.ts";
import { indexedCallers, refreshSymbols, SOURCE } from "../src/context/definitions.ts";
import { outline } from "../src/context/outline.ts";
import { SymbolIndex } from "../src/store/symbol-index.ts";
import { WalkCache, walkFiles } from "../src/workspace/walker.ts";
import { sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const MIRRORS = process.env.WEIR_MIRRORS ?? "/work/.mirror";
const mined = readFileSync(join(ROOT, "eval", "localisation", "commits.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { repo: string; parent: string });
// Each repository at the parent of its last mined fix: a pinned commit, whatever the mirror's HEAD is now.
// The localisation set has no PHP: one PHP framework is added at a pinned commit.
const pinned = new Map([...mined.map((c) => [c.repo, c.parent] as const), ["slimphp/Slim", "038fd5713d5a41636fdff0e8dcceedecdd17fc17"] as const]);
const repos = sized([...pinned.keys()], [...pinned.keys()].slice(0, 1));
const mirror = (repo: string) => join(MIRRORS, repo.replace("/", "+"), "repo");
const missing = repos.filter((r) => !existsSync(mirror(r)));
if (missing.length) {
  console.log(`callers: skipped, no git mirror of ${missing.join(", ")} under ${MIRRORS} (fetch them, or set WEIR_MIRRORS)`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "weir-bench-callers-"));
const total = { targets: 0, same: 0, callers: 0, readsEvery: 0, readsGraph: 0, msEvery: 0, msGraph: 0 };
try {
  console.log("repository                 targets  same  callers  reads (every / graph)  ms (every / graph)");
  for (const repo of repos) {
    const work = join(dir, repo.replace("/", "+"));
    Bun.spawnSync(["git", "clone", "-q", "--no-checkout", mirror(repo), work]);
    Bun.spawnSync(["git", "-C", work, "checkout", "-q", "-f", pinned.get(repo)!], { stdout: "ignore", stderr: "ignore" });
    const index = SymbolIndex.open(join(dir, `${repo.replace("/", "+")}.db`));
    refreshSymbols(work, index);
    const files = walkFiles(work, new WalkCache());
    const text = new Map<string, string | undefined>();
    const read = (rel: string) => {
      if (!text.has(rel))
        try {
          text.set(rel, readFileSync(join(work, rel), "utf8"));
        } catch {
          text.set(rel, undefined);
        }
      return text.get(rel);
    };
    const row = { targets: 0, same: 0, callers: 0, readsEvery: 0, readsGraph: 0, msEvery: 0, msGraph: 0 };
    for (const t of sized(files.filter((f) => SOURCE.test(f)).slice(0, 150), files.filter((f) => SOURCE.test(f)).slice(0, 5))) {
      const names = ((await outline(t, read(t) ?? "").catch(() => undefined))?.symbols ?? []).filter((s) => !s.parent).map((s) => s.name).slice(0, 8);
      if (names.length === 0) continue;
      // Both ways read through one cache of texts and parsed outlines, warmed by a first pass of each:
      // the time is the search's own, not the disk's or the parser's.
      const reads = { graph: 0, every: 0 };
      const viaGraph = () => resolveCallers(t, names, files, (r) => (reads.graph++, read(r)), () => indexedCallers(work, index, t, names, files));
      const viaEvery = () => resolveCallers(t, names, files, (r) => (reads.every++, read(r)));
      await viaGraph();
      await viaEvery();
      row.readsGraph += reads.graph;
      row.readsEvery += reads.every;
      let t0 = performance.now();
      const graph = await viaGraph();
      row.msGraph += performance.now() - t0;
      t0 = performance.now();
      const every = await viaEvery();
      row.msEvery += performance.now() - t0;
      if (!every) continue;
      const sorted = (m: Map<string, string[]> | undefined) => JSON.stringify([...(m ?? [])].map(([k, v]) => [k, [...v].sort()]));
      row.targets++;
      if (sorted(every) === sorted(graph)) row.same++;
      else {
        const missed = [...every].flatMap(([n, fs]) => fs.filter((f) => !graph?.get(n)?.includes(f)).map((f) => `${n} in ${f}`));
        console.log(`  differs: ${t}: through the graph, missed ${missed.join(", ") || "none"}`);
      }
      row.callers += [...every.values()].flat().length;
    }
    index.close();
    const ms = (n: number) => n.toFixed(0);
    console.log(
      `${repo.padEnd(26)} ${String(row.targets).padStart(7)} ${String(row.same).padStart(5)} ${String(row.callers).padStart(8)}  ${`${row.readsEvery} / ${row.readsGraph}`.padStart(21)}  ${`${ms(row.msEvery)} / ${ms(row.msGraph)}`.padStart(18)}`,
    );
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += row[k];
  }
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : "n/a");
  console.log(`all: ${total.same} of ${total.targets} targets found the same callers (goal: all); ${total.callers} callers`);
  console.log(`  file reads through the graph ${total.readsGraph} against ${total.readsEvery} (${ratio(total.readsGraph, total.readsEvery)}x)`);
  console.log(`  time through the graph ${total.msGraph.toFixed(0)} ms against ${total.msEvery.toFixed(0)} ms (${ratio(total.msGraph, total.msEvery)}x)`);
  if (total.same !== total.targets) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
