import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { MockServer } from "../support/mock-server.ts";
import { tempDir } from "../support/temp.ts";

let server: MockServer;
let home: ReturnType<typeof tempDir>;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());
beforeEach(() => {
  home = tempDir();
});
afterEach(() => home.cleanup());

const wireArgs = (wire: "messages" | "chat") =>
  wire === "messages"
    ? ["--provider", "anthropic-compatible", "--base-url", server.url, "--model", "mock-model"]
    : ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock-model"];

describe.each(["messages", "chat"] as const)("weir over the %s wire", (wire) => {
  test('weir "say hi" prints the streamed answer and exits 0', async () => {
    server.script({ turns: [{ text: "Hi! Ready when you are.", chunkSize: 2 }] });
    const r = await runWeir([...wireArgs(wire), "say hi"], { home: home.path, env: { WEIR_API_KEY: "k-123" } });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hi! Ready when you are.\n");
    expect(r.code).toBe(0);
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("say hi");
  });

  test("--output-format json prints Claude Code's result object, with weir's fields beside it", async () => {
    server.script({ turns: [{ text: "done", usage: { input: 12, output: 3, cacheRead: 4 } }] });
    const r = await runWeir([...wireArgs(wire), "--output-format", "json", "task"], { home: home.path });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "done", num_turns: 1, total_cost_usd: null, usage: { input_tokens: 12, cache_read_input_tokens: 4, output_tokens: 3 } });
    expect(typeof out.session_id).toBe("string");
    expect(typeof out.duration_ms).toBe("number");
    expect(out).toMatchObject({ stop: "end_turn", text: "done", turns: 1, ledger: { input: 12, cacheRead: 4, output: 3 }, model: "mock-model" });
    expect(r.code).toBe(0);
  });

  test("a price in the config gives the result its cost in dollars", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(home.path, ".config", "weir"), { recursive: true });
    writeFileSync(join(home.path, ".config", "weir", "config.json"), JSON.stringify({ prices: { "mock-model": { input: 3, output: 15, cacheRead: 0.3 } } }));
    server.script({ turns: [{ text: "done", usage: { input: 1200, output: 300, cacheRead: 4000 } }] });
    const r = await runWeir([...wireArgs(wire), "--output-format", "json", "task"], { home: home.path });
    // 1,200 × $3 + 4,000 × $0.30 + 300 × $15 per million tokens.
    expect(JSON.parse(r.stdout).total_cost_usd).toBeCloseTo(0.0093, 9);
  });

  test("--output-format stream-json speaks Claude Code's events", async () => {
    mkdirSync(join(home.path, "project"), { recursive: true });
    writeFileSync(join(home.path, "project", "n.txt"), "note\n");
    server.script({ turns: [{ toolCalls: [{ id: "t1", name: "read_file", input: { path: "n.txt" } }] }, { text: "the note says note" }] });
    const r = await runWeir([...wireArgs(wire), "--output-format", "stream-json", "--verify-floor", "off", "read n.txt", "--cwd", join(home.path, "project")], { home: home.path });
    expect(r.stderr).toBe("");
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    expect(events[0]).toMatchObject({ subtype: "init", model: "mock-model" });
    expect(events[0].tools).toContain("read_file");
    expect(events[1].message.content).toEqual([{ type: "tool_use", id: "t1", name: "read_file", input: { path: "n.txt" } }]);
    expect(events[2].message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t1", is_error: false });
    expect(events.every((e) => e.session_id === events[0].session_id)).toBe(true);
  });

  // .ci/run installs jq; without it this test says it was skipped.
  test.skipIf(!Bun.which("jq"))("a jq filter written for Claude Code's stream-json reads weir's", async () => {
    mkdirSync(join(home.path, "project"), { recursive: true });
    writeFileSync(join(home.path, "project", "n.txt"), "note\n");
    server.script({ turns: [{ toolCalls: [{ id: "t1", name: "read_file", input: { path: "n.txt" } }] }, { text: "the note says note" }] });
    const r = await runWeir([...wireArgs(wire), "--output-format", "stream-json", "--verify-floor", "off", "read n.txt", "--cwd", join(home.path, "project")], { home: home.path });
    const jq = (filter: string) => Bun.spawnSync(["jq", "-r", filter], { stdin: new TextEncoder().encode(r.stdout) }).stdout.toString().trim();
    expect(jq('select(.type == "result") | .result')).toBe("the note says note");
    expect(jq('select(.type == "assistant") | .message.content[] | select(.type == "text") | .text')).toBe("the note says note");
    expect(jq('select(.type == "assistant") | .message.content[] | select(.type == "tool_use") | .name')).toBe("read_file");
    const session = JSON.parse(r.stdout.split("\n")[0]!).session_id;
    expect(jq('select(.type == "system" and .subtype == "init") | .session_id')).toBe(session);
  });

  test("--output-format events prints weir's own events, one per line, as they happen", async () => {
    server.script({ turns: [{ fault: "http_529", retryAfter: 0 }, { text: "abcdefgh", chunkSize: 2 }] });
    const r = await runWeir([...wireArgs(wire), "--output-format", "events", "task"], { home: home.path });
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(events[0].type).toBe("run_start");
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.text)).toEqual(["ab", "cd", "ef", "gh"]);
    expect(events.some((e) => e.type === "retry")).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "run_end", stop: "end_turn", text: "abcdefgh" });
  });

  test("a provider that keeps failing ends the run with one line and exit 1", async () => {
    server.script({ turns: [{ fault: "garbage" }] });
    const r = await runWeir([...wireArgs(wire), "task"], { home: home.path });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("weir: ");
    expect(r.stderr).toContain("malformed stream");
  });
});

describe("weir without a model", () => {
  test("--version prints version and commit", async () => {
    const r = await runWeir(["--version"], { home: home.path });
    expect(r.stdout).toMatch(/^weir \d+\.\d+\.\d+\S* \(\S+\)\n$/);
    expect(r.code).toBe(0);
  });

  test("weir help, weir eval --help and weir version answer without a model or a session", async () => {
    const h = await runWeir(["help"], { home: home.path });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('weir "task"');
    expect(h.stdout).toContain("see weir eval --help");
    const e = await runWeir(["eval", "--help"], { home: home.path });
    expect(e.stdout).toContain("weir eval calibrate");
    expect(e.stdout).toContain("--shard");
    const v = await runWeir(["version"], { home: home.path });
    expect(v.stdout).toMatch(/^weir \d+\.\d+\.\d+/);
  });

  test("a missing key says which variable to set, exit 2, and no model is called", async () => {
    const before = server.requests.length;
    const r = await runWeir(["--provider", "openai", "do it"], { home: home.path });
    expect(r.stderr).toBe("weir: no API key for provider openai: set OPENAI_API_KEY or WEIR_API_KEY, or pass --api-key\n");
    expect(r.code).toBe(2);
    expect(server.requests.length).toBe(before);
  });

  test("a bad flag value is one line naming the flag, exit 2, no stack trace", async () => {
    const r = await runWeir(["--thinking", "sometimes", "x"], { home: home.path });
    expect(r.stderr).toBe("weir: --thinking sometimes is not valid; use one of preserve, strip\n");
    expect(r.code).toBe(2);
  });

  test("a broken user config is refused with its path and the field", async () => {
    const dir = join(home.path, ".config", "weir");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ maxTurns: "lots" }));
    const r = await runWeir(["x"], { home: home.path });
    expect(r.stderr).toContain(join(dir, "config.json"));
    expect(r.stderr).toContain("field maxTurns");
    expect(r.code).toBe(2);
  });

  test("every problem of every config file is reported at once, each with its file and field", async () => {
    const dir = join(home.path, ".config", "weir");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ maxTurns: "lots", effort: "extreme", colour: true }));
    const ws = join(home.path, "proj");
    mkdirSync(join(ws, ".weir"), { recursive: true });
    writeFileSync(join(ws, ".weir", "config.json"), JSON.stringify({ baseUrl: "https://evil.example", maxTokens: -1 }));
    const r = await runWeir(["x", "--cwd", ws], { home: home.path });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    for (const field of ["maxTurns", "effort", "colour"]) expect(lines.some((l) => l.includes(join(dir, "config.json")) && l.includes(field))).toBe(true);
    for (const field of ["baseUrl", "maxTokens"]) expect(lines.some((l) => l.includes(join(ws, ".weir", "config.json")) && l.includes(field))).toBe(true);
    expect(lines.every((l) => l.startsWith("weir: "))).toBe(true);
    expect(r.stderr).not.toContain("    at ");
  });

  test("an empty config file is an empty config; an unknown provider in a file names the file", async () => {
    const dir = join(home.path, ".config", "weir");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), "  \n");
    expect((await runWeir(["config", "show"], { home: home.path })).code).toBe(0);
    writeFileSync(join(dir, "config.json"), JSON.stringify({ provider: "nope" }));
    const r = await runWeir(["x"], { home: home.path });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown provider "nope"');
    expect(r.stderr).toContain(join(dir, "config.json"));
  });

  test("a data directory weir cannot make is one line naming it and the setting, exit 1, and no model is called", async () => {
    // A file where the data directory would be; with nothing in its place, a directory no one can make.
    const file = join(home.path, "not-a-dir");
    writeFileSync(file, "");
    for (const [dataHome, reason] of [[file, "not a directory"], ["/proc/1/none", "no such file or directory"]] as const) {
      const before = server.requests.length;
      const r = await runWeir([...wireArgs("chat"), "task"], { home: home.path, env: { XDG_DATA_HOME: dataHome } });
      expect(r.stderr.trim()).toBe(`weir: cannot create weir's data directory ${join(dataHome, "weir")}: ${reason}; point XDG_DATA_HOME at a directory you can write`);
      expect(r.code).toBe(1);
      expect(server.requests.length).toBe(before);
    }
  });

  test("weir context and a run at / are refused in one line instead of walking the machine", async () => {
    for (const args of [["context", "anything", "--cwd", "/"], ["--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cwd", "/", "task"]]) {
      const r = await runWeir(args, { home: home.path });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe("weir: / is not a project directory; run weir inside a repository or pass --cwd DIR");
    }
  });

  test("config show reports each value's source and masks the key", async () => {
    mkdirSync(join(home.path, "project", ".weir"), { recursive: true });
    writeFileSync(join(home.path, "project", ".weir", "config.json"), JSON.stringify({ maxTurns: 12 }));
    const r = await runWeir(["config", "show", "--effort", "low"], { home: home.path, env: { ANTHROPIC_API_KEY: "sk-ant-supersecret-9876" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/maxTurns\s+12\s+\(project\)/);
    // The permission rules an approval prompt names are listed with their source.
    expect(r.stdout).toMatch(/ask +git push\* +\(weir's defaults\)/);
    expect(r.stdout).toMatch(/shell +ask/);
    expect(r.stdout).toMatch(/effort\s+low\s+\(flag\)/);
    expect(r.stdout).toMatch(/apiKey\s+\*\*\*\*9876\s+\(env \(ANTHROPIC_API_KEY\)\)/);
    expect(r.stdout).not.toContain("supersecret");
  });

  test("the task can come from stdin", async () => {
    server.script({ turns: [{ text: "piped" }] });
    const r = await runWeir([...wireArgs("chat"), "--output-format", "json"], { home: home.path, stdin: "task from a pipe\n" });
    expect(JSON.parse(r.stdout).text).toBe("piped");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("task from a pipe");
  });

  test("input piped beside a task reaches the model as quoted data with its size", async () => {
    server.script({ turns: [{ text: "reviewed" }] });
    const diff = "diff --git a/x.js b/x.js\n-const a = 1;\n+const a = 2; // DIFF-MARK-5050\n";
    const r = await runWeir([...wireArgs("chat"), "review this diff"], { home: home.path, stdin: diff });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(sent).toContain("review this diff");
    expect(sent).toMatch(new RegExp(`input piped to weir · ${Buffer.byteLength(diff)} bytes · untrusted\\]\\\\n<<<UNTRUSTED-DATA [0-9a-f]{8}\\\\ndiff --git`));
    expect(sent).toContain("DIFF-MARK-5050");
  });

  test("input, or a task, piped in larger than a quarter of the model's context keeps its two ends, and says what was cut", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a large diff with words in it`);
    const big = `FIRST-LINE-4141\n${lines.join("\n")}\nLAST-LINE-4242\n`;
    for (const args of [["review this diff"], []]) {
      server.script({ turns: [{ text: "reviewed" }] });
      const r = await runWeir([...wireArgs("chat"), "--context-size", "32000", ...args], { home: home.path, stdin: big });
      expect(r.code).toBe(0);
      const user = (server.requests.at(-1)!.body.messages as { role: string; content: string }[]).find((m) => m.role === "user")!.content;
      expect(user.length).toBeLessThan(32_000 + 2_000);
      expect(user).toContain("FIRST-LINE-4141");
      expect(user).toContain("LAST-LINE-4242");
      expect(user.match(/\[\.\.\. [\d,]+ characters cut from the middle \.\.\.\]/g)).toHaveLength(1);
      if (args.length) expect(user).toContain(`input piped to weir · ${Buffer.byteLength(big).toLocaleString("en")} bytes; `);
    }
  });

  test("weir exec and weir -p run the task; a blank task and an unknown /command are one-line usage errors", async () => {
    for (const form of [["exec", "say exec"], ["-p", "say print"]]) {
      server.script({ turns: [{ text: `done ${form[0]}` }] });
      const r = await runWeir([...wireArgs("chat"), ...form], { home: home.path });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`done ${form[0]}`);
      expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain(form[1]!);
    }
    const blank = await runWeir([...wireArgs("chat"), "   "], { home: home.path });
    expect(blank.code).toBe(2);
    expect(blank.stderr).toBe("weir: the task is blank; pass what weir should do (weir \"fix the failing test\")\n");
    const unknown = await runWeir([...wireArgs("chat"), "/nosuch now"], { home: home.path });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toContain("unknown command /nosuch");
  });
});

describe("a typo of a command", () => {
  test("weir doctr says what it meant, exits 2 and sends nothing to the model", async () => {
    const before = server.requests.length;
    const r = await runWeir([...wireArgs("chat"), "doctr"], { home: home.path });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('weir: unknown command "doctr"; did you mean weir doctor? To give it to the model as a task: weir -- doctr');
    const update = await runWeir([...wireArgs("chat"), "update"], { home: home.path });
    expect([update.code, update.stderr.trim().split("\n").length]).toEqual([2, 1]);
    expect(update.stderr).toContain("it does not update itself");
    expect(server.requests.length).toBe(before);
  });
});

describe("weir config show and --list", () => {
  test("values from a config file name it as their source; a project config that does not exist says so; --json is JSON", async () => {
    mkdirSync(join(home.path, ".config", "weir"), { recursive: true });
    writeFileSync(join(home.path, ".config", "weir", "config.json"), JSON.stringify({ sandbox: { mode: "read-only" }, prices: { m: { input: 1, output: 2 } }, hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } }));
    const text = await runWeir([...wireArgs("chat"), "config", "show"], { home: home.path });
    expect(text.code).toBe(0);
    for (const key of ["sandbox", "prices", "hooks"]) expect(text.stdout).toMatch(new RegExp(`^${key} .*\\(user\\)$`, "m"));
    expect(text.stdout).toMatch(/^project config: .*config\.json \(none\)$/m);
    const json = JSON.parse((await runWeir([...wireArgs("chat"), "config", "show", "--json"], { home: home.path })).stdout);
    expect(json.settings.sandbox).toEqual({ value: { mode: "read-only", readable: [], env: [] }, source: "user" });
    expect(json.files.project.exists).toBe(false);
    const list = await runWeir(["--list", "--json"], { home: home.path });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});

describe("a repository's broken .mcp.json", () => {
  test("is a notice and starts none of its servers; the run goes on", async () => {
    const ws = join(home.path, "project");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, ".mcp.json"), "{ not json");
    server.script({ turns: [{ text: "answered anyway" }] });
    const r = await runWeir([...wireArgs("chat"), "--cwd", ws, "hi"], { home: home.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("answered anyway");
    expect(r.stderr).toContain(`MCP config ${join(ws, ".mcp.json")} is not valid JSON: none of its servers start (fix it to use them)`);
  });
});
