import { usageError, UserError } from "../core/errors.ts";
import type { Price } from "../core/usage.ts";
import type { ProviderSettings } from "../providers/port.ts";
import { bindKey, hostOf, type KeyOffer, variableHost } from "../providers/credential.ts";
import { findPreset, PRESET_IDS, type Preset } from "../providers/presets.ts";
import { CACHE_MODES, type ConfigValues as ConfigFile, EFFORTS, OUTPUT_FORMATS, ROUTER_MODES, THINKING_MODES, VERIFY_FLOORS } from "./options.ts";
import type { ModelRole, RoleModel } from "./options.ts";

type Source = "flag" | "env" | "project" | "user" | "preset" | "default";

export interface Layers {
  flags: ConfigFile;
  env: Record<string, string | undefined>;
  project: ConfigFile;
  user: ConfigFile;
  /** Paths of the files behind `project` and `user`, for messages. */
  projectPath?: string;
  userPath?: string;
}

/** A role's model, resolved: where it is sent, and the key bound to that host (when one belongs there). */
export interface RoleEndpoint {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  /** Where the key came from, or why none was taken (`unset (OPENAI_API_KEY is for api.openai.com, …)`). */
  keySource: string;
}

/** The roles beside `main` (which is `provider` and `model`). */
export type SideRole = Exclude<ModelRole, "main">;
const SIDE_ROLES: readonly SideRole[] = ["fast", "judge", "review"];

export interface Settings {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  maxTokens: number;
  contextSize: number;
  maxTurns: number;
  effort: ConfigFile["effort"];
  thinking: NonNullable<ConfigFile["thinking"]>;
  cache: NonNullable<ConfigFile["cache"]>;
  outputFormat: NonNullable<ConfigFile["outputFormat"]>;
  color: boolean;
  verbose: boolean;
  requestTimeoutMs: number;
  retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  verifyFloor: NonNullable<ConfigFile["verifyFloor"]>;
  judgment: ConfigFile["judgment"];
  /** The models of the roles beside `main`, where configured. */
  models: Partial<Record<SideRole, RoleEndpoint>>;
  /** `off`: every request goes to `main`. */
  router: NonNullable<ConfigFile["router"]>;
  /** `env`: variables commands get beyond the allowlist (workspace/environment.ts), the user's config only. */
  sandbox: { mode: "workspace-write" | "read-only" | "off"; readable: string[]; env: string[] };
  /** Model prices from the config files (the user's over the project's), by model id. */
  prices: Record<string, Price>;
  /** The user's hooks. */
  hooks: NonNullable<ConfigFile["hooks"]>;
  /** The project config's hooks: run only once the user approved exactly these for the workspace. */
  projectHooks?: NonNullable<ConfigFile["hooks"]>;
}

export interface Resolved {
  settings: Settings;
  /** Permission layers kept apart: a project's may only tighten the user's. */
  permissions: { user?: ConfigFile["permissions"]; project?: ConfigFile["permissions"] };
  /** Where each value came from; `apiKey` names the variable when it came from the environment. */
  sources: Record<keyof Settings, string>;
  preset: Preset;
}

const DEFAULTS = {
  provider: "anthropic",
  maxTokens: 16_384,
  contextSize: 200_000,
  maxTurns: 100,
  thinking: undefined,
  cache: "auto",
  outputFormat: "text",
  color: true,
  verbose: false,
  requestTimeoutMs: 600_000,
  retry: { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 },
} as const;

/** Environment variables that set configuration, and the key each sets. */
const ENV_KEYS = {
  WEIR_PROVIDER: "provider",
  WEIR_MODEL: "model",
  WEIR_BASE_URL: "baseUrl",
  WEIR_MAX_TOKENS: "maxTokens",
  WEIR_CONTEXT_SIZE: "contextSize",
  WEIR_MAX_TURNS: "maxTurns",
  WEIR_EFFORT: "effort",
  WEIR_THINKING: "thinking",
  WEIR_CACHE: "cache",
  WEIR_OUTPUT_FORMAT: "outputFormat",
  WEIR_VERIFY_FLOOR: "verifyFloor",
  WEIR_ROUTER: "router",
} as const;

const ENUMS: Partial<Record<string, readonly string[]>> = {
  effort: EFFORTS,
  thinking: THINKING_MODES,
  cache: CACHE_MODES,
  outputFormat: OUTPUT_FORMATS,
  verifyFloor: VERIFY_FLOORS,
  router: ROUTER_MODES,
};
const INTS = new Set(["maxTokens", "contextSize", "maxTurns"]);

/** Reads the WEIR_* variables (and NO_COLOR) into a config layer, refusing bad values by name. */
function envLayer(env: Record<string, string | undefined>): ConfigFile {
  const layer: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const allowed = ENUMS[key];
    if (allowed && !allowed.includes(raw)) throw usageError(`${name}=${raw} is not valid; use one of ${allowed.join(", ")}`);
    if (INTS.has(key)) {
      const n = Number(raw);
      if (!Number.isInteger(n) || n <= 0) throw usageError(`${name}=${raw} is not valid; use a positive whole number`);
      layer[key] = n;
    } else layer[key] = raw;
  }
  // https://no-color.org: any non-empty value turns colour off.
  if (env.NO_COLOR) layer.color = false;
  if (env.WEIR_VERBOSE === "1" || env.WEIR_VERBOSE === "true") layer.verbose = true;
  if (env.WEIR_FAST_MODEL) layer.models = { fast: env.WEIR_FAST_MODEL };
  return layer as ConfigFile;
}

/** A role's model as an object (a bare string is a model id of the main provider). Pure. */
const roleObject = (m: RoleModel | undefined) => (typeof m === "string" ? { model: m } : m);

/**
 * `models.main` is another way to write `provider`, `model`, `baseUrl` and `apiKey`: a layer's own
 * top-level values win over it, and the rest of resolution never sees the difference. Pure.
 */
function withMainRole(layer: ConfigFile): ConfigFile {
  const main = roleObject(layer.models?.main);
  if (!main) return layer;
  const out: ConfigFile = { ...layer };
  const fill = <K extends "provider" | "model" | "baseUrl" | "apiKey">(k: K, v: ConfigFile[K]) => {
    if (out[k] === undefined && v !== undefined) out[k] = v;
  };
  fill("provider", main.provider);
  fill("model", main.model);
  fill("baseUrl", main.baseUrl);
  fill("apiKey", main.apiKey);
  return out;
}

/**
 * A side role's model from every layer (a higher layer's fields over a lower's; a layer naming
 * another provider drops the endpoint and key of the one below), its endpoint (the preset's, or
 * main's when it is main's provider), and its key: the role's own (user config), the vendor's
 * variable for the vendor's host, and main's key for main's host only. Pure.
 */
function resolveRole(
  role: SideRole,
  layers: ConfigFile[],
  env: Record<string, string | undefined>,
  main: { provider: string; baseUrl: string; apiKey: string | undefined; source: string },
): RoleEndpoint | undefined {
  let spec: { provider?: string; model?: string; baseUrl?: string; apiKey?: string } | undefined;
  for (const layer of [...layers].reverse()) {
    const m = roleObject(layer.models?.[role]);
    if (!m) continue;
    const other = m.provider !== undefined && m.provider !== spec?.provider;
    spec = { ...(other ? {} : spec), ...Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) };
  }
  if (!spec?.model) return undefined;
  const provider = spec.provider ?? main.provider;
  const preset = findPreset(provider);
  if (!preset) throw usageError(`unknown provider "${provider}" for models.${role}; use one of ${PRESET_IDS.join(", ")}`);
  const baseUrl = (spec.baseUrl ?? (provider === main.provider ? main.baseUrl : preset.baseUrl))?.replace(/\/+$/, "");
  if (!baseUrl) throw usageError(`models.${role} needs baseUrl for provider ${provider} (${preset.hint})`);
  const offers: KeyOffer[] = [
    { key: spec.apiKey, source: `models.${role}.apiKey`, name: `models.${role}.apiKey`, belongsTo: "endpoint" },
    ...preset.keyEnv.map((name) => ({ key: env[name], source: `env (${name})`, name, belongsTo: variableHost(name) ?? hostOf(main.baseUrl) })),
    { key: main.apiKey, source: `the main model's key (${main.source})`, name: "the main model's key", belongsTo: hostOf(main.baseUrl) },
  ];
  return { provider, model: spec.model, baseUrl, ...keyFromOffers(baseUrl, offers) };
}

/** The key `offers` give an endpoint, and where it came from (or why none did). Pure. */
function keyFromOffers(baseUrl: string, offers: KeyOffer[]): { apiKey: string | undefined; keySource: string } {
  const { credential, withheld } = bindKey(baseUrl, offers);
  const keySource = credential ? credential.source : withheld.length ? `unset (${withheld.join("; ")}, not ${hostOf(baseUrl)})` : "unset";
  return { apiKey: credential?.key, keySource };
}

function pick<K extends keyof ConfigFile>(layers: Layers, envConfig: ConfigFile, key: K): [ConfigFile[K], Source] | undefined {
  const order: [ConfigFile, Source][] = [
    [layers.flags, "flag"],
    [envConfig, "env"],
    [layers.project, "project"],
    [layers.user, "user"],
  ];
  for (const [layer, source] of order) if (layer[key] !== undefined) return [layer[key], source];
  return undefined;
}

/**
 * `key` from the highest layer whose provider is `provider`: a layer's provider is the one it sets,
 * else the one of the layers below it (a project config sets none: its model is for the user's
 * provider), else the default.
 */
function ownedPick<K extends "baseUrl" | "model">(layers: Layers, envConfig: ConfigFile, key: K, provider: string): [ConfigFile[K], Source] | undefined {
  const order: [ConfigFile, Source][] = [
    [layers.flags, "flag"],
    [envConfig, "env"],
    [layers.project, "project"],
    [layers.user, "user"],
  ];
  return order
    .map(([layer, source], i) => ({ value: layer[key], source, owner: order.slice(i).find(([l]) => l.provider)?.[0].provider ?? DEFAULTS.provider }))
    .filter((c) => c.value !== undefined && c.owner === provider)
    .map((c): [ConfigFile[K], Source] => [c.value, c.source])[0];
}

/**
 * Where the key may come from, in order, each with the host it belongs to: `--api-key` and
 * `WEIR_API_KEY` are the person's key for whatever endpoint they chose; a vendor's variable belongs
 * to the vendor's host; a stored key to the endpoint it was stored for (the user config's own).
 */
function keyOffers(layers: Layers, preset: Preset): KeyOffer[] {
  const storedFor = layers.user.baseUrl ?? findPreset(layers.user.provider ?? DEFAULTS.provider)?.baseUrl;
  return [
    { key: layers.flags.apiKey, source: "flag", name: "--api-key", belongsTo: "endpoint" },
    ...preset.keyEnv.map((name) => ({ key: layers.env[name], source: `env (${name})`, name, belongsTo: variableHost(name) ?? "endpoint" })),
    { key: layers.env.WEIR_API_KEY, source: "env (WEIR_API_KEY)", name: "WEIR_API_KEY", belongsTo: "endpoint" },
    { key: layers.user.apiKey, source: "user", name: "the stored key", belongsTo: storedFor ? hostOf(storedFor) : "another endpoint" },
  ];
}

/**
 * Merges flags > env > project > user > preset > defaults into one settings object, recording the
 * source of each value. Pure: all I/O happened before.
 */
export function resolveSettings(given: Layers): Resolved {
  const layers: Layers = { ...given, flags: withMainRole(given.flags), project: withMainRole(given.project), user: withMainRole(given.user) };
  const envConfig = envLayer(layers.env);
  const sources = {} as Record<keyof Settings, string>;
  const get = <K extends keyof ConfigFile>(key: K, fallback: ConfigFile[K], fallbackSource: Source = "default"): ConfigFile[K] => {
    const hit = pick(layers, envConfig, key);
    sources[key as keyof Settings] = hit ? hit[1] : fallbackSource;
    return hit ? hit[0] : fallback;
  };

  const provider = get("provider", DEFAULTS.provider)!;
  const preset = findPreset(provider);
  if (!preset) {
    const from =
      sources.provider === "user"
        ? ` (set in ${layers.userPath ?? "the user config"}, field provider)`
        : sources.provider === "project"
          ? ` (set in ${layers.projectPath ?? "the project config"}, field provider)`
          : sources.provider === "env"
            ? " (from WEIR_PROVIDER)"
            : "";
    throw usageError(`unknown provider "${provider}"${from}; use one of ${PRESET_IDS.join(", ")}`);
  }

  // A base URL or model belongs to the provider of its layer: one the person's config set for its
  // own provider is not carried over to a provider chosen above it (`--provider openai` goes to
  // OpenAI, not to the compatible endpoint in the config).
  const own = <K extends "baseUrl" | "model">(key: K, fallback: ConfigFile[K]): ConfigFile[K] => {
    const hit = ownedPick(layers, envConfig, key, provider);
    sources[key] = hit ? hit[1] : "preset";
    return hit ? hit[0] : fallback;
  };
  const baseUrl = own("baseUrl", preset.baseUrl);
  if (!baseUrl) throw usageError(`--provider ${provider} needs --base-url (${preset.hint})`);
  const model = own("model", preset.model);
  if (!model) throw usageError(`--provider ${provider} needs --model (${preset.hint})`);

  const { apiKey, keySource } = keyFromOffers(baseUrl, keyOffers(layers, preset));
  sources.apiKey = keySource;

  const retryLayers = [layers.flags.retry, envConfig.retry, layers.project.retry, layers.user.retry];
  const retry = { ...DEFAULTS.retry };
  for (const layer of retryLayers.reverse()) Object.assign(retry, layer ?? {});
  sources.retry = retryLayers.some(Boolean) ? "config" : "default";

  const settings: Settings = {
    provider,
    model,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    apiKey,
    maxTokens: get("maxTokens", preset.maxTokens ?? DEFAULTS.maxTokens, preset.maxTokens ? "preset" : "default")!,
    contextSize: get("contextSize", DEFAULTS.contextSize)!,
    maxTurns: get("maxTurns", DEFAULTS.maxTurns)!,
    effort: get("effort", undefined),
    thinking: get("thinking", preset.thinking, "preset")!,
    cache: get("cache", DEFAULTS.cache)!,
    outputFormat: get("outputFormat", DEFAULTS.outputFormat)!,
    color: get("color", DEFAULTS.color)!,
    verbose: get("verbose", DEFAULTS.verbose)!,
    requestTimeoutMs: get("requestTimeoutMs", DEFAULTS.requestTimeoutMs)!,
    retry,
    verifyFloor: get("verifyFloor", "remind")!,
    judgment: get("judgment", undefined),
    models: {},
    router: get("router", "on")!,
    sandbox: sandboxSettings(layers),
    // A price is information, not authority: the project's table may fill in, the user's wins.
    prices: { ...layers.project.prices, ...layers.user.prices },
    hooks: layers.user.hooks ?? {},
    ...(Object.keys(layers.project.hooks ?? {}).length > 0 ? { projectHooks: layers.project.hooks } : {}),
  };
  // Merged values name every layer they took something from.
  const set = (v: unknown) => v !== undefined && (typeof v !== "object" || Object.keys(v as object).length > 0);
  const from = (...hits: [unknown, Source][]) => hits.filter(([v]) => set(v)).map(([, s]) => s).join(" + ") || "default";
  sources.sandbox = from([layers.flags.sandbox, "flag"], [layers.user.sandbox, "user"], [layers.project.sandbox, "project"]);
  sources.prices = from([layers.user.prices, "user"], [layers.project.prices, "project"]);
  sources.hooks = from([layers.user.hooks, "user"]);
  const roleLayers = [layers.flags, envConfig, layers.project, layers.user];
  const main = { provider, baseUrl: settings.baseUrl, apiKey, source: sources.apiKey };
  for (const role of SIDE_ROLES) {
    const endpoint = resolveRole(role, roleLayers, layers.env, main);
    if (endpoint) settings.models[role] = endpoint;
  }
  sources.models = from([layers.flags.models, "flag"], [envConfig.models, "env"], [layers.user.models, "user"], [layers.project.models, "project"]);
  if (settings.projectHooks) sources.projectHooks = "project (run once approved)";
  return { settings, sources, preset, permissions: { user: layers.user.permissions, project: layers.project.permissions } };
}

/**
 * The sandbox: flags > user > project, where a project may tighten it to read-only but never turn
 * it off (a cloned repository must not lower its own boundary). Readable home entries add up.
 */
function sandboxSettings(layers: Layers): Settings["sandbox"] {
  if (layers.project.sandbox?.mode === "off")
    throw usageError("the project config (.weir/config.json) may not set sandbox.mode off; only your own flag or user config can");
  const mode = layers.flags.sandbox?.mode ?? layers.user.sandbox?.mode ?? layers.project.sandbox?.mode ?? "workspace-write";
  return { mode, readable: [...(layers.user.sandbox?.readable ?? [])], env: [...(layers.user.sandbox?.env ?? [])] };
}

/** The variables a provider's key may come from, in the order they are read. */
export const keyVariables = (r: Resolved): string[] => [...r.preset.keyEnv, "WEIR_API_KEY"];

/**
 * The model can only be reached with a key when the preset needs one: say which variable to set.
 * `envFile` names a workspace file (`.env`) that sets one of them: weir never reads it (a
 * repository must not set weir's environment), and the message says so.
 */
export function requireKey(r: Resolved, envFile?: string): void {
  if (r.preset.keyRequired && !r.settings.apiKey) {
    const vars = keyVariables(r).join(" or ");
    const stored = r.sources.apiKey.startsWith("unset (") ? ` (${r.sources.apiKey.slice(7, -1)})` : "";
    const unread = envFile ? `; weir does not read ${envFile} (a repository must not set weir's environment), so export the variable in your shell` : "";
    throw new UserError(`no API key for provider ${r.settings.provider}${stored}: set ${vars}, or pass --api-key${unread}`, 2);
  }
}

/** Whether a dotenv file's text assigns one of `names` (`NAME=…` or `export NAME=…`); no value is read out. Pure. */
export function envFileSetting(text: string, names: readonly string[]): boolean {
  return text.split("\n").some((line) => names.some((n) => new RegExp(`^\\s*(?:export\\s+)?${n}\\s*=`).test(line)));
}

export function providerSettings(r: Resolved): ProviderSettings {
  const s = r.settings;
  return {
    preset: s.provider,
    wire: r.preset.wire,
    baseUrl: s.baseUrl,
    credential: s.apiKey ? { key: s.apiKey, host: hostOf(s.baseUrl), source: r.sources.apiKey } : undefined,
    model: s.model,
    effort: s.effort,
    thinking: s.thinking,
    cache: s.cache,
    requestTimeoutMs: s.requestTimeoutMs,
    retry: s.retry,
    maxTokensField: r.preset.maxTokensField,
    cacheControl: r.preset.cacheControl,
  };
}

/**
 * The adapter settings of a side role: main's limits and retries, the role's own endpoint, wire,
 * key and the vendor defaults of its preset. Undefined when the role is not configured.
 */
export function roleProviderSettings(r: Resolved, role: SideRole): ProviderSettings | undefined {
  const m = r.settings.models[role];
  const preset = m && findPreset(m.provider);
  if (!m || !preset) return undefined;
  return {
    ...providerSettings(r),
    preset: m.provider,
    wire: preset.wire,
    baseUrl: m.baseUrl,
    credential: m.apiKey ? { key: m.apiKey, host: hostOf(m.baseUrl), source: m.keySource } : undefined,
    model: m.model,
    effort: undefined,
    thinking: preset.thinking,
    maxTokensField: preset.maxTokensField,
    cacheControl: preset.cacheControl,
  };
}

/** Whether a side role can be reached: its preset needs no key, or it has one. */
export function roleReachable(r: Resolved, role: SideRole): boolean {
  const m = r.settings.models[role];
  return m !== undefined && (m.apiKey !== undefined || findPreset(m.provider)?.keyRequired === false);
}

/** Masks a secret for display: never more than its last four characters. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return "(unset)";
  return secret.length >= 16 ? `****${secret.slice(-4)}` : "****";
}
