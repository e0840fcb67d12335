/**
 * Pre-edit decision cases: small real repositories in TypeScript, Python and Go, a change task, and
 * the reads a model makes before it edits. The case is the decision of the request right after the
 * last read, before any edit: the state the loop builds at the moment verification and navigation
 * must be planned. Labels were written from weir.agent_context@4's criteria about the repository and
 * the change as they really are (a documented default is public API whether or not a heuristic sees
 * it), before the suite was first built and before the baseline was run on it. Each test split was
 * written once the one before it had been measured: every third of SITUATIONS, then HELD_OUT, then
 * HELD_OUT_CODE, the test split now.
 */
import type { Scenario, ScriptedTurn } from "../loop/scenarios.ts";
import { read } from "../loop/scenarios.ts";

/** How one language lays out a module with a function, a caller in another file, and a test. */
interface Language {
  id: string;
  /** The path of module `name` in directory `dir`, as the language lays it out. */
  path(dir: string, name: string): string;
  /** A function name in the language's style, from words. */
  fn(words: string[]): string;
  /** A module with one function of `params` whose body returns `expr`; `exported` as another file can reach it. */
  module(name: string, params: string, body: string, o?: { exported?: boolean; constant?: [string, string] }): string;
  /** A file of another module that imports and calls the function. */
  caller(dir: string, from: string, fn: string, args: string): [string, string];
  /** The test file for module `name`, calling `fn`. */
  test(dir: string, name: string, fn: string, args: string): [string, string];
  /** Files every repository of the language has. */
  base: Record<string, string>;
  /** A package entry point that exposes `fn` of `path` to other packages. */
  entry(path: string, fn: string): Record<string, string>;
}

const camel = (w: string[]) => w[0]! + w.slice(1).map((x) => x[0]!.toUpperCase() + x.slice(1)).join("");
const pascal = (w: string[]) => w.map((x) => x[0]!.toUpperCase() + x.slice(1)).join("");
const snake = (w: string[]) => w.join("_");
const stem = (path: string) => path.split("/").pop()!.replace(/\.\w+$/, "");

const TS: Language = {
  id: "typescript",
  path: (dir, name) => `src/${dir}/${name}.ts`,
  fn: camel,
  module: (_name, params, expr, o = {}) =>
    `${o.constant ? `export const ${o.constant[0]} = ${o.constant[1]};\n\n` : ""}${o.exported === false ? "" : "export "}function f(${params}) {\n  return ${expr};\n}\n`,
  caller: (dir, from, fn, args) => [`src/${dir}/use-${stem(from)}.ts`, `import { ${fn} } from "../${from.split("/").slice(1, -1).join("/")}/${stem(from)}.ts";\n\nexport const used = ${fn}(${args});\n`],
  test: (dir, name, fn, args) => [`test/${name}.test.ts`, `import { expect, test } from "bun:test";\nimport { ${fn} } from "../src/${dir}/${name}.ts";\n\ntest("${fn}", () => {\n  expect(${fn}(${args})).toBeDefined();\n});\n`],
  base: { "package.json": '{ "name": "app", "private": true, "type": "module" }\n' },
  entry: (path, fn) => ({
    "package.json": '{ "name": "app-lib", "type": "module", "main": "src/index.ts" }\n',
    "src/index.ts": `export { ${fn} } from "./${path.slice(4).replace(/\.ts$/, ".ts")}";\n`,
  }),
};

const PY: Language = {
  id: "python",
  path: (dir, name) => `app/${dir}/${name}.py`,
  fn: snake,
  module: (_name, params, expr, o = {}) => `${o.constant ? `${o.constant[0]} = ${o.constant[1]}\n\n\n` : ""}def ${o.exported === false ? "_" : ""}f(${params}):\n    return ${expr}\n`,
  caller: (dir, from, fn, args) => [`app/${dir}/use_${stem(from)}.py`, `from app.${from.split("/").slice(1, -1).join(".")}.${stem(from)} import ${fn}\n\nUSED = ${fn}(${args})\n`],
  test: (dir, name, fn, args) => [`tests/test_${name}.py`, `from app.${dir.replaceAll("/", ".")}.${name} import ${fn}\n\n\ndef test_${fn}():\n    assert ${fn}(${args}) is not None\n`],
  base: { "pyproject.toml": '[project]\nname = "app"\nversion = "0.1.0"\n' },
  entry: (path, fn) => ({ "app/__init__.py": `from .${path.split("/").slice(1).join(".").replace(/\.py$/, "")} import ${fn}\n` }),
};

const GO: Language = {
  id: "go",
  path: (dir, name) => `internal/${dir}/${name}.go`,
  fn: pascal,
  module: (name, params, body, o = {}) => {
    const uses = body.includes("fmt.") ? 'import "fmt"\n\n' : "";
    const constant = o.constant ? `const ${o.constant[0]} = ${o.constant[1]}\n\n` : "";
    return `package ${name}\n\n${uses}${constant}func f(${params}) int {\n\t${body.includes("\n") ? body : `return ${body}`}\n}\n`;
  },
  caller: (dir, from, fn, args) => {
    const pkg = from.split("/").slice(0, -1).join("/");
    const name = pkg.split("/").pop()!;
    return [`internal/${dir}/use.go`, `package ${dir}\n\nimport "example.com/app/${pkg}"\n\nvar Used = ${name}.${fn}(${args})\n`];
  },
  test: (dir, name, fn, args) => [`internal/${dir}/${name}_test.go`, `package ${dir}\n\nimport "testing"\n\nfunc Test${fn}(t *testing.T) {\n\t_ = ${fn}(${args})\n}\n`],
  base: { "go.mod": "module example.com/app\n\ngo 1.22\n" },
  entry: () => ({}),
};

/** What a situation needs from the language: the function's name in its style and the files around it. */
interface Situation {
  id: string;
  note: string;
  /** The module: directory and name, the function's words, its parameters and body. */
  dir: string;
  name: string;
  words: string[];
  params?: (l: Language) => string;
  /** What the function returns: one expression, or one per language where they differ (Go's may be statements). */
  expr?: string | (Partial<Record<"typescript" | "python" | "go", string>> & { default: string });
  /** The module's whole text per language, where it is real code rather than one expression: `FN` is the function. */
  source?: Record<"typescript" | "python" | "go", string>;
  constant?: [string, string];
  /** Other files of the repository, besides the module. */
  extra?: (l: Language, path: string, fn: string) => Record<string, string>;
  task: (path: string, fn: string, l: Language) => string;
  /** Which files the model reads before its edit (the module first, unless said). */
  reads?: (path: string, fn: string, l: Language, files: Record<string, string>) => string[];
  /** Where a file must stay unseen, the working set holds only its floor (the task's targets). */
  unseen?: true;
  /** The function is private to its file (not exported; Python's leading underscore, Go's lower case). */
  private?: true;
  labels: Record<string, boolean | string>;
}

const num = (l: Language) => (l.id === "typescript" ? "n: number" : l.id === "go" ? "n int" : "n");
const testOf = (l: Language, s: { dir: string; name: string }, fn: string) => l.test(s.dir, s.name, fn, "1");

/**
 * The situations, each written for all three languages. Labels follow the criteria:
 * verification escalates for security-sensitive, public-API (documented behaviour, CLI flags, output
 * and file formats, configuration schemas, what the package's entry exposes) and cross-module
 * changes; tests searched for and not found are known to be none; callers are known only when read.
 */
const SITUATIONS: Situation[] = [
  {
    id: "session-expiry",
    note: "authentication: when a session token counts as expired",
    dir: "auth",
    name: "session",
    words: ["token", "expired"],
    params: num,
    expr: { default: "n > 3600 ? 1 : 0", python: "1 if n > 3600 else 0", go: "if n > 3600 {\n\t\treturn 1\n\t}\n\treturn 0" },
    task: (p, f) => `Change ${f} in ${p} so a token expires after 1800 seconds instead of 3600`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
  {
    id: "password-rounds",
    note: "cryptography: the number of hashing rounds for passwords",
    dir: "crypto",
    name: "hashing",
    words: ["hash", "rounds"],
    params: num,
    expr: "n * 10",
    task: (p, f) => `Make ${f} in ${p} use twice as many hashing rounds`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive", context_sufficient: true, continue_retrieval: false },
  },
  {
    id: "escape-html",
    note: "input sanitisation: what the HTML escaper replaces, in a module named for the web",
    dir: "web",
    name: "escape",
    words: ["escape", "width"],
    params: num,
    expr: "n + 5",
    task: (p, f) => `Change ${f} in ${p} so it escapes single quotes as well when sanitising HTML input`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "constant-time-compare",
    note: "a constant-time token comparison under a neutral path: security by what it does, not where it is",
    dir: "util",
    name: "compare",
    words: ["safe", "equal"],
    params: num,
    expr: { default: "n === 0 ? 1 : 0", python: "1 if n == 0 else 0", go: "if n == 0 {\n\t\treturn 1\n\t}\n\treturn 0" },
    task: (p, f) => `Make ${f} in ${p} return as soon as the first byte of the two API tokens differs`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "lexer-token",
    note: "a lexer's token kinds: 'token' names no secret; a local change with no tests",
    dir: "lexer",
    name: "token",
    words: ["token", "kind"],
    params: num,
    expr: "n % 4",
    task: (p, f) => `Change ${f} in ${p} to return 5 kinds instead of 4`,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
  {
    id: "keyboard-key",
    note: "a keyboard key's name: 'key' names no secret; a local change",
    dir: "ui",
    name: "keyboard",
    words: ["key", "code"],
    params: num,
    expr: "n + 32",
    task: (p, f) => `Change ${f} in ${p} to offset key codes by 64`,
    labels: { verification_escalation: false, risk_surface: "local_logic", semantic_navigation_required: false },
  },
  {
    id: "documented-default-named",
    note: "a default the README documents by its constant's name",
    dir: "config",
    name: "paging",
    words: ["page", "size"],
    params: num,
    expr: { default: "n || DEFAULT_PAGE_SIZE", python: "n or DEFAULT_PAGE_SIZE", go: "if n == 0 {\n\t\treturn DEFAULT_PAGE_SIZE\n\t}\n\treturn n" },
    constant: ["DEFAULT_PAGE_SIZE", "50"],
    extra: () => ({ "README.md": "# app\n\nLists are paged; `DEFAULT_PAGE_SIZE` (50) items a page unless a size is given.\n" }),
    task: (p) => `Change DEFAULT_PAGE_SIZE in ${p} to 100`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "documented-default-prose",
    note: "a default the README documents in prose, without naming the constant",
    dir: "server",
    name: "listen",
    words: ["listen", "port"],
    params: num,
    expr: { default: "n || PORT", python: "n or PORT", go: "if n == 0 {\n\t\treturn PORT\n\t}\n\treturn n" },
    constant: ["PORT", "8080"],
    extra: () => ({ "README.md": "# app\n\nThe server listens on port 8080 unless told otherwise.\n" }),
    task: (p) => `Change the default PORT in ${p} from 8080 to 3000`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "cli-flag-rename",
    note: "a command-line flag's name: a CLI flag is public API",
    dir: "cli",
    name: "flags",
    words: ["limit", "flag"],
    params: num,
    expr: { default: 'n > 0 ? "--limit" : ""', python: '"--limit" if n > 0 else ""', go: 'if n > 0 {\n\t\treturn len("--limit")\n\t}\n\treturn 0' },
    task: (p) => `Rename the --limit command-line flag in ${p} to --max`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "json-output-field",
    note: "a field of the JSON report a program reads: an output format",
    dir: "report",
    name: "summary",
    words: ["summary", "json"],
    params: num,
    expr: { default: '`{"total": ${n}}`.length', python: "len(f'{{\"total\": {n}}}')", go: 'len(fmt.Sprintf(`{"total": %d}`, n))' },
    task: (p) => `Rename the "total" field of the JSON report written in ${p} to "count"`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "config-key-rename",
    note: "a key of the user's configuration file: a configuration schema",
    dir: "settings",
    name: "load",
    words: ["retries", "setting"],
    params: num,
    expr: { default: 'n || "retries".length', python: 'n or len("retries")', go: 'if n == 0 {\n\t\treturn len("retries")\n\t}\n\treturn n' },
    task: (p) => `Rename the "retries" key of the configuration file read in ${p} to "max_retries"`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "package-entry",
    note: "a function the package's entry point exposes, its behaviour changed",
    dir: "lib",
    name: "round",
    words: ["round", "price"],
    params: num,
    expr: { default: "Math.round(n)", python: "round(n)", go: "n" },
    extra: (l, p, f) => l.entry(p, f),
    task: (p, f) => `Make ${f} in ${p} round half amounts down instead of up`,
    reads: (p, _f, _l, files) => [p, ...Object.keys(files).filter((x) => /index\.ts$|__init__\.py$/.test(x))],
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "local-tested-read",
    note: "a local helper with a test, both read before the edit",
    dir: "text",
    name: "pad",
    words: ["pad", "width"],
    params: num,
    expr: "n + 2",
    extra: (l, _p, f) => Object.fromEntries([testOf(l, { dir: "text", name: "pad" }, f)]),
    task: (p, f) => `Change ${f} in ${p} to pad by 4 instead of 2`,
    reads: (p, _f, _l, files) => [p, Object.keys(files).find((x) => /test/.test(x))!],
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
  {
    id: "local-tested-unread",
    note: "a local helper whose test exists and is not yet read",
    dir: "text",
    name: "trim",
    words: ["trim", "count"],
    params: num,
    expr: "n - 1",
    extra: (l, _p, f) => Object.fromEntries([testOf(l, { dir: "text", name: "trim" }, f)]),
    task: (p, f) => `Change ${f} in ${p} to subtract 2 instead of 1`,
    unseen: true,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: false, continue_retrieval: true, semantic_navigation_required: false },
  },
  {
    id: "comment-only",
    note: "a comment above the function: no behaviour changes",
    dir: "math",
    name: "scale",
    words: ["scale", "value"],
    params: num,
    expr: "n * 3",
    task: (p, f) => `Add a comment above ${f} in ${p} explaining why it multiplies by 3`,
    labels: { verification_escalation: false, risk_surface: "none", semantic_navigation_required: false },
  },
  {
    id: "readme-typo",
    note: "a typo in the README: documentation only",
    dir: "math",
    name: "sum",
    words: ["sum", "all"],
    params: num,
    expr: "n + n",
    extra: () => ({ "README.md": "# app\n\nThis library can recieve numbers and add them.\n" }),
    task: () => "Fix the typo 'recieve' in README.md",
    reads: () => ["README.md"],
    labels: { verification_escalation: false, risk_surface: "none", semantic_navigation_required: false, context_sufficient: true, continue_retrieval: false },
  },
  {
    id: "test-only",
    note: "a new test for an existing function: the function does not change",
    dir: "math",
    name: "clamp",
    words: ["clamp", "value"],
    params: num,
    expr: { default: "n > 10 ? 10 : n", python: "min(n, 10)", go: "min(n, 10)" },
    extra: (l, _p, f) => Object.fromEntries([testOf(l, { dir: "math", name: "clamp" }, f)]),
    task: (_p, f, l) => `Add a test for ${f} that checks values above 10 in ${testOf(l, { dir: "math", name: "clamp" }, f)[0]}`,
    reads: (p, _f, _l, files) => [p, Object.keys(files).find((x) => /test/.test(x))!],
    labels: { verification_escalation: false, semantic_navigation_required: false },
  },
  {
    id: "callers-unread",
    note: "a signature change of a function another module calls, that caller not read",
    dir: "money",
    name: "format",
    words: ["format", "amount"],
    params: num,
    expr: "n * 100",
    extra: (l, p, f) => Object.fromEntries([l.caller("billing", p, f, "2")]),
    task: (p, f) => `Change ${f} in ${p} to take the currency as a second parameter`,
    unseen: true,
    labels: { semantic_navigation_required: true, context_sufficient: false, continue_retrieval: false },
  },
  {
    id: "callers-read",
    note: "the same kind of signature change once the caller in the other module was read",
    dir: "money",
    name: "parse",
    words: ["parse", "amount"],
    params: num,
    expr: "n / 100",
    extra: (l, p, f) => Object.fromEntries([l.caller("billing", p, f, "2")]),
    task: (p, f) => `Change ${f} in ${p} to take the currency as a second parameter`,
    reads: (p, _f, _l, files) => [p, Object.keys(files).find((x) => /billing/.test(x))!],
    labels: { semantic_navigation_required: false, context_sufficient: true, continue_retrieval: false },
  },
  {
    id: "cross-module-move",
    note: "a constant moved from one module into another and used from both",
    dir: "net",
    name: "retry",
    words: ["retry", "delay"],
    params: num,
    expr: "n * DELAY",
    constant: ["DELAY", "250"],
    extra: (l) => ({ [l.path("jobs", "queue")]: l.module("queue", num(l), "n + 1") }),
    task: (p, _f, l) => `Move DELAY from ${p} into ${l.path("jobs", "queue")} and use it from both modules`,
    reads: (p, _f, l) => [p, l.path("jobs", "queue")],
    labels: { verification_escalation: true, risk_surface: "cross_module" },
  },
];

/**
 * Situations written after the first test split was read, as the second held-out split: labelled
 * here, committed, and only then built and scored once. Measured, they joined the dev split.
 */
const HELD_OUT: Situation[] = [
  {
    id: "bearer-prefix",
    note: "authentication under a neutral path: which Authorization headers a middleware accepts",
    dir: "http",
    name: "middleware",
    words: ["check", "bearer"],
    params: num,
    expr: "n + 7",
    task: (p, f) => `Make ${f} in ${p} accept tokens without the Bearer prefix`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "quote-ident",
    note: "input sanitisation: an SQL identifier quoter that would pass user input through",
    dir: "db",
    name: "query",
    words: ["quote", "ident"],
    params: num,
    expr: "n + 2",
    task: (p, f) => `Make ${f} in ${p} pass user input through without quoting it`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "session-ids",
    note: "secrets: session ids from a plain random generator instead of a cryptographic one",
    dir: "util",
    name: "ids",
    words: ["new", "id"],
    params: num,
    expr: "n * 31",
    task: (p, f) => `Make ${f} in ${p} use the plain random generator instead of the crypto one for session ids`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "env-variable",
    note: "the name of an environment variable the program reads: configuration others set",
    dir: "settings",
    name: "env",
    words: ["timeout", "seconds"],
    params: num,
    expr: "n",
    constant: ["TIMEOUT_VARIABLE", '"APP_TIMEOUT"'],
    task: (p) => `Rename the APP_TIMEOUT environment variable read in ${p} to APP_TIMEOUT_MS`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "http-status",
    note: "the status code an HTTP handler answers: a wire format clients depend on",
    dir: "api",
    name: "items",
    words: ["deleted", "status"],
    params: num,
    expr: { default: "n || DELETED_STATUS", python: "n or DELETED_STATUS", go: "if n == 0 {\n\t\treturn DELETED_STATUS\n\t}\n\treturn n" },
    constant: ["DELETED_STATUS", "404"],
    task: (p, f) => `Make ${f} in ${p} answer 410 instead of 404 for deleted items`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "timeout-documented",
    note: "a timeout the README states in prose",
    dir: "net",
    name: "client",
    words: ["request", "timeout"],
    params: num,
    expr: { default: "n || TIMEOUT", python: "n or TIMEOUT", go: "if n == 0 {\n\t\treturn TIMEOUT\n\t}\n\treturn n" },
    constant: ["TIMEOUT", "30"],
    extra: () => ({ "README.md": "# app\n\nRequests time out after 30 seconds.\n" }),
    task: (p) => `Change TIMEOUT in ${p} from 30 to 60 seconds`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "private-helper",
    note: "a helper private to its file, no tests: a local change",
    dir: "text",
    name: "wrap",
    words: ["wrap", "line"],
    params: num,
    expr: "n + 80",
    private: true,
    task: (p, f) => `Change ${f} in ${p} to wrap at 100 columns instead of 80`,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
  {
    id: "exported-unused",
    note: "an exported function no other file uses, outside any package entry, no tests",
    dir: "geo",
    name: "distance",
    words: ["distance", "km"],
    params: num,
    expr: "n * 1000",
    task: (p, f) => `Make ${f} in ${p} return miles instead of kilometres`,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
  {
    id: "two-modules-one-root",
    note: "a constant renamed in two modules under one source root",
    dir: "parser",
    name: "limits",
    words: ["depth", "of"],
    params: num,
    expr: "n + MAX_DEPTH",
    constant: ["MAX_DEPTH", "32"],
    extra: (l) => ({ [l.path("render", "html")]: l.module(l.id === "go" ? "render" : "html", num(l), "n + MAX_DEPTH", { constant: ["MAX_DEPTH", "32"] }).replace(/\bf\(/, `${l.fn(["nest", "level"])}(`) }),
    task: (p, _f, l) => `Rename MAX_DEPTH to DEPTH_LIMIT in ${p} and in ${l.path("render", "html")}`,
    reads: (p, _f, l) => [p, l.path("render", "html")],
    labels: { verification_escalation: true, risk_surface: "cross_module" },
  },
  {
    id: "tested-unseen",
    note: "a function whose only other user is its test, which is neither shown nor read",
    dir: "stats",
    name: "mean",
    words: ["mean", "value"],
    params: num,
    expr: "n / 2",
    extra: (l, _p, f) => Object.fromEntries([testOf(l, { dir: "stats", name: "mean" }, f)]),
    unseen: true,
    task: (p, f) => `Change ${f} in ${p} to round its result`,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: false, continue_retrieval: true, semantic_navigation_required: false },
  },
  {
    id: "doc-comment",
    note: "a doc comment for a parameter: documentation only",
    dir: "stats",
    name: "median",
    words: ["median", "value"],
    params: num,
    expr: "n + 0",
    task: (p, f) => `Document the parameter of ${f} in ${p} in a doc comment`,
    labels: { verification_escalation: false, risk_surface: "none", semantic_navigation_required: false },
  },
  {
    id: "changelog-entry",
    note: "a changelog entry that names a flag: documentation only",
    dir: "cli",
    name: "verbose",
    words: ["verbose", "level"],
    params: num,
    expr: "n + 1",
    extra: () => ({ "CHANGELOG.md": "# Changes\n\n## 1.2.0\n\n- faster start-up\n" }),
    task: () => "Add an entry for the new --verbose flag to CHANGELOG.md",
    reads: () => ["CHANGELOG.md"],
    labels: { verification_escalation: false, risk_surface: "none", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
];

/**
 * The second held-out split: real code under neutral paths and tasks, so what the code touches is
 * the only sign of its risk. Written, labelled and committed after HELD_OUT had been measured, and
 * before any rule that reads code was written.
 */
const HELD_OUT_CODE: Situation[] = [
  {
    id: "authorization-header",
    note: "authentication read from the code: the function compares the Authorization header",
    dir: "http",
    name: "gate",
    words: ["header", "matches"],
    source: {
      typescript: `export function FN(headers: Record<string, string>, expected: string): boolean {
  const value = headers["authorization"] ?? "";
  return value === \`Bearer \${expected}\`;
}
`,
      python: `def FN(headers, expected):
    value = headers.get("Authorization", "")
    return value == f"Bearer {expected}"
`,
      go: `package http

import "net/http"

func FN(r *http.Request, expected string) bool {
\treturn r.Header.Get("Authorization") == "Bearer "+expected
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} ignore the case of the scheme word`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "hmac-digest",
    note: "cryptography read from the code: an HMAC of a request body",
    dir: "util",
    name: "sign",
    words: ["body", "digest"],
    source: {
      typescript: `import { createHmac } from "node:crypto";

export function FN(body: string, key: string): string {
  return createHmac("sha256", key).update(body).digest("hex");
}
`,
      python: `import hashlib
import hmac


def FN(body, key):
    return hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()
`,
      go: `package util

import (
\t"crypto/hmac"
\t"crypto/sha256"
\t"encoding/hex"
)

func FN(body, key string) string {
\tm := hmac.New(sha256.New, []byte(key))
\tm.Write([]byte(body))
\treturn hex.EncodeToString(m.Sum(nil))
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} use SHA-512 instead of SHA-256`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "entity-replace",
    note: "input sanitisation read from the code: markup characters replaced by entities",
    dir: "view",
    name: "render",
    words: ["plain", "text"],
    source: {
      typescript: `export function FN(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
`,
      python: `def FN(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
`,
      go: `package view

import "strings"

func FN(text string) string {
\treturn strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(text)
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} also replace the double quote character`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "shell-argument",
    note: "input sanitisation read from the code: a file name quoted into a shell command line",
    dir: "tools",
    name: "listing",
    words: ["list", "file"],
    source: {
      typescript: `import { execSync } from "node:child_process";

export function FN(name: string): string {
  return execSync("ls -l '" + name.replaceAll("'", "'\\\\''") + "'").toString();
}
`,
      python: `import shlex
import subprocess


def FN(name):
    return subprocess.run("ls -l " + shlex.quote(name), shell=True, capture_output=True).stdout
`,
      go: `package tools

import (
\t"os/exec"
\t"strings"
)

func FN(name string) ([]byte, error) {
\treturn exec.Command("sh", "-c", "ls -l '"+strings.ReplaceAll(name, "'", "'\\\\''")+"'").Output()
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} stop quoting the file name`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "random-bytes",
    note: "secrets read from the code: a value from the system's cryptographic random source",
    dir: "util",
    name: "nonce",
    words: ["fresh", "value"],
    source: {
      typescript: `import { randomBytes } from "node:crypto";

export function FN(): string {
  return randomBytes(8).toString("hex");
}
`,
      python: `import secrets


def FN():
    return secrets.token_hex(8)
`,
      go: `package util

import (
\t"crypto/rand"
\t"encoding/hex"
)

func FN() string {
\tb := make([]byte, 8)
\trand.Read(b)
\treturn hex.EncodeToString(b)
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} return 32 characters instead of 16`,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "bucket-hash",
    note: "a hash for spreading keys over buckets: 'hash' and 'key' in code that guards nothing",
    dir: "cache",
    name: "bucket",
    words: ["bucket", "of"],
    source: {
      typescript: `export function FN(key: string): number {
  let hash = 0;
  for (const c of key) hash = (hash * 31 + c.charCodeAt(0)) % 1024;
  return hash % 32;
}
`,
      python: `def FN(key):
    h = 0
    for c in key:
        h = (h * 31 + ord(c)) % 1024
    return h % 32
`,
      go: `package cache

func FN(key string) int {
\th := 0
\tfor _, c := range key {
\t\th = (h*31 + int(c)) % 1024
\t}
\treturn h % 32
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} spread keys over 64 buckets instead of 32`,
    labels: { verification_escalation: false, risk_surface: "local_logic" },
  },
  {
    id: "random-colour",
    note: "a plain random choice of a display colour: randomness that is no secret",
    dir: "ui",
    name: "palette",
    words: ["pick", "colour"],
    source: {
      typescript: `const COLOURS = ["red", "green", "blue"];

export function FN(): string {
  return COLOURS[Math.floor(Math.random() * COLOURS.length)]!;
}
`,
      python: `import random

COLOURS = ["red", "green", "blue"]


def FN():
    return random.choice(COLOURS)
`,
      go: `package ui

import "math/rand"

var colours = []string{"red", "green", "blue"}

func FN() string {
\treturn colours[rand.Intn(len(colours))]
}
`,
    },
    task: (p, f) => `Add yellow to the colours ${f} in ${p} picks from`,
    labels: { verification_escalation: false, risk_surface: "local_logic" },
  },
  {
    id: "greeting-beside-check",
    note: "a greeting in a file that also holds an authorization check: security code only beside the change",
    dir: "http",
    name: "welcome",
    words: ["greeting", "for"],
    source: {
      typescript: `export function FN(name: string): string {
  return \`Hello, \${name}\`;
}

export function allowed(headers: Record<string, string>, expected: string): boolean {
  return headers["authorization"] === \`Bearer \${expected}\`;
}
`,
      python: `def FN(name):
    return f"Hello, {name}"


def allowed(headers, expected):
    return headers.get("Authorization") == f"Bearer {expected}"
`,
      go: `package http

import "net/http"

func FN(name string) string {
\treturn "Hello, " + name
}

func Allowed(r *http.Request, expected string) bool {
\treturn r.Header.Get("Authorization") == "Bearer "+expected
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} greet with Hi instead of Hello`,
    labels: { verification_escalation: false, risk_surface: "local_logic" },
  },
  {
    id: "environment-name",
    note: "an environment variable's name, given unquoted in the task: configuration others set",
    dir: "config",
    name: "env",
    words: ["listen", "port"],
    source: {
      typescript: `export function FN(): number {
  return Number(process.env["APP_PORT"] ?? "8080");
}
`,
      python: `import os


def FN():
    return int(os.environ.get("APP_PORT", "8080"))
`,
      go: `package config

import (
\t"os"
\t"strconv"
)

func FN() int {
\tn, err := strconv.Atoi(os.Getenv("APP_PORT"))
\tif err != nil {
\t\treturn 8080
\t}
\treturn n
}
`,
    },
    task: (p, f) => `Rename the APP_PORT environment variable that ${f} in ${p} reads to APP_LISTEN_PORT`,
    labels: { verification_escalation: true, risk_surface: "public_api" },
  },
  {
    id: "indent-width",
    note: "a local helper in real code with nothing around it: a local change",
    dir: "text",
    name: "indent",
    words: ["indent", "line"],
    source: {
      typescript: `export function FN(line: string): string {
  return "  " + line;
}
`,
      python: `def FN(line):
    return "  " + line
`,
      go: `package text

func FN(line string) string {
\treturn "  " + line
}
`,
    },
    task: (p, f) => `Make ${f} in ${p} indent by four spaces instead of two`,
    labels: { verification_escalation: false, risk_surface: "local_logic", context_sufficient: true, continue_retrieval: false, semantic_navigation_required: false },
  },
];

const LANGS = [TS, PY, GO];

/** A situation's module of one function returning its expression. */
function expressionModule(l: Language, s: Situation, fn: string): string {
  const expr = s.expr ?? "0";
  const body = typeof expr === "string" ? expr : (expr[l.id as "go"] ?? expr.default);
  const options = { ...(s.constant ? { constant: s.constant } : {}), ...(s.private ? { exported: false } : {}) };
  return l.module(l.id === "go" ? s.dir : s.name, (s.params ?? num)(l), body, options).replace(/\b_?f\(/, `${fn}(`);
}

/** One situation in one language: the repository, the task, the reads before the edit. A Go package is named by its directory. */
function build(l: Language, s: Situation): Scenario & { split: "dev" | "test" } {
  const path = l.id === "go" && s.id === "package-entry" ? `pkg/${s.dir}/${s.name}.go` : l.path(s.dir, s.name);
  const named = l.fn(s.words);
  const fn = !s.private ? named : l.id === "python" ? `_${named}` : l.id === "go" ? camel(s.words) : named;
  const module = s.source ? s.source[l.id as "go"].replaceAll("FN", fn) : expressionModule(l, s, fn);
  const files: Record<string, string> = { ...l.base, [path]: module, ...(s.extra?.(l, path, fn) ?? {}) };
  const reads = s.reads?.(path, fn, l, files) ?? [path];
  const turns: ScriptedTurn[] = reads.map((p, i) => read(`r${i + 1}`, p));
  const flags = s.unseen ? ["--budget", "1"] : [];
  return { id: `${l.id}-${s.id}`, language: l.id, note: s.note, files, task: s.task(path, fn, l), turns, flags, pick: reads.length, labels: s.labels, split: "dev" };
}

/**
 * Every situation in every language. SITUATIONS and HELD_OUT are the dev split (each was a test split
 * once, measured and then spent); HELD_OUT_CODE is the test split.
 */
export const PRE_EDIT: (Scenario & { split: "dev" | "test" })[] = LANGS.flatMap((l) => [
  ...SITUATIONS.map((s) => build(l, s)),
  ...HELD_OUT.map((s) => build(l, s)),
  ...HELD_OUT_CODE.map((s) => ({ ...build(l, s), split: "test" as const })),
]);
