import { describe, expect, test } from "bun:test";
import { locate, parseFailureLocations } from "../../src/context/failures.ts";
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

  test("Ruby and PHP: modules, classes, methods with their class, constants, what a file requires or uses; private ones local", async () => {
    const rb = (await outline("lib/utils.rb", 'require "json"\nrequire_relative "helpers/util"\nmodule Rack\n  class Utils < Base\n    SEP = "&"\n    def self.escape(s)\n      s\n    end\n    def parse(qs)\n      qs\n    end\n    private\n    def secret; end\n  end\nend\ndef top(x) = x\n'))!;
    const show = (o: typeof rb) => o.symbols.map((s) => `${s.kind}:${s.name}:${s.exported}${s.parent ? `:${s.parent}` : ""}`);
    expect(show(rb)).toEqual(["module:Rack:true", "class:Utils:true:Rack", "const:SEP:true:Utils", "method:escape:true:Utils", "method:parse:true:Utils", "method:secret:false:Utils", "function:top:true"]);
    expect(rb.imports).toEqual(["json", "helpers/util"]);
    const php = (await outline("src/Handler.php", "<?php\nnamespace App;\nuse App\\Logger;\nuse App\\Fmt\\{Line, Json};\ninterface H { public function handle(): bool; }\nabstract class Stream extends Base implements H\n{\n    const FORMAT = 'x';\n    public function handle(): bool { return true; }\n    private function write(): void {}\n}\ntrait Buffers {}\nenum Level: int { case Debug = 1; }\nfunction helper(int $x): int { return $x; }\n"))!;
    expect(show(php)).toEqual(["interface:H:true", "method:handle:true:H", "class:Stream:true", "const:FORMAT:true:Stream", "method:handle:true:Stream", "method:write:false:Stream", "trait:Buffers:true", "enum:Level:true", "function:helper:true"]);
    expect(php.imports).toEqual(["App\\Logger", "App\\Fmt\\Line", "App\\Fmt\\Json"]);
  });

  test("files in other languages have no outline", async () => {
    expect(await outline("README.md", "# hi")).toBeUndefined();
  });
});

/** What javac and java printed here for a division by zero in com.example.Calc, run from its test. */
const JVM_OUTPUT = `Exception in thread "main" java.lang.ArithmeticException: / by zero
\tat com.example.Calc.div(Calc.java:5)
\tat com.example.CalcTest.main(CalcTest.java:6)
\tat java.base/java.lang.Thread.run(Thread.java:833)
`;

describe("failure locations beyond JavaScript, Python and Rust", () => {
  const at = (out: string) => parseFailureLocations(out).map((l) => `${l.path}:${l.line}${l.col ? `:${l.col}` : ""}`);

  test("a JVM frame's file is placed under its package, a module prefix dropped, and not read again as a bare name", () => {
    expect(at(JVM_OUTPUT)).toEqual(["com/example/Calc.java:5", "com/example/CalcTest.java:6", "java/lang/Thread.java:833"]);
    expect(at("\tat app//org.junit.Assert.fail(Assert.java:89)")).toEqual(["org/junit/Assert.java:89"]);
  });

  test("javac through Maven, .NET frames in any language, Kotlin's file URLs", () => {
    expect(at("[ERROR] /home/u/calc/src/main/java/com/example/Calc.java:[7,16] error: cannot find symbol")).toEqual(["/home/u/calc/src/main/java/com/example/Calc.java:7:16"]);
    expect(at("[ERROR] \\work\\app\\src\\main\\java\\App.java:[11,45] cannot find symbol")).toEqual(["/work/app/src/main/java/App.java:11:45"]);
    expect(at("   at Calc.Tests.Adds() in /_/test/Calc.Tests/CalcTests.cs:line 14")).toEqual(["/_/test/Calc.Tests/CalcTests.cs:14"]);
    expect(at("   en Calc.Tests.Adds() en /_/test/Calc.Tests/CalcTests.cs:l\u00ednea 14")).toEqual(["/_/test/Calc.Tests/CalcTests.cs:14"]);
    expect(at("e: file:///home/u/proj/src/main/kotlin/Calc.kt:7:16 Unresolved reference: c")).toEqual(["/home/u/proj/src/main/kotlin/Calc.kt:7:16"]);
  });
});

describe("locate", () => {
  const files = new Set(["src/main/java/com/example/Calc.java", "src/test/java/com/example/CalcTest.java", "pkg/calc/calc_test.go", "tests/case.py", "a/util.py", "b/util.py"]);

  test("a path as given, a frame's package path, a CI machine's path, a deterministic build's /_/ root, a bare unique name", () => {
    expect(locate("tests/case.py", files)).toBe("tests/case.py");
    expect(locate("com/example/Calc.java", files)).toBe("src/main/java/com/example/Calc.java");
    expect(locate("/home/runner/work/calc/calc/src/test/java/com/example/CalcTest.java", files)).toBe("src/test/java/com/example/CalcTest.java");
    expect(locate("/_/pkg/calc/calc_test.go", files)).toBe("pkg/calc/calc_test.go");
    expect(locate("calc_test.go", files)).toBe("pkg/calc/calc_test.go");
  });

  test("nothing for a library's file that shares only a name, for a name two files share, or for no file", () => {
    expect(locate("/usr/lib/python3.11/unittest/case.py", files)).toBeUndefined();
    expect(locate("java/lang/Thread.java", files)).toBeUndefined();
    expect(locate("util.py", files)).toBeUndefined();
    expect(locate("/srv/x/util.py", files)).toBeUndefined();
    expect(locate("nothing.rs", files)).toBeUndefined();
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
