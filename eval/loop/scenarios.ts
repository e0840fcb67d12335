/**
 * Decision cases whose states the loop's own state builder produces: small real repositories in
 * four languages (and Rust), a task, and the turns of a scripted model. Each names which recorded
 * decision of its run becomes a case and the labels a reader of weir.agent_context@4's criteria
 * gives that state; questions a scenario does not settle stay unlabelled. Shared by the suite's
 * builder (./build.ts) and the end-to-end scenarios (test/e2e/plan-before-edit.test.ts).
 */

/** A model turn: text, or tool calls with their input. */
export type ScriptedTurn = { text: string } | { toolCalls: { id: string; name: string; input: Record<string, unknown> }[] };

export const read = (id: string, path: string): ScriptedTurn => ({ toolCalls: [{ id, name: "read_file", input: { path } }] });
export const edit = (id: string, path: string, old_string: string, new_string: string): ScriptedTurn => ({ toolCalls: [{ id, name: "edit_file", input: { path, old_string, new_string } }] });
export const references = (id: string, symbol: string): ScriptedTurn => ({ toolCalls: [{ id, name: "find_references", input: { symbol } }] });
export const run = (id: string, program: string, args: string[]): ScriptedTurn => ({ toolCalls: [{ id, name: "run_command", input: { program, args } }] });
export const write = (id: string, path: string, content: string): ScriptedTurn => ({ toolCalls: [{ id, name: "write_file", input: { path, content } }] });

/** A repository per language: a target with a symbol other files reach, and two caller files that use it. */
export interface Language {
  files: Record<string, string>;
  target: string;
  symbol: string;
  callers: string[];
  /** A declaration change of the symbol: the text before and after. */
  old: string;
  new: string;
}

export const LANGUAGES: Record<string, Language> = {
  typescript: {
    files: {
      "src/keys.ts": "export function encodeKey(k: string, upper: boolean): string {\n  return upper ? k.toUpperCase() : k;\n}\n",
      "src/store.ts": 'import { encodeKey } from "./keys.ts";\nexport const put = (k: string) => encodeKey(k, true);\n',
      "src/cli/main.ts": 'import { encodeKey } from "../keys.ts";\nconsole.log(encodeKey(process.argv[2] ?? "", false));\n',
      "README.md": "# keys\n",
    },
    target: "src/keys.ts",
    symbol: "encodeKey",
    callers: ["src/store.ts", "src/cli/main.ts"],
    old: "k: string, upper: boolean",
    new: "k: string, o: { upper: boolean }",
  },
  python: {
    files: {
      "pkg/keys.py": "def encode_key(k, upper):\n    return k.upper() if upper else k\n",
      "pkg/store.py": "from .keys import encode_key\n\ndef put(k):\n    return encode_key(k, True)\n",
      "app.py": "from pkg.keys import encode_key\n\nprint(encode_key('a', False))\n",
      "pkg/__init__.py": "",
    },
    target: "pkg/keys.py",
    symbol: "encode_key",
    callers: ["pkg/store.py", "app.py"],
    old: "def encode_key(k, upper):",
    new: "def encode_key(k, *, upper=False):",
  },
  go: {
    files: {
      "go.mod": "module example.com/kv\n\ngo 1.22\n",
      "keys/keys.go": 'package keys\n\nimport "strings"\n\nfunc EncodeKey(k string, upper bool) string {\n\tif upper {\n\t\treturn strings.ToUpper(k)\n\t}\n\treturn k\n}\n',
      "keys/batch.go": "package keys\n\nfunc EncodeAll(ks []string) []string {\n\tout := []string{}\n\tfor _, k := range ks {\n\t\tout = append(out, EncodeKey(k, false))\n\t}\n\treturn out\n}\n",
      "main.go": 'package main\n\nimport "example.com/kv/keys"\n\nfunc main() { println(keys.EncodeKey("a", true)) }\n',
    },
    target: "keys/keys.go",
    symbol: "EncodeKey",
    callers: ["keys/batch.go", "main.go"],
    old: "k string, upper bool",
    new: "k string, o Options",
  },
  java: {
    files: {
      "src/main/java/com/acme/kv/Keys.java": "package com.acme.kv;\n\npublic class Keys {\n  public static String encodeKey(String k, boolean upper) {\n    return upper ? k.toUpperCase() : k;\n  }\n}\n",
      "src/main/java/com/acme/kv/Store.java": "package com.acme.kv;\n\nclass Store {\n  String put(String k) { return Keys.encodeKey(k, true); }\n}\n",
      "src/main/java/com/acme/app/Main.java": 'package com.acme.app;\n\nimport com.acme.kv.Keys;\n\npublic class Main {\n  public static void main(String[] a) { System.out.println(Keys.encodeKey("a", false)); }\n}\n',
    },
    target: "src/main/java/com/acme/kv/Keys.java",
    symbol: "encodeKey",
    callers: ["src/main/java/com/acme/kv/Store.java", "src/main/java/com/acme/app/Main.java"],
    old: "String k, boolean upper",
    new: "String k, Options o",
  },
  rust: {
    files: {
      "Cargo.toml": '[package]\nname = "kv"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/keys.rs": "pub fn encode_key(k: &str, upper: bool) -> String {\n    if upper { k.to_uppercase() } else { k.to_string() }\n}\n",
      "src/store.rs": "use crate::keys::encode_key;\n\npub fn put(k: &str) -> String {\n    encode_key(k, true)\n}\n",
      "src/main.rs": 'mod keys;\nmod store;\n\nfn main() {\n    println!("{}", keys::encode_key("a", false));\n}\n',
    },
    target: "src/keys.rs",
    symbol: "encode_key",
    callers: ["src/store.rs", "src/main.rs"],
    old: "k: &str, upper: bool",
    new: "k: &str, o: Options",
  },
};

export type Label = boolean | string;

export interface Scenario {
  id: string;
  language: string;
  /** What the case is, in a sentence (the case's note). */
  note: string;
  files: Record<string, string>;
  /** Files changed after the commit: uncommitted changes weir did not make. */
  dirty?: Record<string, string>;
  task: string;
  turns: ScriptedTurn[];
  flags?: string[];
  /** The recorded decision that becomes the case: its index, the last, or the one on a proposed edit. */
  pick: number | "last" | "proposal";
  labels: Record<string, Label>;
}

/** The smallest working set holds only its floor (the task's targets), not the callers. */
const FLOOR_ONLY = ["--budget", "1"];

function perLanguage(lang: string, L: Language): Scenario[] {
  const change = `Change ${L.symbol} in ${L.target} to take an options object instead of the upper flag`;
  const base = { language: lang, files: L.files };
  return [
    {
      ...base,
      id: `${lang}-callers-unread`,
      note: "a declaration change of a symbol other files call, before any edit, its callers outside the working set",
      task: change,
      turns: [read("r1", L.target)],
      flags: FLOOR_ONLY,
      pick: 0,
      labels: { semantic_navigation_required: true, context_sufficient: false },
    },
    {
      ...base,
      id: `${lang}-callers-read`,
      note: "the same change once the target and both caller files were read, before the edit",
      task: change,
      turns: [read("r1", L.target), read("r2", L.callers[0]!), read("r3", L.callers[1]!)],
      flags: FLOOR_ONLY,
      pick: "last",
      labels: { semantic_navigation_required: false },
    },
    {
      ...base,
      id: `${lang}-callers-in-working-set`,
      note: "the same change with a working set that showed the caller files whole, first decision",
      task: change,
      turns: [],
      pick: 0,
      labels: { semantic_navigation_required: false },
    },
    {
      ...base,
      id: `${lang}-proposed-signature`,
      note: "the model proposes the declaration change while the callers are unread: the decision on the proposed edit",
      task: change,
      turns: [read("r1", L.target), edit("e1", L.target, L.old, L.new)],
      flags: FLOOR_ONLY,
      pick: "proposal",
      labels: { semantic_navigation_required: true, context_sufficient: false },
    },
    {
      ...base,
      id: `${lang}-comment-only`,
      note: "a task that writes a comment above the symbol: prose, no behaviour change",
      task: `Explain in a comment above ${L.symbol} in ${L.target} what it returns`,
      turns: [read("r1", L.target)],
      flags: FLOOR_ONLY,
      pick: 0,
      labels: { semantic_navigation_required: false, verification_escalation: false, risk_surface: "none" },
    },
    {
      ...base,
      id: `${lang}-question`,
      note: "a question about the symbol, answered once the target is read",
      task: `What does ${L.symbol} in ${L.target} return?`,
      turns: [read("r1", L.target)],
      flags: FLOOR_ONLY,
      pick: "last",
      labels: { context_sufficient: true, semantic_navigation_required: false, verification_escalation: false, next_action: "answer", risk_surface: "none" },
    },
  ];
}

/** An uncommitted change larger than a file the floor shows (64 KB), whose diff is longer than the working set shows (40,000 characters). */
const BIG = {
  before: Array.from({ length: 3000 }, (_, i) => `line ${i} of the data`).join("\n") + "\n",
  after: Array.from({ length: 3000 }, (_, i) => `row ${i} of the data, changed`).join("\n") + "\n",
};

const TS = LANGUAGES.typescript!;
/** The TypeScript target with an uncommitted change weir did not make. */
const KEYS_CHANGED = { "src/keys.ts": "export function encodeKey(k: string, upper: boolean): string {\n  return upper ? k.toUpperCase() : k.toLowerCase();\n}\n" };
/** A Python package of one function, and no tests. */
const SLUG = { "pkg/__init__.py": "", "pkg/util.py": "def slug(s):\n    return s.lower()\n" };

export const SCENARIOS: Scenario[] = [
  ...Object.entries(LANGUAGES).flatMap(([lang, L]) => perLanguage(lang, L)),
  {
    id: "go-package-scope",
    language: "go",
    note: "a lower-case Go function another file of its package calls, before the edit",
    files: {
      "go.mod": "module example.com/kv\n\ngo 1.22\n",
      "keys/keys.go": "package keys\n\nfunc encodeKey(k string, upper bool) string { return k }\n",
      "keys/batch.go": "package keys\n\nfunc all(ks []string) string { return encodeKey(ks[0], false) }\n",
    },
    task: "Change encodeKey in keys/keys.go to drop the upper flag",
    turns: [],
    flags: FLOOR_ONLY,
    pick: 0,
    labels: { semantic_navigation_required: true, context_sufficient: false },
  },
  {
    id: "python-underscore-imported",
    language: "python",
    note: "an underscored Python helper another module imports, before the edit",
    files: { "pkg/__init__.py": "", "pkg/keys.py": "def _encode(k):\n    return k\n", "pkg/store.py": "from .keys import _encode\n\nv = _encode('a')\n" },
    task: "Change _encode in pkg/keys.py to strip whitespace",
    turns: [],
    flags: FLOOR_ONLY,
    pick: 0,
    labels: { semantic_navigation_required: true, context_sufficient: false },
  },
  ...(["before", "after"] as const).map(
    (when): Scenario => ({
      id: `rust-pub-crate-${when}-references`,
      language: "rust",
      note: `a Rust pub(crate) function called from main.rs, ${when} find_references ran`,
      files: {
        "Cargo.toml": '[package]\nname = "kv"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/keys.rs": "pub(crate) fn encode_key(k: &str, upper: bool) -> String {\n    k.to_string()\n}\n",
        "src/main.rs": 'mod keys;\nfn main() {\n    println!("{}", keys::encode_key("a", true));\n}\n',
      },
      task: "Change encode_key in src/keys.rs to drop the upper flag",
      turns: [references("f1", "encode_key")],
      // Rust's callers are now resolved like the other languages': the caller stays out of the
      // working set, so before find_references it is found, not seen.
      flags: FLOOR_ONLY,
      pick: when === "before" ? 0 : 1,
      labels: { semantic_navigation_required: when === "before" },
    }),
  ),
  {
    id: "typescript-auth-planned",
    language: "typescript",
    note: "a change planned in an auth module, before any edit",
    files: { "src/auth/session.ts": "export function expiry(): number {\n  return 3600;\n}\n" },
    task: "Make expiry in src/auth/session.ts return 1800",
    turns: [],
    pick: 0,
    labels: { verification_escalation: true, risk_surface: "security_sensitive" },
  },
  {
    id: "typescript-cross-module-planned",
    language: "typescript",
    note: "one constant changed in two top-level directories, before any edit",
    files: { "server/limits.ts": "export const LIMIT = 10;\n", "client/limits.ts": "export const LIMIT = 10;\n" },
    task: "Raise LIMIT to 20 in server/limits.ts and client/limits.ts",
    turns: [],
    pick: 0,
    labels: { verification_escalation: true, risk_surface: "cross_module" },
  },
  {
    id: "markdown-readme-only",
    language: "markdown",
    note: "a README section to write: prose only",
    files: { "README.md": "# kv\n", "src/keys.ts": "export const k = 1;\n" },
    task: "Add an install section to README.md",
    turns: [],
    pick: 0,
    labels: { semantic_navigation_required: false, verification_escalation: false, risk_surface: "none" },
  },
  ...(["before", "after"] as const).map(
    (when): Scenario => ({
      id: `typescript-who-calls-${when}-references`,
      language: "typescript",
      note: `a question whose answer is a set of callers, ${when} find_references ran`,
      files: TS.files,
      task: "who calls encodeKey?",
      turns: [references("f1", "encodeKey")],
      pick: when === "before" ? 0 : 1,
      labels: when === "before" ? { semantic_navigation_required: true, next_action: "semantic_navigation" } : { semantic_navigation_required: false, next_action: "answer" },
    }),
  ),
  {
    id: "typescript-question-dirty-file",
    language: "typescript",
    note: "a question about a file with uncommitted changes weir did not make, once it is read",
    files: TS.files,
    dirty: { "src/keys.ts": "export function encodeKey(k: string): string {\n  return k;\n}\n" },
    task: "What does encodeKey in src/keys.ts return?",
    turns: [read("r1", "src/keys.ts")],
    pick: "last",
    labels: { next_action: "answer", verification_escalation: false },
  },
  // @4: a dirty target whose changes were shown is reviewed; tests searched for and not found are
  // none; a workspace with no files has nothing to read.
  {
    id: "typescript-dirty-diff-shown",
    language: "typescript",
    note: "a change to a target with uncommitted changes weir did not make, whose diff the working set showed whole, first decision",
    files: TS.files,
    dirty: KEYS_CHANGED,
    task: "Make encodeKey in src/keys.ts trim k first",
    turns: [],
    pick: 0,
    labels: { next_action: "edit_then_verify", context_sufficient: true },
  },
  ...(["before", "after"] as const).map(
    (when): Scenario => ({
      id: `typescript-dirty-diff-cut-${when}-git-diff`,
      language: "typescript",
      note: `a change to a dirty target whose diff a larger uncommitted change pushed out of the working set, ${when} the model ran git diff on it`,
      files: { ...TS.files, "data/big.txt": BIG.before },
      dirty: { ...KEYS_CHANGED, "data/big.txt": BIG.after },
      task: "Make encodeKey in src/keys.ts trim k first",
      turns: [run("g1", "git", ["diff", "--", "src/keys.ts"])],
      // The budget counts the floor: room for the callers beside the large diff, as a person would give.
      flags: ["--budget", "16000"],
      pick: when === "before" ? 0 : 1,
      labels: when === "before" ? { next_action: "review_worktree", continue_retrieval: false } : { next_action: "edit_then_verify", context_sufficient: true },
    }),
  ),
  {
    id: "python-no-tests-anywhere",
    language: "python",
    note: "a behaviour change in a project with no test files, the target shown whole, first decision",
    files: SLUG,
    task: "Make slug in pkg/util.py replace spaces with dashes",
    turns: [],
    pick: 0,
    labels: { context_sufficient: true, continue_retrieval: false, next_action: "edit_then_verify" },
  },
  {
    id: "python-mapped-test-unread",
    language: "python",
    note: "the same change where a test of the target exists and the smallest working set left it unread",
    files: { ...SLUG, "tests/test_util.py": "from pkg.util import slug\n\ndef test_slug():\n    assert slug('A') == 'a'\n" },
    task: "Make slug in pkg/util.py replace spaces with dashes",
    turns: [],
    flags: FLOOR_ONLY,
    pick: 0,
    labels: { context_sufficient: false, continue_retrieval: true, next_action: "retrieve" },
  },
  ...(["before", "after"] as const).map(
    (when): Scenario => ({
      id: `python-empty-workspace-${when}-write`,
      language: "python",
      note: `a new script asked for in a repository that holds no files, ${when} the model wrote it`,
      files: {},
      task: "Create hello.py that prints hello",
      turns: [write("w1", "hello.py", "print('hello')\n")],
      pick: when === "before" ? 0 : 1,
      labels: { context_sufficient: true, continue_retrieval: false, next_action: "edit_then_verify" },
    }),
  ),
];

