import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * What the first request of a one-shot run holds in a small real project, through the binary: for a
 * task about a failing test, the test files, the code they import, the project's test command and
 * the actions that run it; an untracked 32 MB log never enters it whole.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

/** Runs git in `cwd` as a test author, in the test's home; the test fails if git does. */
function git(cwd: string, ...args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  expect(Bun.spawnSync(["git", ...args], { cwd, env }).exitCode).toBe(0);
}

function project(extra: Record<string, string> = {}) {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "calc", type: "module", scripts: { test: "node test/calc.test.js" } }, null, 2),
    "README.md": "# calc\n\nA tiny calculator.\n",
    "src/calc.js": "export function add(a, b) {\n  return a - b; // CALC-BODY-8181\n}\n",
    "test/calc.test.js": 'import { add } from "../src/calc.js";\nif (add(2, 2) !== 4) throw new Error("TEST-BODY-9191 add is wrong");\n',
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) git(world.ws, ...args);
}

async function firstRequest(task: string, flags: string[] = []): Promise<{ text: string; tools: string[] }> {
  world.server.script({ turns: [{ text: "ok" }] });
  const before = world.server.requests.length;
  const r = await runWeir([...wire(), "--verify-floor", "off", ...flags, task], { home: world.home, cwd: world.ws });
  expect(r.code).toBe(0);
  const body = world.server.requests[before]!.body;
  return { text: JSON.stringify(body.messages), tools: body.tools.map((t: { function?: { name: string }; name?: string }) => t.function?.name ?? t.name) };
}

describe("the first request of a task about a failing test", () => {
  test("holds the test file, the code it imports, the project's test command, and offers verify and run_command", async () => {
    project();
    const { text, tools } = await firstRequest("fix the failing test");
    expect(text).toContain("TEST-BODY-9191");
    expect(text).toContain("CALC-BODY-8181");
    expect(text).toContain("npm run test");
    expect(tools).toContain("verify");
    expect(tools).toContain("run_command");
  });

  test("a fixture under test/ is data, not a test: the test file comes, the fixture named like the task does not", async () => {
    project({ "test/fixtures/calc_test_failing_cases.json": `${JSON.stringify({ note: "TEST-DATA-3131", cases: Array.from({ length: 50 }, (_, i) => [i, i]) })}\n` });
    const { text } = await firstRequest("fix the failing calc test cases");
    expect(text).toContain("TEST-BODY-9191");
    expect(text).not.toContain("TEST-DATA-3131");
  });

  test("a task about the build offers the same actions; a question about the README does not", async () => {
    project();
    expect((await firstRequest("the build is broken, make it pass")).tools).toContain("verify");
    const q = await firstRequest("what does README.md say?");
    expect(q.tools).not.toContain("verify");
    expect(q.text).not.toContain("npm run test");
  });
});

describe("a project weir knows by its build file, not by package.json", () => {
  test("a Maven project with a wrapper: the first request names ./mvnw test, and verify runs the wrapper in the sandbox", async () => {
    // The wrapper stands in for Maven: it proves it ran in the workspace and reports like Maven.
    const mvnw = '#!/bin/sh\necho "$@" > ran-by-verify.txt\necho "Tests run: 3, Failures: 0"\necho "BUILD SUCCESS"\n';
    project({ "pom.xml": "<project><artifactId>calc</artifactId></project>\n", mvnw, "package.json": "{}" });
    chmodSync(join(world.ws, "mvnw"), 0o755);
    world.server.script({ turns: [{ toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }] }, { text: "The tests pass." }] });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "fix the failing test"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).toContain("quick: ./mvnw test");
    const after = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(after).toContain("$ ./mvnw test");
    expect(after).toContain("all checks passed");
    expect(readFileSync(join(world.ws, "ran-by-verify.txt"), "utf8")).toBe("test\n");
  });
});

/** A run whose model calls verify once: verify's own result as the model received it. */
async function verifyResult(env: Record<string, string> = {}): Promise<string> {
  world.server.script({ turns: [{ toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }] }, { text: "It fails." }] });
  const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "run the tests"], { home: world.home, cwd: world.ws, env });
  expect(r.code).toBe(0);
  // Only the tool result: the failure's code also reaches the model, as a working-set update.
  return JSON.stringify(world.server.requests.at(-1)!.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "v1"));
}

describe("verify through the binary, with a real test runner", () => {
  test("node's runner prints the failure first and 30 passing tests after it: the model is shown the failure", async () => {
    const noise = Array.from({ length: 30 }, (_, i) => `test("noise ${i}", () => assert.ok(true));`).join("\n");
    project({
      "package.json": JSON.stringify({ name: "calc", type: "module", scripts: { test: "node --test" } }),
      "test/calc.test.js": `import test from "node:test";\nimport assert from "node:assert";\nimport { add } from "../src/calc.js";\ntest("adds", () => assert.strictEqual(add(2, 2), 4, "ADD-IS-WRONG-7272"));\n${noise}\n`,
    });
    const shown = await verifyResult();
    expect(shown).toContain("0 !== 4");
    expect(shown).toContain("ADD-IS-WRONG-7272");
    expect(shown).toContain("FAILED (exit 1)");
  });
});

describe("verify when the sandbox stops a check", () => {
  test("a test script that writes outside the workspace fails in the sandbox, and verify says the sandbox did it", async () => {
    project({ "package.json": JSON.stringify({ name: "calc", scripts: { test: "node write-cache.js" } }), "write-cache.js": 'require("fs").writeFileSync("/usr/local/weir-e2e-cache-" + process.pid, "1");\n' });
    const shown = await verifyResult();
    expect(shown).toContain("FAILED (exit 1)");
    expect(shown).toContain("blocked by the sandbox");
  });
});

describe("tests mapped to the file a task names, by its ecosystem's conventions", () => {
  test("a Java class brings its CalcTest.java from the test tree; a longer name that only starts with it stays out", async () => {
    project({
      "package.json": "{}",
      "pom.xml": "<project/>\n",
      "src/main/java/com/example/Calc.java": "package com.example;\n\npublic class Calc {\n    public static int div(int a, int b) { return a * b; }\n}\n",
      "src/test/java/com/example/CalcTest.java": "package com.example;\n\nclass CalcTest {\n    // JAVA-TEST-4545 div(4, 2) must be 2\n}\n",
      "src/test/java/com/example/CalculatorTest.java": "package com.example;\n\nclass CalculatorTest {\n    // OTHER-TEST-4646\n}\n",
    });
    const { text } = await firstRequest("div in src/main/java/com/example/Calc.java multiplies; make it divide");
    expect(text).toContain("JAVA-TEST-4545");
    expect(text).not.toContain("OTHER-TEST-4646");
  });
});

describe("a Ruby file too large to show whole", () => {
  test("enters as its outline with the method the task names: its body is sent with its lines, the other bodies are not", async () => {
    const body = Array.from({ length: 40 }, (_, k) => `      total += value.to_s.length * ${k} # a long body line that the outline leaves out`).join("\n");
    const methods = Array.from({ length: 30 }, (_, i) => `    def helper_${i}(value)\n      total = 0\n${body}\n      total\n    end\n`).join("\n");
    const utils = `module Rack\n  module Utils\n${methods}\n    def build_query(params)\n      params.map { |k, v| "#{k}=#{v}" }.join("&") # RUBY-BODY-8787\n    end\n  end\nend\n`;
    project({ "package.json": "{}", "lib/rack/utils.rb": utils });
    const { text } = await firstRequest("build_query drops nested params");
    expect(text).toContain("def build_query(params)");
    expect(text).toContain("RUBY-BODY-8787");
    expect(text).toContain("    def helper_0(value)");
    expect(text).not.toContain("a long body line that the outline leaves out");
  });
});

describe("the budget is what comes after the floor", () => {
  test("an AGENTS.md larger than the whole budget is shown whole, the request says once that the floor is over it, and a larger budget brings the code", async () => {
    // About 6k tokens of rules, over the default budget (4k) on its own.
    project({ "AGENTS.md": `# Conventions\n${"Keep functions small and name them for what they do. ".repeat(450)}\n` });
    const { text } = await firstRequest("fix the failing test");
    expect(text).toContain("Keep functions small");
    expect(text.split("over the budget of 4000").length - 1).toBe(1);
    expect(text).toMatch(/\[weir context · compiled for this task · \d+ of 4000 tokens, the floor \d+ of them\]/);
    expect(text).not.toContain("CALC-BODY-8181");
    const wider = await firstRequest("fix the failing test", ["--budget", "12000"]);
    expect(wider.text).toContain("TEST-BODY-9191");
    expect(wider.text).toContain("CALC-BODY-8181");
    expect(wider.text).not.toContain("over the budget");
  });
});

describe("large and untracked files", () => {
  test("an untracked 32 MB log is listed with its size, never entered whole, and the test file is not pushed out", async () => {
    project();
    const line = "2026-12-03 12:00:00 INFO LOG-LINE-7373 request served in 12 ms\n";
    writeFileSync(join(world.ws, "big.log"), line.repeat(Math.ceil((32 * 2 ** 20) / line.length)));
    const { text } = await firstRequest("fix the failing test");
    expect(text).not.toContain("LOG-LINE-7373");
    expect(text).toContain("big.log");
    expect(text).toMatch(/big\.log \(32(?:\.\d)? MB/);
    expect(text).toContain("TEST-BODY-9191");
  });

  test("an untracked source file the task does not name is not in the floor; a tracked change is", async () => {
    project({ "src/other.js": "export const other = 1;\n" });
    writeFileSync(join(world.ws, "src", "draft.js"), "export const draft = 'DRAFT-BODY-5151';\n");
    writeFileSync(join(world.ws, "src", "other.js"), "export const other = 2; // OTHER-CHANGE-6161\n");
    const { text } = await firstRequest("fix the failing test");
    expect(text).not.toContain("floor: changed · untracked");
    expect(text).toMatch(/src\/other\.js[^\]]*floor: changed/);
    expect(text).not.toMatch(/src\/draft\.js[^\]]*floor: changed/);
    expect(text).toContain("src/draft.js");
  });
});

describe("nothing twice", () => {
  test("a read of a file the working set showed whole points there; an edit right after passes the SHA check; a changed file is read again", async () => {
    project();
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/calc.js" } }] },
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/calc.js", old_string: "a - b", new_string: "a + b" } }] },
        { toolCalls: [{ id: "r2", name: "read_file", input: { path: "src/calc.js" } }] },
        { text: "done" },
      ],
    });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "fix add in src/calc.js"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const reqs = world.server.requests.slice(before).map((q) => JSON.stringify(q.body.messages));
    // The first request shows the file whole, once.
    expect(reqs[0]!.split("CALC-BODY-8181").length - 1).toBe(1);
    // The read points at it instead of repeating it.
    expect(reqs[1]!.split("CALC-BODY-8181").length - 1).toBe(1);
    expect(reqs[1]).toContain("is unchanged since the working set of the task");
    // The edit went through on the recorded SHA.
    expect(reqs[2]).not.toContain("changed on disk");
    expect(await Bun.file(join(world.ws, "src", "calc.js")).text()).toContain("a + b");
    // After the edit the bytes differ: the next read returns them.
    expect(reqs[3]).toContain("return a + b;");
  });
});

describe("a floor larger than the model's context allows", () => {
  /** Forty modules of about 6 KB, each with a body marker; committed. */
  function modules(): string[] {
    const names = Array.from({ length: 40 }, (_, i) => `src/mod${i}.js`);
    const files = Object.fromEntries(
      names.map((n, i) => [n, `${Array.from({ length: 60 }, (_, k) => `export function f${i}_${k}(x) { return x * ${k} + ${i}; } // BODY-${i}-${k} padding padding padding`).join("\n")}\n`]),
    );
    project(files);
    return names;
  }
  const CONTEXT = 32_000;

  test("forty named files: each is in the first request, the floor fits a quarter of the context, and one shown as an outline is read before its edit", async () => {
    const names = modules();
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/mod39.js" } }] },
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/mod39.js", old_string: "return x * 0 + 39;", new_string: "return 39;" } }] },
        { text: "done" },
      ],
    });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--context-size", String(CONTEXT), `use arrow functions in ${names.join(" ")}`], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const first = (world.server.requests[before]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "user")!.content;
    const floor = Number(/the floor (\d+) of them/.exec(first)?.[1]);
    expect(floor).toBeLessThanOrEqual(CONTEXT / 4);
    expect(first.length / 4).toBeLessThan(CONTEXT / 3);
    for (const n of names) expect(first).toContain(n);
    // What did not fit whole is an outline or a line, and the request says so; the read returns the body, and the edit passes.
    expect(first).not.toContain("BODY-39-59");
    expect(first).toContain("read one before editing it");
    const reqs = world.server.requests.slice(before).map((q) => JSON.stringify(q.body.messages));
    expect(reqs[1]).toContain("BODY-39-59");
    expect(reqs[2]).not.toContain("changed on disk");
    expect(readFileSync(join(world.ws, "src", "mod39.js"), "utf8")).toContain("return 39;");
  });

  test("a worktree with forty changed files: the first request fits, with the diff and the changed files named", async () => {
    const names = modules();
    for (const n of names) writeFileSync(join(world.ws, n), readFileSync(join(world.ws, n), "utf8").replace("padding", "PADDED"));
    const { text } = await firstRequest("tidy up", ["--context-size", String(CONTEXT)]);
    expect(text.length / 4).toBeLessThan(CONTEXT / 3);
    expect(text).toContain("+export function f0_0(x) { return x * 0 + 0; } // BODY-0-0 PADDED");
    // The first 30 changed files, as git lists them, each named.
    expect(names.filter((n) => text.includes(n)).length).toBeGreaterThanOrEqual(30);
  });
});

describe("a dotted name in the task", () => {
  test("res.cookie and Command.Context name code, not files: the files that hold them are in the first request", async () => {
    project({
      "docs/comments.md": "# Writing comments\n\nKeep jsdoc comments short.\n",
      "lib/response.js": "const res = {};\n/** Set a cookie on the response. COOKIE-BODY-4242 */\nres.cookie = function (name, value) {\n  return [name, value];\n};\nexport default res;\n",
      "lib/router.js": "export function route(path) {\n  return path;\n}\n",
      "go/command.go": "package cobra\n\nimport \"context\"\n\ntype Command struct{ ctx context.Context }\n\n// Context returns the command's context. CONTEXT-BODY-5151\nfunc (c *Command) Context() context.Context {\n\treturn c.ctx\n}\n",
      "go/args.go": "package cobra\n\nfunc NoArgs() error { return nil }\n",
    });
    expect((await firstRequest("Fix res.cookie jsdoc comment")).text).toContain("COOKIE-BODY-4242");
    expect((await firstRequest("Fix Command.Context comment")).text).toContain("CONTEXT-BODY-5151");
  });
});

/** A run started in `cwd` whose model runs `git status --short`: the first request's messages, and what the command returned. */
async function runWithGitStatus(cwd: string, task: string) {
  world.server.script({ turns: [{ toolCalls: [{ id: "g1", name: "run_command", input: { program: "git", args: ["status", "--short"] } }] }, { text: "ok" }] });
  const before = world.server.requests.length;
  const r = await runWeir([...wire(), "--verify-floor", "off", "--yes", task], { home: world.home, cwd });
  expect(r.code).toBe(0);
  return { first: JSON.stringify(world.server.requests[before]!.body.messages), status: JSON.stringify(world.server.requests[before + 1]!.body.messages.at(-1)) };
}

describe("in a linked worktree (git worktree add)", () => {
  test("the working set holds the named file and the worktree's diff, and git works in a command", async () => {
    project();
    const linked = join(world.tmp, "linked");
    git(world.ws, "worktree", "add", "-q", linked);
    writeFileSync(join(linked, "src/calc.js"), "export function add(a, b) {\n  return a + b; // LINKED-EDIT-7373\n}\n");
    const { first, status } = await runWithGitStatus(linked, "fix src/calc.js");
    expect(first).toContain("LINKED-EDIT-7373");
    expect(first).toContain("+  return a + b;");
    expect(status).toContain("M src/calc.js");
  });
});

describe("a clone that borrows its objects (git clone --shared)", () => {
  test("the run says so at its start, and what makes the clone standalone", async () => {
    project();
    const shared = join(world.tmp, "shared");
    git(world.tmp, "clone", "-q", "--shared", world.ws, shared);
    world.server.script({ turns: [{ text: "ok" }, { text: "ok" }] });
    const r = await runWeir([...wire(), "--verify-floor", "off", "fix src/calc.js"], { home: world.home, cwd: shared });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("borrows git objects from another repository");
    expect(r.stderr).toContain("git repack -a -d");
    // A standalone clone has nothing to say.
    const own = await runWeir([...wire(), "--verify-floor", "off", "fix src/calc.js"], { home: world.home, cwd: world.ws });
    expect(own.code).toBe(0);
    expect(own.stderr).not.toContain("borrows git objects");
  });
});

describe("where the work has been lately", () => {
  test("a task that names nothing still points at the files the last commits changed again and again", async () => {
    project({ "lib/notes.js": "export const notes = [];\n" });
    const task = "fix the typos";
    expect((await firstRequest(task)).text).not.toContain("src/calc.js");
    for (const n of [1, 2, 3]) {
      writeFileSync(join(world.ws, "src/calc.js"), `export function add(a, b) {\n  return a - b; // revision ${n}\n}\n`);
      writeFileSync(join(world.ws, "AGENTS.md"), `Keep it small. RULE-REVISION-${n}\n`);
      git(world.ws, "commit", "-qam", `calc ${n}`);
    }
    const { text } = await firstRequest(task);
    expect(text).toContain("src/calc.js");
    expect(text).not.toContain("lib/notes.js");
    // AGENTS.md changed as often, and reaches the model as the rule it is.
    expect(text).toContain("RULE-REVISION-3");
  });
});

describe("in a submodule", () => {
  test("the working set holds the submodule's diff, and git works in a command", async () => {
    const lib = join(world.tmp, "lib");
    mkdirSync(lib);
    writeFileSync(join(lib, "lib.js"), "export const one = 1;\n");
    for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "lib"]]) git(lib, ...a);
    project();
    git(world.ws, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
    const sub = join(world.ws, "vendor", "lib");
    writeFileSync(join(sub, "lib.js"), "export const one = 2; // SUBMODULE-EDIT-8484\n");
    const { first, status } = await runWithGitStatus(sub, "fix lib.js");
    expect(first).toContain("+export const one = 2;");
    expect(status).toContain("M lib.js");
  });
});

describe("file names git would quote", () => {
  test("a changed file named in any script is in the floor, and its diff names it as it is", async () => {
    project({ "src/café.js": "export const prix = 1;\n", "src/my notes.js": "export const n = 1;\n" });
    writeFileSync(join(world.ws, "src/café.js"), "export const prix = 2; // ACCENT-EDIT-2727\n");
    writeFileSync(join(world.ws, "src/my notes.js"), "export const n = 2; // SPACE-EDIT-2828\n");
    const { text } = await firstRequest("review my uncommitted changes");
    expect(text).toContain("ACCENT-EDIT-2727");
    expect(text).toContain("SPACE-EDIT-2828");
    expect(text).toContain("src/café.js");
    expect(text).not.toContain("caf\\\\303");
    // Named in a task, it is a target like any other path (committed now: not in the floor as a change).
    git(world.ws, "commit", "-qam", "edits");
    const named = await firstRequest("explain what src/café.js exports");
    expect(named.text).toMatch(/\[file_range src\/café\.js[^\]]*floor: user_named\]/);
  });
});


/**
 * A real Maven build from this machine's own Maven and local repository, when it has them (the
 * versions below are ones a machine of this kind carries): the sandbox has no network, so Maven
 * must be told it is offline, as npm, Cargo, Go and pip are, or it fails looking for what it could
 * have done without.
 */
const m2 = join(process.env.HOME ?? "/nonexistent", ".m2", "repository");
const MAVEN_PARTS = ["org/apache/maven/plugins/maven-surefire-plugin/3.2.5", "org/apache/maven/plugins/maven-compiler-plugin/3.13.0", "org/apache/maven/plugins/maven-resources-plugin/3.3.1", "org/junit/jupiter/junit-jupiter/5.10.2"];
const haveMaven = Bun.which("mvn") !== null && MAVEN_PARTS.every((p) => existsSync(join(m2, p)));
if (!haveMaven) console.warn("skipping the real Maven test: no mvn on the PATH or its artifacts are not in ~/.m2/repository");

describe.skipIf(!haveMaven)("verify with a real Maven and the local repository, in the sandbox", () => {
  const plugin = (id: string, v: string) => `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${id}</artifactId><version>${v}</version></plugin>`;
  const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>com.example</groupId><artifactId>calc</artifactId><version>1.0</version>
<properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency></dependencies>
<build><plugins>${plugin("maven-surefire-plugin", "3.2.5")}${plugin("maven-compiler-plugin", "3.13.0")}${plugin("maven-resources-plugin", "3.3.1")}</plugins></build>
</project>\n`;
  const mavenProject = (body: string) => {
    project({
      "pom.xml": pom,
      "package.json": "{}",
      "src/main/java/com/example/Calc.java": `package com.example;\npublic class Calc {\n  public static int add(int a, int b) { return ${body}; }\n}\n`,
      "src/test/java/com/example/CalcTest.java": "package com.example;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nclass CalcTest {\n  @Test void adds() { assertEquals(4, Calc.add(2, 2), \"ADD-IS-WRONG-5151\"); }\n}\n",
    });
    // The test's home lends Maven this machine's local repository; the sandbox shows it read-only.
    mkdirSync(join(world.home, ".m2"), { recursive: true });
    if (!existsSync(join(world.home, ".m2", "repository"))) symlinkSync(m2, join(world.home, ".m2", "repository"));
  };
  // Java takes its home from the password database, not from HOME. A person's HOME is that home; the
  // test's is a temp dir, so the JVM is told it, as it would find it for a person.
  const javaHome = () => ({ MAVEN_OPTS: `-Duser.home=${world.home}` });

  test("a failing test: verify shows JUnit's failure, and no word of the sandbox", async () => {
    mavenProject("a - b");
    const shown = await verifyResult(javaHome());
    expect(shown).toContain("ADD-IS-WRONG-5151");
    expect(shown).toContain("expected: <4> but was: <0>");
    expect(shown).not.toContain("blocked by the sandbox");
  });

  test("a passing test: verify passes, and what Maven built is held from the workspace (bytecode), listed by weir changes", async () => {
    mavenProject("a + b");
    const shown = await verifyResult(javaHome());
    expect(shown).toContain("all checks passed");
    expect(existsSync(join(world.ws, "target", "test-classes", "com", "example", "CalcTest.class"))).toBe(false);
    const held = await runWeir(["changes", "--json"], { home: world.home, cwd: world.ws });
    expect(held.stdout).toContain("target/test-classes/com/example/CalcTest.class");
  });
});
