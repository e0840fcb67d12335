import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";
import { tempDir } from "../support/temp.ts";
import { detectSandbox } from "../../src/workspace/sandbox.ts";
import { viewTools } from "../../src/workspace/view.ts";

const world = e2eWorld();
const scratch = tempDir("weir-repl-probe-");
/** Whether commands run as transactions here (bubblewrap and an unprivileged overlay). */
const transactions = detectSandbox().kind === "bwrap" && viewTools(scratch.path) !== null;
scratch.cleanup();

const args = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-model"];

describe("the REPL", () => {
  test("answers, keeps context across turns, shows the status line, and saves history", async () => {
    world.server.script({ turns: [{ text: "Hello from the REPL." }, { text: "Second answer." }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("first question\r");
    await t.waitFor("Hello from the REPL.");
    await t.waitFor(/mock-model · [\d.k]+\/200\.0k tokens · cache \d+% · session [0-9a-f]{8}/);
    t.write("second question\r");
    await t.waitFor("Second answer.");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("first question");
    t.write("/exit\r");
    await t.exits(0);
    const history = readFileSync(join(world.home, ".local", "share", "weir", "history"), "utf8");
    expect(history).toContain('"second question"');
  });

  test("/init asks the model to write AGENTS.md; the write asks (it instructs later sessions) and lands once allowed", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "i1", name: "write_file", input: { path: "AGENTS.md", content: "# Agents\nRun bun test.\n" } }] }, { text: "Wrote AGENTS.md." }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("/init\r");
    await t.waitFor("instructs the next agent session");
    t.write("\x1b[A\r"); // from "deny" up to "allow for this session"
    await t.waitFor("Wrote AGENTS.md.");
    // The turn is over only when the status line is back (the verification floor sends the model back once).
    await t.waitFor(/tokens · cache \d+%/, 8000, t.text().indexOf("Wrote AGENTS.md."));
    expect(JSON.stringify(world.server.requests.at(-2)!.body.messages)).toContain("Write an AGENTS.md at the root of this repository");
    expect(readFileSync(join(world.ws, "AGENTS.md"), "utf8")).toBe("# Agents\nRun bun test.\n");
    t.write("/exit\r");
    await t.exits(0);
  });

  test.skipIf(!transactions)("/changes lists what a command's change set held and applies it on the person's word", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "c1", name: "run_command", input: { program: "sh", args: ["-c", "printf 'save-exact=true\\n' > .npmrc"] } }] }, { text: "Set it." }] });
    const t = weirInPty([...args(), "--yes"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("set npm to save exact versions\r");
    await t.waitFor("Set it.");
    await t.waitFor(/tokens · cache \d+%/, 8000, t.text().indexOf("Set it."));
    expect(existsSync(join(world.ws, ".npmrc"))).toBe(false);
    t.write("/changes\r");
    await t.waitFor("weir changes apply ID writes it to the workspace");
    expect(t.text()).toContain(".npmrc: .npmrc is configuration a tool or agent acts on later");
    const id = /(?:^|\s)([A-Za-z0-9]{6}) {2}\d{4}-\d\d-\d\d /.exec(t.text())![1]!;
    t.write(`/changes apply ${id}\r`);
    await t.waitFor(`applied change set ${id}`);
    expect(readFileSync(join(world.ws, ".npmrc"), "utf8")).toBe("save-exact=true\n");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("/undo puts back the last task's writes and says what came back", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "notes.txt", content: "made\n" } }] }, { text: "Wrote it." }] });
    const t = weirInPty([...args(), "--tools", "all"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("write the notes\r");
    await t.waitFor("Wrote it.");
    await t.waitFor(/tokens · cache \d+%/, 8000, t.text().indexOf("Wrote it."));
    expect(existsSync(join(world.ws, "notes.txt"))).toBe(true);
    t.write("/undo\r");
    await t.waitFor("notes.txt: removed (weir made it)");
    expect(existsSync(join(world.ws, "notes.txt"))).toBe(false);
    t.write("/exit\r");
    await t.exits(0);
  });

  test("/sessions marks the session in use", async () => {
    world.server.script({ turns: [{ text: "First answer." }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("hello\r");
    await t.waitFor("First answer.");
    const id = /session ([0-9a-f]{8})/.exec(t.text())![1]!;
    t.write("/sessions\r");
    await t.waitFor(`* ${id}`);
    t.write("/exit\r");
    await t.exits(0);
  });

  test("a multi-line paste is one prompt: the terminal's bracketed paste keeps its lines together", async () => {
    world.server.script({ turns: [{ text: "one message" }, { text: "unused" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const before = world.server.requests.length;
    t.write("\x1b[200~FAIL src/a.test.ts\r  expected 4\r  received 5\rat sum (src/a.ts:3:9)\x1b[201~");
    t.write(" why?\r");
    await t.waitFor("one message");
    await Bun.sleep(300);
    expect(world.server.requests.length - before).toBe(1);
    const sent = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(sent).toContain("FAIL src/a.test.ts\\n  expected 4\\n  received 5\\nat sum (src/a.ts:3:9) why?");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("on a colour terminal an answer shows as it streams, before its Markdown block ends", async () => {
    const text = `The STREAM-MARK-1 answer begins here ${"and goes on word by word ".repeat(12)}until the end.`;
    world.server.script({ turns: [{ text, chunkSize: 6, partDelayMs: 60 }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws, env: { NO_COLOR: "" } });
    await t.waitFor("/help for commands");
    t.write("tell me\r");
    // The whole answer takes about four seconds to stream; its first words show long before.
    await t.waitFor("STREAM-MARK-1", 2_000);
    await t.waitFor("until the end.", 10_000);
    t.write("/exit\r");
    await t.exits(0);
  });

  test("/model picks from what the endpoint offers and switches only to a model it has", async () => {
    world.server.script({ turns: [{ text: "from b" }, { text: "from a" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    let mark = t.text().length;
    t.write("/model\r");
    await t.waitFor("mock-b", 8000, mark);
    t.write("\x1b[B\r"); // down from mock-a to mock-b
    await t.waitFor("→ mock-b", 8000, mark);
    mark = t.text().length;
    t.write("/model no-such-model\r");
    await t.waitFor("no model no-such-model at this endpoint; it offers: mock-a, mock-b", 8000, mark);
    t.write("hello\r");
    await t.waitFor("from b", 8000, mark);
    expect(world.server.requests.at(-1)!.body.model).toBe("mock-b");
    mark = t.text().length;
    t.write("/model mock-a\r");
    await t.waitFor("mock-b → mock-a", 8000, mark);
    t.write("again\r");
    await t.waitFor("from a", 8000, mark);
    expect(world.server.requests.at(-1)!.body.model).toBe("mock-a");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("a one-shot run on a terminal says it waits for the model, then shows the answer alone", async () => {
    world.server.script({ turns: [{ text: "ONE-SHOT-ANSWER", delayMs: 1_500 }] });
    const t = weirInPty([...args(), "--verify-floor", "off", "say it"], { home: world.home, cwd: world.ws });
    await t.waitFor("model thinking", 5_000);
    await t.waitFor("ONE-SHOT-ANSWER", 8_000);
    await t.exits(0);
  });

  test("/status and /cost say what the session has used", async () => {
    world.server.script({ turns: [{ text: "counted" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("count this\r");
    await t.waitFor("counted");
    await t.waitFor(/tokens · cache \d+%/, 8000, t.text().indexOf("counted"));
    const mark = t.text().length;
    t.write("/status\r");
    await t.waitFor(/session [0-9a-f]{8}/, 8000, mark);
    t.write("/cost\r");
    await t.waitFor(/input [\d,]+ · cache read [\d,]+ · cache write [\d,]+ · output [\d,]+ tokens/, 8000, mark);
    await t.waitFor("no price known for this model", 8000, mark);
    t.write("/compact\r");
    await t.waitFor("nothing to compact yet", 8000, mark);
    t.write("/exit\r");
    await t.exits(0);
  });

  test("an API error is reported and the REPL stays up; /help and /clear work", async () => {
    world.server.script({ turns: [{ fault: "garbage" }, { text: "recovered" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("break please\r");
    await t.waitFor("malformed stream");
    t.write("/help\r");
    await t.waitFor("/model [ID]");
    t.write("/clear\r");
    await t.waitFor("new session");
    t.write("again\r");
    await t.waitFor("recovered");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).not.toContain("break please");
    t.write("\x04"); // Ctrl-D
    await t.exits(0);
  });

  test("Ctrl-C cancels the running turn and the REPL stays up", async () => {
    world.server.script({ turns: [{ fault: "hang" }, { text: "after cancel" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const before = world.server.requests.length;
    t.write("wait forever\r");
    while (world.server.requests.length === before) await Bun.sleep(20);
    t.write("\x03");
    await t.waitFor("cancelling");
    // "cancelling…" is followed by the word that it is over.
    await t.waitFor("cancelled", 8000, t.text().lastIndexOf("cancelling…") + 12);
    await t.waitFor("› ", 8000, t.text().lastIndexOf("cancelling"));
    t.write("next\r");
    await t.waitFor("after cancel");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("a risky action asks; denying it reaches the model as a refusal", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "s1", name: "shell", input: { command: "touch made-by-shell" } }] }, { text: "ok, not running it" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("make a file\r");
    await t.waitFor("touch made-by-shell");
    await t.waitFor("allow once");
    t.write("\r"); // the default answer is deny
    await t.waitFor("ok, not running it");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("refused by the user");
    expect(existsSync(join(world.ws, "made-by-shell"))).toBe(false);

    world.server.script({ turns: [{ toolCalls: [{ id: "s2", name: "shell", input: { command: "touch made-by-shell" } }] }, { text: "made it" }] });
    const mark = t.text().length;
    t.write("now really\r");
    await t.waitFor("allow once", 8000, mark);
    t.write("\x1b[A\x1b[A\r"); // up twice: from deny to allow once
    await t.waitFor("made it", 8000, mark);
    expect(existsSync(join(world.ws, "made-by-shell"))).toBe(true);
    t.write("/exit\r");
    await t.exits(0);
  });

  test("after an approval the keys still work: Ctrl-C cancels the next turn instead of ending weir, and typed text arrives whole", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "s1", name: "shell", input: { command: "echo hi" } }] }, { text: "ran it" }, { fault: "hang" }, { text: "hello back" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("run it\r");
    await t.waitFor("allow once");
    t.write("\x1b[A\x1b[A\r");
    await t.waitFor("ran it");
    await t.waitFor(/tokens · cache \d+%/, 8000, t.text().indexOf("ran it"));
    const before = world.server.requests.length;
    t.write("wait forever\r");
    while (world.server.requests.length === before) await Bun.sleep(20);
    t.write("\x03");
    await t.waitFor("cancelling", 8000, t.text().lastIndexOf("wait forever"));
    await t.waitFor("› ", 8000, t.text().lastIndexOf("cancelling"));
    t.write("hello\r");
    await t.waitFor("hello back");
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(last).toContain('"hello');
    t.write("/exit\r");
    await t.exits(0);
  });

  test("/calls shows a running command with its verdict and /stop ends it while the turn goes on", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "long1", name: "run_command", input: { program: "sleep", args: ["30"] } }] }, { text: "the command was stopped" }] });
    const t = weirInPty([...args(), "--verify-floor", "off"], { home: world.home, cwd: world.ws });
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
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("stopped by the user");
    t.write("/exit\r");
    await t.exits(0);
  });
  test("/agents lists a worker while the turn runs and /agents stop ends it; the main agent then gets its report", async () => {
    world.server.script({
      turns: [
        { toolCalls: [{ id: "sp1", name: "spawn_agent", input: { goal: "GOAL-PTY: think for a long time", label: "thinker" } }] },
        { toolCalls: [{ id: "wt1", name: "wait_agents", input: { timeout_ms: 60000 } }] },
        { text: "the worker was stopped by you" },
      ],
    });
    world.server.route("GOAL-PTY", [{ toolCalls: [{ id: "l1", name: "list_files", input: {} }] }, { text: "late", delayMs: 30_000 }]);
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("fan out\r");
    await t.waitFor("▸ wait_agents");
    await t.waitFor("↳ w1 thinker ▸ list_files");
    await Bun.sleep(100);
    const mark = t.text().length;
    t.write("/agents\r");
    await t.waitFor(/w1 +thinker +running .*1 calls/, 8000, mark);
    t.write("/agents stop w1\r");
    await t.waitFor("w1 (thinker): stopped", 8000, mark);
    await t.waitFor("the worker was stopped by you", 8000, mark);
    await t.waitFor(/workers [\d.k]+ tokens · session/, 8000, mark);
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    expect(last).toContain("w1 (thinker): stopped");
    t.write("/exit\r");
    await t.exits(0);
  });
  test("a line typed while an answer streams is queued and sent as the next message once the turn ends", async () => {
    world.server.script({ turns: [{ text: "first answer, slowly", delayMs: 1500 }, { text: "answer to the queued line" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const before = world.server.requests.length;
    t.write("slow question\r");
    while (world.server.requests.length === before) await Bun.sleep(20);
    t.write("QUEUED-LINE follow up\r");
    await t.waitFor("queued for after this turn: QUEUED-LINE follow up");
    await t.waitFor("first answer, slowly");
    await t.waitFor("answer to the queued line");
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(last).toContain("slow question");
    expect(last).toContain("QUEUED-LINE follow up");
    // It was not mixed into the first turn.
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).not.toContain("QUEUED-LINE");
    t.write("/exit\r");
    await t.exits(0);
  });
  test("Esc cancels the running turn", async () => {
    world.server.script({ turns: [{ fault: "hang" }, { text: "after escape" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const before = world.server.requests.length;
    t.write("wait forever\r");
    while (world.server.requests.length === before) await Bun.sleep(20);
    t.write("\x1b");
    await t.waitFor("cancelling");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("cancelling"));
    t.write("next\r");
    await t.waitFor("after escape");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("@path completes with Tab and puts the file in the working set; !cmd, the person's own command, runs in the sandbox without a question and reaches the model quoted", async () => {
    mkdirSync(join(world.ws, "src", "deep"), { recursive: true });
    writeFileSync(join(world.ws, "src", "deep", "mentioned.ts"), "export const MENTIONED_SENTINEL = 1;\n");
    world.server.script({ turns: [{ text: "saw the file" }, { text: "saw your command" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("look at @src/d\t");
    await t.waitFor("@src/deep/");
    t.write("\t");
    await t.waitFor("@src/deep/mentioned.ts");
    t.write("\r");
    await t.waitFor("saw the file");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages[1])).toContain("MENTIONED_SENTINEL");
    const mark = t.text().length;
    // The person's own command runs without a question (still in the sandbox).
    t.write("!echo hello-from-user\r");
    await t.waitFor("hello-from-user", 8000, mark + 25);
    expect(t.text().slice(mark)).not.toContain("allow once");
    t.write("what did I run?\r");
    await t.waitFor("saw your command");
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    expect(last).toContain("commands I ran myself");
    expect(last).toContain("hello-from-user");
    expect(last).toContain("UNTRUSTED-DATA");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("/resume lists sessions and continues one, showing its conversation", async () => {
    world.server.script({ turns: [{ text: "first answer" }, { text: "answer in the resumed session" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("RESUME-ME question\r");
    await t.waitFor(/session ([0-9a-f]{8})/);
    const id = /session ([0-9a-f]{8})/.exec(t.text())![1]!;
    t.write("/clear\r");
    await t.waitFor("new session");
    t.write("/resume\r");
    await t.waitFor("/resume ID continues one");
    t.write(`/resume ${id}\r`);
    await t.waitFor(`resumed session ${id}`);
    await t.waitFor("you:  RESUME-ME question");
    await t.waitFor("weir: first answer");
    // The status bar counts the resumed conversation before any request, not 0.
    const resumedAt = t.text().lastIndexOf(`resumed session ${id}`);
    await t.waitFor(/mock-model · [1-9][\d.k]*\/200\.0k tokens/, 5000, resumedAt);
    t.write("and now?\r");
    await t.waitFor("answer in the resumed session");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("RESUME-ME question");
    t.write("/exit\r");
    await t.exits(0);
  });
  test("while the model is slow, a spinner says what is being waited for and for how long, and the answer replaces it", async () => {
    world.server.script({ turns: [{ text: "finally here", delayMs: 2_300 }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const mark = t.text().length;
    t.write("take your time\r");
    await t.waitFor(/model thinking 2s/, 8000, mark);
    await t.waitFor("finally here", 8000, mark);
    t.write("/exit\r");
    await t.exits(0);
  });
  test("a worker's report the last turn did not collect opens the next turn", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "sp1", name: "spawn_agent", input: { goal: "GOAL-LEFT: quick look", label: "quick" } }] }, { text: "moving on without waiting", delayMs: 300 }, { text: "saw the report" }] });
    world.server.route("GOAL-LEFT", [{ text: '{"summary": "UNCOLLECTED-REPORT"}' }]);
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("start something\r");
    await t.waitFor("moving on without waiting");
    await t.waitFor(/tokens · cache/);
    t.write("anything new?\r");
    await t.waitFor("saw the report");
    const last = JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    expect(last).toContain("not collected");
    expect(last).toContain("UNCOLLECTED-REPORT");
    expect(last).toContain("UNTRUSTED-DATA");
    t.write("/exit\r");
    await t.exits(0);
  });
});

describe("images in the REPL", () => {
  test("an absolute image path typed at the prompt is attached from where it is; a command template naming it is refused in one line", async () => {
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const desk = join(world.tmp, "Desktop");
    mkdirSync(desk, { recursive: true });
    const shot = join(desk, "repl-shot.png");
    writeFileSync(shot, png);
    mkdirSync(join(world.ws, ".weir", "commands"), { recursive: true });
    writeFileSync(join(world.ws, ".weir", "commands", "peek.md"), `Describe @${shot} please.\n`);
    world.server.script({ turns: [{ text: "A single pixel." }] });
    const before = world.server.requests.length;
    const t = weirInPty([...args(), "--verify-floor", "off"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write(`what is in @${shot}?\r`);
    await t.waitFor("A single pixel.");
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).toContain(png.toString("base64"));
    t.write("/peek\r");
    await t.waitFor("cannot be attached");
    expect(world.server.requests.length).toBe(before + 1);
    t.write("/exit\r");
    await t.exits(0);
  });
});

describe("follow-ups in the REPL", () => {
  /** The text of the newest user message in a request (the follow-up and what weir added to it). */
  const lastUser = (body: { messages: { role: string; content: unknown }[] }) => JSON.stringify(body.messages.filter((m) => m.role === "user").at(-1)!.content);

  test("a follow-up that names nothing adds no working set; one that names a file adds only that file", async () => {
    mkdirSync(join(world.ws, "src"), { recursive: true });
    writeFileSync(join(world.ws, "src", "thanks.md"), "Thanks to THANKS-FILE-1212 everyone.\n");
    writeFileSync(join(world.ws, "src", "calc.js"), "export const calc = () => 1; // CALC-FILE-3434\n");
    world.server.script({ turns: [{ text: "First." }, { text: "You are welcome." }, { text: "Looked." }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("explain src/calc.js\r");
    await t.waitFor("First.");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("First."));
    t.write("thanks\r");
    await t.waitFor("You are welcome.");
    const thanks = lastUser(world.server.requests.at(-1)!.body);
    expect(thanks).not.toContain("[weir context");
    expect(thanks).not.toContain("THANKS-FILE-1212");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("You are welcome."));
    // A file the conversation has not seen yet.
    writeFileSync(join(world.ws, "src", "other.js"), "export const other = 2; // OTHER-FILE-5656\n");
    t.write("and src/other.js?\r");
    await t.waitFor("Looked.");
    const named = lastUser(world.server.requests.at(-1)!.body);
    expect(named).toContain("OTHER-FILE-5656");
    // What the conversation already holds is not sent again.
    expect(named).not.toContain("CALC-FILE-3434");
    t.write("/exit\r");
    await t.exits(0);
  });

  test("after Esc, the next request says once that the previous prompt was interrupted, with one working set", async () => {
    mkdirSync(join(world.ws, "src"), { recursive: true });
    writeFileSync(join(world.ws, "src", "calc.js"), "export const calc = () => 1; // CALC-FILE-3434\n");
    world.server.script({ turns: [{ fault: "hang" }, { text: "after escape" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    const before = world.server.requests.length;
    t.write("look at src/calc.js\r");
    while (world.server.requests.length === before) await Bun.sleep(20);
    t.write("\x1b");
    await t.waitFor("cancelling");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("cancelling"));
    t.write("never mind, what is 2+2?\r");
    await t.waitFor("after escape");
    const sent = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(sent.split("interrupted").length - 1).toBe(1);
    expect(sent.split("[weir context").length - 1).toBe(1);
    expect(sent.split("CALC-FILE-3434").length - 1).toBe(1);
    t.write("/exit\r");
    await t.exits(0);
  });
});

describe("/goal in the REPL", () => {
  test("works on the goal in the conversation's session until the project's tests pass; /goal list shows it", async () => {
    writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "g", scripts: { test: "node check.js" } }));
    writeFileSync(join(world.ws, "check.js"), 'if (!require("fs").existsSync("done.txt")) { console.log("NOT-DONE-YET"); process.exit(1); }\n');
    world.server.script({ turns: [{ text: "First try." }, { toolCalls: [{ id: "w1", name: "write_file", input: { path: "done.txt", content: "y\n" } }] }, { text: "Second try." }] });
    const t = weirInPty([...args(), "--yes"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("/goal make the tests pass\r");
    await t.waitFor(/goal [0-9a-f]{12} complete: the completion check passed \(npm run test\)/, 20000);
    expect(JSON.stringify(world.server.requests.at(-2)!.body.messages)).toContain("NOT-DONE-YET");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("complete:"));
    t.write("/goal list\r");
    await t.waitFor(/[0-9a-f]{12}  complete\s+\d+ tokens  make the tests pass/);
    t.write("/exit\r");
    await t.exits(0);
  });
});

describe("/graph in the REPL", () => {
  test("plans, runs each node in its own worktree, shows the chip while it runs, and /graph status lists the nodes", async () => {
    writeFileSync(join(world.ws, "README.md"), "# g\n");
    const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
    for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...a], { cwd: world.ws, env }).exitCode).toBe(0);
    const nodes = [{ id: "one", objective: "Write the file one.txt", check: "test -f one.txt", scope: ["one.txt"] }];
    world.server.script({ turns: [{ text: JSON.stringify({ nodes }) }] });
    // The node's turn is slow enough for the status bar to show the running graph.
    world.server.route("Write the file one.txt", [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "one.txt", content: "1\n" } }], delayMs: 1500 }, { text: "written" }]);
    const t = weirInPty([...args(), "--yes", "--verify-floor", "off"], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("/graph write one file\r");
    await t.waitFor(/graph [0-9a-f]{8} 0\/1/, 15000);
    await t.waitFor(/graph [0-9a-f]{8} complete: every node merged/, 20000);
    const id = /graph ([0-9a-f]{8}) complete/.exec(t.text())![1]!;
    expect(Bun.spawnSync(["git", "show", `weir/graph-${id}:one.txt`], { cwd: world.ws }).stdout.toString()).toBe("1\n");
    await t.waitFor("› ", 8000, t.text().lastIndexOf("complete:"));
    t.write("/graph status\r");
    await t.waitFor(/one\s+merged/);
    t.write("/exit\r");
    await t.exits(0);
  });
});
