import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { resolveCallers } from "../../src/context/callers.ts";
import { indexedCallers, indexedImporters, refreshSymbols } from "../../src/context/definitions.ts";
import { importKeys, moduleKeys } from "../../src/context/import-graph.ts";
import { outline } from "../../src/context/outline.ts";
import { SymbolIndex } from "../../src/store/symbol-index.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The import graph may only narrow: a caller search over the files the index leaves finds exactly
 * the callers a search reading every file finds. Checked on generated repositories whose importers
 * use each form of import the parser reads (aliases, groups over several lines, continuations,
 * re-exports, CommonJS, index modules, packages, `super`), with comments and noise between, and on
 * weir's own source.
 */
const tmp = tempDir();
afterAll(() => tmp.cleanup());
let runs = 0;

type Lang = "ts" | "python" | "go" | "java" | "rust" | "php";

/** Each language's target, the name it defines, and importer forms: a path and a text that uses `USE` where the name goes. */
const LANGS: Record<Lang, { target: string; text: string; name: string; forms: [string, string][] }> = {
  ts: {
    target: "src/keys/index.ts",
    text: "export function encodeKey(k: string) {\n  return k;\n}\n",
    name: "encodeKey",
    forms: [
      ["src/app/a.ts", 'import { encodeKey } from "../keys";\nexport const v = USE;\n'],
      ["src/app/b.ts", "import {\n  // the key\n  encodeKey,\n} from '../keys/index.js';\nexport const v = USE;\n"],
      ["src/c.ts", 'export { encodeKey } from "./keys";\nconst v = USE;\n'],
      ["src/app/d.js", 'const keys = require( "../keys" );\nmodule.exports = () => USE;\n'],
      ["src/keys/e.ts", 'import type { T } from "./index.ts";\nexport const v = USE;\n'],
      ["src/app/f.ts", 'import "../keys/other";\nexport const v = USE;\n'],
      ["src/app/g.ts", 'const m = await import("../keys");\nexport const v = USE;\n'],
      ["src/app/h.tsx", 'import { encodeKey } from "keys";\nexport const v = USE;\n'],
    ],
  },
  python: {
    target: "src/pkg/keys.py",
    text: "def encode_key(k):\n    return k\n",
    name: "encode_key",
    forms: [
      ["app/a.py", "import pkg.keys as k\n\nv = USE\n"],
      ["app/b.py", "from pkg import (\n    other,  # first\n    keys,\n)\n\nv = USE\n"],
      ["src/pkg/c.py", "from . import keys\nv = USE\n"],
      ["src/pkg/sub/d.py", "from ..keys import \\\n    encode_key\nv = USE\n"],
      ["app/e.py", "import os; import pkg.keys\nv = USE\n"],
      ["app/f.py", "def g():\n    from pkg.keys import encode_key\n    return USE\n"],
      ["app/g.py", "from pkg import other\nv = USE\n"],
      ["app/h.py", "import pkg.keyring\nv = USE\n"],
    ],
  },
  go: {
    target: "internal/keys/keys.go",
    text: "package keys\n\nfunc EncodeKey(k string) string { return k }\n",
    name: "EncodeKey",
    forms: [
      ["cmd/a.go", 'package main\n\nimport "example.com/m/internal/keys"\n\nfunc A() { USE }\n'],
      ["cmd/b.go", 'package main\n\nimport (\n\t"fmt" // printing (see fmt)\n\tk "example.com/m/internal/keys"\n)\n\nfunc B() { USE }\n'],
      ["internal/keys/c.go", "package keys\n\nfunc C() { USE }\n"],
      ["cmd/d.go", 'package main\n\nimport "example.com/m/internal/other"\n\nfunc D() { USE }\n'],
      ["cmd/e.go", 'package main\n\nimport . "example.com/m/internal/keys"\n\nvar s = "keys"\n\nfunc E() { USE }\n'],
    ],
  },
  java: {
    target: "src/main/java/com/acme/kv/Keys.java",
    text: "package com.acme.kv;\n\npublic class Keys {\n  public static String encodeKey(String k) { return k; }\n}\n",
    name: "encodeKey",
    forms: [
      ["src/main/java/com/acme/app/A.java", "package com.acme.app;\nimport com.acme.kv.Keys;\nclass A { String v() { return USE; } }\n"],
      ["src/main/java/com/acme/app/B.java", "package com.acme.app;\nimport static com.acme.kv.Keys.encodeKey;\nclass B { String v() { return USE; } }\n"],
      ["src/main/java/com/acme/app/C.java", "package com.acme.app;\nimport com.acme.kv.*;\nclass C { String v() { return USE; } }\n"],
      ["src/main/java/com/acme/kv/D.java", "package com.acme.kv;\nclass D { String v() { return USE; } }\n"],
      ["src/main/java/com/acme/app/E.java", "package com.acme.app;\nimport com.acme.other.Keys;\nclass E { String v() { return USE; } }\n"],
    ],
  },
  rust: {
    target: "src/lexer/token.rs",
    text: "pub fn lex(s: &str) -> usize { s.len() }\n",
    name: "lex",
    forms: [
      ["src/lexer/mod.rs", "pub mod token;\npub fn run(s: &str) -> usize { USE }\n"],
      ["src/parser.rs", "use crate::lexer::{\n    token::{lex, Token},\n    other,\n};\npub fn parse(s: &str) -> usize { USE }\n"],
      ["src/lexer/other.rs", "use super::token;\npub fn again(s: &str) -> usize { USE }\n"],
      ["src/lexer/token/sub.rs", "use super::*;\npub fn deeper(s: &str) -> usize { USE }\n"],
      ["src/full.rs", "pub fn f(s: &str) -> usize { crate::lexer::token::lex(s) + USE }\n"],
      ["src/unrelated.rs", "pub fn lex(s: &str) -> usize { 0 }\npub fn g() -> usize { USE }\n"],
    ],
  },
  php: {
    target: "src/Models/User.php",
    text: "<?php\nnamespace App\\Models;\n\nclass User {\n  public static function find($id) { return $id; }\n}\n",
    name: "User",
    forms: [
      ["src/Http/A.php", "<?php\nnamespace App\\Http;\n\nuse App\\Models\\User;\n\nfunction a() { return USE; }\n"],
      ["src/Http/B.php", "<?php\nnamespace App\\Http;\n\nuse App\\Models\\{\n    Post,\n    User as Person,\n};\n\nfunction b() { return USE; }\n"],
      ["src/Models/C.php", "<?php\nnamespace App\\Models;\n\nfunction c() { return USE; }\n"],
      ["src/Http/D.php", "<?php\nnamespace App\\Http;\n\nfunction d() { return \\App\\Models\\USE; }\n"],
      ["src/Http/E.php", "<?php\nnamespace App\\Http;\n\nuse App\\Models;\n\nfunction e() { return Models\\USE; }\n"],
      ["src/Other/F.php", "<?php\nnamespace App\\Other;\n\nuse App\\Legacy\\User;\n\nfunction f() { return USE; }\n"],
      ["src/Http/G.php", "<?php\nnamespace App\\Http;\n\nuse app\\models\\USER;\n\nfunction g() { return USE; }\n"],
      ["src/Http/H.php", "<?php use App\\Models\\{ // the models\n  /* first */ Post,\n  # then\n  User,\n};\nfunction h() { return USE; }\n"],
      ["src/Http/I.php", "<?php\nnamespace App\\Http;\nuse function App\\Models\\helper, App\\Models\\User as U;\nfunction i() { return USE; }\n"],
    ],
  },
};

/** Writes a repository of the target and the chosen forms, each using the name or not, and indexes it. */
function repository(lang: Lang, chosen: { form: number; uses: boolean; noise: string }[]): { root: string; files: string[] } {
  const root = join(tmp.path, `repo${runs++}`);
  const spec = LANGS[lang];
  const files = new Map<string, string>([[spec.target, spec.text]]);
  for (const c of chosen) {
    const [path, text] = spec.forms[c.form % spec.forms.length]!;
    const call = lang === "php" ? `${spec.name}::find(1)` : lang === "python" || lang === "ts" ? `${spec.name}("a")` : `${spec.name}(s)`;
    const use = c.uses ? call : "nothing()";
    files.set(path, `${c.noise}${text.replace("USE", use)}`);
  }
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, files: [...files.keys()] };
}

/** The callers found reading every file, and those found reading only what the index's graph leaves. */
async function bothWays(root: string, target: string, names: string[], files: string[]) {
  const read = (rel: string) => {
    try {
      return readFileSync(join(root, rel), "utf8");
    } catch {
      return undefined;
    }
  };
  const index = SymbolIndex.open(join(root, "..", `${root.split("/").pop()}.db`));
  try {
    refreshSymbols(root, index);
    const every = await resolveCallers(target, names, files, read);
    let narrowed: ReadonlySet<string> | undefined;
    const graph = await resolveCallers(target, names, files, read, () => (narrowed = indexedCallers(root, index, target, names, files)));
    return { every, graph, narrowed: narrowed! };
  } finally {
    index.close();
  }
}

const noise = fc.constantFrom("", "// from the old days\n", "/* import nothing */\n", "\n\n");
const chosen = fc.array(fc.record({ form: fc.nat(20), uses: fc.boolean(), noise }), { minLength: 1, maxLength: 6 });

describe("the import graph narrows a caller search and never changes what it finds", () => {
  test.each(Object.keys(LANGS) as Lang[])("property (%s): callers through the graph equal callers reading every file", async (lang) => {
    await fc.assert(
      fc.asyncProperty(chosen, async (c) => {
        // Python's comments start with #; the other languages read // and /* */.
        const picks = c.map((x) => ({ ...x, noise: lang === "python" ? x.noise.replace(/\/\/|\/\*|\*\//g, "#") : x.noise }));
        const { root, files } = repository(lang, picks);
        const name = LANGS[lang].name;
        const { every, graph, narrowed } = await bothWays(root, LANGS[lang].target, [name], files);
        expect(graph?.get(name)?.sort()).toEqual(every?.get(name)?.sort());
        // It narrows: a file with no import, outside the target's package, is not read.
        const target = LANGS[lang].target;
        const inPackage = (f: string) => /\.(?:go|java)$/.test(f) && dirname(f) === dirname(target);
        const importless = files.filter((f) => f !== target && !inPackage(f) && !importKeys(f, readFileSync(join(root, f), "utf8")).length);
        for (const f of importless) expect(narrowed.has(f)).toBe(false);
        rmSync(root, { recursive: true, force: true });
      }),
      { numRuns: 25 },
    );
  });

  test("every form that reaches its target holds one of the target's keys", async () => {
    for (const [lang, spec] of Object.entries(LANGS)) {
      const { root, files } = repository(lang as Lang, spec.forms.map((_, form) => ({ form, uses: true, noise: "" })));
      const { every } = await bothWays(root, spec.target, [spec.name], files);
      const keys = new Set(moduleKeys(spec.target, spec.text));
      for (const caller of every?.get(spec.name) ?? []) {
        const samePackage = /\.(?:go|java)$/.test(caller) && dirname(caller) === dirname(spec.target);
        const held = importKeys(caller, readFileSync(join(root, caller), "utf8")).some((k) => keys.has(k));
        expect({ caller, reached: samePackage || held }).toEqual({ caller, reached: true });
      }
      expect((every?.get(spec.name) ?? []).length).toBeGreaterThan(1);
    }
  });

  test("a Java name with a `$` is one key: `$Gson$Types` is imported as itself", () => {
    const keys = importKeys("src/com/g/A.java", "import com.g.internal.$Gson$Types;\nimport static com.g.internal.$Gson$Preconditions.check;\n");
    expect(keys).toEqual(expect.arrayContaining(["$Gson$Types", "$Gson$Preconditions"]));
    expect(moduleKeys("src/com/g/internal/$Gson$Types.java")).toContain("$Gson$Types");
  });

  test("a file read again after its imports changed is read by the search; one whose imports went away is not", async () => {
    const { root, files } = repository("ts", [{ form: 0, uses: true, noise: "" }]);
    const index = SymbolIndex.open(join(tmp.path, "changed.db"));
    refreshSymbols(root, index);
    const caller = "src/app/a.ts";
    expect(indexedCallers(root, index, "src/keys/index.ts", ["encodeKey"], files).has(caller)).toBe(true);
    // Changed since it was indexed: nothing the index holds of it is used, so it is read.
    writeFileSync(join(root, caller), "export const v = encodeKey();\n// now no import at all\n");
    expect(indexedCallers(root, index, "src/keys/index.ts", ["encodeKey"], files).has(caller)).toBe(true);
    refreshSymbols(root, index);
    expect(indexedCallers(root, index, "src/keys/index.ts", ["encodeKey"], files).has(caller)).toBe(false);
    // A file the index never read is read.
    writeFileSync(join(root, "src/app/new.ts"), 'import { encodeKey } from "../keys";\n');
    expect(indexedCallers(root, index, "src/keys/index.ts", ["encodeKey"], [...files, "src/app/new.ts"]).has("src/app/new.ts")).toBe(true);
    index.close();
  });

  test("the test map's importers: tests whose imports reach a target, and every test the index does not hold as it is", () => {
    const { root, files } = repository("ts", [0, 1, 5, 6].map((form) => ({ form, uses: false, noise: "" })));
    const index = SymbolIndex.open(join(tmp.path, "importers.db"));
    refreshSymbols(root, index);
    expect([...indexedImporters(root, index, ["src/keys/index.ts"], files)!].sort()).toEqual(["src/app/a.ts", "src/app/b.ts", "src/app/g.ts"]);
    writeFileSync(join(root, "src/app/f.ts"), "// changed\n");
    expect(indexedImporters(root, index, ["src/keys/index.ts"], files)!.has("src/app/f.ts")).toBe(true);
    // A Rust crate's root is reached from every module without an import: the graph cannot narrow.
    expect(indexedImporters(root, index, ["src/keys/index.ts", "src/lib.rs"], files)).toBeUndefined();
    index.close();
  });

  test("on weir's own source, each module's exported names have the same callers either way", async () => {
    const src = join(import.meta.dir, "..", "..", "src");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir)) statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : files.push(relative(src, join(dir, e)));
    };
    walk(src);
    const targets = files.filter((f) => f.endsWith(".ts") && !f.endsWith("index.ts")).slice(0, 40);
    const index = SymbolIndex.open(join(tmp.path, "own.db"));
    refreshSymbols(src, index);
    const read = (rel: string) => readFileSync(join(src, rel), "utf8");
    let callers = 0;
    for (const t of targets) {
      const names = ((await outline(t, read(t)))?.symbols ?? []).filter((s) => s.exported && !s.parent).map((s) => s.name);
      const every = await resolveCallers(t, names, files, read);
      const graph = await resolveCallers(t, names, files, read, () => indexedCallers(src, index, t, names, files));
      expect(graph).toEqual(every);
      callers += [...(every?.values() ?? [])].flat().length;
    }
    // Not vacuous: weir's modules call each other.
    expect(callers).toBeGreaterThan(40);
    index.close();
  });
});
