import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { javaClass, jsModule, pythonModule, reachableFromOtherFiles, resolveCallers, rustModule, rustUsePaths } from "../../src/context/callers.ts";
import { securityPath } from "../../src/agent/state.ts";
import { outline } from "../../src/context/outline.ts";

/**
 * Callers as the compiler resolves them, checked on generated repositories: each other file of the
 * repository imports the target's module or not, sits in its package or not, and uses the name or
 * not. A caller is exactly a file that reaches the module (an import, or the same Go or Java
 * package) and uses the name.
 */
interface Other {
  dir: "same" | "other";
  imports: boolean;
  uses: boolean;
}

type Lang = "ts" | "python" | "go" | "java";

/** One repository: the target file, the others' paths and texts, and which of them are callers. */
function repository(lang: Lang, others: Other[]): { target: string; files: Map<string, string>; callers: string[] } {
  const files = new Map<string, string>();
  const callers: string[] = [];
  const use = (o: Other, call: string) => (o.uses ? call : "nothing()");
  let target: string;
  if (lang === "ts") {
    target = "src/keys/encode.ts";
    files.set(target, "export function encodeKey(k: string) {\n  return k;\n}\n");
    others.forEach((o, i) => {
      const path = o.dir === "same" ? `src/keys/f${i}.ts` : `src/app/f${i}.ts`;
      const spec = o.dir === "same" ? "./encode.ts" : "../keys/encode";
      files.set(path, `${o.imports ? `import * as keys from "${spec}";\n` : 'import { other } from "./other";\n'}export const v${i} = ${use(o, 'keys.encodeKey("a")')};\n`);
      if (o.imports && o.uses) callers.push(path);
    });
  } else if (lang === "python") {
    target = "pkg/keys.py";
    files.set(target, "def encode_key(k):\n    return k\n");
    others.forEach((o, i) => {
      const path = o.dir === "same" ? `pkg/f${i}.py` : `app/f${i}.py`;
      const imp = o.dir === "same" ? "from . import keys" : "import pkg.keys as keys";
      files.set(path, `${o.imports ? imp : "import os"}\n\nv = ${use(o, 'keys.encode_key("a")')}\n`);
      if (o.imports && o.uses) callers.push(path);
    });
  } else if (lang === "go") {
    target = "keys/keys.go";
    files.set(target, "package keys\n\nfunc encodeKey(k string) string { return k }\n");
    others.forEach((o, i) => {
      const same = o.dir === "same";
      const path = same ? `keys/f${i}.go` : `app/f${i}.go`;
      const imp = o.imports && !same ? 'import "example.com/m/keys"\n\n' : "";
      files.set(path, `package ${same ? "keys" : "app"}\n\n${imp}func F${i}() { ${use(o, same ? 'encodeKey("a")' : 'keys.encodeKey("a")')} }\n`);
      if ((same || o.imports) && o.uses) callers.push(path);
    });
  } else {
    target = "src/main/java/com/acme/kv/Keys.java";
    files.set(target, "package com.acme.kv;\n\npublic class Keys {\n  public static String encodeKey(String k) { return k; }\n}\n");
    others.forEach((o, i) => {
      const same = o.dir === "same";
      const path = same ? `src/main/java/com/acme/kv/F${i}.java` : `src/main/java/com/acme/app/F${i}.java`;
      const imp = o.imports && !same ? "import com.acme.kv.Keys;\n" : "";
      files.set(path, `package com.acme.${same ? "kv" : "app"};\n${imp}\nclass F${i} { String v() { return ${use(o, 'Keys.encodeKey("a")')}; } }\n`);
      if ((same || o.imports) && o.uses) callers.push(path);
    });
  }
  return { target, files, callers };
}

const NAMES: Record<Lang, string> = { ts: "encodeKey", python: "encode_key", go: "encodeKey", java: "encodeKey" };
const other = fc.record({ dir: fc.constantFrom("same" as const, "other" as const), imports: fc.boolean(), uses: fc.boolean() });

describe("callers from the imports a parser sees", () => {
  test.each(["ts", "python", "go", "java"] as const)("property (%s): the callers are exactly the files that reach the module and use the name", async (lang) => {
    await fc.assert(
      fc.asyncProperty(fc.array(other, { maxLength: 6 }), async (others) => {
        const repo = repository(lang, others);
        const found = await resolveCallers(repo.target, [NAMES[lang]], [...repo.files.keys()], (p) => repo.files.get(p));
        expect(found?.get(NAMES[lang])?.sort()).toEqual(repo.callers.sort());
      }),
      { numRuns: 40 },
    );
  });

  test("a name is a whole identifier: a `$` joins it to its neighbours, as Java and JavaScript read it", async () => {
    const files: Record<string, string> = {
      "src/main/java/com/g/Gson.java": "package com.g;\npublic class Gson {}\n",
      "src/main/java/com/g/Prim.java": "package com.g;\nimport com.g.internal.$Gson$Preconditions;\nclass Prim { void f() { $Gson$Preconditions.check(); } }\n",
      "src/main/java/com/g/Uses.java": "package com.g;\nclass Uses { Gson g = new Gson(); }\n",
    };
    const callers = await resolveCallers("src/main/java/com/g/Gson.java", ["Gson"], Object.keys(files), (p) => files[p]);
    expect(callers?.get("Gson")).toEqual(["src/main/java/com/g/Uses.java"]);
  });

  test("PHP: a use of the class or its namespace, the same namespace, or a qualified name calls it; another namespace's User does not", async () => {
    const files: Record<string, string> = {
      "src/Models/User.php": "<?php\nnamespace App\\Models;\n\nclass User {}\n",
      "src/Http/Use.php": "<?php\nnamespace App\\Http;\nuse App\\Models\\{Post, User as Person};\nfunction a() { return User::find(1); }\n",
      "src/Models/Same.php": "<?php\nnamespace App\\Models;\nfunction b() { return new User(); }\n",
      "src/Http/Full.php": "<?php\nnamespace App\\Http;\nfunction c() { return \\APP\\Models\\User::find(1); }\n",
      "src/Http/Alias.php": "<?php\nnamespace App\\Http;\nuse App\\Models;\nfunction d() { return Models\\User::find(1); }\n",
      "src/Other/Legacy.php": "<?php\nnamespace App\\Other;\nuse App\\Legacy\\User;\nfunction e() { return User::find(1); }\n",
      "src/Other/Longer.php": "<?php\nnamespace App\\Other;\nfunction f() { return \\App\\Models\\UserList::all(); }\n",
    };
    const callers = await resolveCallers("src/Models/User.php", ["User"], Object.keys(files), (p) => files[p]);
    expect(callers?.get("User")?.sort()).toEqual(["src/Http/Alias.php", "src/Http/Full.php", "src/Http/Use.php", "src/Models/Same.php"]);
    // A class in the global namespace is every file's: any file naming it may call it.
    const global = { "lib/Legacy.php": "<?php\nclass Legacy {}\n", "app/x.php": "<?php\nnamespace App;\n$l = new \\Legacy();\n" };
    expect((await resolveCallers("lib/Legacy.php", ["Legacy"], Object.keys(global), (p) => global[p as keyof typeof global]))?.get("Legacy")).toEqual(["app/x.php"]);
  });

  test("a language without a resolver leaves the callers unknown", async () => {
    expect(await resolveCallers("lib/keys.rb", ["encode"], ["lib/keys.rb", "lib/app.rb"], () => "require_relative 'keys'\nencode")).toBeUndefined();
  });

  test("module names resolve to files", () => {
    const files = new Set(["src/a.ts", "src/b/index.ts", "pkg/__init__.py", "pkg/sub/mod.py", "lib/util.py"]);
    expect(jsModule("src/c.ts", "./a.js", files)).toBe("src/a.ts");
    expect(jsModule("src/c.ts", "./b", files)).toBe("src/b/index.ts");
    expect(jsModule("src/c.ts", "react", files)).toBeUndefined();
    expect(pythonModule("app.py", "pkg.sub.mod", files)).toBe("pkg/sub/mod.py");
    expect(pythonModule("pkg/sub/x.py", ".mod", files)).toBe("pkg/sub/mod.py");
    expect(pythonModule("pkg/sub/x.py", "..", files)).toBe("pkg/__init__.py");
    expect(pythonModule("app.py", "util", files)).toBe("lib/util.py");
    expect(javaClass("com.acme.kv.Keys", "src/main/java/com/acme/kv/Keys.java")).toBe(true);
    expect(javaClass("com.acme.kv.Keys.encodeKey", "src/main/java/com/acme/kv/Keys.java")).toBe(true);
    expect(javaClass("com.acme.kv.*", "src/main/java/com/acme/kv/Keys.java")).toBe(true);
    expect(javaClass("com.acme.kv.OtherKeys", "src/main/java/com/acme/kv/Keys.java")).toBe(false);
    expect(javaClass("org.acme.kv.Keys", "src/main/java/com/acme/kv/Keys.java")).toBe(false);
  });
});

describe("reachable from other files, per language", () => {
  const symbols = async (path: string, text: string) => Object.fromEntries(((await outline(path, text))?.symbols ?? []).map((s) => [s.name, s]));

  test("TypeScript: an export, not a local", async () => {
    const s = await symbols("a.ts", "export function pub() {}\nfunction local() {}\nexport { local as again };\n");
    expect(reachableFromOtherFiles("a.ts", s.pub!, false)).toBe(true);
    expect(reachableFromOtherFiles("a.ts", s.local!, false)).toBe(false);
  });

  test("Go: every top-level name, capitalised or not, from the files of its package", async () => {
    const s = await symbols("k/k.go", "package k\n\nfunc Public() {}\nfunc private() {}\ntype t struct{}\nfunc (x t) m() {}\n");
    for (const n of ["Public", "private", "t", "m"]) expect(reachableFromOtherFiles("k/k.go", s[n]!, false)).toBe(true);
  });

  test("Python: a public name always, an underscored one when another module imports it", async () => {
    const s = await symbols("m.py", "def public():\n    pass\n\ndef _helper():\n    pass\n");
    expect(reachableFromOtherFiles("m.py", s.public!, false)).toBe(true);
    expect(reachableFromOtherFiles("m.py", s._helper!, false)).toBe(false);
    expect(reachableFromOtherFiles("m.py", s._helper!, true)).toBe(true);
  });

  test("Rust: pub, pub(crate) and pub(super) reach other files; a private fn does not", async () => {
    const s = await symbols("src/k.rs", "pub fn a() {}\npub(crate) fn b() {}\npub(super) fn c() {}\nfn d() {}\n");
    for (const n of ["a", "b", "c"]) expect(reachableFromOtherFiles("src/k.rs", s[n]!, false)).toBe(true);
    expect(reachableFromOtherFiles("src/k.rs", s.d!, false)).toBe(false);
  });

  test("Java: public, protected and package-private reach other files; private does not", async () => {
    const s = await symbols("K.java", "public class K {\n  public void a() {}\n  protected void b() {}\n  void c() {}\n  private void d() {}\n}\n");
    for (const n of ["K", "a", "b", "c"]) expect(reachableFromOtherFiles("K.java", s[n]!, false)).toBe(true);
    expect(reachableFromOtherFiles("K.java", s.d!, false)).toBe(false);
  });
});

describe("Rust callers", () => {
  const files: Record<string, string> = {
    "src/lexer/token.rs": "pub fn lex(s: &str) -> usize { s.len() }\n",
    "src/lexer/mod.rs": "pub mod token;\npub fn run(s: &str) -> usize { token::lex(s) }\n",
    "src/parser.rs": "use crate::lexer::token::{lex, Token};\npub fn parse(s: &str) -> usize { lex(s) }\n",
    "src/lexer/other.rs": "use super::token;\npub fn again(s: &str) -> usize { token::lex(s) }\n",
    "src/full.rs": "pub fn f(s: &str) -> usize { crate::lexer::token::lex(s) }\n",
    "src/unrelated.rs": "pub fn lex(s: &str) -> usize { 0 }\npub fn g() -> usize { lex(\"x\") }\n",
  };
  const read = (rel: string) => files[rel];

  test("a use of the module or of a name in it, a path through the crate, and the parent module's own path call it; a file with its own lex does not", async () => {
    const callers = await resolveCallers("src/lexer/token.rs", ["lex"], Object.keys(files), read);
    expect(callers?.get("lex")?.sort()).toEqual(["src/full.rs", "src/lexer/mod.rs", "src/lexer/other.rs", "src/parser.rs"]);
  });

  test("a function at the crate's root may be called from any file that names it", async () => {
    const root = { "src/lib.rs": "pub fn encode() {}\npub mod a;\n", "src/a.rs": "pub fn f() { crate::encode() }\n", "src/b.rs": "pub fn g() {}\n" };
    const callers = await resolveCallers("src/lib.rs", ["encode"], Object.keys(root), (rel) => root[rel as keyof typeof root]);
    expect(callers?.get("encode")).toEqual(["src/a.rs"]);
  });

  test("module paths and use paths resolve as rustc reads them", () => {
    expect(rustModule("src/lexer/token.rs")).toEqual(["lexer", "token"]);
    expect(rustModule("src/lexer/mod.rs")).toEqual(["lexer"]);
    expect(rustModule("crates/kv/src/lib.rs")).toEqual([]);
    expect(rustUsePaths("crate::a::{b::{C, d}, e}", ["x"])).toEqual([["a", "b", "C"], ["a", "b", "d"], ["a", "e"]]);
    expect(rustUsePaths("super::token::lex", ["lexer", "other"])).toEqual([["lexer", "token", "lex"]]);
    expect(rustUsePaths("self::token as t", ["lexer"])).toEqual([["lexer", "token"]]);
  });
});

describe("security-sensitive paths", () => {
  test("by a word of the path, not a word with other meanings", () => {
    for (const p of ["src/auth/session.ts", "lib/oauth2.rs", "src/crypto.go", "config/secrets.yml", "app/permissions/rules.py", "src/auth/token.ts"]) expect([p, securityPath(p)]).toEqual([p, true]);
    for (const p of ["src/lexer/token.rs", "src/repl/session.ts", "test/sandbox/setup.ts", "src/author.ts"]) expect([p, securityPath(p)]).toEqual([p, false]);
  });
});
