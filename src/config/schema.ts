import { z } from "zod";

import { CACHE_MODES, type ConfigValues, EFFORTS, JUDGMENT_MODES, JUDGMENT_PROVIDERS, MODEL_ROLES, OUTPUT_FORMATS } from "./options.ts";
import { ROUTER_MODES, SANDBOX_MODES } from "./options.ts";
import { THINKING_MODES, VERIFY_FLOORS } from "./options.ts";

const positiveInt = z.number().int().positive();

export const Decision = z.enum(["allow", "ask", "deny"]);

/** Permission overrides in a config file; see policies/permissions.json for the defaults. */
export const PermissionsConfig = z
  .object({
    actions: z.record(z.string(), Decision),
    commands: z.array(z.object({ pattern: z.string().min(1), decision: Decision }).strict()),
  })
  .partial()
  .strict();

/** A config file (user or project). Unknown keys are refused so a typo never silently does nothing. */
export const ConfigFile = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    baseUrl: z.url(),
    apiKey: z.string().min(1),
    maxTokens: positiveInt,
    contextSize: positiveInt,
    maxTurns: positiveInt,
    effort: z.enum(EFFORTS),
    thinking: z.enum(THINKING_MODES),
    cache: z.enum(CACHE_MODES),
    outputFormat: z.enum(OUTPUT_FORMATS),
    color: z.boolean(),
    verbose: z.boolean(),
    requestTimeoutMs: positiveInt,
    permissions: PermissionsConfig,
    verifyFloor: z.enum(VERIFY_FLOORS),
    hooks: z.partialRecord(
      z.enum(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"]),
      z.array(
        z
          .object({
            matcher: z.string().optional(),
            hooks: z.array(z.object({ type: z.literal("command"), command: z.string().min(1), timeout: z.number().positive().optional() }).strict()),
          })
          .strict(),
      ),
    ),
    prices: z.record(
      z.string().min(1),
      z
        .object({
          input: z.number().nonnegative(),
          output: z.number().nonnegative(),
          cacheRead: z.number().nonnegative().optional(),
          cacheWrite: z.number().nonnegative().optional(),
        })
        .strict(),
    ),
    sandbox: z
      .object({
        mode: z.enum(SANDBOX_MODES),
        readable: z.array(z.string().min(1)),
        env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable's name")),
      })
      .partial()
      .strict(),
    models: z.partialRecord(
      z.enum(MODEL_ROLES),
      z.union([
        z.string().min(1),
        z
          .object({ provider: z.string().min(1).optional(), model: z.string().min(1), baseUrl: z.url().optional(), apiKey: z.string().min(1).optional() })
          .strict(),
      ]),
    ),
    router: z.enum(ROUTER_MODES),
    /** The typed-judgment provider, configured apart from the main model (e.g. a small cheap one). */
    judgment: z
      .object({
        provider: z.enum(JUDGMENT_PROVIDERS),
        mode: z.enum(JUDGMENT_MODES).optional(),
        preset: z.string().min(1).optional(),
        model: z.string().min(1).optional(),
        baseUrl: z.url().optional(),
        apiKey: z.string().min(1).optional(),
        url: z.url().optional(),
        timeoutMs: positiveInt.optional(),
      })
      .strict(),
    retry: z
      .object({
        maxAttempts: z.number().int().min(1).max(20),
        baseDelayMs: z.number().int().min(0),
        maxDelayMs: z.number().int().min(0),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();
export type ConfigFile = z.infer<typeof ConfigFile>;

// The schema and the zod-free interface must describe the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<ConfigFile, ConfigValues> = true;
void _sameShape;

/**
 * Keys a project config may not set: a cloned repository must not redirect the user's API key to
 * another endpoint (a provider brings its own endpoint) or carry a key of its own.
 */
export const USER_ONLY_KEYS = ["apiKey", "baseUrl", "provider", "judgment"] as const;
