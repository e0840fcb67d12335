import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { findReferences } from "../../src/actions/builtin/references.ts";
import { failureView, verifyAction } from "../../src/actions/builtin/verify.ts";
import fc from "fast-check";
import { VerificationLedger } from "../../src/actions/verification.ts";
import { detectChecks } from "../../src/workspace/checks.ts";
import { workspace } from "../support/workspace.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

const text = (o: string | { content: string }) => (typeof o === "string" ? o : o.content);

let ws: ReturnType<typeof workspace>;
afterEach(() => ws.cleanup());

function ctx() {
  return { workspace: new Workspace(ws.root, ws.home), ledger: ws.ledger, env: { PATH: process.env.PATH ?? "" }, signal: new AbortController().signal };
}

describe("detectChecks", () => {
  test("finds package scripts, Makefile targets, Cargo, Go and pytest; never invents one", () => {
    ws = workspace({
      "package.json": JSON.stringify({ scripts: { test: "vitest", lint: "eslint .", start: "node x" } }),
      "pnpm-lock.yaml": "",
      Makefile: "test:\n\tgo test\ncheck:\n\techo\nVAR:=1\n",
      "go.mod": "module x",
      "pyproject.toml": "[tool.pytest.ini_options]\n",
    });
    expect(detectChecks(ws.root).map((c) => `${c.level}:${c.name}`)).toEqual(["quick:pnpm run test", "full:pnpm run lint", "full:make check", "quick:go test ./...", "full:go vet ./...", "quick:pytest"]);
    const empty = workspace({ "README.md": "" });
    expect(detectChecks(empty.root)).toEqual([]);
    empty.cleanup();
  });
});

describe("detectChecks beyond JavaScript, Go and Python", () => {
  const quick = (files: Record<string, string>) => {
    const w = workspace(files);
    try {
      return detectChecks(w.root).filter((c) => c.level === "quick").map((c) => c.name);
    } finally {
      w.cleanup();
    }
  };

  test("Maven and Gradle run through the project's wrapper when it ships one, else the tool", () => {
    expect(quick({ "pom.xml": "<project/>" })).toEqual(["mvn test"]);
    expect(quick({ "pom.xml": "<project/>", mvnw: "#!/bin/sh\n" })).toEqual(["./mvnw test"]);
    expect(quick({ "settings.gradle.kts": "", gradlew: "#!/bin/sh\n" })).toEqual(["./gradlew test"]);
    expect(quick({ "build.gradle": "" })).toEqual(["gradle test"]);
  });

  test("Ruby: RSpec when .rspec says so, Rake's test task otherwise, through bundler with a Gemfile; a Gemfile alone names nothing", () => {
    expect(quick({ Gemfile: "", ".rspec": "--require spec_helper\n", Rakefile: "" })).toEqual(["bundle exec rspec"]);
    expect(quick({ Rakefile: 'require "rake/testtask"\nRake::TestTask.new do |t|\nend\n' })).toEqual(["rake test"]);
    expect(quick({ Gemfile: "", Rakefile: "task :test do\n  ruby 'test/all.rb'\nend\n" })).toEqual(["bundle exec rake test"]);
    expect(quick({ Gemfile: 'gem "cocoapods"\n', "Package.swift": "", "Tests/AppTests/AppTests.swift": "" })).toEqual(["swift test"]);
    expect(quick({ Gemfile: "", Rakefile: "task :release do\nend\n" })).toEqual([]);
  });

  test("PHP, .NET, Elixir, Swift and Deno", () => {
    expect(quick({ "composer.json": JSON.stringify({ scripts: { test: "phpunit" } }) })).toEqual(["composer test"]);
    expect(quick({ "composer.json": "{}", "phpunit.xml.dist": "" })).toEqual(["vendor/bin/phpunit"]);
    expect(quick({ "composer.json": "{}" })).toEqual([]);
    expect(quick({ "App.sln": "" })).toEqual(["dotnet test"]);
    expect(quick({ "src/App/App.csproj": "" })).toEqual([]);
    expect(quick({ "mix.exs": "" })).toEqual(["mix test"]);
    expect(quick({ "deno.jsonc": '{\n  // tasks\n  "tasks": { "test": "deno test -A" }\n}\n' })).toEqual(["deno task test"]);
    expect(quick({ "deno.json": '{ "tasks": { "dev": "deno run main.ts" } }', "main_test.ts": "" })).toEqual(["deno test"]);
    // deno test and swift test fail when they find no tests: no sign of tests, no check.
    expect(quick({ "deno.json": '{ "tasks": { "dev": "deno run main.ts" } }', "main.ts": "" })).toEqual([]);
    expect(quick({ "Package.swift": "", "Sources/App/main.swift": "" })).toEqual([]);
  });

  test("npm init's placeholder test script is no check; a bun project without a test script runs bun's own", () => {
    const placeholder = JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1', build: "tsc" } });
    expect(quick({ "package.json": placeholder })).toEqual([]);
    expect(quick({ "package.json": placeholder, Makefile: "test:\n\tnode t.js\n" })).toEqual(["make test"]);
    expect(quick({ "package.json": JSON.stringify({ scripts: { build: "tsc" } }), "bun.lock": "", "test/a.test.ts": "" })).toEqual(["bun test"]);
    expect(quick({ "package.json": JSON.stringify({ scripts: { build: "tsc" } }), "bun.lock": "", "bunfig.toml": "[test]\npreload = []\n" })).toEqual(["bun test"]);
    // No sign of tests: bun test would fail on finding none, so it is no check.
    expect(quick({ "package.json": JSON.stringify({ scripts: { build: "tsc" } }), "bun.lock": "", "src/app.ts": "" })).toEqual([]);
    expect(quick({ "package.json": JSON.stringify({ scripts: { build: "tsc" } }) })).toEqual([]);
  });

  test("a Makefile's test target runs the tests once: the language's runner adds only its full checks", () => {
    const all = (files: Record<string, string>) => {
      const w = workspace(files);
      try {
        return detectChecks(w.root).map((c) => `${c.level}:${c.name}`);
      } finally {
        w.cleanup();
      }
    };
    expect(all({ Makefile: "test:\n\tgo test ./...\n", "go.mod": "module x\n" })).toEqual(["quick:make test", "full:go vet ./..."]);
    expect(all({ Makefile: "test:\n\tpython -m pytest tests\n", "pyproject.toml": "[tool.pytest.ini_options]\n" })).toEqual(["quick:make test"]);
    expect(all({ Makefile: "lint:\n\truff .\n", "go.mod": "module x\n" })).toEqual(["full:make lint", "quick:go test ./...", "full:go vet ./..."]);
  });

  test("pytest as a dependency names it; a pytest plugin alone does not", () => {
    expect(quick({ "requirements-dev.txt": "black\npytest>=7\n" })).toEqual(["pytest"]);
    expect(quick({ "pyproject.toml": '[dependency-groups]\ntest = ["pytest", "hypothesis"]\n' })).toEqual(["pytest"]);
    expect(quick({ "requirements.txt": "pytest-cov\nrequests\n" })).toEqual([]);
    expect(quick({ "conftest.py": "" })).toEqual(["pytest"]);
  });
});

describe("what verify shows of a failed check", () => {
  test("the failure a runner printed long before its summary, with the lines after it; not the passing noise between", () => {
    const out = ["not ok 1 - adds", "  error: add is wrong", "  expected: 4", "  actual: 0", ...Array.from({ length: 100 }, (_, i) => `ok ${i + 2} - noise ${i}`), "# tests 101", "# fail 1"].join("\n");
    const view = failureView(out);
    expect(view).toContain("add is wrong");
    expect(view).toContain("actual: 0");
    expect(view).not.toContain("noise 10 ");
    expect(view.endsWith("# tests 101\n# fail 1")).toBe(true);
  });

  test("property: the view ends with the output's last lines, shows nothing the output lacks, and stays bounded", () => {
    const line = fc.oneof(fc.constantFrom("ok", "FAILED x", "error: y", "expected 1", "", "noise"), fc.string({ maxLength: 12 }).map((t) => t.replace(/\n/g, "")));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 200 }), (ls) => {
        const out = ls.join("\n");
        const view = failureView(out).split("\n");
        const tail = out.split("\n").slice(-25);
        expect(view.slice(-tail.length)).toEqual(tail);
        const have = new Set(out.split("\n"));
        for (const l of view) expect(l === "…" || have.has(l)).toBe(true);
        expect(view.length).toBeLessThanOrEqual(25 + 40 + 41);
      }),
      { numRuns: 200 },
    );
  });
});

describe("verify", () => {
  test("records evidence bound to the revision; a change makes it stale; a failure is never a pass", async () => {
    ws = workspace({ "package.json": JSON.stringify({ scripts: { test: "node check.js" } }), "check.js": "process.exit(0)\n" });
    const ledger = new VerificationLedger(ws.root);
    const verify = verifyAction(ledger);
    ledger.markChanged("check.js");
    expect(text(await verify.run({ level: "quick" }, ctx()))).toContain("all checks passed");
    expect((await ledger.state()).state).toBe("passed");
    writeFileSync(join(ws.root, "check.js"), "process.exit(1)\n");
    ledger.markChanged("check.js");
    expect((await ledger.state()).state).toBe("stale");
    await expect(verify.run({ level: "quick" }, ctx())).rejects.toThrow("FAILED (exit 1)");
    expect((await ledger.state()).state).toBe("failed");
  });

  test("no checks is an error that says weir will not guess", async () => {
    ws = workspace({ "a.txt": "" });
    await expect(verifyAction(new VerificationLedger(ws.root)).run({ level: "quick" }, ctx())).rejects.toThrow("will not guess");
  });
});

describe("find_references", () => {
  test("definitions from the parser, calls and references from text, each labelled with its precision", async () => {
    ws = workspace({
      "src/total.ts": "export function total(xs: number[]) {\n  return xs.length;\n}\n",
      "src/use.ts": 'import { total } from "./total";\nconst t = total([1]);\n',
      "README.md": "Call total() to sum.\n",
    });
    const out = text(await findReferences.run({ symbol: "total" }, ctx()));
    expect(out).toContain("definitions (1):\nsrc/total.ts:1: function total(xs: number[]) {  [syntax, exported]");
    expect(out).toContain("[syntax, exported]");
    expect(out).toContain("src/use.ts:2: const t = total([1]);  [heuristic]");
    expect(out).toContain("src/use.ts:1: import { total }");

    expect(out).toMatch(/README\.md:1: .*\[heuristic\]/);
  });

  test("none found is said as such", async () => {
    ws = workspace({ "a.ts": "const x = 1;\n" });
    const none = await findReferences.run({ symbol: "nothingHere" }, ctx());
    expect(text(none)).toStartWith("none found");
    expect(typeof none === "string" ? undefined : none.details).toEqual({ kind: "references", symbol: "nothingHere", found: 0 });
  });
});
