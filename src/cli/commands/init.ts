import { existsSync, readFileSync, statSync } from "node:fs";
import { loadConfigFiles } from "../../config/load.ts";
import { userConfigFile } from "../../config/paths.ts";
import { maskSecret, providerSettings, type Resolved } from "../../config/resolve.ts";
import { UserError, usageError } from "../../core/errors.ts";
import { userText } from "../../core/messages.ts";
import { createProvider } from "../../providers/create.ts";
import type { ModelProvider } from "../../providers/port.ts";
import { findPreset, PRESETS } from "../../providers/presets.ts";
import type { SetupPrompts } from "../../ui/setup.ts";
import { writeFileAtomic } from "../../workspace/atomic.ts";
import type { ParsedArgs } from "../args.ts";
import { loadSettings } from "../settings.ts";

/** What setup decided; written into the user config over what it already holds. */
export interface Answers {
  provider: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
}

/** The user config with the answers set (other keys kept; a preset's own endpoint is not written). Pure. */
function withAnswers(existing: Record<string, unknown>, a: Answers): Record<string, unknown> {
  const out: Record<string, unknown> = { ...existing, provider: a.provider };
  const preset = findPreset(a.provider);
  if (a.model) out.model = a.model;
  else delete out.model;
  if (a.baseUrl && a.baseUrl !== preset?.baseUrl) out.baseUrl = a.baseUrl;
  else delete out.baseUrl;
  if (a.apiKey) out.apiKey = a.apiKey;
  return out;
}

function readUserConfig(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  // loadSettings already refused a broken file; this reads the same bytes to keep every key.
  const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The user config file holds a key: written whole, atomically, readable by the user alone. */
function saveUserConfig(path: string, value: Record<string, unknown>): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

async function providerFor(args: ParsedArgs, workspace: string, a: Answers): Promise<{ provider: ModelProvider; resolved: Resolved }> {
  // Before a model is chosen (listing the endpoint's models) any id will do: listing does not use it.
  const model = a.model ?? findPreset(a.provider)?.model ?? "any";
  const resolved = loadSettings(
    {
      ...args,
      config: { ...args.config, provider: a.provider as never, model, ...(a.baseUrl ? { baseUrl: a.baseUrl } : {}), ...(a.apiKey ? { apiKey: a.apiKey } : {}) },
    },
    workspace,
  );
  const provider = await createProvider(
    { ...providerSettings(resolved), retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 }, requestTimeoutMs: 20_000 },
    resolved.preset.hint,
  );
  return { provider, resolved };
}

/** One tiny request; the one-line error when it fails. */
async function tryRequest(provider: ModelProvider): Promise<string | undefined> {
  try {
    for await (const _ of provider.stream({ system: "", messages: [userText("Reply with: ok")], tools: [], maxTokens: 16 })) {
      // only whether it answers matters
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const isUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
};

/**
 * `weir init`: choose a provider, paste a key, pick a model from the endpoint's list when it has
 * one, send one tiny request, and write the user config (mode 0600). Nothing is written when the
 * person cancels or declines a failing setup.
 */
export async function initCommand(args: ParsedArgs, workspace: string, ui: SetupPrompts, interactive: boolean): Promise<number> {
  if (!interactive)
    throw usageError(
      "weir init asks questions and needs a terminal; without one, use weir auth login --provider NAME " +
        "with the key on stdin, or write the user config yourself (weir config show prints where it is)",
    );
  const path = userConfigFile();
  // A broken config is reported, never overwritten.
  loadConfigFiles([{ path, kind: "user" }]);
  const existing = readUserConfig(path);
  const current = (args.config.provider as string | undefined) ?? (typeof existing.provider === "string" ? existing.provider : "anthropic");
  ui.intro("weir init");
  const stop = (): number => {
    ui.cancelled("nothing was written");
    return 130;
  };
  const providerId = await ui.choose(
    "Which model provider?",
    PRESETS.map((p) => ({ value: p.id, label: p.id, hint: p.baseUrl ?? "your own endpoint" })),
    current,
  );
  if (!providerId) return stop();
  const preset = findPreset(providerId)!;
  let baseUrl = preset.baseUrl;
  if (!baseUrl || providerId === "ollama") {
    baseUrl = await ui.ask("Endpoint URL", {
      initial: (typeof existing.baseUrl === "string" ? existing.baseUrl : preset.baseUrl) ?? "",
      placeholder: "https://…",
      validate: (v) => (isUrl(v) ? undefined : "an http:// or https:// URL"),
    });
    if (baseUrl === undefined) return stop();
  }
  const fromEnv = preset.keyEnv.find((n) => process.env[n]);
  if (fromEnv) ui.info(`${fromEnv} is set in your environment; weir uses it unless you store a key here`);
  let apiKey = await ui.secret(preset.keyRequired && !fromEnv ? "API key" : "API key (empty to skip)");
  if (apiKey === undefined) return stop();
  apiKey = apiKey.trim();
  if (preset.keyRequired && !fromEnv && apiKey === "") {
    ui.cancelled(`${providerId} needs a key: get one from the vendor's console and run weir init again`);
    return 1;
  }
  const draft: Answers = { provider: providerId, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) };
  // The model: from the endpoint's own list when it gives one.
  const listing = await providerFor(args, workspace, draft);
  let models: string[] = [];
  let listError: string | undefined;
  await ui.busy(
    "Asking the endpoint for its models",
    async () => {
      try {
        models = await listing.provider.listModels(AbortSignal.timeout(15_000));
      } catch (e) {
        listError = (e as Error).message;
      }
    },
    () => (listError ? "The endpoint gave no model list" : `${models.length} models`),
  );
  if (listError) ui.warn(listError);
  const fallback = preset.model ?? (typeof existing.model === "string" ? existing.model : undefined);
  let model: string | undefined;
  if (models.length) {
    const OTHER = "\u0000other";
    const picked = await ui.choose(
      "Which model?",
      [...models.slice(0, 200).map((m) => ({ value: m, label: m })), { value: OTHER, label: "another model (type its id)" }],
      fallback && models.includes(fallback) ? fallback : models[0],
    );
    if (picked === undefined) return stop();
    model =
      picked === OTHER
        ? await ui.ask("Model id", { ...(fallback ? { initial: fallback } : {}), validate: (v) => (v.trim() ? undefined : "a model id") })
        : picked;
  } else
    model = await ui.ask("Model id", { ...(fallback ? { initial: fallback } : {}), validate: (v) => (v.trim() || preset.model ? undefined : "a model id") });
  if (model === undefined) return stop();
  const answers: Answers = { ...draft, ...(model.trim() ? { model: model.trim() } : {}) };
  const { provider } = await providerFor(args, workspace, answers);
  const failure = await ui.busy("Sending one tiny request", () => tryRequest(provider), (f) => (f ? "The request failed" : "The model answered"));
  if (failure) {
    ui.warn(failure);
    const keep = await ui.yesNo("Save this setup anyway?", false);
    if (keep === undefined) return stop();
    // "No" is an answer, not an interruption: the setup failed its test and was not saved.
    if (!keep) {
      ui.cancelled("not saved: the test request failed, and nothing was written");
      return 1;
    }
  }
  saveUserConfig(path, withAnswers(existing, answers));
  ui.outro(`Saved to ${path} (mode 0600). Try: weir "summarise README.md"`);
  return failure ? 1 : 0;
}

/** `weir auth login|logout|status`: the key in the user config, checked before it is stored. */
export async function authCommand(
  args: ParsedArgs,
  workspace: string,
  resolved: Resolved,
  io: { out: (s: string) => void; ui: SetupPrompts; interactive: boolean; stdin: () => Promise<string> },
): Promise<number> {
  const verb = args.command[1] ?? "status";
  const path = userConfigFile();
  const s = resolved.settings;
  if (verb === "status") {
    const source = resolved.sources.apiKey;
    const env = /^env \((.+)\)$/.exec(source)?.[1];
    const where = source === "flag" ? "--api-key" : source === "user" ? `the user config ${path}` : env ? `the environment (${env})` : source;
    io.out(`provider ${s.provider}, model ${s.model}, endpoint ${s.baseUrl}\n`);
    io.out(
      s.apiKey
        ? `key ${maskSecret(s.apiKey)} from ${where}\n`
        : `no key${resolved.preset.keyRequired ? `: ${resolved.preset.hint}, or run weir auth login` : " (this endpoint needs none)"}\n`,
    );
    if (existsSync(path) && process.platform !== "win32" && (statSync(path).mode & 0o077) !== 0 && typeof readUserConfig(path).apiKey === "string")
      io.out(`warning: ${path} holds a key and others can read it; run chmod 600 ${path}\n`);
    return s.apiKey || !resolved.preset.keyRequired ? 0 : 1;
  }
  if (verb === "logout") {
    const existing = readUserConfig(path);
    if (typeof existing.apiKey !== "string") {
      io.out(`no key stored in ${path}\n`);
      return 0;
    }
    delete existing.apiKey;
    saveUserConfig(path, existing);
    // A variable still provides a key only when it is the one bound to this endpoint (not one withheld from it).
    const env = /^env \((.+)\)$/.exec(resolved.sources.apiKey)?.[1];
    io.out(`removed the key from ${path}${env ? `; ${env} in your environment still provides one` : ""}\n`);
    return 0;
  }
  if (verb !== "login") throw usageError(`unknown command "auth ${verb}"; use weir auth login, logout or status`);
  let key = typeof args.config.apiKey === "string" ? args.config.apiKey : undefined;
  if (!key) key = io.interactive ? await io.ui.secret(`API key for ${s.provider}`) : (await io.stdin()).trim();
  if (key === undefined) return 130;
  if (!key) throw new UserError(`no key given: paste it at the prompt, or pipe it: printf %s "$KEY" | weir auth login --provider ${s.provider}`, 2);
  const answers: Answers = {
    provider: s.provider,
    apiKey: key,
    ...(s.baseUrl !== resolved.preset.baseUrl ? { baseUrl: s.baseUrl } : {}),
    ...(args.config.model ? { model: s.model } : {}),
  };
  const { provider } = await providerFor(args, workspace, answers);
  const failure = await tryRequest(provider);
  if (failure) {
    io.out(`not saved: ${failure}\n`);
    return 1;
  }
  const existing = readUserConfig(path);
  saveUserConfig(path, {
    ...withAnswers(existing, { ...answers, ...(typeof existing.model === "string" && !args.config.model ? { model: existing.model } : {}) }),
  });
  io.out(`the key works with ${s.provider} (${s.model}); saved ${maskSecret(key)} to ${path} (mode 0600)\n`);
  return 0;
}
