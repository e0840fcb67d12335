import Anthropic from "@anthropic-ai/sdk";
import { keyFor } from "./credential.ts";
import type { Message, ToolSpec } from "../core/messages.ts";
import type { StopReason, StreamEvent } from "../core/stream.ts";
import { adapter } from "./adapter.ts";
import { noModelEvents, notAStream, ProviderError } from "./errors.ts";
import type { Effort, ModelProvider, ModelRequest, ProviderSettings } from "./port.ts";

type Param = Anthropic.MessageCreateParamsStreaming;
type ContentBlockParam = Anthropic.ContentBlockParam;

/** Thinking budget per effort level; `max_tokens` is raised above it when needed. */
const THINKING_BUDGET: Record<Effort, number> = { low: 2_048, medium: 8_192, high: 24_576, max: 32_000 };

const TOOL_ID = /[^a-zA-Z0-9_-]/g;

/** Internal history → Messages wire. Pure. */
function toAnthropicMessages(messages: readonly Message[], preserveThinking: boolean): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    const content: ContentBlockParam[] = [];
    if (m.role === "user") {
      // Tool results must lead the user turn that answers a tool_use turn.
      for (const b of m.content)
        if (b.type === "tool_result")
          content.push({ type: "tool_result", tool_use_id: b.callId.replace(TOOL_ID, "_"), content: b.content, is_error: b.isError });
      for (const b of m.content) if (b.type === "text" && b.text !== "") content.push({ type: "text", text: b.text });
      for (const b of m.content) if (b.type === "image") content.push({ type: "image", source: { type: "base64", media_type: b.mediaType, data: b.data } });
    } else {
      for (const b of m.content) {
        if (b.type === "text" && b.text !== "") content.push({ type: "text", text: b.text });
        else if (b.type === "reasoning" && preserveThinking) {
          // Unsigned reasoning (from another vendor) cannot be replayed to this one.
          if (b.redacted !== undefined) content.push({ type: "redacted_thinking", data: b.redacted });
          else if (b.signature) content.push({ type: "thinking", thinking: b.text, signature: b.signature });
        } else if (b.type === "tool_call")
          content.push({ type: "tool_use", id: b.id.replace(TOOL_ID, "_"), name: b.name, input: (b.input ?? {}) as Record<string, unknown> });
      }
    }
    if (content.length === 0) continue;
    const prev = out[out.length - 1];
    // The wire wants alternating roles; merge neighbours of the same role.
    if (prev && prev.role === m.role && Array.isArray(prev.content)) prev.content.push(...content);
    else out.push({ role: m.role, content });
  }
  return out;
}

/**
 * Cache breakpoints on the stable boundaries and a rolling one on the newest message, as Claude Code
 * sets them: the tools (which cover the system prompt before them), the end of the first message (a
 * run's compiled working set and task) and the last block of the request. The Messages API allows
 * four; each later request then reads everything the previous one wrote. `off` sends none.
 */
function markBreakpoints(messages: Anthropic.MessageParam[]): void {
  const mark = (m: Anthropic.MessageParam | undefined) => {
    if (!m || !Array.isArray(m.content) || m.content.length === 0) return;
    const last = m.content[m.content.length - 1] as { cache_control?: { type: "ephemeral" } };
    last.cache_control = { type: "ephemeral" };
  };
  mark(messages[0]);
  if (messages.length > 1) mark(messages[messages.length - 1]);
}

function buildAnthropicParams(req: ModelRequest, s: ProviderSettings): Param {
  const caching = s.cache !== "off";
  const tools: Anthropic.Tool[] = req.tools.map((t: ToolSpec, i) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
    ...(caching && i === req.tools.length - 1 ? { cache_control: { type: "ephemeral" as const } } : {}),
  }));
  const messages = toAnthropicMessages(req.messages, s.thinking === "preserve");
  if (caching) markBreakpoints(messages);
  const params: Param = {
    model: s.model,
    max_tokens: req.maxTokens,
    stream: true,
    messages,
  };
  if (req.system !== "")
    params.system = [{ type: "text", text: req.system, ...(caching && tools.length === 0 ? { cache_control: { type: "ephemeral" as const } } : {}) }];
  if (tools.length > 0) params.tools = tools;
  if (s.effort && s.preset === "anthropic") {
    // Anthropic documents adaptive thinking with an effort level; a budget is the older form.
    (params as unknown as Record<string, unknown>).thinking = { type: "adaptive" };
    (params as unknown as Record<string, unknown>).output_config = { effort: s.effort };
  } else if (s.effort) {
    // Anthropic-compatible endpoints document the budget form.
    const budget = THINKING_BUDGET[s.effort];
    params.thinking = { type: "enabled", budget_tokens: budget };
    params.max_tokens = Math.max(req.maxTokens, budget + 4_096);
  }
  return params;
}

const STOP: Record<string, StopReason> = {
  end_turn: "end_turn",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
  stop_sequence: "end_turn",
};

/** Messages wire stream → port events. Throws when the stream ends without `message_stop`. */
async function* fromAnthropicStream(stream: AsyncIterable<Anthropic.RawMessageStreamEvent>, label = "the model endpoint"): AsyncGenerator<StreamEvent> {
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  let stopped = false;
  let stopReason: StopReason = "other";
  let events = 0;
  for await (const ev of stream) {
    events++;
    switch (ev.type) {
      case "message_start": {
        const u = ev.message.usage;
        usage.input = u.input_tokens ?? 0;
        usage.cacheRead = u.cache_read_input_tokens ?? 0;
        usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
        usage.output = u.output_tokens ?? 0;
        break;
      }
      case "content_block_start": {
        const b = ev.content_block;
        if (b.type === "text" && b.text) yield { type: "text_delta", index: ev.index, text: b.text };
        else if (b.type === "text") yield { type: "text_delta", index: ev.index, text: "" };
        else if (b.type === "thinking") yield { type: "reasoning_delta", index: ev.index, text: b.thinking ?? "" };
        else if (b.type === "redacted_thinking") yield { type: "reasoning_redacted", index: ev.index, data: b.data };
        else if (b.type === "tool_use") yield { type: "tool_call_start", index: ev.index, id: b.id, name: b.name };
        break;
      }
      case "content_block_delta": {
        const d = ev.delta;
        if (d.type === "text_delta") yield { type: "text_delta", index: ev.index, text: d.text };
        else if (d.type === "thinking_delta") yield { type: "reasoning_delta", index: ev.index, text: d.thinking };
        else if (d.type === "signature_delta") yield { type: "reasoning_signature", index: ev.index, signature: d.signature };
        else if (d.type === "input_json_delta") yield { type: "tool_call_delta", index: ev.index, json: d.partial_json };
        break;
      }
      case "content_block_stop":
        yield { type: "tool_call_end", index: ev.index };
        break;
      case "message_delta": {
        const u = ev.usage as Partial<Anthropic.MessageDeltaUsage>;
        if (typeof u.output_tokens === "number") usage.output = u.output_tokens;
        if (typeof u.input_tokens === "number") usage.input = u.input_tokens;
        if (typeof u.cache_read_input_tokens === "number") usage.cacheRead = u.cache_read_input_tokens;
        if (typeof u.cache_creation_input_tokens === "number") usage.cacheWrite = u.cache_creation_input_tokens;
        if (ev.delta.stop_reason) stopReason = STOP[ev.delta.stop_reason] ?? "other";
        break;
      }
      case "message_stop":
        stopped = true;
        break;
    }
  }
  // No event at all is not a dropped stream but no stream: retrying will not make one.
  if (events === 0) throw noModelEvents(label);
  if (!stopped) throw new ProviderError("the stream ended before message_stop (connection dropped mid-stream)", "connection", true);
  yield { type: "usage", usage };
  yield { type: "stop", reason: stopReason };
}

/**
 * The SDK prints its own warnings (a deprecated model, a deprecated thinking form) with
 * console.warn on every request. weir catches them around the call and says each once, in its own
 * words, with the fix. Pure apart from the console swap.
 */
function withSdkWarnings<T>(call: () => T): { value: T; warnings: string[] } {
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (...a: unknown[]) => void warnings.push(a.map(String).join(" "));
  try {
    return { value: call(), warnings };
  } finally {
    console.warn = warn;
  }
}

/** An SDK warning in weir's words. Pure. */
function sdkWarning(text: string, model: string): string {
  const eol = text.match(/end-of-life on ([^\n]+?)\n/);
  if (/is deprecated and will reach end-of-life/.test(text))
    return `the model ${model} is deprecated (end of life ${eol?.[1] ?? "soon"}); pass --model with a current one, e.g. ${ANTHROPIC_DEFAULT_MODEL}`;
  if (/thinking\.type=enabled' is deprecated/.test(text))
    return `the model ${model} wants adaptive thinking; weir sends it with --effort on the anthropic preset`;
  return `the Anthropic SDK warns: ${text.split("\n")[0]}`;
}

/** The preset's default: a model the bundled SDK does not list as deprecated. */
const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-5-5";

export function createAnthropicProvider(settings: ProviderSettings, keyHint: string): ModelProvider {
  const said = new Set<string>();
  const client = new Anthropic({
    apiKey: keyFor(settings) ?? "not-needed",
    authToken: null,
    baseURL: settings.baseUrl,
    maxRetries: 0, // weir retries itself, including mid-stream failures the SDK cannot see
    timeout: settings.requestTimeoutMs,
    logLevel: "off",
  });
  return adapter(settings, keyHint, {
    wireBody: (req) => buildAnthropicParams(req, settings) as unknown as Record<string, unknown>,
    models: (signal) => client.models.list({}, { signal }),
    async *attempt(req, label) {
      const { value: pending, warnings } = withSdkWarnings(() => client.messages.create(buildAnthropicParams(req, settings), { signal: req.signal }));
      // The SDK's own console warnings (a deprecated model) are said once, in weir's words.
      for (const w of warnings) {
        const message = sdkWarning(w, settings.model);
        if (!said.has(message)) {
          said.add(message);
          yield { type: "notice" as const, message };
        }
      }
      const { data: stream, response } = await pending.withResponse();
      const wrong = notAStream(response, label);
      if (wrong) throw wrong;
      yield* fromAnthropicStream(stream, label);
      if (req.signal?.aborted) throw new DOMException("aborted", "AbortError");
    },
  });
}
