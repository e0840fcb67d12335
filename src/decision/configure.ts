import { providerSettings, type Resolved } from "../config/resolve.ts";
import { createProvider } from "../providers/create.ts";
import { findPreset } from "../providers/presets.ts";
import type { JudgmentProvider } from "./judges.ts";

/**
 * The configured judgment provider, or undefined. Configured apart from the main model; a failure to
 * set it up is a notice and the baseline carries on alone.
 */
export async function configureJudge(resolved: Resolved, notices: string[]): Promise<JudgmentProvider | undefined> {
  const j = resolved.settings.judgment;
  if (!j) return undefined;
  try {
    // Loaded only when a judge is configured: it brings undici and the OpenAI SDK (logprobs) with it.
    const { httpJudge, llmJudge, logprobsJudge } = await import("./judges.ts");
    if (j.provider === "http") {
      if (!j.url) throw new Error("judgment.url is required for the http provider");
      return httpJudge(j.url, j.apiKey ?? process.env.WEIR_JUDGMENT_API_KEY, j.timeoutMs ?? 20_000);
    }
    if (j.provider === "replay") throw new Error("the replay provider answers from recorded judgments and is only for weir eval");
    const presetId = j.preset ?? resolved.settings.provider;
    const preset = findPreset(presetId);
    if (!preset) throw new Error(`judgment.preset ${presetId} is not a provider preset`);
    const baseUrl = j.baseUrl ?? preset.baseUrl;
    const model = j.model ?? preset.model;
    if (!baseUrl || !model) throw new Error("judgment needs baseUrl and model for this preset");
    const apiKey = j.apiKey ?? [...preset.keyEnv, "WEIR_JUDGMENT_API_KEY", "WEIR_API_KEY"].map((n) => process.env[n]).find(Boolean);
    if (preset.keyRequired && !apiKey) throw new Error(`no key for the judgment provider: set judgment.apiKey or ${preset.keyEnv.join(" or ")}`);
    const settings = { ...providerSettings(resolved), preset: presetId, wire: preset.wire, baseUrl: baseUrl.replace(/\/+$/, ""), model, apiKey, effort: undefined, retry: { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 2000 } };
    if (j.provider === "logprobs") {
      if (preset.wire !== "chat") throw new Error("the logprobs provider needs an OpenAI-compatible (chat) endpoint");
      return logprobsJudge(settings);
    }
    return llmJudge(await createProvider(settings, preset.hint));
  } catch (e) {
    notices.push(`judgment provider not used: ${(e as Error).message}; the baseline decides alone`);
    return undefined;
  }
}


/** The configured judgment provider for `weir eval run --provider judgment`; notices go to stderr. */
export async function judgmentFor(resolved: Resolved): Promise<{ provider: JudgmentProvider } | undefined> {
  const notices: string[] = [];
  const provider = await configureJudge(resolved, notices);
  for (const n of notices) console.error(`weir: ${n}`);
  return provider ? { provider } : undefined;
}
