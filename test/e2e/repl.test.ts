import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { MockServer } from "../support/mock-server.ts";
import { weirInPty } from "../support/pty.ts";
import { tempDir } from "../support/temp.ts";

let server: MockServer;
let tmp: ReturnType<typeof tempDir>;
let home: string;
let ws: string;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());
beforeEach(() => {
  tmp = tempDir();
  home = join(realpathSync(tmp.path), "home");
  ws = join(realpathSync(tmp.path), "project");
  mkdirSync(home);
  mkdirSync(ws);
});
afterEach(() => tmp.cleanup());

const args = () => ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock-model"];

describe("the REPL", () => {
  test("answers, keeps context across turns, shows the status line, and saves history", async () => {
    server.script({ turns: [{ text: "Hello from the REPL." }, { text: "Second answer." }] });
    const t = weirInPty(args(), { home, cwd: ws });
    await t.waitFor("/help for commands");
    t.write("first question\r");
    await t.waitFor("Hello from the REPL.");
    await t.waitFor(/mock-model · [\d.k]+\/200\.0k tokens · cache \d+% · session [0-9a-f]{8}/);
    t.write("second question\r");
    await t.waitFor("Second answer.");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("first question");
    t.write("/exit\r");
    expect(await t.proc.exited).toBe(0);
    const history = readFileSync(join(home, ".local", "share", "weir", "history"), "utf8");
    expect(history).toContain('"second question"');
  });

  test("an API error is reported and the REPL stays up; /help and /clear work", async () => {
    server.script({ turns: [{ fault: "garbage" }, { text: "recovered" }] });
    const t = weirInPty(args(), { home, cwd: ws });
    await t.waitFor("/help for commands");
    t.write("break please\r");
    await t.waitFor("malformed stream");
    t.write("/help\r");
    await t.waitFor("/model [ID]");
    t.write("/clear\r");
    await t.waitFor("new session");
    t.write("again\r");
    await t.waitFor("recovered");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).not.toContain("break please");
    t.write("\x04"); // Ctrl-D
    expect(await t.proc.exited).toBe(0);
  });

  test("Ctrl-C cancels the running turn and the REPL stays up", async () => {
    server.script({ turns: [{ fault: "hang" }, { text: "after cancel" }] });
    const t = weirInPty(args(), { home, cwd: ws });
    await t.waitFor("/help for commands");
    const before = server.requests.length;
    t.write("wait forever\r");
    while (server.requests.length === before) await Bun.sleep(20);
    t.write("\x03");
    await t.waitFor("cancelling");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("cancelling"));
    t.write("next\r");
    await t.waitFor("after cancel");
    t.write("/exit\r");
    expect(await t.proc.exited).toBe(0);
  });

  test("a risky action asks; denying it reaches the model as a refusal", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "s1", name: "shell", input: { command: "touch made-by-shell" } }] }, { text: "ok, not running it" }] });
    const t = weirInPty(args(), { home, cwd: ws });
    await t.waitFor("/help for commands");
    t.write("make a file\r");
    await t.waitFor("touch made-by-shell");
    await t.waitFor("allow once");
    t.write("\r"); // the default answer is deny
    await t.waitFor("ok, not running it");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("refused by the user");
    expect(existsSync(join(ws, "made-by-shell"))).toBe(false);

    server.script({ turns: [{ toolCalls: [{ id: "s2", name: "shell", input: { command: "touch made-by-shell" } }] }, { text: "made it" }] });
    const mark = t.text().length;
    t.write("now really\r");
    await t.waitFor("allow once", 8000, mark);
    t.write("\x1b[A\x1b[A\r"); // up twice: from deny to allow once
    await t.waitFor("made it", 8000, mark);
    expect(existsSync(join(ws, "made-by-shell"))).toBe(true);
    t.write("/exit\r");
    expect(await t.proc.exited).toBe(0);
  });

  test("/calls shows a running command with its verdict and /stop ends it while the turn goes on", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "long1", name: "run_command", input: { program: "sleep", args: ["30"] } }] }, { text: "the command was stopped" }] });
    const t = weirInPty([...args(), "--verify-floor", "off"], { home, cwd: ws });
    await t.waitFor("/help for commands");
    t.write("wait for sleep\r");
    await t.waitFor("▸ run_command");
    await Bun.sleep(200);
    const mark = t.text().length;
    t.write("/calls\r");
    await t.waitFor(/long1 +run_command .*busy.*pid \d+/, 8000, mark);
    t.write("/stop long1\r");
    await t.waitFor("stopped long1 (run_command)", 8000, mark);
    await t.waitFor("the command was stopped", 8000, mark);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("stopped by the user");
    t.write("/exit\r");
    expect(await t.proc.exited).toBe(0);
  });
});
