import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import type { ScriptedToolCall } from "../support/mock-server.ts";
import { tempDir } from "../support/temp.ts";
import { e2eWorld } from "../support/world.ts";
import { detectSandbox } from "../../src/workspace/sandbox.ts";
import { viewTools } from "../../src/workspace/view.ts";

/**
 * `weir undo` through the binary: what file actions and commands changed in a task is put back
 * exactly (contents, removals, modes, files made), newest task first, and a file the person changed
 * since refuses the whole undo. The workspace on disk is the oracle.
 */
const world = e2eWorld();
const probe = tempDir("weir-undo-probe-");
const transactions = detectSandbox().kind === "bwrap" && viewTools(probe.path) !== null;
probe.cleanup();

const MODEL = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--tools", "all", "--yes"];
const call = (id: string, name: string, input: unknown): ScriptedToolCall => ({ id, name, input });
const sh = (id: string, command: string) => call(id, "shell", { command });

async function task(calls: ScriptedToolCall[], text = "change things") {
  world.server.script({ turns: [...calls.map((c) => ({ toolCalls: [c] })), { text: "done" }] });
  const r = await runWeir([...MODEL(), "--cwd", world.ws, text], { home: world.home });
  expect(r.code).toBe(0);
}
const weir = (...args: string[]) => runWeir([...args, "--cwd", world.ws], { home: world.home });
const read = (rel: string) => readFileSync(join(world.ws, rel), "utf8");

describe("weir undo", () => {
  test("puts back what the file actions of the last task changed: a file made goes, a file edited is as it was", async () => {
    writeFileSync(join(world.ws, "a.txt"), "alpha\n");
    await task([call("r", "read_file", { path: "a.txt" }), call("e", "edit_file", { path: "a.txt", old_string: "alpha", new_string: "ALPHA" }), call("w", "write_file", { path: "new.txt", content: "made\n" })]);
    expect([read("a.txt"), read("new.txt")]).toEqual(["ALPHA\n", "made\n"]);
    const r = await weir("undo");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("undid the last task: 2 paths as they were");
    expect(r.stdout).toContain("new.txt: removed (weir made it)");
    expect(read("a.txt")).toBe("alpha\n");
    expect(existsSync(join(world.ws, "new.txt"))).toBe(false);
    // Nothing is left to undo once it is undone.
    const again = await weir("undo");
    expect([again.code, again.stderr.trim()]).toEqual([2, "weir: nothing to undo in this workspace"]);
  });

  test.skipIf(!transactions)("puts back what commands changed: a removal, a rewrite, a mode and a directory made, across two tasks", async () => {
    writeFileSync(join(world.ws, "keep.txt"), "keep\n");
    writeFileSync(join(world.ws, "run.sh"), "echo hi\n");
    chmodSync(join(world.ws, "run.sh"), 0o644);
    await task([sh("a", "rm keep.txt && echo two > run.sh")], "first task");
    await task([sh("b", "mkdir -p out/deep && echo x > out/deep/f.txt && chmod 600 run.sh")], "second task");
    expect(existsSync(join(world.ws, "keep.txt"))).toBe(false);
    expect(statSync(join(world.ws, "run.sh")).mode & 0o777).toBe(0o600);
    const r = await weir("undo", "2");
    expect(r.code).toBe(0);
    expect(read("keep.txt")).toBe("keep\n");
    expect(read("run.sh")).toBe("echo hi\n");
    expect(statSync(join(world.ws, "run.sh")).mode & 0o777).toBe(0o644);
    expect(existsSync(join(world.ws, "out"))).toBe(false);
  });

  test("a file the person changed since weir wrote it refuses the whole undo, in one line, and changes nothing", async () => {
    writeFileSync(join(world.ws, "a.txt"), "alpha\n");
    await task([call("r", "read_file", { path: "a.txt" }), call("w1", "write_file", { path: "a.txt", content: "by weir\n" }), call("w2", "write_file", { path: "b.txt", content: "also weir\n" })]);
    expect(read("a.txt")).toBe("by weir\n");
    writeFileSync(join(world.ws, "a.txt"), "by the person\n");
    const r = await weir("undo");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual(['weir: a.txt changed since weir left it (task "change things"); nothing was undone']);
    expect([read("a.txt"), read("b.txt")]).toEqual(["by the person\n", "also weir\n"]);
    const bad = await weir("undo", "zero");
    expect([bad.code, bad.stderr.trim().split("\n").length]).toEqual([2, 1]);
  });
});
