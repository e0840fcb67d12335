import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { normaliseChatUsage } from "../../src/providers/openai.ts";
import { runWeir } from "../support/cli.ts";
import { tempDir } from "../support/temp.ts";

/**
 * An endpoint that is not a model API, seen as a user sees it through the binary: one clear line,
 * exit 1, no pointless retries, the same on both wires.
 */
let server: ReturnType<typeof Bun.serve>;
let mode = "html";
let hits = 0;
beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch() {
      hits++;
      if (mode === "html") return new Response("<html><body><h1>Welcome to nginx!</h1></body></html>", { headers: { "content-type": "text/html" } });
      if (mode === "json") return Response.json({ id: "x", content: [{ type: "text", text: "hi" }] });
      if (mode === "empty") return new Response("", { headers: { "content-type": "text/event-stream" } });
      if (mode === "garbage-sse") return new Response("data: {broken\n\n", { headers: { "content-type": "text/event-stream" } });
      if (mode === "404") return new Response("<html><head><style>p{}</style></head><body><h1>404 Not Found</h1></body></html>", { status: 404, headers: { "content-type": "text/html" } });
      return Response.json({ error: { message: "invalid x-api-key", type: "authentication_error" } }, { status: 401 });
    },
  });
});
afterAll(() => server.stop(true));

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const wires = [
  ["anthropic-compatible", ""],
  ["openai-compatible", "/v1"],
] as const;

describe.each(wires)("over %s", (provider, path) => {
  const weir = (url: string, extra: string[] = []) => runWeir(["--provider", provider, "--base-url", url, "--model", "m", ...extra, "hello"], { home: tmp.path });

  test.each(["html", "json", "empty", "garbage-sse"])("an answer that is not a model stream (%s) is said in one line and not retried", async (m) => {
    mode = m;
    hits = 0;
    const r = await weir(`http://127.0.0.1:${server.port}${path}`);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines.at(-1)).toContain("did not answer with a model stream");
    expect(r.stderr).not.toContain("retrying");
    expect(hits).toBe(1);
    if (m === "html") expect(lines.at(-1)).toContain("an HTML page");
  });

  test("nothing listening says it could not connect (connection refused)", async () => {
    const r = await weir("http://127.0.0.1:9");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("could not connect to the model endpoint");
    expect(r.stderr).toContain("connection refused");
    expect(r.stderr).not.toContain("mid-stream");
  });

  test("a 404 page is not printed raw", async () => {
    mode = "404";
    const r = await weir(`http://127.0.0.1:${server.port}${path}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("404");
    expect(r.stderr).toContain("Not Found");
    expect(r.stderr).not.toContain("<");
  });

  test("a 401 without a key says no key was sent, not to change --base-url; with a key it says the key was refused", async () => {
    mode = "401";
    const none = await weir(`http://127.0.0.1:${server.port}${path}`);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no API key was sent");
    expect(none.stderr).not.toContain("--base-url and --model");
    const some = await weir(`http://127.0.0.1:${server.port}${path}`, ["--api-key", "sk-wrong-0000"]);
    expect(some.stderr).toContain("the key was sent and refused");
  });
});

describe("usage", () => {
  test("reasoning tokens are kept; counted outside completion_tokens (xAI) they join the output", () => {
    expect(normaliseChatUsage({ prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 20 }, total_tokens: 35 })).toEqual({ input: 10, cacheRead: 0, cacheWrite: 0, output: 25, reasoning: 20 });
    // OpenAI counts them inside completion_tokens: the output stays as reported.
    expect(normaliseChatUsage({ prompt_tokens: 10, completion_tokens: 25, completion_tokens_details: { reasoning_tokens: 20 }, total_tokens: 35 })).toEqual({ input: 10, cacheRead: 0, cacheWrite: 0, output: 25, reasoning: 20 });
  });
});
