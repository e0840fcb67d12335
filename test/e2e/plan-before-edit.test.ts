import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { edit, LANGUAGES, read } from "../../eval/loop/scenarios.ts";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The decision before the first edit is made on the change the task plans, through the binary and
 * the real loop, in real git repositories: a signature change of an exported symbol with callers in
 * other files asks for navigation while those callers are unread, and not once they were read or
 * resolved; a comment-only task plans no behaviour change; a question plans nothing.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

async function repository(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(world.ws, path)), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
}

interface Recorded {
  request: {
    change: { planned_scope: string; behaviour_change: boolean; security_sensitive: boolean; public_api: boolean };
    symbols: { name: string; exported: boolean; callers_known: boolean }[];
    task: string;
    task_kind: string;
    task_flags: { asks_relations: boolean };
    retrieval: { navigations: number };
  };
  baseline: Record<string, { p_yes?: number; distribution?: Record<string, number> }>;
}

/** The decisions the run recorded, in order. */
function decisions(): Recorded[] {
  const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
  const rows = db.query("SELECT record FROM decisions ORDER BY id").all() as { record: string }[];
  db.close();
  return rows.map((r) => JSON.parse(r.record) as Recorded);
}

const navigation = (d: Recorded) => d.baseline.semantic_navigation_required!.p_yes === 1;
const next = (d: Recorded) => Object.entries(d.baseline.next_action!.distribution!).find(([, p]) => p === 1)![0];

async function run(task: string, turns: object[], flags: string[] = []) {
  world.server.script({ turns: [...turns, { text: "done" }] as never });
  const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", ...flags, task], { home: world.home, cwd: world.ws });
  expect(r.code).toBe(0);
}

describe.each(Object.keys(LANGUAGES))("the plan before the first edit (%s)", (lang) => {
  const L = LANGUAGES[lang]!;
  const task = `Change ${L.symbol} in ${L.target} to take an options object instead of the upper flag`;
  // The smallest working set holds only its floor (the task's target), not the callers.
  const floorOnly = ["--budget", "1"];

  test("callers outside the context: every decision before the edit asks for navigation on a planned behaviour change", async () => {
    await repository(L.files);
    await run(task, [read("r1", L.target), edit("e1", L.target, L.old, L.new)], floorOnly);
    const ds = decisions();
    expect(ds.length).toBeGreaterThanOrEqual(2);
    for (const d of ds.slice(0, 2)) {
      expect(d.request.task_kind).toBe("change");
      expect(d.request.change.planned_scope).toBe("local");
      expect(d.request.change.behaviour_change).toBe(true);
      expect(d.request.symbols.find((s) => s.name === L.symbol)?.callers_known).toBe(false);
      expect(navigation(d)).toBe(true);
      expect(next(d)).not.toBe("edit_then_verify");
    }
  });

  test("callers read before the edit: resolved by the compiler's import graph, navigation is no longer asked", async () => {
    await repository(L.files);
    await run(task, [read("r1", L.target), read("r2", L.callers[0]!), read("r3", L.callers[1]!), edit("e1", L.target, L.old, L.new)], floorOnly);
    const ds = decisions();
    expect(navigation(ds[0]!)).toBe(true);
    expect(navigation(ds[2]!)).toBe(true); // one caller read, one not
    // The decision after both reads, before the edit.
    expect(ds[3]!.request.symbols.find((s) => s.name === L.symbol)?.callers_known).toBe(true);
    expect(navigation(ds[3]!)).toBe(false);
  });

  test("callers the working set already shows whole count as read from the first decision", async () => {
    await repository(L.files);
    await run(task, [edit("e1", L.target, L.old, L.new)]);
    const first = decisions()[0]!;
    expect(first.request.symbols.find((s) => s.name === L.symbol)?.callers_known).toBe(true);
    expect(navigation(first)).toBe(false);
  });
});

describe("a caller counts as seen only where it was seen", () => {
  // A 600-line caller naming encodeKey at lines 1, 10 and 550.
  const big = Array.from({ length: 600 }, (_, i) => (i === 0 ? 'import { encodeKey } from "./keys.ts";' : i === 9 || i === 549 ? `export const k${i} = encodeKey("a", true);` : `export const n${i} = ${i};`));
  const files = { "src/keys.ts": LANGUAGES.typescript!.files["src/keys.ts"]!, "src/big.ts": `${big.join("\n")}\n`, "README.md": "# keys\n" };
  const task = "Change encodeKey in src/keys.ts to take an options object instead of the upper flag";
  const part = (id: string, path: string, offset: number, limit: number) => ({ toolCalls: [{ id, name: "read_file", input: { path, offset, limit } }] });
  const known = (d: Recorded) => d.request.symbols.find((s) => s.name === "encodeKey")?.callers_known;

  test("a read of ten lines of a 600-line caller leaves its other call site unseen: the edit is held naming that line; once it is read, the callers are known", async () => {
    await repository(files);
    const before = world.server.requests.length;
    await run(task, [read("r1", "src/keys.ts"), part("r2", "src/big.ts", 1, 10), edit("e1", "src/keys.ts", "k: string, upper: boolean", "k: string, o: { upper: boolean }"), part("r3", "src/big.ts", 545, 10)], ["--budget", "1"]);
    const ds = decisions();
    // The decision after the ten-line read: its file was touched, its call site at line 550 never shown.
    expect(known(ds[2]!)).toBe(false);
    const held = world.server.requests.slice(before).flatMap((r) => (r.body as { messages?: { role: string; content?: unknown }[] }).messages ?? []).find((m) => m.role === "tool" && String(m.content).includes("Not applied"));
    expect(String(held?.content)).toContain("src/big.ts line 550");
    expect(known(ds.at(-1)!)).toBe(true);
  });

  test("a caller the working set shows by its regions counts as seen where they hold its call sites", async () => {
    await repository(files);
    const before = world.server.requests.length;
    await run(task, [read("r1", "src/keys.ts")], ["--budget", "40000"]);
    const messages = world.server.requests[before]!.body.messages as { role: string; content: string }[];
    const first = messages.find((m) => m.role === "user")!.content;
    // Both call sites, 540 lines apart, with their line numbers: all the model needs to see of them.
    expect(first).toContain(`   10\texport const k9 = encodeKey`);
    expect(first).toContain(`  550\texport const k549 = encodeKey`);
    expect(known(decisions()[0]!)).toBe(true);
  });

  test("a caller the working set shows in part is not counted as seen where its call sites are outside what it showed", async () => {
    // Twenty 60-line functions, each calling encodeKey at its middle: the regions show the head and
    // the call of the first dozen or so, and the rest are named by the outline alone.
    const fn = (i: number) => [`export function f${i}() {`, ...Array.from({ length: 58 }, (_, j) => (j === 29 ? `  const k = encodeKey("${i}", true);` : `  const n${j} = ${j};`)), "}"];
    const long = ['import { encodeKey } from "./keys.ts";', ...Array.from({ length: 20 }, (_, i) => fn(i)).flat()];
    await repository({ ...files, "src/big.ts": `${long.join("\n")}\n` });
    const before = world.server.requests.length;
    await run(task, [read("r1", "src/keys.ts")], ["--budget", "40000"]);
    const messages = world.server.requests[before]!.body.messages as { role: string; content: string }[];
    const first = messages.find((m) => m.role === "user")!.content;
    const calls = long.flatMap((l, i) => (l.includes("encodeKey(") ? [i + 1] : []));
    const shown = calls.filter((n) => first.includes(`${String(n).padStart(5)}\t${long[n - 1]}`));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(calls.length);
    expect(known(decisions()[0]!)).toBe(false);
  });
});

describe("what a task plans", () => {
  test("a comment-only task plans no behaviour change; a question plans nothing", async () => {
    await repository(LANGUAGES.typescript!.files);
    await run("Explain in a JSDoc comment what encodeKey in src/keys.ts returns", [read("r1", "src/keys.ts")]);
    const [doc] = decisions();
    expect(doc!.request.task_kind).toBe("change");
    expect(doc!.request.change.planned_scope).toBe("local");
    expect(doc!.request.change.behaviour_change).toBe(false);
    expect(navigation(doc!)).toBe(false);
    await run("What does encodeKey in src/keys.ts return?", [read("r1", "src/keys.ts")]);
    const question = decisions().at(-2)!;
    expect(question.request.task_kind).toBe("inspect");
    expect(question.request.change.planned_scope).toBe("none");
  });

  test("a test-only task plans the tests, not the function they test: no callers asked for, no behaviour change", async () => {
    await repository({ ...LANGUAGES.typescript!.files, "src/keys.test.ts": 'import { encodeKey } from "./keys.ts";\nif (encodeKey("a", true) !== "A") throw new Error("upper");\n' });
    // The callers stay out of the working set (--budget 1), so a plan of keys.ts would ask for them.
    await run("Add a test for encodeKey in src/keys.ts", [read("r1", "src/keys.ts")], ["--budget", "1"]);
    const first = decisions().find((d) => d.request.task.startsWith("Add a test"))!;
    expect(first.request.change.behaviour_change).toBe(false);
    expect(navigation(first)).toBe(false);
    // The same words asking for a change of the function plan it, and its callers are asked for.
    await run("Change encodeKey in src/keys.ts to take an options object", [read("r1", "src/keys.ts")], ["--budget", "1"]);
    const change = decisions().find((d) => d.request.task.startsWith("Change encodeKey"))!;
    expect(change.request.change.behaviour_change).toBe(true);
    expect(navigation(change)).toBe(true);
  });
});

describe("reachability and risk before the first edit", () => {
  const choice = (d: Recorded, q: string) => Object.entries(d.baseline[q]!.distribution!).find(([, p]) => p === 1)![0];

  test("Go: a lower-case function is reachable from its package, so its unread caller is asked for", async () => {
    await repository({
      "go.mod": "module example.com/kv\n\ngo 1.22\n",
      "keys/keys.go": "package keys\n\nfunc encodeKey(k string, upper bool) string { return k }\n",
      "keys/batch.go": "package keys\n\nfunc all(ks []string) string { return encodeKey(ks[0], false) }\n",
    });
    await run("Change encodeKey in keys/keys.go to drop the upper flag", [edit("e1", "keys/keys.go", "k string, upper bool", "k string")], ["--budget", "1"]);
    const first = decisions()[0]!;
    expect(first.request.symbols.find((s) => s.name === "encodeKey")).toMatchObject({ exported: true, callers_known: false });
    expect(navigation(first)).toBe(true);
  });

  test("Python: an underscored helper another module imports is in play; one nobody imports is not", async () => {
    await repository({
      "pkg/__init__.py": "",
      "pkg/keys.py": "def _encode(k):\n    return k\n\ndef _unused(k):\n    return k\n",
      "pkg/store.py": "from .keys import _encode\n\nv = _encode('a')\n",
    });
    await run("Change _encode and _unused in pkg/keys.py to strip whitespace", [edit("e1", "pkg/keys.py", "return k\n\ndef _unused", "return k.strip()\n\ndef _unused")], ["--budget", "1"]);
    const names = decisions()[0]!.request.symbols.map((s) => s.name);
    expect(names).toContain("_encode");
    expect(names).not.toContain("_unused");
    expect(navigation(decisions()[0]!)).toBe(true);
  });

  test("Rust: pub(crate) reaches other files; its caller is resolved, and known once find_references shows it", async () => {
    await repository({
      "Cargo.toml": '[package]\nname = "kv"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/keys.rs": "pub(crate) fn encode_key(k: &str, upper: bool) -> String {\n    k.to_string()\n}\n",
      "src/main.rs": "mod keys;\nfn main() {\n    println!(\"{}\", keys::encode_key(\"a\", true));\n}\n",
    });
    // The caller stays out of the working set (--budget 1): found by the resolver, not yet seen.
    const turns = [{ toolCalls: [{ id: "f1", name: "find_references", input: { symbol: "encode_key" } }] }, edit("e1", "src/keys.rs", ", upper: bool", "")];
    await run("Change encode_key in src/keys.rs to drop the upper flag", turns, ["--budget", "1"]);
    const ds = decisions();
    expect(ds[0]!.request.symbols.find((s) => s.name === "encode_key")?.callers_known).toBe(false);
    expect(navigation(ds[0]!)).toBe(true);
    expect(ds[1]!.request.symbols.find((s) => s.name === "encode_key")?.callers_known).toBe(true);
    expect(navigation(ds[1]!)).toBe(false);
  });

  test.each([
    [
      "a Rust pub fn in a module lib.rs makes public",
      { "Cargo.toml": '[package]\nname = "lexer"\nversion = "0.1.0"\n', "src/lib.rs": "pub mod lexer;\n", "src/lexer/mod.rs": "pub mod token;\n", "src/lexer/token.rs": "pub fn lex(s: String) -> usize {\n    s.len()\n}\n" },
      "Change lex in src/lexer/token.rs to take a &str",
    ],
    [
      "a Rust pub fn re-exported from lib.rs by pub use",
      { "Cargo.toml": '[package]\nname = "lexer"\nversion = "0.1.0"\n', "src/lib.rs": "mod token;\npub use token::lex;\n", "src/token.rs": "pub fn lex(s: String) -> usize {\n    s.len()\n}\n" },
      "Change lex in src/token.rs to take a &str",
    ],
    [
      "a Python function re-exported from __init__.py",
      { "shop/__init__.py": "from .pricing import total\n", "shop/pricing.py": "def total(items, tax):\n    return sum(items) * tax\n" },
      "Change total in shop/pricing.py to take tax as a keyword argument",
    ],
    [
      "a TypeScript function the package's main entry re-exports",
      { "package.json": '{"name":"keys","main":"dist/index.js"}', "src/index.ts": 'export * from "./keys.ts";\n', "src/keys.ts": "export function encodeKey(k: string, upper: boolean): string {\n  return upper ? k.toUpperCase() : k;\n}\n" },
      "Change encodeKey in src/keys.ts to take an options object",
    ],
    [
      "an index.ts the package's main entry re-exports, by its folder",
      { "package.json": '{"name":"keys","main":"dist/index.js"}', "src/index.ts": 'export * from "./codec";\n', "src/codec/index.ts": "export const SEPARATOR = ':';\n" },
      "Change the separator in src/codec/index.ts to a slash",
    ],
    [
      "a default the README documents",
      { "src/config.ts": "export const DEFAULT_PAGE_SIZE = 50;\n", "README.md": "# lists\n\nEach page shows `DEFAULT_PAGE_SIZE` items (50).\n" },
      "Change DEFAULT_PAGE_SIZE in src/config.ts to 100",
    ],
    [
      "an exported Go function of a library package",
      { "go.mod": "module example.com/kv\n", "kv/encode.go": "package kv\n\nfunc Encode(k string) string {\n\treturn k\n}\n" },
      "Change Encode in kv/encode.go to take a byte slice",
    ],
  ])("public API is escalated before the edit: %s", async (_, files, task) => {
    await repository(files);
    await run(task, []);
    const first = decisions()[0]!;
    expect(first.request.change.public_api).toBe(true);
    expect(choice(first, "risk_surface")).toBe("public_api");
    expect(first.baseline.verification_escalation!.p_yes).toBe(1);
  });

  test.each([
    ["a Rust pub(crate) fn", { "Cargo.toml": '[package]\nname = "lexer"\nversion = "0.1.0"\n', "src/lib.rs": "pub mod token;\n", "src/token.rs": "pub(crate) fn lex(s: String) -> usize {\n    s.len()\n}\n" }, "Change lex in src/token.rs to take a &str"],
    ["a Python function __init__.py does not import", { "shop/__init__.py": "", "shop/pricing.py": "def total(items, tax):\n    return sum(items) * tax\n" }, "Change total in shop/pricing.py to take tax as a keyword argument"],
    ["a default no documentation names", { "src/config.ts": "export const DEFAULT_PAGE_SIZE = 50;\n", "README.md": "# lists\n\nThe total is shown on each page.\n" }, "Change DEFAULT_PAGE_SIZE in src/config.ts to 100"],
    ["a Go function under internal/", { "go.mod": "module example.com/kv\n", "internal/kv/encode.go": "package kv\n\nfunc Encode(k string) string {\n\treturn k\n}\n" }, "Change Encode in internal/kv/encode.go to take a byte slice"],
    [
      "an index.js no entry of its package reaches",
      { "package.json": '{"name":"shop","scripts":{"test":"node -e 0"}}', "src/orders/index.js": "function indexValue(items) {\n  return items.length;\n}\nmodule.exports = { indexValue };\n" },
      "fix the off-by-one in indexValue in src/orders/index.js",
    ],
  ])("not public API: %s", async (_, files, task) => {
    await repository(files);
    await run(task, []);
    expect(decisions()[0]!.request.change.public_api).toBe(false);
  });

  test("a change to an auth module is security-sensitive and escalates verification before any edit", async () => {
    await repository({ "src/auth/session.ts": "export function expiry(): number {\n  return 3600;\n}\n" });
    await run("Make expiry in src/auth/session.ts return 1800", [edit("e1", "src/auth/session.ts", "3600", "1800")]);
    const first = decisions()[0]!;
    expect(first.request.change.security_sensitive).toBe(true);
    expect(choice(first, "risk_surface")).toBe("security_sensitive");
    expect(first.baseline.verification_escalation!.p_yes).toBe(1);
  });

  test.each([
    ["an HMAC through node:crypto", { "src/util/sign.ts": 'import { createHmac } from "node:crypto";\n\nexport function digest(b: string, k: string): string {\n  return createHmac("sha256", k).update(b).digest("hex");\n}\n' }, "Make digest in src/util/sign.ts use SHA-512"],
    ["an Authorization header in Go", { "go.mod": "module example.com/app\n", "internal/web/gate.go": 'package web\n\nimport "net/http"\n\nfunc Matches(r *http.Request, t string) bool {\n\treturn r.Header.Get("Authorization") == "Bearer "+t\n}\n' }, "Make Matches in internal/web/gate.go ignore the case of the scheme word"],
    ["a shell command line in Python", { "app/tools/ls.py": 'import subprocess\n\n\ndef listing(name):\n    return subprocess.run("ls " + name, shell=True)\n' }, "Make listing in app/tools/ls.py pass the -a option too"],
  ])("a neutral path and task whose code touches security (%s) escalate verification before any edit", async (_, files, task) => {
    await repository(files);
    await run(task, []);
    const first = decisions()[0]!;
    expect(first.request.change.security_sensitive).toBe(true);
    expect(choice(first, "risk_surface")).toBe("security_sensitive");
    expect(first.baseline.verification_escalation!.p_yes).toBe(1);
  });

  test("a greeting beside an authorization check in its file is not security work: only the function the task names counts", async () => {
    await repository({
      "src/web/welcome.ts":
        'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n\n' +
        'export function allowed(h: Record<string, string>, t: string): boolean {\n  return h["authorization"] === `Bearer ${t}`;\n}\n',
    });
    await run("Make greet in src/web/welcome.ts say Hi instead of Hello", []);
    expect(decisions()[0]!.request.change.security_sensitive).toBe(false);
  });

  test("an environment variable named bare in the task that the code reads by that name is public API", async () => {
    await repository({ "src/config/env.ts": 'export function port(): number {\n  return Number(process.env["APP_PORT"] ?? "8080");\n}\n' });
    await run("Rename the APP_PORT environment variable that port in src/config/env.ts reads to APP_LISTEN_PORT", []);
    const first = decisions()[0]!;
    expect(first.request.change.public_api).toBe(true);
    expect(first.baseline.verification_escalation!.p_yes).toBe(1);
  });

  test("two named files in different top-level directories plan a cross-module change", async () => {
    await repository({ "server/limits.ts": "export const LIMIT = 10;\n", "client/limits.ts": "export const LIMIT = 10;\n" });
    await run("Raise LIMIT to 20 in server/limits.ts and client/limits.ts", [edit("e1", "server/limits.ts", "10", "20")]);
    const first = decisions()[0]!;
    expect(first.request.change.planned_scope).toBe("cross_module");
    expect(choice(first, "risk_surface")).toBe("cross_module");
  });

  test("a README-only task plans a change of prose: no behaviour change, no navigation, no escalation", async () => {
    await repository({ "README.md": "# kv\n", "src/keys.ts": "export const k = 1;\n" });
    await run("Add an install section to README.md", [edit("e1", "README.md", "# kv\n", "# kv\n\n## Install\n")]);
    const first = decisions()[0]!;
    expect(first.request.change).toMatchObject({ planned_scope: "local", behaviour_change: false });
    expect(navigation(first)).toBe(false);
    expect(first.baseline.verification_escalation!.p_yes).toBe(0);
  });
});

describe("questions under weir.agent_context@3", () => {
  test("'who calls encodeKey?' navigates before it answers, and answers once find_references ran", async () => {
    await repository(LANGUAGES.typescript!.files);
    await run("who calls encodeKey?", [{ toolCalls: [{ id: "f1", name: "find_references", input: { symbol: "encodeKey" } }] }]);
    const [first, second] = decisions();
    expect(first!.request.task_flags).toMatchObject({ asks_relations: true });
    expect(next(first!)).toBe("semantic_navigation");
    expect(second!.request.retrieval).toMatchObject({ navigations: 1 });
    expect(next(second!)).toBe("answer");
  });

  test("a question about a file with uncommitted changes is answered, not sent to a worktree review", async () => {
    await repository(LANGUAGES.typescript!.files);
    writeFileSync(join(world.ws, "src", "keys.ts"), "export function encodeKey(k: string): string {\n  return k;\n}\n");
    await run("What does encodeKey in src/keys.ts return?", [read("r1", "src/keys.ts")]);
    const first = decisions()[0]!;
    expect(first.request.task_kind).toBe("inspect");
    expect(next(first)).not.toBe("review_worktree");
  });
});

describe.each(Object.keys(LANGUAGES))("what the task plans, per language (%s)", (lang) => {
  const L = LANGUAGES[lang]!;

  test("a comment-only task plans prose: no behaviour change, no navigation", async () => {
    await repository(L.files);
    await run(`Explain in a comment above ${L.symbol} in ${L.target} what it returns`, [read("r1", L.target)], ["--budget", "1"]);
    const first = decisions()[0]!;
    expect(first.request.task_kind).toBe("change");
    expect(first.request.change.behaviour_change).toBe(false);
    expect(navigation(first)).toBe(false);
  });

  test("a question about the symbol plans nothing and is answered once the target is read", async () => {
    await repository(L.files);
    await run(`What does ${L.symbol} in ${L.target} return?`, [read("r1", L.target)], ["--budget", "1"]);
    const ds = decisions();
    expect(ds[0]!.request.task_kind).toBe("inspect");
    expect(ds[0]!.request.change.planned_scope).toBe("none");
    expect(next(ds.at(-1)!)).toBe("answer");
  });

  test("callers read with read_file: unknown before, known once both are read", async () => {
    await repository(L.files);
    await run(`Change ${L.symbol} in ${L.target} to take an options object`, [read("r1", L.callers[0]!), read("r2", L.callers[1]!)], ["--budget", "1"]);
    const ds = decisions();
    expect(ds[0]!.request.symbols.find((s) => s.name === L.symbol)?.callers_known).toBe(false);
    expect(ds.at(-1)!.request.symbols.find((s) => s.name === L.symbol)?.callers_known).toBe(true);
  });
});

describe.each(Object.keys(LANGUAGES))("a proposed edit is decided on before it is applied (%s)", (lang) => {
  const L = LANGUAGES[lang]!;
  const task = `Change ${L.symbol} in ${L.target} to take an options object instead of the upper flag`;
  const onDisk = () => readFileSync(join(world.ws, L.target), "utf8");
  /** What weir answered the model's call `id` with. */
  const resultOf = (id: string) =>
    world.server.requests
      .toReversed()
      .flatMap((r) => (r.body as { messages?: { role: string; tool_call_id?: string; content?: unknown }[] } | null)?.messages ?? [])
      .find((m) => m.role === "tool" && m.tool_call_id === id)?.content as string | undefined;

  test("a declaration change with unread callers is held once, naming them; the decision records the signature change", async () => {
    await repository(L.files);
    await run(task, [read("r1", L.target), edit("e1", L.target, L.old, L.new)], ["--budget", "1"]);
    expect(onDisk()).toBe(L.files[L.target]!);
    const said = resultOf("e1")!;
    expect(said).toContain("Not applied");
    for (const c of L.callers) expect(said).toContain(c);
    const pre = decisions().find((d) => d.request.symbols.some((s) => (s as { signature_change?: boolean }).signature_change));
    expect(pre).toBeDefined();
    expect(navigation(pre!)).toBe(true);
  });

  test("the same edit made again is applied; so is one made after the callers were read", async () => {
    await repository(L.files);
    await run(task, [edit("e1", L.target, L.old, L.new), edit("e2", L.target, L.old, L.new)], ["--budget", "1"]);
    expect(onDisk()).toContain(L.new);
    expect(Bun.spawnSync(["git", "checkout", "-q", "--", "."], { cwd: world.ws }).exitCode).toBe(0);
    await run(task, [read("r1", L.callers[0]!), read("r2", L.callers[1]!), read("r3", L.target), edit("e3", L.target, L.old, L.new)], ["--budget", "1"]);
    expect(resultOf("e3")).not.toContain("Not applied");
    expect(onDisk()).toContain(L.new);
  });

  test("an edit of the body alone, or of a comment, is applied at once", async () => {
    await repository(L.files);
    const comment = lang === "python" ? "# keys are encoded here\n" : "// keys are encoded here\n";
    const first = L.files[L.target]!.split("\n")[0]!;
    await run(task, [edit("e1", L.target, first, `${comment}${first}`)], ["--budget", "1"]);
    expect(onDisk().startsWith(comment)).toBe(true);
    expect(resultOf("e1")).not.toContain("Not applied");
  });
});

test("a question's run never holds an edit", async () => {
  await repository(LANGUAGES.typescript!.files);
  await run("What does encodeKey in src/keys.ts return?", [edit("e1", "src/keys.ts", "k: string, upper: boolean", "k: string")], ["--budget", "1"]);
  expect(readFileSync(join(world.ws, "src/keys.ts"), "utf8")).toContain("k: string)");
});
