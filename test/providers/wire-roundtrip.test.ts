import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Message, userText } from "../../src/core/messages.ts";
import { MockServer } from "../support/mock-server.ts";
import { provider, READ_TOOL, settingsFor, turn, WIRES } from "../support/providers.ts";

let server: MockServer;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());

const lastBody = () => server.requests[server.requests.length - 1]!.body;

describe.each(WIRES)("%s wire through the real SDK", (wire) => {
  test("streams text into one assistant text block with normalised usage", async () => {
    server.script({ turns: [{ text: "Hello there, friend.", chunkSize: 3, usage: { input: 100, output: 7, cacheRead: 40 } }] });
    const p = await provider(settingsFor(wire, server.url));
    const r = await turn(p, [userText("say hi")]);
    expect(r.message.content).toEqual([{ type: "text", text: "Hello there, friend." }]);
    expect(r.events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(3);
    expect(r.usage).toEqual({ input: 100, cacheRead: 40, cacheWrite: 0, output: 7 });
    expect(r.stop).toBe("end_turn");
  });

  test("two parallel tool calls split into one-character fragments round-trip into history and back as the vendor's tool results", async () => {
    const calls = [
      { id: "call_a1", name: "read_file", input: { path: "src/a.ts", range: [1, 20] } },
      { id: "call_b2", name: "read_file", input: { path: "README.md" } },
    ];
    server.script({ turns: [{ text: "Reading both.", toolCalls: calls, chunkSize: 1 }, { text: "Done." }] });
    const p = await provider(settingsFor(wire, server.url));
    const history: Message[] = [userText("read two files")];
    const first = await turn(p, history);
    expect(first.stop).toBe("tool_use");
    expect(first.message.content.filter((b) => b.type === "tool_call")).toEqual(calls.map((c) => ({ type: "tool_call", ...c })));
    expect(first.events.filter((e) => e.type === "tool_call_delta").length).toBeGreaterThan(20);

    history.push(first.message, {
      role: "user",
      content: [
        { type: "tool_result", callId: "call_a1", content: "export const a = 1;", isError: false },
        { type: "tool_result", callId: "call_b2", content: "no such file", isError: true },
      ],
    });
    const second = await turn(p, history);
    expect(second.message.content).toEqual([{ type: "text", text: "Done." }]);
    const body = lastBody();
    if (wire === "messages") {
      expect(body.messages[1].content.filter((b: any) => b.type === "tool_use").map((b: any) => [b.id, b.input])).toEqual(calls.map((c) => [c.id, c.input]));
      expect(body.messages[2].content.map(({ cache_control, ...b }: any) => b)).toEqual([
        { type: "tool_result", tool_use_id: "call_a1", content: "export const a = 1;", is_error: false },
        { type: "tool_result", tool_use_id: "call_b2", content: "no such file", is_error: true },
      ]);
    } else {
      expect(body.messages[2].tool_calls.map((c: any) => [c.id, JSON.parse(c.function.arguments)])).toEqual(calls.map((c) => [c.id, c.input]));
      expect(body.messages.slice(3)).toEqual([
        { role: "tool", tool_call_id: "call_a1", content: "export const a = 1;" },
        { role: "tool", tool_call_id: "call_b2", content: "no such file" },
      ]);
    }
  });

  test("reasoning is kept with its signature when preserved and left out when stripped", async () => {
    for (const thinking of ["preserve", "strip"] as const) {
      server.script({ turns: [{ thinking: { text: "Let me think.", signature: "sig-123" }, text: "Answer." }, { text: "ok" }] });
      const p = await provider(settingsFor(wire, server.url, { thinking }));
      const first = await turn(p, [userText("q")]);
      expect(first.message.content[0]).toEqual(
        wire === "messages" ? { type: "reasoning", text: "Let me think.", signature: "sig-123" } : { type: "reasoning", text: "Let me think." },
      );
      await turn(p, [userText("q"), first.message, userText("next")]);
      const sent = lastBody().messages.find((m: any) => m.role === "assistant");
      const carried = wire === "messages" ? sent.content.some((b: any) => b.type === "thinking" && b.signature === "sig-123") : sent.reasoning_content === "Let me think.";
      expect(carried).toBe(thinking === "preserve");
    }
  });

  test("effort reaches the wire as a thinking budget or reasoning_effort", async () => {
    server.script({ turns: [{ text: "ok" }] });
    const p = await provider(settingsFor(wire, server.url, { effort: "high" }));
    await turn(p, [userText("q")]);
    if (wire === "messages") {
      expect(lastBody().thinking).toEqual({ type: "enabled", budget_tokens: 24_576 });
      expect(lastBody().max_tokens).toBeGreaterThan(24_576);
    } else expect(lastBody().reasoning_effort).toBe("high");
  });

  if (wire === "messages")
    test("on the anthropic preset effort is adaptive thinking with output_config.effort, as Anthropic documents it", async () => {
      server.script({ turns: [{ text: "ok" }] });
      const p = await provider(settingsFor(wire, server.url, { effort: "high", preset: "anthropic" }));
      await turn(p, [userText("q")]);
      expect(lastBody().thinking).toEqual({ type: "adaptive" });
      expect(lastBody().output_config).toEqual({ effort: "high" });
    });

  if (wire === "messages")
    test("the SDK's own deprecation warning never reaches the console; weir says it once, in its words", async () => {
      server.script({ turns: [{ text: "a" }, { text: "b" }] });
      const p = await provider(settingsFor(wire, server.url, { model: "claude-sonnet-4-5" }));
      const printed: string[] = [];
      const warn = console.warn;
      console.warn = (...a: unknown[]) => void printed.push(a.join(" "));
      const notices: string[] = [];
      try {
        for (let i = 0; i < 2; i++) for await (const ev of p.stream({ system: "", messages: [userText("q")], tools: [], maxTokens: 100 })) if (ev.type === "notice") notices.push(ev.message);
      } finally {
        console.warn = warn;
      }
      expect(printed).toEqual([]);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain("the model claude-sonnet-4-5 is deprecated");
      expect(notices[0]).toContain("--model");
    });

  test("chat wire asks for usage in the stream; messages wire sends the key", async () => {
    server.script({ turns: [{ text: "ok" }] });
    const p = await provider(settingsFor(wire, server.url));
    await turn(p, [userText("q")]);
    const req = server.requests[server.requests.length - 1]!;
    if (wire === "chat") {
      expect(req.body.stream_options).toEqual({ include_usage: true });
      expect(req.headers.authorization).toBe("Bearer test-key-0123456789");
    } else expect(req.headers["x-api-key"] ?? req.headers.authorization).toContain("test-key-0123456789");
  });
});

describe("messages wire specifics", () => {
  test("caching is on by default: breakpoints on the last tool, the first message and the newest message", async () => {
    server.script({ turns: [{ text: "ok" }] });
    const p = await provider(settingsFor("messages", server.url));
    const tools = [READ_TOOL, { ...READ_TOOL, name: "search" }];
    await turn(p, [userText("first"), { role: "assistant", content: [{ type: "text", text: "a" }] }, userText("middle"), { role: "assistant", content: [{ type: "text", text: "b" }] }, userText("newest")], { tools });
    const body = lastBody();
    expect(body.tools.map((t: any) => t.cache_control ?? null)).toEqual([null, { type: "ephemeral" }]);
    // The tools' breakpoint covers the system prompt before them.
    expect(body.system[0].cache_control).toBeUndefined();
    expect(body.messages.map((m: any) => m.content.at(-1).cache_control ?? null)).toEqual([{ type: "ephemeral" }, null, null, null, { type: "ephemeral" }]);
    expect(JSON.stringify(body).match(/cache_control/g)!.length).toBeLessThanOrEqual(4);
  });

  test("without tools the system prompt carries the breakpoint", async () => {
    server.script({ turns: [{ text: "ok" }] });
    const p = await provider(settingsFor("messages", server.url));
    await turn(p, [userText("q")], { tools: [] });
    expect(lastBody().system[0].cache_control).toEqual({ type: "ephemeral" });
  });

  test("--cache off sends no breakpoint", async () => {
    server.script({ turns: [{ text: "ok" }] });
    const p = await provider(settingsFor("messages", server.url, { cache: "off" }));
    await turn(p, [userText("q")]);
    expect(JSON.stringify(lastBody())).not.toContain("cache_control");
  });

  test("redacted thinking survives the round trip", async () => {
    server.script({ turns: [{ redactedThinking: "EnCrYpTeD", text: "hi" }, { text: "ok" }] });
    const p = await provider(settingsFor("messages", server.url));
    const first = await turn(p, [userText("q")]);
    expect(first.message.content[0]).toEqual({ type: "reasoning", text: "", redacted: "EnCrYpTeD" });
    await turn(p, [userText("q"), first.message, userText("more")]);
    expect(lastBody().messages[1].content[0]).toEqual({ type: "redacted_thinking", data: "EnCrYpTeD" });
  });

  test("a conversation from the chat wire (unsigned reasoning, call_ ids) is accepted by the messages wire", async () => {
    server.script({ turns: [{ text: "resumed" }] });
    const p = await provider(settingsFor("messages", server.url));
    const history: Message[] = [
      userText("q"),
      { role: "assistant", content: [{ type: "reasoning", text: "unsigned" }, { type: "tool_call", id: "call:9", name: "read_file", input: { path: "a" } }] },
      { role: "user", content: [{ type: "tool_result", callId: "call:9", content: "x", isError: false }] },
      userText("go on"),
    ];
    const r = await turn(p, history);
    expect(r.message.content).toEqual([{ type: "text", text: "resumed" }]);
    const body = lastBody();
    expect(body.messages).toHaveLength(3);
    expect(body.messages[1].content).toEqual([{ type: "tool_use", id: "call_9", name: "read_file", input: { path: "a" } }]);
  });
});
