/**
 * The firewall on real code and docs it was not written from: every .js, .ts, .md and .json file of
 * installed packages (each its own upstream repository) and every tracked text file of weir's own
 * tree. Prints, per tree, the files flagged instruction-like (target: at most 1% in all) and lists
 * them with their rules; then the verdict's cost per kilobyte against the sanitiser alone (the pass
 * every untrusted text gets anyway) in the same run, and against the target of 0.1 ms per KB.
 *   bun run bench firewall, or bun bench/firewall.ts --list for the flagged files
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { classify } from "../src/context/firewall.ts";
import { sanitise } from "../src/context/sanitise.ts";
import { median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const PACKAGES = ["zod", "openai", "@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "undici", "@clack/prompts", "fast-check", "diff"];
const TEXT = /\.(?:[cm]?[jt]s|md|json)$/;

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules" && e.name !== ".git") filesUnder(p, out);
    else if (e.isFile() && TEXT.test(e.name) && statSync(p).size < 2_000_000) out.push(p);
  }
  return out;
}

const own = Bun.spawnSync(["git", "ls-files"], { cwd: ROOT }).stdout.toString().trim().split("\n").filter((f) => TEXT.test(f)).map((f) => join(ROOT, f));
const trees: { name: string; files: string[] }[] = [
  ...PACKAGES.map((p) => ({ name: p, files: filesUnder(join(ROOT, "node_modules", p)) })),
  // The held-out and labelled firewall texts are planted on purpose: they are not ordinary files.
  { name: "weir", files: own.filter((f) => !f.includes("eval/firewall/") && !f.endsWith("test/context/firewall.test.ts")) },
];

let total = 0;
let flaggedTotal = 0;
const texts: string[] = [];
for (const t of trees) {
  const flagged: string[] = [];
  for (const f of t.files) {
    const text = readFileSync(f, "utf8");
    texts.push(text);
    const r = classify(text);
    if (r.verdict === "instruction_like") flagged.push(`${relative(ROOT, f)}: ${[...new Set(r.findings.map((x) => x.rule))].join(", ")} (${r.findings[0]!.excerpt})`);
  }
  total += t.files.length;
  flaggedTotal += flagged.length;
  console.log(`${t.name}: ${flagged.length} of ${t.files.length} files flagged (${((100 * flagged.length) / Math.max(1, t.files.length)).toFixed(2)}%)`);
  if (process.argv.includes("--list")) for (const l of flagged) console.log(`  ${l}`);
}
console.log(`all: ${flaggedTotal} of ${total} files flagged (${((100 * flaggedTotal) / total).toFixed(2)}%; target at most 1%)`);

const kb = texts.reduce((a, t) => a + t.length, 0) / 1024;
function perKB(f: (t: string) => unknown, runs = sized(5, 1)): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    for (const t of texts) f(t);
    xs.push((performance.now() - t0) / kb);
  }
  return median(xs);
}
const clean = perKB(sanitise);
const verdict = perKB(classify);
console.log(`cost over ${(kb / 1024).toFixed(1)} MB: sanitiser ${(clean * 1000).toFixed(1)} µs/KB, verdict ${(verdict * 1000).toFixed(1)} µs/KB = ${(verdict / clean).toFixed(2)}x the sanitiser (target 100 µs/KB)`);
