import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { resolveSettings, type Layers } from "../../src/config/resolve.ts";
import type { ConfigValues } from "../../src/config/options.ts";
import { bindKey, keyFor } from "../../src/providers/credential.ts";
import { raised } from "../support/errors.ts";

const LOCAL = "http://127.0.0.1:47020/v1";
const OTHER = "http://10.9.8.7:8000/v1";
const KEYS = { flag: "key-flag", openai: "key-openai-env", anthropic: "key-anthropic-env", weir: "key-weir-env", stored: "key-stored" };

/** Where each key may go, written out here rather than taken from the code under test. */
function mayGoTo(key: string, user: ConfigValues): string | "anywhere" {
  if (key === KEYS.flag || key === KEYS.weir) return "anywhere";
  if (key === KEYS.openai) return "api.openai.com";
  if (key === KEYS.anthropic) return "api.anthropic.com";
  const presetEndpoint: Record<string, string> = { anthropic: "https://api.anthropic.com", openai: "https://api.openai.com/v1", ollama: "http://127.0.0.1:11434/v1" };
  const storedFor = user.baseUrl ?? presetEndpoint[user.provider ?? "anthropic"];
  return storedFor ? new URL(storedFor).host : "nowhere";
}

const layers = (over: Partial<Layers>): Layers => ({ flags: {}, env: {}, project: {}, user: {}, ...over });

describe("a key goes only to the host it belongs to", () => {
  test("a provider chosen by flag uses its own endpoint, not the configured provider's", () => {
    const user = { provider: "openai-compatible", baseUrl: LOCAL, model: "local-model" };
    const openai = resolveSettings(layers({ user, flags: { provider: "openai" }, env: { OPENAI_API_KEY: KEYS.openai } })).settings;
    expect([openai.baseUrl, openai.model, openai.apiKey]).toEqual(["https://api.openai.com/v1", "gpt-5", KEYS.openai]);
    const anthropic = resolveSettings(layers({ user, flags: { provider: "anthropic" }, env: { ANTHROPIC_API_KEY: KEYS.anthropic } })).settings;
    expect([anthropic.baseUrl, anthropic.apiKey]).toEqual(["https://api.anthropic.com", KEYS.anthropic]);
    // WEIR_PROVIDER is chosen above the user config too.
    expect(resolveSettings(layers({ user, env: { WEIR_PROVIDER: "openai", OPENAI_API_KEY: KEYS.openai } })).settings.baseUrl).toBe("https://api.openai.com/v1");
  });

  test("a base URL given with the flag, or set for the same provider, is used", () => {
    const user = { provider: "openai-compatible", baseUrl: LOCAL, model: "local-model" };
    expect(resolveSettings(layers({ user, flags: { provider: "openai-compatible" } })).settings.baseUrl).toBe(LOCAL);
    expect(resolveSettings(layers({ user, flags: { provider: "openai", baseUrl: OTHER } })).settings.baseUrl).toBe(OTHER);
    expect(resolveSettings(layers({ user, flags: { baseUrl: OTHER } })).settings.baseUrl).toBe(OTHER);
  });

  test("a vendor's variable is withheld from any other host, and the missing-key error says why", () => {
    const r = resolveSettings(layers({ flags: { provider: "openai", baseUrl: LOCAL }, env: { OPENAI_API_KEY: KEYS.openai } }));
    expect(r.settings.apiKey).toBeUndefined();
    expect(r.sources.apiKey).toBe("unset (OPENAI_API_KEY is for api.openai.com, not 127.0.0.1:47020)");
    const compatible = resolveSettings(layers({ flags: { provider: "openai-compatible", baseUrl: LOCAL, model: "m" }, env: { OPENAI_API_KEY: KEYS.openai } }));
    expect(compatible.settings.apiKey).toBeUndefined();
    // The person's own key for this run goes where they pointed it.
    expect(resolveSettings(layers({ flags: { provider: "openai", baseUrl: LOCAL, apiKey: KEYS.flag }, env: { OPENAI_API_KEY: KEYS.openai } })).settings.apiKey).toBe(KEYS.flag);
    expect(resolveSettings(layers({ flags: { provider: "openai", baseUrl: LOCAL }, env: { OPENAI_API_KEY: KEYS.openai, WEIR_API_KEY: KEYS.weir } })).settings.apiKey).toBe(KEYS.weir);
  });

  test("a stored key goes only to the endpoint it was stored for", () => {
    const stored = { provider: "openai", apiKey: KEYS.stored };
    expect(resolveSettings(layers({ user: stored })).settings.apiKey).toBe(KEYS.stored);
    const elsewhere = resolveSettings(layers({ user: stored, flags: { baseUrl: LOCAL } }));
    expect(elsewhere.settings.apiKey).toBeUndefined();
    expect(elsewhere.sources.apiKey).toBe("unset (the stored key is for api.openai.com, not 127.0.0.1:47020)");
  });

  test("over every combination of flag, environment, user and project config, the key sent belongs to the endpoint", () => {
    const url = fc.constantFrom(undefined, LOCAL, OTHER);
    const provider = fc.constantFrom(undefined, "anthropic", "openai", "openai-compatible", "ollama");
    const maybe = (key: string) => fc.constantFrom(undefined, key);
    const arb = fc.record({
      flags: fc.record({ provider, baseUrl: url, apiKey: maybe(KEYS.flag), model: fc.constantFrom(undefined, "flag-model") }),
      env: fc.record({ WEIR_PROVIDER: provider, WEIR_BASE_URL: url, OPENAI_API_KEY: maybe(KEYS.openai), ANTHROPIC_API_KEY: maybe(KEYS.anthropic), WEIR_API_KEY: maybe(KEYS.weir) }),
      user: fc.record({ provider, baseUrl: url, apiKey: maybe(KEYS.stored), model: fc.constantFrom(undefined, "user-model") }),
      project: fc.record({ model: fc.constantFrom(undefined, "project-model") }),
    });
    const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    fc.assert(
      fc.property(arb, (c) => {
        const input = layers({ flags: defined(c.flags), env: defined(c.env), user: defined(c.user), project: defined(c.project) });
        let s;
        try {
          s = resolveSettings(input).settings;
        } catch (e) {
          // Only a compatible provider without its endpoint or model may fail to resolve.
          expect((e as Error).message).toMatch(/needs --(base-url|model)/);
          return;
        }
        if (s.apiKey) {
          const to = mayGoTo(s.apiKey, input.user);
          if (to !== "anywhere") expect(new URL(s.baseUrl).host).toBe(to);
        }
        // An endpoint the person typed wins; one from a config follows its own provider only.
        if (input.flags.baseUrl) expect(s.baseUrl).toBe(input.flags.baseUrl.replace(/\/+$/, ""));
        const chosenAbove = input.flags.provider ?? input.env.WEIR_PROVIDER;
        if (!input.flags.baseUrl && !input.env.WEIR_BASE_URL && chosenAbove && chosenAbove !== (input.user.provider ?? "anthropic") && input.user.baseUrl)
          expect(s.baseUrl).not.toBe(input.user.baseUrl);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("credentials", () => {
  test("bindKey takes the first key that belongs to the endpoint and names the others", () => {
    const offers = [
      { key: "a", source: "env (A)", name: "A", belongsTo: "api.vendor.com" },
      { key: undefined, source: "flag", name: "--api-key", belongsTo: "endpoint" },
      { key: "c", source: "user", name: "the stored key", belongsTo: "127.0.0.1:9" },
    ];
    expect(bindKey("http://127.0.0.1:9/v1", offers)).toEqual({ credential: { key: "c", host: "127.0.0.1:9", source: "user" }, withheld: ["A is for api.vendor.com"] });
    expect(bindKey("https://elsewhere.example", offers)).toEqual({ withheld: ["A is for api.vendor.com", "the stored key is for 127.0.0.1:9"] });
  });

  test("an adapter cannot read a key for a host other than the one it was bound to", () => {
    const credential = { key: "k", host: "api.openai.com", source: "env (OPENAI_API_KEY)" };
    expect(keyFor({ baseUrl: "https://api.openai.com/v1", credential })).toBe("k");
    expect((raised(() => keyFor({ baseUrl: "http://127.0.0.1:47020/v1", credential })) as Error).message).toContain("was about to be sent to 127.0.0.1:47020");
    expect(keyFor({ baseUrl: "http://127.0.0.1:47020/v1", credential: undefined })).toBeUndefined();
  });
});

describe("each role's key goes only to its own host", () => {
  test("a fast model of another vendor takes that vendor's variable, never main's key", () => {
    const r = resolveSettings(layers({ user: { models: { fast: { provider: "openai", model: "gpt-5-mini" } } }, env: { ANTHROPIC_API_KEY: KEYS.anthropic, OPENAI_API_KEY: KEYS.openai } }));
    expect(r.settings.apiKey).toBe(KEYS.anthropic);
    expect(r.settings.models.fast).toMatchObject({ provider: "openai", model: "gpt-5-mini", baseUrl: "https://api.openai.com/v1", apiKey: KEYS.openai });
    const without = resolveSettings(layers({ user: { models: { fast: { provider: "openai", model: "gpt-5-mini" } } }, env: { ANTHROPIC_API_KEY: KEYS.anthropic } }));
    expect(without.settings.models.fast?.apiKey).toBeUndefined();
    expect(without.settings.models.fast?.keySource).toBe("unset (the main model's key is for api.anthropic.com, not api.openai.com)");
  });

  test("a bare model id is main's provider, endpoint and key; --fast-model keeps the configured provider", () => {
    const same = resolveSettings(layers({ user: { provider: "openai-compatible", baseUrl: LOCAL, model: "big", apiKey: KEYS.stored, models: { fast: "small" } } }));
    expect(same.settings.models.fast).toMatchObject({ provider: "openai-compatible", model: "small", baseUrl: LOCAL, apiKey: KEYS.stored });
    const flag = resolveSettings(layers({ user: { models: { fast: { provider: "openai", model: "gpt-5-mini" } } }, flags: { models: { fast: "gpt-5-nano" } }, env: { OPENAI_API_KEY: KEYS.openai } }));
    expect(flag.settings.models.fast).toMatchObject({ provider: "openai", model: "gpt-5-nano", apiKey: KEYS.openai });
  });

  test("models.main is the same as provider and model; a layer's own provider and model win over it", () => {
    const r = resolveSettings(layers({ user: { models: { main: { provider: "openai", model: "gpt-5" } } }, env: { OPENAI_API_KEY: KEYS.openai } }));
    expect([r.settings.provider, r.settings.model, r.settings.apiKey]).toEqual(["openai", "gpt-5", KEYS.openai]);
    expect(resolveSettings(layers({ user: { model: "own", models: { main: "other" } } })).settings.model).toBe("own");
  });

  test("over random roles and keys, a role's key is one that belongs to its endpoint's host", () => {
    const provider = fc.constantFrom(undefined, "anthropic", "openai", "openai-compatible");
    const role = fc.option(fc.record({ provider, model: fc.constant("r"), baseUrl: fc.constantFrom(undefined, LOCAL, OTHER), apiKey: fc.constantFrom(undefined, "key-role") }), { nil: undefined });
    const arb = fc.record({ main: provider, fast: role, judge: role, openai: fc.boolean(), anthropic: fc.boolean(), weir: fc.boolean() });
    const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    fc.assert(
      fc.property(arb, (c) => {
        const env = defined({ OPENAI_API_KEY: c.openai ? KEYS.openai : undefined, ANTHROPIC_API_KEY: c.anthropic ? KEYS.anthropic : undefined, WEIR_API_KEY: c.weir ? KEYS.weir : undefined });
        const models = defined({ fast: c.fast && defined(c.fast), judge: c.judge && defined(c.judge) });
        const main = c.main === "openai-compatible" ? { provider: c.main, baseUrl: LOCAL, model: "m" } : defined({ provider: c.main });
        let r;
        try {
          r = resolveSettings(layers({ user: { ...main, models }, env }));
        } catch (e) {
          expect((e as Error).message).toMatch(/needs baseUrl/);
          return;
        }
        for (const m of Object.values(r.settings.models)) {
          if (!m?.apiKey) continue;
          const host = new URL(m.baseUrl).host;
          const owner: Record<string, string | undefined> = {
            "key-role": "anywhere",
            [KEYS.openai]: "api.openai.com",
            [KEYS.anthropic]: "api.anthropic.com",
            // The person's key for main's endpoint goes to main's host only.
            [KEYS.weir]: new URL(r.settings.baseUrl).host,
          };
          const may = owner[m.apiKey];
          if (may !== "anywhere") expect(host).toBe(may!);
        }
      }),
    );
  });
});
