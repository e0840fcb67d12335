/**
 * The public surface of providers/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { createProvider } from "./create.ts";
export { bindKey, hostOf, keyFor, variableHost } from "./credential.ts";
export type { Credential, KeyOffer } from "./credential.ts";
export { CancelledError, ContextOverflowError, ProviderError } from "./errors.ts";
export { logprobCompleter } from "./logprobs.ts";
export type { TokenLogprob } from "./logprobs.ts";
export type { ModelProvider, ModelRequest, ProviderSettings } from "./port.ts";
export { priceOf } from "./prices.ts";
export { PRESETS, PRESET_IDS, findPreset } from "./presets.ts";
export type { Preset } from "./presets.ts";
