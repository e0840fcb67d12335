import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * What was sent stays sent: a follow-up in a new process (weir -c) repeats the previous request's
 * tools and messages byte for byte before adding its own, so the provider's prompt cache still
 * holds. Through the binary on both wires; the oracle is the bytes the mock server received.
 */
const world = e2eWorld();
const wires = {
  messages: () => ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "mock-a"],
  chat: () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"],
};

function repository() {
  mkdirSync(join(world.ws, "src"), { recursive: true });
  writeFileSync(join(world.ws, "src", "notes.md"), "# Notes\nThe cache must hold. NOTE-BODY-7777\n");
  writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node -e 0" } }));
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
}

describe("a follow-up in a new process keeps the prefix", () => {
  for (const wire of ["messages", "chat"] as const)
    test(`on the ${wire} wire: the tools and the messages of the last request come first, byte for byte`, async () => {
      repository();
      // The first task loads tools beyond the core (a check runs) and reads a file (a quoted result).
      world.server.script({
        turns: [
          { toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/notes.md" } }] },
          { toolCalls: [{ id: "v1", name: "run_command", input: { program: "node", args: ["-e", "0"] } }] },
          { text: "read it and ran the tests" },
        ],
      });
      const first = await runWeir([...wires[wire](), "--yes", "--verify-floor", "off", "run the tests, then read src/notes.md"], { home: world.home, cwd: world.ws });
      expect(first.code).toBe(0);
      const last = world.server.requests.at(-1)!.body;
      // A follow-up whose words would load nothing of the first task's tools.
      world.server.script({ turns: [{ text: "it says the cache must hold" }] });
      const next = await runWeir([...wires[wire](), "--yes", "--verify-floor", "off", "-c", "what does it say?"], { home: world.home, cwd: world.ws });
      expect(next.code).toBe(0);
      const body = world.server.requests.at(-1)!.body;
      expect(JSON.stringify(last.tools)).toContain("run_command");
      expect(JSON.stringify(body.tools.slice(0, last.tools.length))).toBe(JSON.stringify(last.tools));
      if (wire === "messages") expect(JSON.stringify(body.system)).toBe(JSON.stringify(last.system));
      // The earlier messages, quoted tool results included, are the same bytes (cache markers aside).
      const plain = (v: unknown) => JSON.stringify(v).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "");
      const before = last.messages.length - 1;
      expect(plain(body.messages.slice(0, before))).toBe(plain(last.messages.slice(0, before)));
      expect(plain(last.messages)).toContain("NOTE-BODY-7777");
    }, 60_000);
});

describe("a file read again, unchanged, through the binary", () => {
  test("is sent whole once; the later read says so, and the next request repeats the earlier bytes unchanged", async () => {
    repository();
    // A task with no words of its own: the file is not in the working set, only in what is read.
    mkdirSync(join(world.ws, "other"));
    writeFileSync(join(world.ws, "other", "plain.txt"), "PLAIN-BODY-4242\n".repeat(20));
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "other/plain.txt" } }] },
        { toolCalls: [{ id: "r2", name: "read_file", input: { path: "package.json" } }] },
        { toolCalls: [{ id: "r3", name: "read_file", input: { path: "other/plain.txt" } }] },
        { text: "read" },
      ],
    });
    const before = world.server.requests.length;
    const r = await runWeir([...wires.chat(), "--verify-floor", "off", "go"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const reqs = world.server.requests.slice(before).map((q) => q.body);
    const last = JSON.stringify(reqs.at(-1)!.messages);
    expect(last.split("PLAIN-BODY-4242").length - 1).toBe(20);
    expect(last).toContain("unchanged: another read_file result in this conversation shows these bytes whole");
    expect(JSON.stringify(reqs.at(-1)!.messages.slice(0, reqs.at(-2)!.messages.length))).toBe(JSON.stringify(reqs.at(-2)!.messages));
  }, 60_000);
});
