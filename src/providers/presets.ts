import type { ThinkingMode, Wire } from "./port.ts";

/**
 * A provider preset: a vendor's wire, endpoint, flagship model and key variable, so
 * `--provider deepseek` needs nothing else. `openai-compatible`, `anthropic-compatible` and `ollama`
 * take `--base-url` (ollama has a local default).
 */
export interface Preset {
  id: string;
  wire: Wire;
  baseUrl?: string;
  model?: string;
  /** Environment variables that may hold the key, in order; `WEIR_API_KEY` is always tried last. */
  keyEnv: string[];
  keyRequired: boolean;
  /** Default for `--thinking`: whether reasoning blocks are sent back to this vendor. */
  thinking: ThinkingMode;
  maxTokensField: "max_tokens" | "max_completion_tokens";
  /** Default for `--max-tokens` where the vendor's default model gives fewer than weir's default. */
  maxTokens?: number;
  cacheControl: boolean;
  /** Where a user gets a key or learns the endpoint, for error messages. */
  hint: string;
}

const chat = (p: Partial<Preset> & Pick<Preset, "id" | "hint">): Preset => ({
  wire: "chat",
  keyEnv: [],
  keyRequired: true,
  thinking: "strip",
  maxTokensField: "max_tokens",
  cacheControl: false,
  ...p,
});

const messages = (p: Partial<Preset> & Pick<Preset, "id" | "hint">): Preset => ({
  wire: "messages",
  keyEnv: [],
  keyRequired: true,
  thinking: "preserve",
  maxTokensField: "max_tokens",
  cacheControl: true,
  ...p,
});

export const PRESETS: readonly Preset[] = [
  messages({
    id: "anthropic",
    baseUrl: "https://api.anthropic.com",
    model: "claude-sonnet-5-5",
    keyEnv: ["ANTHROPIC_API_KEY"],
    hint: "set ANTHROPIC_API_KEY or pass --api-key",
  }),
  chat({
    id: "openai",
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-5",
    keyEnv: ["OPENAI_API_KEY"],
    maxTokensField: "max_completion_tokens",
    hint: "set OPENAI_API_KEY or pass --api-key",
  }),
  // DeepSeek's thinking mode wants reasoning_content sent back within a tool-use turn.
  // deepseek-chat answers a max_tokens over 8192 with "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]".
  chat({
    id: "deepseek",
    baseUrl: "https://api.deepseek.com",
    model: "deepseek-chat",
    keyEnv: ["DEEPSEEK_API_KEY"],
    thinking: "preserve",
    maxTokens: 8192,
    hint: "set DEEPSEEK_API_KEY or pass --api-key",
  }),
  chat({
    id: "zai",
    baseUrl: "https://api.z.ai/api/paas/v4",
    model: "glm-4.6",
    keyEnv: ["ZAI_API_KEY", "ZHIPUAI_API_KEY"],
    thinking: "preserve",
    hint: "set ZAI_API_KEY or pass --api-key",
  }),
  messages({
    id: "minimax",
    baseUrl: "https://api.minimax.io/anthropic",
    model: "MiniMax-M2",
    keyEnv: ["MINIMAX_API_KEY"],
    cacheControl: false,
    hint: "set MINIMAX_API_KEY or pass --api-key",
  }),
  chat({
    id: "openrouter",
    baseUrl: "https://openrouter.ai/api/v1",
    model: "anthropic/claude-sonnet-4.5",
    keyEnv: ["OPENROUTER_API_KEY"],
    cacheControl: true,
    hint: "set OPENROUTER_API_KEY or pass --api-key",
  }),
  chat({
    id: "ollama",
    baseUrl: "http://127.0.0.1:11434/v1",
    keyEnv: ["OLLAMA_API_KEY"],
    keyRequired: false,
    hint: "pass --model (a model you have pulled) and, if ollama is elsewhere, --base-url",
  }),
  chat({ id: "openai-compatible", keyEnv: ["OPENAI_API_KEY"], keyRequired: false, hint: "pass --base-url and --model for your endpoint" }),
  messages({
    id: "anthropic-compatible",
    keyEnv: ["ANTHROPIC_API_KEY"],
    keyRequired: false,
    cacheControl: false,
    hint: "pass --base-url and --model for your endpoint",
  }),
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
