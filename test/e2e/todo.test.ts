import { describe, expect, test } from "bun:test";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/** The model's visible plan (`todo`), through the binary: in the log, in stream-json as TodoWrite, in /status. */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--tools", "all"];
const ITEMS = [
  { content: "read the failing test", status: "completed" },
  { content: "fix the rounding", status: "in_progress" },
  { content: "run the tests", status: "pending" },
];

describe("the model's plan", () => {
  test("is shown in the log as it changes, and in stream-json as Claude Code's TodoWrite", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "p1", name: "todo", input: { items: ITEMS } }] }, { text: "working on it" }] });
    const plain = await runWeir([...wire(), "--cwd", world.ws, "fix the rounding bug"], { home: world.home });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain("[x] read the failing test");
    expect(plain.stderr).toContain("[>] fix the rounding");
    expect(plain.stderr).toContain("[ ] run the tests");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("plan (1 of 3 done)");

    world.server.script({ turns: [{ toolCalls: [{ id: "p2", name: "todo", input: { items: ITEMS } }] }, { text: "working on it" }] });
    const stream = await runWeir([...wire(), "--cwd", world.ws, "--output-format", "stream-json", "fix the rounding bug"], { home: world.home });
    const uses = stream.stdout.trim().split("\n").map((l) => JSON.parse(l)).flatMap((m) => (m.type === "assistant" ? m.message.content : [])).filter((c: { type: string }) => c.type === "tool_use");
    expect(uses).toEqual([{ type: "tool_use", id: "p2", name: "TodoWrite", input: { todos: ITEMS.map((t) => ({ ...t, activeForm: t.content })) } }]);
  });

  test("/status in the REPL shows the plan", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "p1", name: "todo", input: { items: ITEMS } }] }, { text: "Planned." }] });
    const t = weirInPty(wire(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("plan it\r");
    await t.waitFor("Planned.");
    t.write("/status\r");
    await t.waitFor("plan:");
    await t.waitFor("[>] fix the rounding");
    t.write("/exit\r");
    await t.exits(0);
  });
});
