import { PRESETS } from "./presets.ts";

/**
 * A key bound to the one host it may be sent to. Adapters read the key only through `keyFor`, which
 * refuses a host other than the bound one: whatever way settings are assembled or copied (a judge,
 * a `/model` switch, `weir doctor`), a key never reaches an endpoint it was not bound to.
 */
export interface Credential {
  readonly key: string;
  readonly host: string;
  /** Where the key came from, for messages: `flag`, `env (OPENAI_API_KEY)`, `user`. */
  readonly source: string;
}

/**
 * One place a key may come from, and whom it belongs to: a vendor's host (its documented variable, a
 * key stored for an endpoint), or `"endpoint"`: whatever endpoint the person chose for this run (a
 * key they gave weir itself: `--api-key`, `WEIR_API_KEY`).
 */
export interface KeyOffer {
  key: string | undefined;
  source: string;
  /** What a message calls it (`OPENAI_API_KEY`, `the stored key`). */
  name: string;
  belongsTo: string | "endpoint";
}

/** The host (and port) a URL points at; the whole string when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The host a vendor's key variable belongs to: the endpoint of the first preset with a fixed
 * endpoint that names the variable (`OPENAI_API_KEY` is OpenAI's, even when a compatible preset
 * reads it). Undefined for a variable no such preset names.
 */
export function variableHost(name: string): string | undefined {
  const preset = PRESETS.find((p) => p.baseUrl && p.keyEnv.includes(name));
  return preset?.baseUrl ? hostOf(preset.baseUrl) : undefined;
}

/**
 * The first offered key that belongs to `endpoint`, bound to its host, and why the others that were
 * set were passed over (`OPENAI_API_KEY is for api.openai.com`). Pure.
 */
export function bindKey(endpoint: string, offers: readonly KeyOffer[]): { credential?: Credential; withheld: string[] } {
  const host = hostOf(endpoint);
  const withheld: string[] = [];
  for (const offer of offers) {
    if (!offer.key) continue;
    if (offer.belongsTo === "endpoint" || offer.belongsTo === host) return { credential: { key: offer.key, host, source: offer.source }, withheld };
    withheld.push(`${offer.name} is for ${offer.belongsTo}`);
  }
  return { withheld };
}

/**
 * The key an adapter sends to `baseUrl`: the credential's, only when it was bound to that host.
 * A mismatch is a bug in how settings were assembled, never a user error, so it throws as one.
 */
export function keyFor(settings: { baseUrl: string; credential: Credential | undefined }): string | undefined {
  const c = settings.credential;
  if (!c) return undefined;
  if (c.host !== hostOf(settings.baseUrl)) throw new Error(`internal: a key bound to ${c.host} was about to be sent to ${hostOf(settings.baseUrl)}`);
  return c.key;
}
