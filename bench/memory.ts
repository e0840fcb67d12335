/**
 * What a run costs in memory and time, as a person runs it: a two-turn one-shot task (read a file,
 * then answer) in a small project and in a real repository (a copy of weir's own tracked tree, a git
 * repository), against the mock wire server, with the outline cache warm, after an edit and cold. The whole
 * process tree's PSS is sampled every 5 ms (weir, its sandboxed git and commands) and its peak kept,
 * with the main process's peak RSS; wall and CPU time per run.
 * Medians of 7, against a compiled hello-world in the same run (memory only: it waits 50 ms to be
 * sampled), and against another build when one is given.
 * Targets: a two-turn run ≤ 70 MB tree PSS, in the small project and in weir's tree; ≤ 80 MB for
 * 13 turns; binary ≤ 130 MB.
 *   bun run bench memory            this build
 *   bun bench/memory.ts OTHER_BIN   this build and another, side by side
 */
import { appendFileSync, chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer } from "../test/support/mock-server.ts";
import { BENCH_GIT, copyTrackedTree, hostBinary, inTurns, median, referenceBinary, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? sized(7, 1));

/** PSS in kB of a process and all its descendants, read from /proc. */
function treePss(root: number): number {
  const children = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  let kb = 0;
  const visit = (pid: number) => {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(root);
  return kb;
}

/** Peak RSS in kB of one process so far (VmHWM), or 0 when it is gone. */
function highWaterKb(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

interface Run {
  ms: number;
  cpuMs: number;
  pssMB: number;
  rssMB: number;
}

async function measured(cmd: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { env, cwd, stdout: "ignore", stderr: "pipe" });
  let peak = 0;
  let hwm = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treePss(p.pid));
    hwm = Math.max(hwm, highWaterKb(p.pid));
  }, 5);
  const code = await p.exited;
  clearInterval(timer);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(p.stderr).text()}`);
  const u = p.resourceUsage();
  const cpuMs = u ? Number(u.cpuTime.user + u.cpuTime.system) / 1000 : 0;
  // The child's own peak RSS as the kernel kept it (VmHWM), sampled: Bun's resourceUsage() after an
  // async spawn can report the largest of all earlier children.
  return { ms, cpuMs, pssMB: peak / 1024, rssMB: hwm / 1024 };
}

const dir = mkdtempSync(join(tmpdir(), "weir-bench-memory-"));
const home = join(dir, "home");
const ws = join(dir, "repo");
const small = join(dir, "small");
mkdirSync(home);
mkdirSync(join(small, "src"), { recursive: true });
writeFileSync(join(small, "README.md"), "# demo\n\nA small project.\n");
mkdirSync(join(small, "src", "cli"));
writeFileSync(join(small, "src", "cli", "version.ts"), "export const VERSION = '1.0.0';\nconsole.log(VERSION);\n");
// Twelve 6 KB notes for the small project's 13-turn session.
mkdirSync(join(small, "notes"));
for (let i = 0; i < 12; i++) writeFileSync(join(small, "notes", `n${i}.md`), Array.from({ length: 100 }, (_, k) => `note ${i} line ${k} `.padEnd(60, "x")).join("\n"));
copyTrackedTree(ROOT, ws);
const git = (...a: string[]) => gitIn(ws, ...a);
const gitIn = (cwd: string, ...a: string[]) => Bun.spawnSync(["git", ...a], { cwd, env: { PATH: process.env.PATH ?? "", HOME: home, ...BENCH_GIT } });
for (const d of [ws, small]) {
  gitIn(d, "init", "-q");
  gitIn(d, "add", "-A");
  gitIn(d, "commit", "-qm", "bench");
}
writeFileSync(join(ws, "src", "cli", "version.ts"), `${readFileSync(join(ws, "src", "cli", "version.ts"), "utf8")}\n// touched\n`);
// The "edited" rows edit their own copies, so the other rows' files stay as their caches know them.
const smallEdited = join(dir, "small-edited");
const wsEdited = join(dir, "repo-edited");
cpSync(small, smallEdited, { recursive: true });
cpSync(ws, wsEdited, { recursive: true });
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const server = await new MockServer().start();
const task = ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--verify-floor", "off", "what does src/cli/version.ts print?"];

// Each binary is measured as a fresh copy: how much of a binary the page cache holds changes its
// PSS (the kernel maps cached neighbours of every page a run touches), and a copy is wholly cached,
// as a binary just downloaded is. Without this, an older build measures several MB lighter.
const fresh = (bin: string, name: string) => {
  const copy = join(dir, name);
  copyFileSync(bin, copy);
  chmodSync(copy, 0o755);
  return copy;
};
const builds: [string, string][] = [["this build", fresh(hostBinary(ROOT), "this-build")], ...(process.argv[2] ? [["other build", fresh(process.argv[2], "other-build")] as [string, string]] : [])];
// The reference stays up 50 ms, so the sampler sees its PSS and peak RSS as it sees weir's.
const ref = referenceBinary('console.log("hello");\nsetTimeout(() => {}, 50);\n');
try {
  // "cold": the outline cache in the data directory is removed first, so the run parses (the first
  // run in a repository, or the first after an upgrade). "edited": the file the task names was
  // edited since the last run, as a person's files are between runs, so that one file is parsed.
  // The other rows find the cache warm.
  // The 13-turn session reads twelve of the repository's source files, one per turn.
  const long = Bun.spawnSync(["git", "ls-files", "src/context/*.ts"], { cwd: ws }).stdout.toString().trim().split("\n").slice(0, 12);
  const twoTurns = () => [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/cli/version.ts" } }] }, { text: "It prints the version." }];
  const thirteen = () => [...long.map((path, i) => ({ toolCalls: [{ id: `r${i}`, name: "read_file", input: { path } }] })), { text: "Read them." }];
  const notes = () => [...Array.from({ length: 12 }, (_, i) => ({ toolCalls: [{ id: `n${i}`, name: "read_file", input: { path: `notes/n${i}.md` } }] })), { text: "Read them." }];
  type Place = [string, string, "warm" | "edited" | "cold", () => object[]];
  const places: Place[] = [
    ["small project", small, "warm", twoTurns],
    ["real repository", ws, "warm", twoTurns],
    ["small project, 13 turns", small, "warm", notes],
    ["real repository, 13 turns", ws, "warm", thirteen],
    ["small project, edited", smallEdited, "edited", twoTurns],
    ["real repository, edited", wsEdited, "edited", twoTurns],
    ["small project, cold", small, "cold", twoTurns],
    ["real repository, cold", ws, "cold", twoTurns],
  ];
  const rows: [string, Run[]][] = [["reference: compiled hello", []]];
  for (const [name] of builds) for (const [where] of places) rows.push([`${name}, ${where}`, []]);
  for (let i = 0; i <= RUNS; i++) {
    const hello = await measured([ref.bin], env, ws);
    if (i > 0) rows[0]![1].push(hello);
    // Place by place, the builds back to back (inTurns).
    for (const [p, [, cwd, state, turns]] of places.entries())
      for (const b of inTurns(builds.length, i)) {
        // Each build keeps its own data directory: caches another build wrote are not warm for it.
        const data = join(dir, state === "cold" ? `cold-data-${b}` : `data-${b}`);
        if (state === "cold") rmSync(data, { recursive: true, force: true });
        if (state === "edited") appendFileSync(join(cwd, "src", "cli", "version.ts"), `// edited ${i}.${b}\n`);
        server.script({ turns: turns() as never });
        const r = await measured([builds[b]![1], ...task], { ...env, XDG_DATA_HOME: data }, cwd);
        if (i > 0) rows[1 + b * places.length + p]![1].push(r); // the first round warms the page cache
      }
  }
  const med = (xs: Run[], f: (r: Run) => number) => median(xs.map(f));
  console.log(`one-shot tasks, two turns unless said; the real repository has ${git("ls-files").stdout.toString().split("\n").length} files; median of ${RUNS}`);
  for (const [name, xs] of rows)
    console.log(`${name.padEnd(38)} wall ${med(xs, (r) => r.ms).toFixed(0).padStart(5)} ms  cpu ${med(xs, (r) => r.cpuMs).toFixed(0).padStart(5)} ms  tree PSS ${med(xs, (r) => r.pssMB).toFixed(1).padStart(6)} MB  peak RSS ${med(xs, (r) => r.rssMB).toFixed(1).padStart(6)} MB`);
  const [, mine] = rows[1]!;
  const hello = rows[0]![1];
  for (const [p, [where]] of places.slice(0, 2).entries()) {
    const xs = rows[1 + p]![1];
    console.log(`ratio to the reference, ${where}: tree PSS ${(med(xs, (r) => r.pssMB) / med(hello, (r) => r.pssMB)).toFixed(2)}x, peak RSS ${(med(xs, (r) => r.rssMB) / med(hello, (r) => r.rssMB)).toFixed(2)}x`);
  }
  for (const [p, [where]] of places.entries()) {
    if (!rows[1 + places.length + p]) break;
    const a = rows[1 + p]![1];
    const b = rows[1 + places.length + p]![1];
    const ratio = (f: (r: Run) => number) => (med(a, f) / med(b, f)).toFixed(2);
    console.log(`this build / other build, ${where}: wall ${ratio((r) => r.ms)}x, cpu ${ratio((r) => r.cpuMs)}x, tree PSS ${ratio((r) => r.pssMB)}x, peak RSS ${ratio((r) => r.rssMB)}x`);
  }
  for (const [name, bin] of builds) console.log(`${name} binary: ${(statSync(bin).size / 2 ** 20).toFixed(1)} MB (target ≤ 130 MB)`);
} finally {
  ref.cleanup();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
