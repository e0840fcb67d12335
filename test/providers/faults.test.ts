import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { userText } from "../../src/core/messages.ts";
import { CancelledError, ContextOverflowError, OutputLimitError, ProviderError } from "../../src/providers/errors.ts";
import { type Fault, MockServer } from "../support/mock-server.ts";
import { provider, settingsFor, turn, WIRES } from "../support/providers.ts";

let server: MockServer;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());

const ok = { text: "recovered" };

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ProviderError) return e;
    throw e;
  }
  throw new Error("expected a ProviderError");
}

describe.each(WIRES)("%s wire faults", (wire) => {
  const retried: Fault[] = ["http_429", "http_500", "http_529", "overloaded_event", "disconnect", "no_stop"];
  test.each(retried)("%s is retried and the turn completes with only the successful attempt's content", async (fault) => {
    server.script({ turns: [{ fault, retryAfter: 0, text: "partial text that must be discarded" }, ok] });
    const before = server.requests.length;
    const p = await provider(settingsFor(wire, server.url));
    const r = await turn(p, [userText("q")]);
    expect(r.message.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(r.events.filter((e) => e.type === "retry")).toHaveLength(1);
    expect(server.requests.length - before).toBe(2);
  });

  test("retry-after is honoured as the delay", async () => {
    server.script({ turns: [{ fault: "http_429", retryAfter: 1 }, ok] });
    const p = await provider(settingsFor(wire, server.url));
    const r = await turn(p, [userText("q")]);
    const retry = r.events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", attempt: 2, delayMs: 1000 });
  });

  test("a malformed stream ends the turn with a clear, non-retried error", async () => {
    server.script({ turns: [{ fault: "garbage" }, ok] });
    const before = server.requests.length;
    const p = await provider(settingsFor(wire, server.url));
    const e = await failure(turn(p, [userText("q")]));
    expect(e.kind).toBe("malformed_stream");
    expect(e.message).toContain("malformed stream");
    expect(server.requests.length - before).toBe(1);
    server.script({ turns: [] });
  });

  test("persistent failure gives up after the configured attempts and says so", async () => {
    server.script({ turns: [{ fault: "http_500" }, { fault: "http_500" }, { fault: "http_500" }, ok] });
    const before = server.requests.length;
    const p = await provider(settingsFor(wire, server.url, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }));
    const e = await failure(turn(p, [userText("q")]));
    expect(e.message).toContain("gave up after 3 attempts");
    expect(server.requests.length - before).toBe(3);
    server.script({ turns: [] });
  });

  test("a hanging endpoint hits the request timeout instead of hanging the run", async () => {
    server.script({ turns: [{ fault: "hang" }, { fault: "hang" }] });
    const p = await provider(settingsFor(wire, server.url, { requestTimeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }));
    const e = await failure(turn(p, [userText("q")]));
    expect(e.kind).toBe("timeout");
    server.script({ turns: [] });
  });

  test("a refused key is not retried and names the fix", async () => {
    const p = await provider(settingsFor(wire, `${server.url}/unauthorized`));
    server.script({ turns: [] });
    // The mock answers unknown paths with 404; use a real 401 from a tiny server instead.
    const s401 = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 }) });
    try {
      const p401 = await provider(settingsFor(wire, `http://127.0.0.1:${s401.port}`));
      const e = await failure(turn(p401, [userText("q")]));
      expect(e.kind).toBe("auth");
      expect(e.message).toContain("the key was sent and refused");
      expect(e.message).not.toContain("test-key-0123456789");
    } finally {
      await s401.stop(true);
    }
    expect(p).toBeDefined();
  });

  test("aborting the signal cancels the request in flight", async () => {
    server.script({ turns: [{ fault: "hang" }] });
    const p = await provider(settingsFor(wire, server.url));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await failure(turn(p, [userText("q")], { signal: controller.signal }));
    expect(e).toBeInstanceOf(CancelledError);
    server.script({ turns: [] });
  });
});

/**
 * Endpoints' own answers to a request longer than the model's context (test/providers/context-overflow.json,
 * each from a public report), served as they were and read through the real SDKs: each is a context
 * overflow with the window it names, and the other answers beside them are not.
 */
const OVERFLOWS = (await Bun.file(new URL("./context-overflow.json", import.meta.url)).json()) as { source: string; wire: "messages" | "chat"; status: number; body: unknown; overflow: boolean; window?: number }[];

describe("a request longer than the model's context", () => {
  test.each(OVERFLOWS.map((c) => [c.source, c] as const))("%s", async (_source, c) => {
    server.script({ turns: [{ errorReply: { status: c.status, body: c.body } }] });
    const p = await provider(settingsFor(c.wire, server.url));
    const e = await failure(turn(p, [userText("q")]));
    expect(e instanceof ContextOverflowError).toBe(c.overflow);
    if (c.overflow) expect((e as ContextOverflowError).window).toBe(c.window);
  });
});

/**
 * Endpoints' own answers to a max_tokens over what the model gives (test/providers/output-limit.json,
 * each from a public report), through the real SDKs: the limit is read from each; the provider then
 * asks for at most that and sends the request again, once, and keeps to it from then on.
 */
const LIMITS = (await Bun.file(new URL("./output-limit.json", import.meta.url)).json()) as { source: string; wire: "messages" | "chat"; status: number; body: unknown; limit?: number }[];

describe("a max_tokens over what the model gives", () => {
  test.each(LIMITS.map((c) => [c.source, c] as const))("%s", async (_source, c) => {
    server.script({ turns: [{ errorReply: { status: c.status, body: c.body } }] });
    const p = await provider(settingsFor(c.wire, server.url));
    if (c.limit === undefined) return expect((await failure(turn(p, [userText("q")]))) instanceof OutputLimitError).toBe(false);
    server.script({ turns: [{ errorReply: { status: c.status, body: c.body } }, ok, ok] });
    const before = server.requests.length;
    const r = await turn(p, [userText("q")], { maxTokens: 100_000 });
    expect(r.message.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(r.events.some((e) => e.type === "notice" && e.message.includes(`at most ${c.limit} output tokens`))).toBe(true);
    const asked = (i: number) => { const b = server.requests[before + i]!.body; return b.max_tokens ?? b.max_completion_tokens; };
    expect([asked(0), asked(1)]).toEqual([100_000, c.limit]);
    // The next request keeps to it without being told again.
    await turn(p, [userText("again")], { maxTokens: 100_000 });
    expect(asked(2)).toBe(c.limit);
  });
});
