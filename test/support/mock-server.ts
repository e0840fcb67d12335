/**
 * A local model endpoint that speaks both streaming wires the way the vendors send them (Anthropic
 * Messages SSE and OpenAI Chat Completions SSE), replays a scripted trajectory one turn per request,
 * injects faults, checks the request invariants the real APIs enforce, and records every request.
 */
import http from "node:http";

export type Fault = "http_429" | "http_500" | "http_529" | "overloaded_event" | "disconnect" | "garbage" | "hang" | "no_stop";

export interface ScriptedToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface Turn {
  text?: string;
  thinking?: { text: string; signature?: string };
  redactedThinking?: string;
  toolCalls?: ScriptedToolCall[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Characters per text delta and per tool-argument fragment (default 4). */
  chunkSize?: number;
  fault?: Fault;
  /** Answer with exactly this status and JSON body (a vendor's own error answer), instead of a stream. */
  errorReply?: { status: number; body: unknown };
  /** Seconds, sent as `retry-after` with 429/529. */
  retryAfter?: number;
  delayMs?: number;
  /** A pause after each streamed event, so a frontend can be watched mid-stream. */
  partDelayMs?: number;
  /** When set, the turn is only served to this wire (a mismatch is a 400, so a test notices). */
  wire?: "messages" | "chat";
  /**
   * Chat wire, non-streaming: answer with `text` and token log-probabilities. For each line `id=X`
   * of the text, the answer token's alternatives are taken from logprobs[id] (token → probability).
   */
  logprobs?: Record<string, Record<string, number>>;
  /** In-process scripts only: runs just before the turn is served (e.g. another program edits a file). */
  sideEffect?: () => void;
}

export interface Trajectory {
  turns: Turn[];
}

export interface RecordedRequest {
  wire: "messages" | "chat";
  path: string;
  headers: Record<string, string>;
  body: any;
  /** performance.now() when the request body had arrived, and when the reply was fully sent. */
  receivedAt: number;
  answeredAt?: number;
}

function chunks(s: string, size: number): string[] {
  if (s === "") return [];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const sse = (event: string | undefined, data: unknown) =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export function anthropicEvents(turn: Turn, model: string, seq: number): string[] {
  const size = turn.chunkSize ?? 4;
  const u = turn.usage ?? {};
  const out: string[] = [];
  out.push(
    sse("message_start", {
      type: "message_start",
      message: {
        id: `msg_mock_${seq}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: u.input ?? 10, cache_creation_input_tokens: u.cacheWrite ?? 0, cache_read_input_tokens: u.cacheRead ?? 0, output_tokens: 1 },
      },
    }),
  );
  out.push(sse("ping", { type: "ping" }));
  let index = 0;
  if (turn.thinking) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const c of chunks(turn.thinking.text, size))
      out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: c } }));
    if (turn.thinking.signature)
      out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature: turn.thinking.signature } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  if (turn.redactedThinking) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "redacted_thinking", data: turn.redactedThinking } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  if (turn.text) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const c of chunks(turn.text, size)) out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: c } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  for (const call of turn.toolCalls ?? []) {
    out.push(sse("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }));
    for (const c of chunks(JSON.stringify(call.input), size))
      out.push(sse("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c } }));
    out.push(sse("content_block_stop", { type: "content_block_stop", index }));
    index++;
  }
  const stop = turn.toolCalls?.length ? "tool_use" : "end_turn";
  out.push(sse("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output ?? 5 } }));
  out.push(sse("message_stop", { type: "message_stop" }));
  return out;
}

export function chatEvents(turn: Turn, model: string, seq: number): string[] {
  const size = turn.chunkSize ?? 4;
  const u = turn.usage ?? {};
  const base = { id: `chatcmpl-mock-${seq}`, object: "chat.completion.chunk", created: 1_764_000_000 + seq, model, system_fingerprint: "fp_mock" };
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse(undefined, { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
  if (turn.thinking) for (const c of chunks(turn.thinking.text, size)) out.push(chunk({ reasoning_content: c }));
  if (turn.text) for (const c of chunks(turn.text, size)) out.push(chunk({ content: c }));
  (turn.toolCalls ?? []).forEach((call, i) => {
    out.push(chunk({ tool_calls: [{ index: i, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const c of chunks(JSON.stringify(call.input), size)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: c } }] }));
  });
  out.push(chunk({}, turn.toolCalls?.length ? "tool_calls" : "stop"));
  const prompt = (u.input ?? 10) + (u.cacheRead ?? 0);
  out.push(
    sse(undefined, {
      ...base,
      choices: [],
      usage: { prompt_tokens: prompt, completion_tokens: u.output ?? 5, total_tokens: prompt + (u.output ?? 5), prompt_tokens_details: { cached_tokens: u.cacheRead ?? 0 } },
    }),
  );
  out.push("data: [DONE]\n\n");
  return out;
}

/** A non-streaming chat completion whose answer tokens carry log-probabilities, as the API returns them. */
export function chatCompletionWithLogprobs(turn: Turn, model: string, seq: number) {
  const content: { token: string; logprob: number; bytes: number[]; top_logprobs: { token: string; logprob: number; bytes: number[] }[] }[] = [];
  const tok = (token: string, logprob = 0, top: { token: string; logprob: number }[] = []) =>
    content.push({ token, logprob, bytes: [...Buffer.from(token)], top_logprobs: (top.length ? top : [{ token, logprob }]).map((t) => ({ ...t, bytes: [...Buffer.from(t.token)] })) });
  const text = turn.text ?? "";
  for (const line of text.split("\n")) {
    const m = line.match(/^([\w]+)=(.+)$/);
    if (!m) {
      if (line) tok(line);
    } else {
      tok(m[1]!);
      tok("=");
      const alts = Object.entries(turn.logprobs?.[m[1]!] ?? { [m[2]!]: 1 }).map(([token, p]) => ({ token, logprob: Math.log(Math.max(p, 1e-12)) }));
      const chosen = alts.find((a) => a.token === m[2]) ?? { token: m[2]!, logprob: 0 };
      tok(m[2]!, chosen.logprob, alts);
    }
    tok("\n");
  }
  const u = turn.usage ?? {};
  return {
    id: `chatcmpl-mock-${seq}`,
    object: "chat.completion",
    created: 1_764_000_000 + seq,
    model: `${model}-2026-11-01`,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: { content, refusal: null }, finish_reason: "stop" }],
    usage: { prompt_tokens: u.input ?? 100, completion_tokens: u.output ?? 30, total_tokens: (u.input ?? 100) + (u.output ?? 30) },
  };
}

/** The invariants the real APIs reject requests for; a violation is answered with a 400. */
export function validateRequest(wire: "messages" | "chat", body: any): string | undefined {
  if (typeof body?.model !== "string") return "model: required";
  if (!Array.isArray(body.messages)) return "messages: required";
  if (body.stream !== true && !(wire === "chat" && body.logprobs === true)) return "stream: this mock serves streaming requests (and non-streaming ones with logprobs) only";
  if (wire === "messages") {
    if (typeof body.max_tokens !== "number") return "max_tokens: required";
    let expect = "user";
    for (const [i, m] of body.messages.entries()) {
      if (m.role !== expect) return `messages.${i}.role: roles must alternate starting with user`;
      expect = expect === "user" ? "assistant" : "user";
      if (!Array.isArray(m.content) && typeof m.content !== "string") return `messages.${i}.content: required`;
      if (Array.isArray(m.content) && m.content.length === 0) return `messages.${i}.content: must not be empty`;
      if (m.role === "assistant" && Array.isArray(m.content)) {
        const ids = m.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
        const next = body.messages[i + 1];
        for (const id of ids) {
          if (!/^[a-zA-Z0-9_-]+$/.test(id)) return `messages.${i}: tool_use id ${id} has invalid characters`;
          if (next && !next.content.some((b: any) => b.type === "tool_result" && b.tool_use_id === id))
            return `messages.${i + 1}: tool_use ${id} has no tool_result right after it`;
        }
        for (const b of m.content) if (b.type === "thinking" && typeof b.signature !== "string") return `messages.${i}: thinking block without signature`;
      }
    }
    if (body.thinking && body.max_tokens <= body.thinking.budget_tokens) return "max_tokens: must be greater than thinking.budget_tokens";
  } else {
    for (const [i, m] of body.messages.entries()) {
      if (m.role === "assistant" && Array.isArray(m.tool_calls)) {
        for (const [k, call] of m.tool_calls.entries()) {
          const reply = body.messages[i + 1 + k];
          if (reply?.role !== "tool" || reply.tool_call_id !== call.id) return `messages.${i + 1 + k}: tool_call ${call.id} must be answered by a tool message`;
          try {
            JSON.parse(call.function.arguments);
          } catch {
            return `messages.${i}.tool_calls.${k}.function.arguments: not JSON`;
          }
        }
      }
    }
  }
  return undefined;
}

function errorBody(wire: "messages" | "chat", type: string, message: string) {
  return wire === "messages" ? { type: "error", error: { type, message } } : { error: { message, type, param: null, code: null } };
}

/** What the server does with one request: a status, headers and body parts, then close or cut. */
interface Reply {
  status: number;
  headers: Record<string, string>;
  parts: string[];
  /** Destroy the socket after the parts instead of ending the response (a dropped connection). */
  cut?: boolean;
  /** Never answer; the client must time out or abort. */
  hang?: boolean;
  /** A pause after each part (a model that streams slowly). */
  partDelayMs?: number;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  parts: [JSON.stringify(body)],
});

/**
 * Prompt-cache simulation: the longest prefix this request shares with an earlier one (tools, then
 * system, then messages, serialised as sent) is reported as cache read, at four characters a token.
 * On the Messages wire, what is not read and lies before the request's last `cache_control`
 * breakpoint is reported as cache write, as Anthropic bills it (a request without breakpoints
 * writes nothing); the Chat wire caches on its own and reports no writes, as OpenAI does. Enough to
 * show whether a harness keeps its prefix stable and what caching costs; no model of minimum
 * lengths or of expiry.
 */
function promptMaterial(wire: "messages" | "chat", body: any): string {
  return wire === "messages" ? JSON.stringify([body.tools ?? [], body.system ?? "", body.messages]) : JSON.stringify([body.tools ?? [], body.messages]);
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export class MockServer {
  readonly requests: RecordedRequest[] = [];
  private previous: string[] = [];
  /** What GET /v1/models lists; null answers 404 (an endpoint without a model list). */
  models: string[] | null = ["mock-a", "mock-b"];
  /** When on, turns without scripted usage report simulated prompt-cache usage. */
  simulateCache = false;
  private server: http.Server | undefined;
  private port = 0;
  private turns: Turn[] = [];
  private served = 0;
  /**
   * When set, the model's context in tokens, counted as a real tokenizer counts code (a token to
   * three characters of the request's messages, where weir estimates four): a longer request gets
   * the wire's own overflow answer (Anthropic's "prompt is too long", OpenAI's
   * context_length_exceeded) and takes no scripted turn.
   */
  contextWindow: number | undefined;
  /** When set, the most output tokens the model gives: a request asking for more gets DeepSeek's answer to it (or Anthropic's, on its wire). */
  maxOutput: number | undefined;

  constructor(trajectory: Trajectory = { turns: [] }) {
    this.turns = [...trajectory.turns];
  }

  /** Replaces the remaining script (routes included). */
  script(trajectory: Trajectory): void {
    this.turns = [...trajectory.turns];
    this.routes = [];
  }

  /**
   * Conversations served by their own script: a request whose first message contains `marker` (a
   * worker's goal) takes its turns from here, in order, whatever else arrives in between.
   */
  route(marker: string, turns: Turn[]): void {
    this.routes.push({ marker, turns: [...turns] });
  }

  private routes: { marker: string; turns: Turn[] }[] = [];
  private shared: MockServer | undefined;

  /**
   * Serves `other`'s script instead of its own: whichever of the two a request reaches, it takes
   * the next turn of the one trajectory (a router that sends turns to two vendors, one scripted run).
   */
  shareScriptOf(other: MockServer): void {
    this.shared = other;
  }

  get url(): string {
    if (!this.server) throw new Error("mock server not started");
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests left unanswered by the script. */
  get remaining(): number {
    return this.turns.length;
  }

  /** node:http rather than Bun.serve: a scripted disconnect needs to destroy the socket itself. */
  async start(): Promise<this> {
    const sockets = new Set<import("node:net").Socket>();
    this.server = http.createServer((req, res) => void this.serve(req, res));
    this.server.on("connection", (s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    this.sockets = sockets;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as import("node:net").AddressInfo).port;
    return this;
  }

  private sockets = new Set<import("node:net").Socket>();

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
    const reply = await this.reply(req.method ?? "GET", req.url ?? "/", headers, Buffer.concat(chunks).toString("utf8"));
    if (reply.hang) {
      await new Promise<void>((resolve) => res.on("close", () => resolve()));
      return;
    }
    res.writeHead(reply.status, reply.headers);
    for (const p of reply.parts) {
      res.write(p);
      if (reply.partDelayMs) await Bun.sleep(reply.partDelayMs);
    }
    if (reply.cut) setTimeout(() => res.socket?.destroy(), 5);
    else res.end(() => {
      const last = this.requests.at(-1);
      if (last) last.answeredAt = performance.now();
    });
  }

  private async reply(method: string, url: string, headers: Record<string, string>, text: string): Promise<Reply> {
    const path = new URL(url, "http://mock").pathname;
    // GET /v1/models in each vendor's shape (the Anthropic SDK sends anthropic-version); null: no such route.
    if (method === "GET" && path.endsWith("/models")) {
      this.requests.push({ wire: headers["anthropic-version"] ? "messages" : "chat", path, headers, body: null, receivedAt: performance.now() });
      if (this.models === null) return json(404, { error: { type: "not_found_error", message: `no route GET ${path}` } });
      return headers["anthropic-version"]
        ? json(200, { data: this.models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" })), has_more: false, first_id: this.models[0] ?? null, last_id: this.models.at(-1) ?? null })
        : json(200, { object: "list", data: this.models.map((id) => ({ id, object: "model", created: 1_764_000_000, owned_by: "mock" })) });
    }
    const wire = path.endsWith("/messages") ? "messages" : path.endsWith("/chat/completions") ? "chat" : undefined;
    if (!wire || method !== "POST") return json(404, { error: { type: "not_found_error", message: `no route ${method} ${path}` } });
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return json(400, errorBody(wire, "invalid_request_error", "body is not JSON"));
    }
    this.requests.push({ wire, path, headers, body, receivedAt: performance.now() });

    const invalid = validateRequest(wire, body);
    if (invalid) return json(400, errorBody(wire, "invalid_request_error", invalid));
    // The first user message (the Chat wire puts the system prompt first).
    const first = JSON.stringify((body.messages ?? []).find((m: any) => m.role === "user") ?? "");
    // A route with turns left goes first, so a test can add turns for a conversation that goes on.
    // A server that shares another's script takes its turns from there (two vendors, one trajectory).
    const script = this.shared ?? this;
    const routed = script.routes.find((r) => first.includes(r.marker) && r.turns.length > 0) ?? script.routes.find((r) => first.includes(r.marker));
    const asked = body.max_tokens ?? body.max_completion_tokens;
    if (this.maxOutput !== undefined && typeof asked === "number" && asked > this.maxOutput)
      return wire === "messages"
        ? json(400, errorBody(wire, "invalid_request_error", `max_tokens: ${asked} > ${this.maxOutput}, which is the maximum allowed number of output tokens for ${body.model}`))
        : json(400, { error: { message: `Invalid max_tokens value, the valid range of max_tokens is [1, ${this.maxOutput}]`, type: "invalid_request_error", param: null, code: "invalid_request_error" } });
    if (this.contextWindow !== undefined) {
      const tokens = Math.ceil(JSON.stringify([body.system ?? "", body.messages]).length / 3);
      if (tokens > this.contextWindow) {
        const w = this.contextWindow;
        return wire === "messages"
          ? json(400, errorBody(wire, "invalid_request_error", `prompt is too long: ${tokens} tokens > ${w} maximum`))
          : json(400, { error: { message: `This model's maximum context length is ${w} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } });
      }
    }
    const turn = routed ? routed.turns.shift() : script.turns.shift();
    const seq = ++this.served;
    if (!turn) return json(400, errorBody(wire, "invalid_request_error", `mock: script exhausted after ${seq - 1} requests`));
    if (turn.wire && turn.wire !== wire) return json(400, errorBody(wire, "invalid_request_error", `mock: turn ${seq} is scripted for the ${turn.wire} wire`));
    turn.sideEffect?.();
    if (turn.delayMs) await Bun.sleep(turn.delayMs);

    if (turn.errorReply) return json(turn.errorReply.status, turn.errorReply.body);
    const retryHeaders: Record<string, string> = turn.retryAfter !== undefined ? { "retry-after": String(turn.retryAfter) } : {};
    switch (turn.fault) {
      case "http_429":
        return json(429, errorBody(wire, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), retryHeaders);
      case "http_500":
        return json(500, errorBody(wire, "api_error", "Internal server error"));
      case "http_529":
        return wire === "messages"
          ? json(529, errorBody(wire, "overloaded_error", "Overloaded"), retryHeaders)
          : json(503, errorBody(wire, "server_error", "The server is overloaded"), retryHeaders);
      case "hang":
        return { status: 0, headers: {}, parts: [], hang: true };
    }

    // Input and cache reads are simulated unless scripted; a scripted output alone is kept.
    if (this.simulateCache && turn.usage?.input === undefined) {
      const material = promptMaterial(wire, body);
      const cached = Math.max(0, ...this.previous.map((p) => commonPrefix(p, material)));
      this.previous.push(material);
      const breakpoint = wire === "messages" ? material.lastIndexOf('"cache_control"') : -1;
      const written = Math.max(0, breakpoint - cached);
      turn.usage = {
        input: Math.ceil((material.length - cached - written) / 4),
        cacheRead: Math.floor(cached / 4),
        cacheWrite: Math.floor(written / 4),
        output: turn.usage?.output ?? 20,
      };
    }
    if (wire === "chat" && body.stream !== true) return json(200, chatCompletionWithLogprobs(turn, body.model, seq));
    const events = wire === "messages" ? anthropicEvents(turn, body.model, seq) : chatEvents(turn, body.model, seq);
    const half = events.slice(0, Math.max(2, Math.floor(events.length / 2)));
    let parts: string[] = events;
    if (turn.fault === "overloaded_event") {
      parts =
        wire === "messages"
          ? [events[0]!, sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })]
          : [events[0]!, sse(undefined, { error: { message: "The server is overloaded", type: "server_error", param: null, code: null } })];
    } else if (turn.fault === "garbage") {
      parts = wire === "messages" ? [events[0]!, "event: content_block_delta\ndata: {not json at all\n\n"] : [events[0]!, "data: {not json at all\n\n"];
    } else if (turn.fault === "disconnect" || turn.fault === "no_stop") {
      // disconnect: the socket is destroyed mid-stream; no_stop: a clean close before the closing events.
      parts = half;
    }
    return {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "request-id": `req_mock_${seq}` },
      parts,
      cut: turn.fault === "disconnect",
      ...(turn.partDelayMs ? { partDelayMs: turn.partDelayMs } : {}),
    };
  }
}
