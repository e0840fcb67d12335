import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The guidance line each request ends with, through the binary: it never asks for work that cannot
 * help (weir.agent_context@4). A person's uncommitted changes the request already shows are not sent
 * to a review; a project with no test of the target is not told to read its tests; an empty
 * directory is not told to read first.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, input }] });
const GIT = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

function repository(files: Record<string, string>) {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(world.ws, p)), { recursive: true });
    writeFileSync(join(world.ws, p), text);
  }
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init", "--allow-empty"]]) expect(spawnSync("git", args, { cwd: world.ws, env: { ...process.env, ...GIT } }).status).toBe(0);
}

/**
 * One run with --yes and the model's `turns`: its exit code, the requests it sent, and each request's
 * guidance line (the newest user message's; empty where it did not change).
 */
async function run(task: string, turns: unknown[], flags = ["--verify-floor", "off"]) {
  world.server.script({ turns } as never);
  const first = world.server.requests.length;
  const { code } = await runWeir([...wire(), "--yes", ...flags, task, "--cwd", world.ws], { home: world.home });
  const requests = world.server.requests.slice(first);
  const lines = requests.map((r) => JSON.stringify(r.body.messages.at(-1)).match(/\[weir guidance\][^"\\]*/)?.[0] ?? "");
  return { code, requests, lines };
}

const CALC = "export const add = (a, b) => a + b;\n";
const CALC_DIRTY = `${CALC}export const sub = (a, b) => a + b;\n`;

describe("what the guidance line asks for", () => {
  test("uncommitted changes the working set showed are not sent to a review; the edit lands on the person's work", async () => {
    repository({ "calc.js": CALC });
    writeFileSync(join(world.ws, "calc.js"), CALC_DIRTY);
    const r = await run("fix sub in calc.js", [call("e1", "edit_file", { path: "calc.js", old_string: "sub = (a, b) => a + b", new_string: "sub = (a, b) => a - b" }), { text: "fixed sub" }]);
    expect(r.code).toBe(0);
    // The person's change is in the request, as a diff, and no request asks to review it again.
    expect(JSON.stringify(r.requests[0]!.body.messages)).toContain("+export const sub = (a, b) => a + b;");
    const lines = r.lines;
    expect(lines[0]).toContain("[weir guidance] next: edit_then_verify");
    expect(lines.join("\n")).not.toContain("review_worktree");
    expect(readFileSync(join(world.ws, "calc.js"), "utf8")).toBe(`${CALC}export const sub = (a, b) => a - b;\n`);
  });

  test("changes a larger change pushed out of the request are reviewed, until the model's git diff shows them", async () => {
    const big = (word: string) => Array.from({ length: 3000 }, (_, i) => `${word} ${i} of the data`).join("\n");
    // git diff lists data/ before src/: the larger change fills the diff the request can show.
    repository({ "src/calc.js": CALC, "data/big.txt": big("line") });
    writeFileSync(join(world.ws, "data/big.txt"), big("row, changed,"));
    writeFileSync(join(world.ws, "src/calc.js"), CALC_DIRTY);
    const r = await run("fix sub in src/calc.js", [call("g1", "run_command", { program: "git", args: ["diff", "--", "src/calc.js"] }), { text: "seen" }]);
    expect(r.code).toBe(0);
    const [before, after] = r.lines;
    expect(before).toContain("next: review_worktree");
    expect(before).toContain("(git diff)");
    expect(after).toContain("next: edit_then_verify");
  });

  test("a file the model's own command changed after it was read is to be read again, not reviewed with git diff", async () => {
    repository({ "calc.js": CALC });
    const format = { program: process.execPath, args: ["-e", `require("fs").writeFileSync("calc.js", ${JSON.stringify(CALC.replace("=>", " => "))})`] };
    const r = await run("tidy calc.js", [call("r1", "read_file", { path: "calc.js" }), call("c1", "run_command", format), { text: "done" }]);
    expect(r.code).toBe(0);
    const after = r.lines[2]!;
    expect(after).toContain("next: review_worktree. read again the files that changed on disk since you read them before editing");
    expect(after).not.toContain("git diff");
  });

  test("a project with no test of the target is not told to read its tests", async () => {
    repository({ "pkg/__init__.py": "", "pkg/util.py": "def slug(s):\n    return s.lower()\n" });
    const r = await run("make slug in pkg/util.py replace spaces with dashes", [call("r1", "read_file", { path: "pkg/util.py" }), { text: "done" }]);
    expect(r.code).toBe(0);
    const lines = r.lines.filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toContain("next: edit_then_verify");
      expect(line).not.toContain("read the missing");
    }
  });

  test("a test of the target that exists and is unread is asked for", async () => {
    repository({ "pkg/__init__.py": "", "pkg/util.py": "def slug(s):\n    return s.lower()\n", "tests/test_util.py": "from pkg.util import slug\n\ndef test_slug():\n    assert slug('A') == 'a'\n" });
    const r = await run("make slug in pkg/util.py replace spaces with dashes", [{ text: "done" }], ["--verify-floor", "off", "--budget", "1"]);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toContain("next: retrieve. read the missing source, tests or failure locations before editing");
  });

  test("without project checks, verifying is running what exercises the change: run_command is offered, and asked for once", async () => {
    const r = await run("create hello.py that prints hi", [call("w1", "write_file", { path: "hello.py", content: "print('hi')\n" }), { text: "wrote it" }, { text: "it prints hi" }, { text: "unused" }], ["--verify-floor", "require"]);
    expect(r.code).toBe(0);
    const requests = r.requests;
    // The write, the answer, the floor's one reminder and the answer to it: no second reminder.
    expect(requests).toHaveLength(3);
    const after = r.lines[1]!;
    expect(after).toContain("check the change after editing by running what exercises it (run_command)");
    expect(after).not.toContain("(verify)");
    const last = JSON.stringify(requests.at(-1)!.body.messages.at(-1));
    expect(last).toContain("weir found no project checks");
    expect(last).not.toContain("Run verify");
    expect(requests.at(-1)!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("run_command");
  });

  test("with a test script, verifying is verify", async () => {
    repository({ "package.json": JSON.stringify({ name: "p", scripts: { test: "node -e 0" } }), "calc.js": "module.exports = 1;\n" });
    const r = await run("make calc.js export 2", [call("e1", "edit_file", { path: "calc.js", old_string: "= 1", new_string: "= 2" }), { text: "done" }, { text: "unused" }]);
    expect(r.code).toBe(0);
    const after = r.lines[1]!;
    expect(after).toContain("verify after editing (verify)");
    expect(after).not.toContain("run_command");
  });

  test("an empty directory is not told to read before it writes", async () => {
    const r = await run("create hello.py that prints hi", [call("w1", "write_file", { path: "hello.py", content: "print('hi')\n" }), { text: "wrote hello.py" }]);
    expect(r.code).toBe(0);
    const lines = r.lines;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("next: edit_then_verify");
    for (const line of lines.filter(Boolean)) expect(line).not.toContain("read the missing");
    expect(readFileSync(join(world.ws, "hello.py"), "utf8")).toBe("print('hi')\n");
  });
});
