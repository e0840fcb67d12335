import type { ModelProvider, ProviderSettings } from "./port.ts";

/**
 * Builds the adapter for a wire. The SDKs are imported lazily so commands that never reach a model
 * (`--version`, `--help`, `config show`) do not pay for loading them.
 */
export async function createProvider(settings: ProviderSettings, keyHint: string): Promise<ModelProvider> {
  if (settings.wire === "messages") {
    const { createAnthropicProvider } = await import("./anthropic.ts");
    return createAnthropicProvider(settings, keyHint);
  }
  const { createChatProvider } = await import("./openai.ts");
  return createChatProvider(settings, keyHint);
}
