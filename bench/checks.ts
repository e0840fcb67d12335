/**
 * Which command runs a project's tests: the checks weir detects (workspace/checks.ts, what `verify`
 * runs and what a task about tests is shown) at the root of real public repositories of twelve
 * ecosystems (eval/checks/projects.jsonl, labelled from each project's own CI before detection was
 * changed for them). Each case's root is rebuilt in a temporary directory: its entries, with the
 * text of its manifests. Right: the quick checks are not empty and every one is a labelled command,
 * or, where a project names none at its root, there are none. Only dev misses are listed.
 *
 * Then what `verify` shows the model of a failed check: real failing runs of cargo, node, bun and
 * pytest, and one of Maven added later (eval/checks/failures.jsonl, each with the lines that say
 * what failed); right when every one of those is shown.
 *
 * Last, tests by each ecosystem's naming, in the repositories of the set whose mirrors are here
 * (WEIR_MIRRORS, default /work/.mirror; the search tool's fetch): how many files are tests, and
 * how many source files have a test named after them (`testNamesFor`), as a run maps a task's
 * targets to their tests.
 *   bun run bench checks
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failureView } from "../src/actions/builtin/verify.ts";
import { isTestPath, testNamesFor } from "../src/context/sources.ts";
import { detectChecks } from "../src/workspace/checks.ts";

interface Case {
  id: string;
  repo: string;
  root: string[];
  files: Record<string, string>;
  quick: string[];
  split: "dev" | "test";
}
const cases = readFileSync(join(import.meta.dir, "..", "eval", "checks", "projects.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Case);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-checks-"));
const tally: Record<"dev" | "test", [number, number]> = { dev: [0, 0], test: [0, 0] };
const misses: string[] = [];
try {
  for (const c of cases) {
    const root = join(dir, c.id);
    mkdirSync(root);
    for (const e of c.root) e.endsWith("/") ? mkdirSync(join(root, e), { recursive: true }) : writeFileSync(join(root, e), c.files[e] ?? "");
    const quick = detectChecks(root).filter((k) => k.level === "quick").map((k) => k.name);
    const right = c.quick.length === 0 ? quick.length === 0 : quick.length > 0 && quick.every((q) => c.quick.includes(q));
    tally[c.split][0] += right ? 1 : 0;
    tally[c.split][1] += 1;
    if (!right && c.split === "dev") misses.push(`  miss ${c.id} ${c.repo}: detected ${quick.join(", ") || "none"}; labelled ${c.quick.join(" | ") || "none"}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`the project's test command, detected at the root of ${cases.length} real repositories`);
for (const s of ["dev", "test"] as const) console.log(`  ${s.padEnd(5)} ${tally[s][0]}/${tally[s][1]} right`);
for (const m of misses) console.log(m);

interface Failure {
  id: string;
  made: string;
  output: string;
  must: string[];
}
const failures = readFileSync(join(import.meta.dir, "..", "eval", "checks", "failures.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Failure);
let shown = 0;
console.log(`what verify shows of ${failures.length} real failing runs`);
for (const f of failures) {
  const view = failureView(f.output);
  const lost = f.must.filter((m) => !view.includes(m));
  if (!lost.length) shown++;
  console.log(`  ${f.id.padEnd(16)} ${String(view.split("\n").length).padStart(3)} of ${String(f.output.split("\n").length).padStart(3)} lines  ${lost.length ? `misses ${lost.map((m) => JSON.stringify(m)).join(", ")}` : "shows what failed"}`);
}
console.log(`  ${shown}/${failures.length} show every line that says what failed`);

const MIRRORS = process.env.WEIR_MIRRORS ?? "/work/.mirror";
const CODE = /\.(?:java|kt|cs|php|swift|rb|ex|exs|go|py|ts|js|rs)$/;
console.log(`tests named after their sources, in the repositories of the set mirrored under ${MIRRORS}`);
for (const repo of [...new Set(cases.map((c) => c.repo))].filter((r) => r.includes("/"))) {
  const gitDir = join(MIRRORS, repo.replace("/", "+"), "repo");
  const ls = Bun.spawnSync(["git", `--git-dir=${gitDir}`, "ls-tree", "-r", "--name-only", "HEAD"], { stderr: "ignore" });
  if (ls.exitCode !== 0) continue;
  const files = ls.stdout.toString().trim().split("\n").filter((f) => CODE.test(f));
  const tests = files.filter(isTestPath);
  const sources = files.filter((f) => !isTestPath(f));
  const mapped = sources.filter((f) => {
    const named = testNamesFor(f);
    return tests.some((t) => named.test(t));
  }).length;
  console.log(`  ${repo.padEnd(30)} ${String(files.length).padStart(5)} code files  ${String(tests.length).padStart(4)} tests  ${String(mapped).padStart(4)} of ${sources.length} sources with a test named after them`);
}
