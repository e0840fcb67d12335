import type { Message, ToolSpec } from "../core/messages.ts";
import type { StreamEvent } from "../core/stream.ts";
import type { Credential } from "./credential.ts";

export type Wire = "messages" | "chat";
export type Effort = "low" | "medium" | "high" | "max";
export type ThinkingMode = "preserve" | "strip";
type CacheMode = "auto" | "active" | "off";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Everything an adapter needs to reach one model; resolved by config, never read from env here. */
export interface ProviderSettings {
  preset: string;
  wire: Wire;
  baseUrl: string;
  /** The key, bound to `baseUrl`'s host; adapters read it through `keyFor`. */
  credential: Credential | undefined;
  model: string;
  effort: Effort | undefined;
  thinking: ThinkingMode;
  cache: CacheMode;
  requestTimeoutMs: number;
  retry: RetryPolicy;
  /** Chat wire: the field that carries the output limit (`max_tokens` or `max_completion_tokens`). */
  maxTokensField: "max_tokens" | "max_completion_tokens";
  /** Chat wire: the vendor accepts Anthropic-style `cache_control` on content parts. */
  cacheControl: boolean;
}

export interface ModelRequest {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  maxTokens: number;
  signal?: AbortSignal;
}

/**
 * The provider port. One call streams one model turn as vendor-neutral events; retries happen inside
 * and are announced with a `retry` event so consumers discard the partial attempt.
 */
export interface ModelProvider {
  readonly settings: ProviderSettings;
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
  /** The exact JSON body this adapter sends for a request (`weir context` prints it). Pure. */
  wireBody(request: ModelRequest): Record<string, unknown>;
  /** The endpoint's model ids, when it lists them (`weir init`); a ProviderError when it cannot. */
  listModels(signal?: AbortSignal): Promise<string[]>;
}
