import { afterAll, describe, expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/workspace/atomic.ts";
import { runWeir, weirCommand } from "../support/cli.ts";
import { MockServer } from "../support/mock-server.ts";
import { STDIO_SERVER } from "../support/mcp-servers.ts";
import { e2eWorld } from "../support/world.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

const world = e2eWorld("ws");

const wire = ["--provider", "openai-compatible", "--base-url", "", "--model", "m", "--verify-floor", "off"];
const weir = (args: string[]) => runWeir([...wire.map((x) => (x === "" ? `${world.server.url}/v1` : x)), ...args, "--cwd", world.ws], { home: world.home });
const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, input }] });
export const counts = { faults: 0, dataLost: 0 };

describe("provider faults during a multi-turn task", () => {
  test("429, 5xx, an overloaded event and a dropped connection are retried and the task completes", async () => {
    writeFileSync(join(world.ws, "a.txt"), "one\n");
    world.server.script({
      turns: [
        { fault: "http_429", retryAfter: 0 },
        call("r1", "read_file", { path: "a.txt" }),
        { fault: "http_500" },
        call("e1", "edit_file", { path: "a.txt", old_string: "one", new_string: "two" }),
        { fault: "overloaded_event" },
        { fault: "disconnect" },
        { text: "edited" },
      ],
    });
    counts.faults += 4;
    const r = await weir(["edit a.txt"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.ws, "a.txt"), "utf8")).toBe("two\n");
    expect(r.stderr.match(/retrying/g)?.length).toBe(4);
  });

  test("garbage ends the run with one line; the session stays whole and resumes", async () => {
    world.server.script({ turns: [call("r1", "list_files", {}), { fault: "garbage" }] });
    counts.faults += 1;
    const r = await weir(["first task"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n").at(-1)).toContain("malformed stream");
    world.server.script({ turns: [{ text: "resumed fine" }] });
    const again = await weir(["-c", "try again"]);
    expect(again.code).toBe(0);
    const sent = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(sent).toContain("first task");
    expect(sent).toContain("list_files");
  });

  test("a provider that never answers hits the request timeout: one line, exit 1", async () => {
    writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ requestTimeoutMs: 300, retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 } }));
    world.server.script({ turns: [{ fault: "hang" }, { fault: "hang" }] });
    counts.faults += 2;
    const r = await weir(["hello"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("did not answer before the request timeout");
  });
});

describe("crashes and disks", () => {
  test("SIGKILL at 200 random moments during atomic writes never leaves a truncated or mixed file", async () => {
    const file = join(world.ws, "target.txt");
    writeFileAtomic(file, "A".repeat(200_000));
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let i = 0; i < 200; i++) {
      const p = Bun.spawn([process.execPath, join(import.meta.dir, "write-loop.ts"), file], { stdout: "pipe", stderr: "ignore" });
      const reader = p.stdout.getReader();
      await reader.read(); // "ready"
      await Bun.sleep(rand() * 15);
      p.kill("SIGKILL");
      await p.exited;
      const text = readFileSync(file, "utf8");
      const ok = text.length === 200_000 && (/^A+$/.test(text) || /^B+$/.test(text));
      if (!ok) counts.dataLost++;
      expect(ok).toBe(true);
    }
    counts.faults += 200;
    // Killed writers may leave temp files; never the target half-written.
    expect(readdirSync(world.ws).filter((n) => !n.endsWith(".tmp"))).toEqual(["target.txt"]);
  });

  const canMount = process.getuid?.() === 0 && existsSync("/bin/mount");
  test.skipIf(!canMount)("a full disk (ENOSPC) gives a clear error and leaves the original file intact", async () => {
    const small = join(world.tmp, "small");
    mkdirSync(small);
    try {
      execSync(`mount -t tmpfs -o size=64k tmpfs ${small}`);
    } catch {
      return; // no permission to mount here: nothing to test
    }
    try {
      writeFileSync(join(small, "keep.txt"), "original\n");
      const { ActionExecutor } = await import("../../src/actions/executor.ts");
      const { ActionRegistry } = await import("../../src/actions/registry.ts");
      const { BUILTIN_ACTIONS } = await import("../../src/actions/builtin/index.ts");
      const { defaultPolicy } = await import("../../src/actions/permissions.ts");
      const { Ledger } = await import("../../src/workspace/ledger.ts");
      const reg = new ActionRegistry();
      for (const a of BUILTIN_ACTIONS) reg.register(a);
      const ex = new ActionExecutor(reg, { workspace: new Workspace(realpathSync(small), world.home), ledger: new Ledger(), env: {} }, { policy: defaultPolicy() });
      const sig = new AbortController().signal;
      await ex.execute([{ type: "tool_call", id: "r", name: "read_file", input: { path: "keep.txt" } }], sig);
      const [r] = await ex.execute([{ type: "tool_call", id: "w", name: "write_file", input: { path: "keep.txt", content: "x".repeat(200_000) } }], sig);
      counts.faults++;
      expect(r!.isError).toBe(true);
      expect(r!.content).toContain("the disk is full; nothing was written and the file is unchanged");
      expect(readFileSync(join(small, "keep.txt"), "utf8")).toBe("original\n");
      expect(readdirSync(small)).toEqual(["keep.txt"]);
    } finally {
      execSync(`umount ${small}`);
    }
  });

  test.skipIf(!existsSync("/dev/full"))("an answer that cannot be written (stdout on a full disk) ends the run with one line and exit 1; a reader that leaves early is no error", async () => {
    const cmd = [...weirCommand(), ...wire.map((x) => (x === "" ? `${world.server.url}/v1` : x)), "--cwd", world.ws, "say a lot"];
    const env = { PATH: process.env.PATH ?? "", HOME: world.home };
    const answer = { text: "a line of the answer\n".repeat(5_000) };
    world.server.script({ turns: [answer] });
    // The mock server answers from this process: the runs are awaited, never run synchronously.
    const run = async (argv: string[], stdout: "pipe" | ReturnType<typeof Bun.file>) => {
      const p = Bun.spawn(argv, { env, stdin: "ignore", stdout, stderr: "pipe" });
      const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
      return { code, err };
    };
    const full = await run(cmd, Bun.file("/dev/full"));
    counts.faults++;
    expect(full.code).toBe(1);
    expect(full.err.trim().split("\n")).toEqual(["weir: could not write to standard output: no space left on device; the run stopped, its session kept (weir -c goes on)"]);
    world.server.script({ turns: [answer] });
    const early = await run(["sh", "-c", `"$@" | head -c 10 >/dev/null`, "sh", ...cmd], "pipe");
    expect(early.code).toBe(0);
    expect(early.err).toBe("");
  });

  test("a corrupt session database is refused with one line and never overwritten", async () => {
    const db = join(world.home, ".local", "share", "weir", "weir.db");
    mkdirSync(join(world.home, ".local", "share", "weir"), { recursive: true });
    writeFileSync(db, "garbage, not sqlite ".repeat(500));
    const r = await weir(["hello"]);
    counts.faults++;
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("is corrupt");
    expect(readFileSync(db, "utf8")).toBe("garbage, not sqlite ".repeat(500));
  });
});

describe("zero egress", () => {
  test.skipIf(!Bun.which("strace"))("a whole session contacts only the configured model, judgment and MCP endpoints", async () => {
    const judge = await new MockServer().start();
    try {
      writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ judgment: { provider: "llm", preset: "openai-compatible", baseUrl: `${judge.url}/v1`, model: "j" } }));
      writeFileSync(join(world.home, ".config", "weir", "mcp.json"), JSON.stringify({ mcpServers: { t: { command: process.execPath, args: [STDIO_SERVER, "stdio"] } } }));
      writeFileSync(join(world.ws, "a.txt"), "hello\n");
      const answer = { toolCalls: [{ id: "j", name: "answer_questions", input: { context_sufficient: 0.5 } }] };
      judge.script({ turns: [answer, answer, answer] });
      world.server.script({ turns: [call("r1", "read_file", { path: "a.txt" }), call("m1", "mcp__t__echo", { message: "hi" }), { text: "done", delayMs: 200 }] });
      const log = join(world.tmp, "strace.log");
      const p = Bun.spawn(["strace", "-f", "-qq", "-e", "trace=connect", "-o", log, ...weirCommand(), "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--cwd", world.ws, "read a.txt and echo"], {
        env: { PATH: process.env.PATH ?? "", HOME: world.home, XDG_CONFIG_HOME: join(world.home, ".config"), XDG_DATA_HOME: join(world.home, ".local", "share") },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await p.exited).toBe(0);
      const inet = readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l.includes("connect(") && /AF_INET6?/.test(l))
        .map((l) => {
          const port = l.match(/sin6?_port=htons\((\d+)\)/)?.[1];
          const addr = l.match(/inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"/);
          return `${addr?.[1] ?? addr?.[2]}:${port}`;
        });
      const allowed = new Set([`127.0.0.1:${new URL(world.server.url).port}`, `127.0.0.1:${new URL(judge.url).port}`]);
      expect(inet.length).toBeGreaterThan(0);
      expect(inet.filter((c) => !allowed.has(c))).toEqual([]);
      expect(inet).toContain(`127.0.0.1:${new URL(world.server.url).port}`);
      expect(judge.requests.length).toBeGreaterThan(0);
    } finally {
      await judge.stop();
    }
  });
});

afterAll(() => {
  console.log(`\nfault injection: ${counts.faults} faults injected, data lost: ${counts.dataLost}`);
});
