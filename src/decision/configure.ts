import { providerSettings, type Resolved } from "../config/resolve.ts";
import { createProvider } from "../providers/create.ts";
import { bindKey, hostOf, type KeyOffer, variableHost } from "../providers/credential.ts";
import { findPreset, type Preset } from "../providers/presets.ts";
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
    // The judge role's model (`models.judge`) where the judgment config names no model of its own.
    const role = j.preset || j.model || j.baseUrl ? undefined : resolved.settings.models.judge;
    const presetId = role?.provider ?? j.preset ?? resolved.settings.provider;
    const preset = findPreset(presetId);
    if (!preset) throw new Error(`judgment.preset ${presetId} is not a provider preset`);
    const baseUrl = role?.baseUrl ?? j.baseUrl ?? preset.baseUrl;
    const model = role?.model ?? j.model ?? preset.model;
    if (!baseUrl || !model) throw new Error("judgment needs baseUrl and model for this preset");
    const roleKey = role?.apiKey ? { credential: { key: role.apiKey, host: hostOf(role.baseUrl), source: role.keySource }, withheld: [] } : undefined;
    const { credential, withheld } = roleKey ?? bindKey(baseUrl, judgeKeyOffers(j, preset, resolved));
    const why = withheld.length ? ` (${withheld.join("; ")}, not ${hostOf(baseUrl)})` : "";
    if (preset.keyRequired && !credential) throw new Error(`no key for the judgment provider${why}: set judgment.apiKey or WEIR_JUDGMENT_API_KEY`);
    const retry = { maxAttempts: 2, baseDelayMs: 200, maxDelayMs: 2000 };
    const endpoint = { preset: presetId, wire: preset.wire, baseUrl: baseUrl.replace(/\/+$/, ""), model, credential };
    const settings = { ...providerSettings(resolved), ...endpoint, effort: undefined, retry };
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

/**
 * The judge's keys, each bound where it belongs: `judgment.apiKey` and `WEIR_JUDGMENT_API_KEY` to the
 * judge's endpoint (the person configured both for it), a vendor's variable to the vendor's host, and
 * the main run's key to the main endpoint's host only.
 */
function judgeKeyOffers(j: NonNullable<Resolved["settings"]["judgment"]>, preset: Preset, resolved: Resolved): KeyOffer[] {
  const main = resolved.settings;
  return [
    { key: j.apiKey, source: "judgment.apiKey", name: "judgment.apiKey", belongsTo: "endpoint" },
    { key: process.env.WEIR_JUDGMENT_API_KEY, source: "env (WEIR_JUDGMENT_API_KEY)", name: "WEIR_JUDGMENT_API_KEY", belongsTo: "endpoint" },
    ...preset.keyEnv.map((name) => ({ key: process.env[name], source: `env (${name})`, name, belongsTo: variableHost(name) ?? hostOf(main.baseUrl) })),
    { key: main.apiKey, source: `the run's key (${resolved.sources.apiKey})`, name: "the run's key", belongsTo: hostOf(main.baseUrl) },
  ];
}

/** The configured judgment provider for `weir eval run --provider judgment`; notices go to stderr. */
export async function judgmentFor(resolved: Resolved): Promise<{ provider: JudgmentProvider } | undefined> {
  const notices: string[] = [];
  const provider = await configureJudge(resolved, notices);
  for (const n of notices) console.error(`weir: ${n}`);
  return provider ? { provider } : undefined;
}
