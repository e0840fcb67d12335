import OpenAI from "openai";
import { keyFor } from "./credential.ts";
import type { ImageBlock, Message } from "../core/messages.ts";
import type { StopReason, StreamEvent } from "../core/stream.ts";
import type { Usage } from "../core/usage.ts";
import { adapter } from "./adapter.ts";
import { noModelEvents, notAStream, ProviderError } from "./errors.ts";
import type { ModelProvider, ModelRequest, ProviderSettings } from "./port.ts";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type Chunk = OpenAI.Chat.ChatCompletionChunk;

/** Block indexes on this wire: reasoning, then text, then tool calls by their wire index. */
const REASONING = 0;
const TEXT = 1;
const TOOL_BASE = 2;

/** Internal history → Chat Completions wire. Pure. */
function toChatMessages(system: string, messages: readonly Message[], sendReasoning: boolean, cacheControl: boolean): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system !== "") {
    out.push(
      cacheControl
        ? ({ role: "system", content: [{ type: "text", text: system, cache_control: { type: "ephemeral" } }] } as unknown as ChatMessage)
        : { role: "system", content: system },
    );
  }
  for (const m of messages) {
    if (m.role === "user") {
      // Tool results are their own `tool` messages and must directly follow the assistant's calls.
      for (const b of m.content) if (b.type === "tool_result") out.push({ role: "tool", tool_call_id: b.callId, content: b.content });
      const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
      const dataUrl = (b: ImageBlock) => `data:${b.mediaType};base64,${b.data}`;
      const images = m.content.flatMap((b) => (b.type === "image" ? [{ type: "image_url" as const, image_url: { url: dataUrl(b) } }] : []));
      // An image goes as a part beside the text, as a data URL.
      if (images.length) out.push({ role: "user", content: [...(text !== "" ? [{ type: "text" as const, text }] : []), ...images] });
      else if (text !== "") out.push({ role: "user", content: text });
      continue;
    }
    const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    const reasoning = m.content.flatMap((b) => (b.type === "reasoning" && b.redacted === undefined ? [b.text] : [])).join("");
    const calls = m.content.flatMap((b) =>
      b.type === "tool_call" ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }] : [],
    );
    const msg: OpenAI.Chat.ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
      role: "assistant",
      content: text === "" ? null : text,
    };
    if (calls.length > 0) msg.tool_calls = calls;
    if (sendReasoning && reasoning !== "") msg.reasoning_content = reasoning;
    if (msg.content === null && calls.length === 0) continue;
    out.push(msg);
  }
  return out;
}

const REASONING_EFFORT = { low: "low", medium: "medium", high: "high", max: "high" } as const;

function buildChatParams(req: ModelRequest, s: ProviderSettings): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
    model: s.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: toChatMessages(req.system, req.messages, s.thinking === "preserve", s.cacheControl && s.cache !== "off"),
  };
  (params as unknown as Record<string, unknown>)[s.maxTokensField] = req.maxTokens;
  if (req.tools.length > 0) {
    params.tools = req.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
    params.parallel_tool_calls = true;
  }
  if (s.effort) params.reasoning_effort = REASONING_EFFORT[s.effort];
  return params;
}

const FINISH: Record<string, StopReason> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

interface UsageWire {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  /** DeepSeek reports cache hits in its own fields. */
  prompt_cache_hit_tokens?: number;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens?: number;
}

/**
 * Chat usage onto the ledger. Reasoning tokens are kept in their own field; where a vendor counts
 * them outside completion_tokens (xAI: total = prompt + completion + reasoning) they are added to
 * the output, as they are billed, instead of being lost. Pure.
 */
export function normaliseChatUsage(u: UsageWire): Usage {
  const prompt = u.prompt_tokens ?? 0;
  const cacheRead = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0;
  const cacheWrite = u.prompt_tokens_details?.cache_write_tokens ?? 0;
  const completion = u.completion_tokens ?? 0;
  const reasoning = u.completion_tokens_details?.reasoning_tokens ?? 0;
  const outside = reasoning > 0 && u.total_tokens !== undefined && u.total_tokens >= prompt + completion + reasoning;
  return {
    input: Math.max(0, prompt - cacheRead - cacheWrite),
    cacheRead,
    cacheWrite,
    output: completion + (outside ? reasoning : 0),
    ...(reasoning ? { reasoning } : {}),
  };
}

/** Garbage before the first event is no model stream, as on the Messages wire; later garbage stays a malformed stream. */
async function* guardFirst<T>(stream: AsyncIterable<T>, first: () => boolean, label: string): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (e) {
    if (e instanceof SyntaxError && first()) throw noModelEvents(label);
    throw e;
  }
}

/** Chat Completions stream → port events. Throws when the stream ends without a finish reason. */
async function* fromChatStream(stream: AsyncIterable<Chunk>, label = "the model endpoint"): AsyncGenerator<StreamEvent> {
  const started = new Set<number>();
  let finish: StopReason | undefined;
  let usage: ReturnType<typeof normaliseChatUsage> | undefined;
  let chunks = 0;
  for await (const chunk of guardFirst(stream, () => chunks === 0, label)) {
    chunks++;
    if (chunk.usage) usage = normaliseChatUsage(chunk.usage as UsageWire);
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta as Chunk["choices"][number]["delta"] & { reasoning_content?: string | null; reasoning?: string | null };
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) yield { type: "reasoning_delta", index: REASONING, text: reasoning };
      if (delta?.content) yield { type: "text_delta", index: TEXT, text: delta.content };
      for (const call of delta?.tool_calls ?? []) {
        const index = TOOL_BASE + call.index;
        if (!started.has(index)) {
          started.add(index);
          yield { type: "tool_call_start", index, id: call.id ?? `call_${call.index}`, name: call.function?.name ?? "" };
        }
        if (call.function?.arguments) yield { type: "tool_call_delta", index, json: call.function.arguments };
      }
      if (choice.finish_reason) finish = FINISH[choice.finish_reason] ?? "other";
    }
  }
  if (chunks === 0) throw noModelEvents(label);
  if (finish === undefined) throw new ProviderError("the stream ended before a finish reason (connection dropped mid-stream)", "connection", true);
  for (const index of started) yield { type: "tool_call_end", index };
  if (usage) yield { type: "usage", usage };
  yield { type: "stop", reason: finish };
}

export function createChatProvider(settings: ProviderSettings, keyHint: string): ModelProvider {
  const client = new OpenAI({
    apiKey: keyFor(settings) ?? "not-needed",
    baseURL: settings.baseUrl,
    organization: null,
    project: null,
    maxRetries: 0, // weir retries itself, including mid-stream failures the SDK cannot see
    timeout: settings.requestTimeoutMs,
    logLevel: "off",
  });
  return adapter(settings, keyHint, {
    wireBody: (req) => buildChatParams(req, settings) as unknown as Record<string, unknown>,
    models: (signal) => client.models.list({ signal }),
    async *attempt(req, label) {
      const { data: stream, response } = await client.chat.completions.create(buildChatParams(req, settings), { signal: req.signal }).withResponse();
      const wrong = notAStream(response, label);
      if (wrong) throw wrong;
      yield* fromChatStream(stream, label);
    },
  });
}
