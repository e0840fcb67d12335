import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Plan mode through the binary: the model investigates and plans, and nothing changes (a file
 * action is refused, a command that writes cannot, a tool that acts on the world is refused), until
 * the person accepts the plan on a terminal; without a terminal weir says how to go on.
 * accept-edits approves a file edit that would ask, never a command.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

function repository() {
  writeFileSync(join(world.ws, "notes.txt"), "original\n");
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
}

/** The model tries to write, to start a worker that writes, to change a file by a command, then plans. */
const planning = [
  { toolCalls: [{ id: "w1", name: "write_file", input: { path: "notes.txt", content: "changed\n" } }] },
  { toolCalls: [{ id: "s1", name: "spawn_agent", input: { goal: "write notes.txt", writes: ["notes.txt"], output_schema: { type: "object" } } }] },
  { toolCalls: [{ id: "c1", name: "run_command", input: { program: "sh", args: ["-c", "echo byshell > made.txt; echo changed > notes.txt"] } }] },
  { text: "1. Change notes.txt to say changed." },
];

describe("plan mode", () => {
  test("changes nothing: the write is refused, the command's writes fail in the kernel, and without a terminal weir says how to go on", async () => {
    repository();
    world.server.script({ turns: planning });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--mode", "plan", "--verify-floor", "off", "change the notes"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(world.ws, "made.txt"))).toBe(false);
    const sent = JSON.stringify(world.server.requests.slice(before).map((q) => q.body.messages));
    expect(sent).toContain("[weir plan mode] Plan this; change nothing yet.");
    expect(sent).toContain("refused: this is plan mode");
    expect(sent).toMatch(/refused: this is plan mode[^"]*spawn_agent/);
    // The command ran, and the kernel kept its writes out.
    expect(sent).toMatch(/made\.txt: Read-only file system/);
    expect(r.stderr).toContain('to carry the plan out: weir -c \\"carry out the plan\\"'.replaceAll("\\", ""));
  }, 60_000);

  test("on a terminal the person accepts the plan and it is carried out in the same conversation", async () => {
    repository();
    world.server.script({ turns: [...planning, { toolCalls: [{ id: "w2", name: "write_file", input: { path: "notes.txt", content: "changed\n" } }] }, { text: "done" }] });
    const before = world.server.requests.length;
    const t = weirInPty([...wire(), "--yes", "--mode", "plan", "--verify-floor", "off", "change the notes"], { home: world.home, cwd: world.ws });
    await t.waitFor("Carry out this plan now?", 20_000);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("original\n");
    t.write("y");
    t.write("\r");
    expect(await t.proc.exited).toBe(0);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("changed\n");
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(last).toContain("The person accepted the plan above");
    expect(last).toContain("1. Change notes.txt to say changed.");
    expect(world.server.requests.length - before).toBe(6);
  }, 60_000);

  test("accept-edits writes a file without asking, and still asks for a command", async () => {
    repository();
    // The person's config asks before file writes and commands.
    mkdirSync(join(world.home, ".config", "weir"), { recursive: true });
    writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ permissions: { actions: { write_file: "ask", run_command: "ask" } } }));
    world.server.script({
      turns: [
        { toolCalls: [{ id: "w1", name: "write_file", input: { path: "notes.txt", content: "edited\n" } }] },
        { toolCalls: [{ id: "c1", name: "run_command", input: { program: "sh", args: ["-c", "echo x > made.txt"] } }] },
        { text: "done" },
      ],
    });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--mode", "accept-edits", "--verify-floor", "off", "edit the notes"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("edited\n");
    expect(existsSync(join(world.ws, "made.txt"))).toBe(false);
    // Without a terminal no one answers the command's ask: it is refused, and the model told so.
    const sent = JSON.stringify(world.server.requests.slice(before).map((q) => q.body.messages));
    expect(sent).toMatch(/refused[^"]*run_command/);
    // Without the mode, the same write asks, and with no one to answer, it does not happen.
    world.server.script({ turns: [{ toolCalls: [{ id: "w3", name: "write_file", input: { path: "notes.txt", content: "again\n" } }] }, { text: "done" }] });
    expect((await runWeir([...wire(), "--verify-floor", "off", "edit the notes"], { home: world.home, cwd: world.ws })).code).toBe(0);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("edited\n");
    rmSync(join(world.home, ".config", "weir", "config.json"));
  }, 60_000);

  test("in the REPL Shift-Tab enters plan mode, the status bar says so, nothing changes, and /go carries the plan out", async () => {
    repository();
    world.server.script({ turns: [...planning, { toolCalls: [{ id: "w2", name: "write_file", input: { path: "notes.txt", content: "changed\n" } }] }, { text: "done" }] });
    const t = weirInPty([...wire(), "--yes", "--verify-floor", "off"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("/go\r");
    await t.waitFor("nothing to carry out");
    t.write("\x1b[Z");
    await t.waitFor("mode: plan");
    t.write("change the notes\r");
    await t.waitFor("/go carries the plan out");
    await t.waitFor(/plan mode · mock/);
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("original\n");
    expect(existsSync(join(world.ws, "made.txt"))).toBe(false);
    t.write("/go\r");
    await t.waitFor("done", 8000, t.text().lastIndexOf("/go"));
    expect(readFileSync(join(world.ws, "notes.txt"), "utf8")).toBe("changed\n");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("The person accepted the plan above");
    t.write("/exit\r");
    await t.exits(0);
  }, 60_000);
});
