import type { Message, ToolSpec } from "../../src/core/messages.ts";
import { TurnAccumulator } from "../../src/core/stream.ts";
import { createProvider } from "../../src/providers/create.ts";
import { hostOf } from "../../src/providers/credential.ts";
import type { ModelProvider, ProviderSettings, Wire } from "../../src/providers/port.ts";

export const WIRES: Wire[] = ["messages", "chat"];

export function settingsFor(wire: Wire, baseUrl: string, over: Partial<ProviderSettings> = {}): ProviderSettings {
  const url = over.baseUrl ?? (wire === "messages" ? baseUrl : `${baseUrl}/v1`);
  return {
    preset: wire === "messages" ? "anthropic-compatible" : "openai-compatible",
    wire,
    baseUrl: url,
    credential: { key: "test-key-0123456789", host: hostOf(url), source: "test" },
    model: "mock-model",
    effort: undefined,
    thinking: "preserve",
    cache: "auto",
    requestTimeoutMs: 5_000,
    retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
    maxTokensField: "max_tokens",
    cacheControl: wire === "messages",
    ...over,
  };
}

export const provider = (s: ProviderSettings): Promise<ModelProvider> => createProvider(s, "pass --api-key");

export const READ_TOOL: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** Streams one turn and folds it, returning the message, usage and the raw events. */
export async function turn(p: ModelProvider, messages: Message[], opts: { tools?: ToolSpec[]; system?: string; signal?: AbortSignal; maxTokens?: number } = {}) {
  const acc = new TurnAccumulator();
  const events = [];
  for await (const ev of p.stream({ system: opts.system ?? "be brief", messages, tools: opts.tools ?? [READ_TOOL], maxTokens: opts.maxTokens ?? 1024, signal: opts.signal })) {
    acc.push(ev);
    events.push(ev);
  }
  return { message: acc.message(), usage: acc.usage, stop: acc.stopReason, events };
}
