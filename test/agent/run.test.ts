import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runTask, type Seams } from "../../src/agent/run.ts";
import type { AgentEvent } from "../../src/core/events.ts";
import type { ToolCallBlock, ToolResultBlock } from "../../src/core/messages.ts";
import { MockServer } from "../support/mock-server.ts";
import { provider, READ_TOOL, settingsFor } from "../support/providers.ts";

/**
 * The loop's seams without the CLI: the order they are called in, what reaches the model from them,
 * and their contract (a seam that throws is named in a notice and skipped; the run goes on). The
 * model side is the mock server through the real SDK.
 */
let server: MockServer;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());

const execute = async (calls: ToolCallBlock[]): Promise<ToolResultBlock[]> => calls.map((c) => ({ type: "tool_result", callId: c.id, content: `ran ${c.name}`, isError: false }));

async function run(seams: Seams, task = "do it") {
  const events: AgentEvent[] = [];
  const result = await runTask({
    provider: await provider(settingsFor("chat", server.url)),
    system: "s",
    history: [],
    task,
    tools: [READ_TOOL],
    execute,
    maxTurns: 5,
    maxTokens: 256,
    display: { emit: (e) => events.push(e) },
    signal: new AbortController().signal,
    seams,
  });
  return { result, events, notices: events.filter((e) => e.type === "notice").map((e) => (e as { message: string }).message) };
}

describe("the loop's seams", () => {
  test("are called in their documented order, and what they return reaches the model where the contract says", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "c1", name: "read_file", input: { path: "a" } }] }, { text: "first end" }, { text: "done" }] });
    const calls: string[] = [];
    const seams: Seams = {
      gate: async () => (calls.push("gate"), undefined),
      open: async () => (calls.push("open"), "OPENING-WS"),
      context: (m, turn) => (calls.push(`context ${turn}`), m),
      decide: (_m, turn) => (calls.push(`decide ${turn}`), `GUIDANCE-${turn === 1 ? "A" : "B"}`),
      offer: () => (calls.push("offer"), [READ_TOOL]),
      observe: (c) => void calls.push(`observe ${c.id}`),
      update: async () => (calls.push("update"), "UPDATE-CHUNK"),
      beforeFinish: async (attempt) => (calls.push(`beforeFinish ${attempt}`), attempt === 0 ? "REMINDER" : undefined),
      report: async () => (calls.push("report"), { extraFact: 1 }),
    };
    const { result, events } = await run(seams);
    expect(calls).toEqual(["gate", "open", "context 1", "decide 1", "offer", "observe c1", "update", "context 2", "decide 2", "offer", "beforeFinish 0", "context 3", "decide 3", "offer", "beforeFinish 1", "report"]);
    const first = JSON.stringify(server.requests.at(-3)!.body.messages);
    expect(first.indexOf("OPENING-WS")).toBeLessThan(first.indexOf("do it"));
    expect(first).toContain("GUIDANCE-A");
    const second = JSON.stringify(server.requests.at(-2)!.body.messages);
    expect(second).toContain("UPDATE-CHUNK");
    expect(second).toContain("GUIDANCE-B");
    expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("REMINDER");
    expect(result.extra).toEqual({ extraFact: 1 });
    expect(events.at(-1)).toMatchObject({ type: "run_end", stop: "end_turn", extraFact: 1 });
  });

  test("a call the hold seam holds does not run: its result is the reason, in the calls' order", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "h1", name: "read_file", input: { path: "a" } }, { id: "h2", name: "read_file", input: { path: "b" } }] }, { text: "done" }] });
    const ran: string[] = [];
    const seams: Seams = {
      hold: async (calls) => new Map(calls.filter((c) => c.id === "h1").map((c) => [c.id, "HELD-BECAUSE"])),
      observe: (c, r) => void ran.push(`${c.id}:${r.content}`),
    };
    await run(seams);
    expect(ran).toEqual(["h1:HELD-BECAUSE", "h2:ran read_file"]);
    const results = (server.requests.at(-1)!.body.messages as { role: string; tool_call_id?: string; content: string }[]).filter((m) => m.role === "tool");
    expect(results.map((m) => [m.tool_call_id, m.content.includes("HELD-BECAUSE")])).toEqual([["h1", true], ["h2", false]]);
  });

  test("a gate's reason stops the run before any model request", async () => {
    const before = server.requests.length;
    const { result } = await run({ gate: async () => "no, not this" });
    expect(result).toMatchObject({ stop: "refusal", error: "no, not this", turns: 0 });
    expect(server.requests.length).toBe(before);
  });

  test("a seam that throws is named in a warning and skipped; the run goes on with the others", async () => {
    for (const broken of ["gate", "open", "context", "decide", "offer", "observe", "update", "beforeFinish", "report"] as const) {
      server.script({ turns: [{ toolCalls: [{ id: "c1", name: "read_file", input: { path: "a" } }] }, { text: "done" }] });
      const boom = () => {
        throw new Error(`${broken} exploded`);
      };
      const asyncBoom = async () => boom();
      const sync = broken === "context" || broken === "offer" || broken === "observe" || broken === "decide";
      const seams: Seams = { update: async () => "STILL-UPDATING", [broken]: sync ? boom : asyncBoom };
      const { result, notices } = await run(seams);
      expect(result.stop).toBe("end_turn");
      expect(result.text).toBe("done");
      expect(notices.some((n) => n.includes(`the ${broken} step failed (${broken} exploded)`))).toBe(true);
      if (broken !== "update") expect(JSON.stringify(server.requests.at(-1)!.body.messages)).toContain("STILL-UPDATING");
      // An offer that failed falls back to the run's own tools.
      if (broken === "offer") expect(JSON.stringify(server.requests.at(-1)!.body.tools)).toContain("read_file");
    }
  });
});
