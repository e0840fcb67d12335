import { describe, expect, test } from "bun:test";
import { parseFailureLocations } from "../../src/context/failures.ts";
import { outline } from "../../src/context/outline.ts";
import { parseFrontMatter, ruleApplies } from "../../src/context/rules.ts";

describe("outline (tree-sitter)", () => {
  test("TypeScript: exported and local symbols, methods with their class, imports", async () => {
    const o = (await outline("a.ts", 'import { x } from "./x";\nexport function add(a: number) { return a }\nexport class A {\n  run(): void {}\n}\nconst local = () => 1;\nexport interface I {}\nexport type T = string;\nexport { y } from "./y";'))!;
    expect(o.symbols.map((s) => [s.name, s.kind, s.line, s.exported, s.parent ?? null])).toEqual([
      ["add", "function", 2, true, null],
      ["A", "class", 3, true, null],
      ["run", "method", 4, true, "A"],
      ["local", "function", 6, false, null],
      ["I", "interface", 7, true, null],
      ["T", "type", 8, true, null],
    ]);
    expect(o.imports).toEqual(["./x", "./y"]);
  });

  test("Python, Go and Rust", async () => {
    const py = (await outline("m.py", "import os\nfrom pkg.mod import thing\nclass K:\n    def m(self):\n        pass\n@dec\ndef _priv():\n    pass\nLIMIT = 3\n"))!;
    expect(py.symbols.map((s) => `${s.kind}:${s.name}:${s.exported}`)).toEqual(["class:K:true", "method:m:true", "function:_priv:false", "const:LIMIT:true"]);
    // "from pkg.mod import thing" lists pkg.mod.thing too, in case thing is a submodule.
    expect(py.imports).toEqual(["os", "pkg.mod", "pkg.mod.thing"]);
    const go = (await outline("m.go", 'package main\nimport (\n  "fmt"\n  "os"\n)\nfunc Add(a int) int { return a }\nfunc helper() {}\ntype T struct{}\nfunc (t *T) Run() {}\n'))!;
    expect(go.symbols.map((s) => `${s.kind}:${s.name}:${s.exported}${s.parent ? `:${s.parent}` : ""}`)).toEqual(["function:Add:true", "function:helper:false", "struct:T:true", "method:Run:true:T"]);
    expect(go.imports).toEqual(["fmt", "os"]);
    const rs = (await outline("m.rs", "use std::io;\npub fn add(a: i32) -> i32 { a }\nstruct S;\nimpl S {\n    pub fn m(&self) {}\n}\npub trait Tr { fn t(&self); }\n"))!;
    expect(rs.symbols.map((s) => `${s.kind}:${s.name}:${s.exported}${s.parent ? `:${s.parent}` : ""}`)).toEqual(["function:add:true", "struct:S:false", "method:m:true:S", "trait:Tr:true", "method:t:false:Tr"]);
    expect(rs.imports).toEqual(["std::io"]);
  });

  test("files in other languages have no outline", async () => {
    expect(await outline("README.md", "# hi")).toBeUndefined();
  });
});

describe("parseFailureLocations", () => {
  test("reads the common compiler and test formats, skipping URLs and dependencies", () => {
    const out = [
      "src/parse.ts(12,5): error TS2322: Type 'string' is not assignable",
      "  File \"app/models.py\", line 40, in save",
      "    at parse (/repo/src/lib/util.js:7:13)",
      "error[E0308]: mismatched types\n --> src/main.rs:3:9",
      "FAIL test/a.test.ts:22:7 expected 1 to be 2",
      "see https://example.com/docs:80 and node_modules/x/index.js:1:1",
    ].join("\n");
    const locs = parseFailureLocations(out).map((l) => `${l.path}:${l.line}${l.col ? `:${l.col}` : ""}`);
    expect(locs).toEqual(expect.arrayContaining(["src/parse.ts:12:5", "app/models.py:40", "src/main.rs:3:9", "test/a.test.ts:22:7", "/repo/src/lib/util.js:7:13"]));
    expect(locs.some((l) => l.includes("example.com") || l.includes("node_modules"))).toBe(false);
  });

  test("paths in other scripts are locations too", () => {
    const out = ["    at prix (src/café.js:4:11)", "src/数据.ts(3,1): error TS2304", "FAIL tests/ünïcode.test.ts:9"].join("\n");
    const locs = parseFailureLocations(out).map((l) => `${l.path}:${l.line}`);
    expect(locs).toEqual(expect.arrayContaining(["src/café.js:4", "src/数据.ts:3", "tests/ünïcode.test.ts:9"]));
  });
});

describe("rules", () => {
  test("front matter: lists in both styles, booleans, strings", () => {
    const r = parseFrontMatter("---\npaths: [src/**/*.ts, lib/*.js]\nkeywords:\n  - billing\n  - 'invoice'\nsticky: true\n---\nUse cents, never floats.\n");
    expect(r.meta).toEqual({ paths: ["src/**/*.ts", "lib/*.js"], keywords: ["billing", "invoice"], sticky: true });
    expect(r.body).toBe("Use cents, never floats.\n");
  });

  test("a rule applies without conditions, on a matching path, or on a keyword in the goal", () => {
    const rule = { source: "r.md", body: "", paths: ["src/billing/**"], keywords: ["invoice"], sticky: false };
    expect(ruleApplies(rule, "fix rounding", ["src/billing/total.ts"])).toBe(true);
    expect(ruleApplies(rule, "send the Invoice email", [])).toBe(true);
    expect(ruleApplies(rule, "fix the login page", ["src/auth/login.ts"])).toBe(false);
    expect(ruleApplies({ ...rule, paths: [], keywords: [] }, "anything", [])).toBe(true);
  });
});
