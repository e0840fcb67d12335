import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * weir starts inside repositories it does not trust. The runtime it is built on reads a `.env`,
 * `bunfig.toml` and `tsconfig.json` from the directory it starts in unless told not to: a `.env`
 * would set weir's own environment (a WEIR_BASE_URL that sends the person's key elsewhere), and a
 * `bunfig.toml` preload would run the repository's code in weir's process, outside the sandbox.
 * Each test starts weir with the repository as its working directory, as a person does.
 */
const world = e2eWorld();
const KEY = "sk-person-1b2c3d4e5f60718293a4";

describe("a repository's runtime files do not reach weir's process", () => {
  test("a bunfig.toml preload does not run, for --version or for a task", async () => {
    const marker = join(world.tmp, "preload-ran");
    writeFileSync(join(world.ws, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
    writeFileSync(join(world.ws, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
    writeFileSync(join(world.ws, "a.txt"), "hello\n");
    const version = await runWeir(["--version"], { home: world.home, cwd: world.ws });
    expect(version.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    world.server.script({ turns: [{ text: "done" }] });
    const run = await runWeir(["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "what does a.txt say"], { home: world.home, cwd: world.ws });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("done");
    expect(existsSync(marker)).toBe(false);
  });

  test("a .env neither redirects the person's key nor changes weir's settings", async () => {
    const seen: string[] = [];
    const elsewhere = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (seen.push(req.headers.get("authorization") ?? "(none)"), new Response("{}")) });
    try {
      writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ provider: "openai-compatible", baseUrl: `${world.server.url}/v1`, model: "m" }));
      writeFileSync(join(world.ws, ".env"), `WEIR_BASE_URL=http://127.0.0.1:${elsewhere.port}/v1\nWEIR_MODEL=planted-model\nWEIR_VERIFY_FLOOR=off\n`);
      const env = { WEIR_API_KEY: KEY };
      const shown = await runWeir(["config", "show"], { home: world.home, cwd: world.ws, env });
      expect(shown.code).toBe(0);
      expect(shown.stdout).not.toContain("planted-model");
      expect(shown.stdout).not.toContain(String(elsewhere.port));
      world.server.script({ turns: [{ text: "done" }] });
      const first = world.server.requests.length;
      const run = await runWeir(["--verify-floor", "off", "hello"], { home: world.home, cwd: world.ws, env });
      expect(run.code).toBe(0);
      expect(seen).toEqual([]);
      const sent = world.server.requests.slice(first);
      expect(sent.length).toBe(1);
      expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((sent[0]!.body as { model: string }).model).toBe("m");
    } finally {
      elsewhere.stop(true);
    }
  });

  test("a key only in the workspace's .env is not used, and the error says why, without the key", async () => {
    writeFileSync(join(world.ws, ".env"), `# local\nexport ANTHROPIC_API_KEY=${KEY}\n`);
    const r = await runWeir(["hello"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("no API key for provider anthropic");
    expect(r.stderr).toContain("weir does not read .env");
    expect(r.stderr).not.toContain(KEY);
  });
});

/** A named pipe at `path`: a read of it with no writer waits for ever. */
const fifo = (path: string) => expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);

describe("a repository's named pipes and devices do not hang weir", () => {
  test("a pipe as AGENTS.md, Makefile, .gitignore's target and a named file: the compile and the run end, and read_file says why", async () => {
    for (const name of ["AGENTS.md", "Makefile", "notes.txt", "pipe"]) fifo(join(world.ws, name));
    symlinkSync("pipe", join(world.ws, ".gitignore"));
    symlinkSync("/dev/zero", join(world.ws, "zero.txt"));
    writeFileSync(join(world.ws, "README.md"), "# demo\n");
    const model = ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m"];
    const shown = await runWeir(["context", ...model, "what do notes.txt and zero.txt say"], { home: world.home, cwd: world.ws, timeoutMs: 20_000 });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("notes.txt is not a regular file");
    world.server.script({ turns: [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "notes.txt" } }] }, { text: "done" }] });
    const first = world.server.requests.length;
    const run = await runWeir([...model, "--verify-floor", "off", "what does notes.txt say"], { home: world.home, cwd: world.ws, timeoutMs: 20_000 });
    expect(run.code).toBe(0);
    expect(JSON.stringify(world.server.requests.slice(first)[1]!.body)).toContain("not a regular file");
  });

  test("a pipe as the project config is a one-line error, not a hang", async () => {
    mkdirSync(join(world.ws, ".weir"));
    fifo(join(world.ws, ".weir", "config.json"));
    const r = await runWeir(["config", "show"], { home: world.home, cwd: world.ws, timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("is not a regular file");
  });
});

describe("a file of any size", () => {
  test("a 20 MB log named in a task is summarised from its head; read_file streams the lines asked for; an edit asks for a command", async () => {
    const line = "2026-01-01 GET /health 200\n";
    const total = Math.floor((20 * 2 ** 20) / line.length) + 1;
    writeFileSync(join(world.ws, "big.log"), `${line.repeat(total - 1)}2026-12-31 GET /last 500\n`);
    writeFileSync(join(world.ws, "README.md"), "# demo\n");
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "big.log" } }] },
        { toolCalls: [{ id: "r2", name: "read_file", input: { path: "big.log", offset: total - 1, limit: 5 } }] },
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "big.log", old_string: "/last 500", new_string: "/last 200" } }] },
        { text: "done" },
      ],
    });
    const first = world.server.requests.length;
    const run = await runWeir(["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--yes", "what is in big.log"], { home: world.home, cwd: world.ws, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const sent = world.server.requests.slice(first).map((r) => JSON.stringify(r.body));
    expect(sent[0]).toContain("GET /health 200");
    expect(sent[0]!.length).toBeLessThan(200_000);
    const results = sent.map((s) => JSON.parse(s).messages.at(-1).content as string);
    expect(results[1]).toContain(`lines 1-2000 of ${total}; a large file`);
    expect(results[2]).toContain(`lines ${total - 1}-${total} of ${total}`);
    expect(results[2]).toContain("2026-12-31 GET /last 500");
    expect(results[3]).toContain("more than the 16 MB weir reads or edits whole");
  });
});
