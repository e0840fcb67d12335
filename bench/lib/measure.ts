/** Shared figures for benchmarks: medians, spreads and peak RSS of whole processes. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bm25, termsOf } from "../../src/context/lexical.ts";
import { tokensOf } from "../../src/core/chunk.ts";

/**
 * A smoke run (`WEIR_BENCH_SMOKE=1`, as CI runs every benchmark once): each benchmark runs at a
 * small size, so it is known to run; its figures are not measurements.
 */
export const SMOKE = process.env.WEIR_BENCH_SMOKE === "1";

/**
 * Git's environment for a benchmark's own repositories: an author, and no automatic gc. A commit of
 * thousands of files would otherwise start `git gc --auto` in the background, and its pack-objects
 * would share the CPU with what is measured.
 */
export const BENCH_GIT = {
  GIT_AUTHOR_NAME: "b",
  GIT_AUTHOR_EMAIL: "b@b",
  GIT_COMMITTER_NAME: "b",
  GIT_COMMITTER_EMAIL: "b@b",
  GIT_CONFIG_COUNT: "2",
  GIT_CONFIG_KEY_0: "gc.auto",
  GIT_CONFIG_VALUE_0: "0",
  GIT_CONFIG_KEY_1: "maintenance.auto",
  GIT_CONFIG_VALUE_1: "false",
};

/** `full` for a measurement, `small` in a smoke run. */
export const sized = <T>(full: T, small: T): T => (SMOKE ? small : full);

export interface Sample {
  ms: number;
  rssMB: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The order in which `count` builds run in round `round`: forward in even rounds, backward in odd
 * ones, so that no build always follows the same run (what ran just before a run changes it).
 */
export function inTurns(count: number, round: number): number[] {
  const order = Array.from({ length: count }, (_, j) => j);
  return round % 2 === 0 ? order : order.reverse();
}

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** Runs a command `n` times (after one warm-up) and returns wall time and peak RSS of each run. */
export function measure(cmd: string[], n: number, opts: { env?: Record<string, string>; cwd?: string } = {}): Sample[] {
  const samples: Sample[] = [];
  for (let i = 0; i <= n; i++) {
    const t0 = performance.now();
    const r = Bun.spawnSync(cmd, { stdout: "ignore", stderr: "pipe", env: opts.env ?? process.env, cwd: opts.cwd });
    const ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${r.exitCode}: ${r.stderr.toString().slice(0, 500)}`);
    // Bun reports maxRSS in bytes.
    const rssMB = (r.resourceUsage?.maxRSS ?? 0) / (1024 * 1024);
    if (i > 0) samples.push({ ms, rssMB });
  }
  return samples;
}

export function summary(label: string, samples: Sample[]): string {
  const ms = samples.map((s) => s.ms);
  const rss = Math.max(...samples.map((s) => s.rssMB));
  return `${label.padEnd(28)} median ${median(ms).toFixed(1).padStart(6)} ms   p10–p90 ${quantile(ms, 0.1).toFixed(1)}–${quantile(ms, 0.9).toFixed(1)} ms   peak RSS ${rss.toFixed(1)} MB`;
}

/** The host's compiled binary, built first if missing. */
/** The newest modification time of the files a build reads (src/, policies/, package.json). */
function newestSource(root: string): number {
  let newest = statSync(join(root, "package.json")).mtimeMs;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of ["src", "policies"]) walk(join(root, d));
  return newest;
}

export function hostBinary(root: string): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const bin = join(root, "dist", `weir-${os}-${process.arch}${os === "windows" ? ".exe" : ""}`);
  // A binary older than the source would measure the last build, not this one: rebuild it.
  if (!existsSync(bin) || statSync(bin).mtimeMs < newestSource(root)) {
    const r = Bun.spawnSync([process.execPath, "run", "build.ts", "--target", "host"], { cwd: root, stdout: "inherit", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error("host build failed");
  }
  return bin;
}

/** A compiled Bun binary that does nothing but print: the floor any compiled CLI starts from. */
export function referenceBinary(source = 'console.log("hello");\n'): { bin: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "weir-bench-ref-"));
  writeFileSync(join(dir, "hello.ts"), source);
  const bin = join(dir, "hello");
  const r = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", "--bytecode", join(dir, "hello.ts"), "--outfile", bin], { stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`reference build failed: ${r.stderr}`);
  return { bin, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies the project's tracked files (each under 1 MB; the first `limit` of them) into `dest`: a real repository to measure in. */
export function copyTrackedTree(root: string, dest: string, limit = Infinity): void {
  for (const f of Bun.spawnSync(["git", "ls-files"], { cwd: root }).stdout.toString().trim().split("\n").slice(0, limit)) {
    if (!existsSync(join(root, f)) || statSync(join(root, f)).size > 1_000_000) continue;
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    cpSync(join(root, f), join(dest, f));
  }
}

/** Plain BM25 over whole files filling `budget` tokens greedily in rank order: the baseline a working set is measured against. */
export function bm25Fill(files: readonly string[], texts: ReadonlyMap<string, string>, task: string, budget: number): Set<string> {
  const ranked = bm25(termsOf(task), files.map((f) => ({ path: f, text: texts.get(f)! })));
  const out = new Set<string>();
  let used = 0;
  for (const r of ranked) {
    const cost = tokensOf(texts.get(r.path)!);
    if (used + cost > budget) continue;
    used += cost;
    out.add(r.path);
  }
  return out;
}
