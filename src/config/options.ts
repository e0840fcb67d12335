/**
 * The allowed values of enumerated settings. Plain constants with no imports, so argument parsing
 * (on the `--version` path) does not load zod.
 */
export const EFFORTS = ["low", "medium", "high", "max"] as const;
export const THINKING_MODES = ["preserve", "strip"] as const;
export const CACHE_MODES = ["auto", "active", "off"] as const;
export const OUTPUT_FORMATS = ["text", "json", "stream-json", "events"] as const;
export const JUDGMENT_MODES = ["off", "shadow", "increase-only", "calibrated"] as const;
export type JudgmentMode = (typeof JUDGMENT_MODES)[number];
export const JUDGMENT_PROVIDERS = ["llm", "logprobs", "http", "replay"] as const;
export const VERIFY_FLOORS = ["off", "remind", "require"] as const;
export const SANDBOX_MODES = ["workspace-write", "read-only", "off"] as const;
/** How a run treats what would change the workspace: as configured, planning only, or file edits approved. */
export const RUN_MODES = ["default", "plan", "accept-edits"] as const;
export type RunMode = (typeof RUN_MODES)[number];
/** Whether each request goes to the model its compiled view needs (`on`), or every one to `main` (`off`). */
export const ROUTER_MODES = ["on", "off"] as const;
/** The models a run may use, by what it uses them for. */
export const MODEL_ROLES = ["main", "fast", "judge", "review"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** A role's model: an id of the main provider's, or a provider, model and (for a compatible one) endpoint. */
export type RoleModel = string | { provider?: string; model: string; baseUrl?: string; apiKey?: string };

/** Settings a config file, an environment variable or a flag can set. Mirrors the zod schema. */
export interface ConfigValues {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  maxTokens?: number;
  contextSize?: number;
  maxTurns?: number;
  effort?: (typeof EFFORTS)[number];
  thinking?: (typeof THINKING_MODES)[number];
  cache?: (typeof CACHE_MODES)[number];
  outputFormat?: (typeof OUTPUT_FORMATS)[number];
  color?: boolean;
  verbose?: boolean;
  requestTimeoutMs?: number;
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  verifyFloor?: (typeof VERIFY_FLOORS)[number];
  /** Hooks in Claude Code's format; a project's are not run (they would run its code unasked). */
  hooks?: Partial<
    Record<
      "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "Stop" | "SessionStart",
      { matcher?: string; hooks: { type: "command"; command: string; timeout?: number }[] }[]
    >
  >;
  /** Dollars per million tokens, by model id: where a model's price is here, weir shows what a session cost. */
  prices?: Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number }>;
  /** The command sandbox; a project config may tighten it (read-only) but never turn it off. */
  sandbox?: { mode?: (typeof SANDBOX_MODES)[number]; readable?: string[]; env?: string[] };
  /** The model of each role (`main` is the same as `provider` and `model`). */
  models?: Partial<Record<ModelRole, RoleModel>>;
  router?: (typeof ROUTER_MODES)[number];
  judgment?: {
    provider: (typeof JUDGMENT_PROVIDERS)[number];
    mode?: (typeof JUDGMENT_MODES)[number];
    preset?: string;
    model?: string;
    baseUrl?: string;
    apiKey?: string;
    url?: string;
    timeoutMs?: number;
  };
  permissions?: {
    actions?: Record<string, "allow" | "ask" | "deny">;
    commands?: { pattern: string; decision: "allow" | "ask" | "deny" }[];
  };
}
