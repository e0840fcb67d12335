import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The test map's recorded part, through the binary: a test that runs the program (it neither
 * imports the file it exercises nor is named after it) fails under verify, the model fixes the
 * source, verify passes, and from then on a task about that source gets the test, in `weir context`,
 * in `weir serve --mcp`'s map and in the first request the model receives.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

function git(cwd: string, ...args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  expect(Bun.spawnSync(["git", ...args], { cwd, env }).exitCode).toBe(0);
}

const BUGGY = "export function sum(xs) {\n  return xs.reduce((a, b) => a + b, 1);\n}\n";

function project() {
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "adder", type: "module", scripts: { test: "node --test" } }),
    "src/calc.js": BUGGY,
    "src/main.js": 'import { sum } from "./calc.js";\nconsole.log(String(sum(process.argv.slice(2).map(Number))));\n',
    // Runs the program: no import of src/calc.js, no name like it, none of the task's words.
    "test/cli.test.js":
      'import test from "node:test";\nimport assert from "node:assert";\nimport { spawnSync } from "node:child_process";\n' +
      'test("the program prints what it is given, added up", () => {\n' +
      '  const r = spawnSync(process.execPath, ["src/main.js", "2", "3"], { encoding: "utf8" });\n' +
      '  assert.strictEqual(r.stdout.trim(), "5", "CLI-TEST-BODY-4242");\n});\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) git(world.ws, ...args);
}

/** The compiled working set's test entries for a task, as `weir context --json` explains them. */
async function testEntries(task: string): Promise<{ source: string; why: string }[]> {
  const r = await runWeir([...wire(), "context", "--json", task], { home: world.home, cwd: world.ws });
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as { entries: { kind: string; source: string; why: string }[] };
  return out.entries.filter((e) => e.kind === "test").map((e) => ({ source: e.source, why: e.why }));
}

/** A run whose model sees verify fail, fixes src/calc.js, and sees verify pass. */
async function fixingRun(): Promise<void> {
  world.server.script({
    turns: [
      { toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }] },
      { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/calc.js", old_string: "a + b, 1)", new_string: "a + b, 0)" } }] },
      { toolCalls: [{ id: "v2", name: "verify", input: { level: "quick" } }] },
      { text: "Fixed: the sum started at 1." },
    ],
  });
  const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "the sum in src/calc.js is off by one; fix it"], { home: world.home, cwd: world.ws });
  expect(r.code).toBe(0);
  const last = JSON.stringify(world.server.requests.at(-1)!.body.messages);
  expect(last).toContain("FAILED (exit 1)");
  expect(last).toContain("all checks passed");
}

describe("the test map from what verify runs recorded", () => {
  test("a test verify saw fail, then pass once src/calc.js changed, is mapped to it from then on", async () => {
    project();
    const task = "change how src/calc.js adds numbers";
    // Before any check ran, nothing ties the test to the file.
    expect((await testEntries(task)).map((e) => e.source)).not.toContain("test/cli.test.js");

    await fixingRun();
    expect(readFileSync(join(world.ws, "src/calc.js"), "utf8")).toContain("a + b, 0)");

    const after = await testEntries(task);
    expect(after).toContainEqual({ source: "test/cli.test.js", why: expect.stringContaining("a check saw it fail, then pass once a target changed") });
    // What the model receives: the test's body is in the first request of the next task.
    world.server.script({ turns: [{ text: "ok" }] });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--verify-floor", "off", task], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).toContain("CLI-TEST-BODY-4242");
  });

  test("a fix verify never saw fail links nothing, and a link to a test that is gone is not used", async () => {
    project();
    // The model fixes the file with no failing check first: a pass alone says nothing of which test.
    world.server.script({
      turns: [
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/calc.js", old_string: "a + b, 1)", new_string: "a + b, 0)" } }] },
        { toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }] },
        { text: "Done." },
      ],
    });
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "the sum in src/calc.js is off by one; fix it"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect((await testEntries("change how src/calc.js adds numbers")).map((e) => e.source)).not.toContain("test/cli.test.js");

    // Put the bug back and record the link; then the test goes, and the link with it.
    writeFileSync(join(world.ws, "src/calc.js"), BUGGY);
    await fixingRun();
    expect((await testEntries("change how src/calc.js adds numbers")).map((e) => e.source)).toContain("test/cli.test.js");
    git(world.ws, "rm", "-q", "test/cli.test.js");
    expect((await testEntries("change how src/calc.js adds numbers")).map((e) => e.source)).not.toContain("test/cli.test.js");
  });

  test("a worker's fix is recorded as the main agent's is", async () => {
    project();
    const call = (id: string, name: string, input: unknown) => ({ id, name, input });
    world.server.script({
      turns: [
        { toolCalls: [call("sp1", "spawn_agent", { goal: "GOAL-FIX-SUM: the sum in src/calc.js is off by one; fix it", writes: ["src/calc.js"] })] },
        { toolCalls: [call("wt1", "wait_agents", {})] },
        { text: "MAIN-DONE" },
      ],
    });
    world.server.route("GOAL-FIX-SUM", [
      { toolCalls: [call("v1", "verify", { level: "quick" })] },
      { toolCalls: [call("e1", "edit_file", { path: "src/calc.js", old_string: "a + b, 1)", new_string: "a + b, 0)" })] },
      { toolCalls: [call("v2", "verify", { level: "quick" })] },
      { text: "fixed" },
    ]);
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "MAIN-TASK: have a worker fix the sum"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("MAIN-DONE");
    expect(readFileSync(join(world.ws, "src/calc.js"), "utf8")).toContain("a + b, 0)");
    expect((await testEntries("change how src/calc.js adds numbers")).map((e) => e.source)).toContain("test/cli.test.js");
  });
});
