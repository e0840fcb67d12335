import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS, FLAGS } from "../src/cli/args.ts";
import { PROPERTIES, propertiesHere } from "../src/workspace/properties.ts";

/**
 * The docs name only what exists: every backticked flag is one of weir's flags, every `weir WORD`
 * names a command, every camelCase or snake_case name is in the code, and every repository path is
 * there. So a rename or a removal that leaves a doc behind fails CI. Names of other programs are a
 * short list below, each with its owner.
 */
const ROOT = join(import.meta.dir, "..");

/** Flags of other programs the docs name, by program. */
const EXTERNAL_FLAGS = new Set([
  "--no-ff", // git merge
  "--relative", // git ls-files
  "--reference", // git clone
  "--nproc", // prlimit
  "--compile-jit-policy", // bun build
]);
/** Spans that show a mistyped command on purpose (the near-command message). */
const TYPO_EXAMPLES = new Set(["weir doctr", "weir changs"]);

const docs = ["README.md", "bench/README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Every text file of the code and what its tests and benches need, as one string to look names up in. */
function codeText(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      // This file names what does not exist, to show the check fails on it.
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|json|jsonl|md)$/.test(e.name) && p !== import.meta.path) out.push(readFileSync(p, "utf8"));
    }
  };
  for (const d of ["src", "bench", "eval", "test", "policies"]) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  for (const f of ["build.ts", "package.json", ".ci/run"]) out.push(readFileSync(join(ROOT, f), "utf8"));
  return out.join("\n");
}

/** The backticked spans of a document, outside fenced blocks, with the line each is on. */
function spans(file: string): { text: string; line: number }[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const out: { text: string; line: number }[] = [];
  let fenced = false;
  lines.forEach((l, i) => {
    if (l.trimStart().startsWith("```")) fenced = !fenced;
    if (!fenced) for (const m of l.matchAll(/`([^`]+)`/g)) out.push({ text: m[1]!, line: i + 1 });
  });
  return out;
}

/** What a span claims exists, and whether it does; undefined for spans this test does not judge. */
function problem(span: string, code: string, flags: Set<string>): string | undefined {
  const flag = /^--([a-z][a-z-]*)/.exec(span);
  if (flag) return flags.has(flag[1]!) || EXTERNAL_FLAGS.has(`--${flag[1]}`) ? undefined : `no flag --${flag[1]}`;
  const command = /^weir ([a-z][a-z-]*)/.exec(span);
  if (command && !(COMMANDS as readonly string[]).includes(command[1]!) && !TYPO_EXAMPLES.has(span)) return `no command weir ${command[1]}`;
  if (/^[A-Za-z_]\w*[a-z][A-Z]\w*$/.test(span) || /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(span)) return code.includes(span) ? undefined : `no name ${span} in the code`;
  // A repository path: placeholders (NAME, ID) and globs are templates, not paths.
  if (/^[\w.-]+(\/[\w.-]+)+\/?$/.test(span) && /\.(ts|md|json|jsonl|toml)$|\/$/.test(span) && !/[A-Z]{2,}/.test(span)) {
    const there = [span, join("src", span)].some((p) => existsSync(join(ROOT, p)));
    return there || code.includes(span) ? undefined : `no path ${span}`;
  }
  return undefined;
}

describe("the docs", () => {
  test("name only flags, commands, code names and paths that exist", () => {
    const code = codeText();
    const flags = new Set(FLAGS.map((f) => f.name));
    const found: string[] = [];
    for (const file of docs)
      for (const s of spans(file)) {
        const p = problem(s.text, code, flags);
        if (p) found.push(`${file}:${s.line}: \`${s.text}\`: ${p}`);
      }
    expect(found).toEqual([]);
  });

  test("the check fails on what drifted: a flag, a command, a name and a path that do not exist", () => {
    const code = codeText();
    const flags = new Set(FLAGS.map((f) => f.name));
    for (const span of ["--no-such-flag", "weir frobnicate", "LoopState", "budget_used_ratios", "src/agent/no-such.ts"]) expect(problem(span, code, flags)).toBeDefined();
    for (const span of ["--budget", "weir graph clean", "WorkState", "budget_used_ratio", "src/agent/graph.ts", "agent/graph.ts", "NAME.weir-worktrees/ID/"]) expect(problem(span, code, flags)).toBeUndefined();
  });
});

describe("docs/security.md's table of properties", () => {
  test("names the properties weir doctor reports, in order, with the same platforms", () => {
    const text = readFileSync(join(ROOT, "docs", "security.md"), "utf8");
    const table = text.slice(text.indexOf("| property |"));
    const lines = table.split("\n").slice(2);
    const properties = lines.slice(0, lines.findIndex((l) => !l.startsWith("| "))).map((l) => l.split(" | "));
    expect(properties.map((r) => r[0]!.slice(2))).toEqual(PROPERTIES.map((p) => p.name));
    expect(properties.map((r) => r.at(-1)!.replace(/ \|$/, ""))).toEqual(PROPERTIES.map((p) => p.platforms));
  });
});

describe("the properties as they hold on a machine", () => {
  test("with a view every property of commands holds; without one, none that needs it is said to", () => {
    const full = propertiesHere({ sandbox: "bwrap", view: true, cgroup: true, root: true });
    expect(full.every((p) => p.holds === "yes")).toBe(true);
    const mac = propertiesHere({ sandbox: "seatbelt", view: false, cgroup: false, root: false });
    expect(mac.find((p) => p.property === "a hard link never carries a write out")!.holds).toBe("no");
    expect(mac.find((p) => p.property === "Linux and macOS enforce one policy")!.holds).toBe("yes");
    const rootNoCgroup = propertiesHere({ sandbox: "bwrap", view: true, cgroup: false, root: true });
    expect(rootNoCgroup.find((p) => p.property === "the process limit holds for root")!.holds).toBe("no");
  });
});
