/**
 * The public surface of config/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { loadConfigFiles } from "./load.ts";
export {
  CACHE_MODES,
  EFFORTS,
  JUDGMENT_MODES,
  MODEL_ROLES,
  OUTPUT_FORMATS,
  ROUTER_MODES,
  RUN_MODES,
  SANDBOX_MODES,
  THINKING_MODES,
  VERIFY_FLOORS,
} from "./options.ts";
export type { ConfigValues, JudgmentMode, ModelRole, RoleModel, RunMode } from "./options.ts";
export { projectConfigFile, userConfigDir, userConfigFile, userDataDir } from "./paths.ts";
export { envFileSetting, keyVariables, maskSecret, providerSettings, requireKey, resolveSettings, roleProviderSettings, roleReachable } from "./resolve.ts";
export type { Resolved, RoleEndpoint, SideRole } from "./resolve.ts";
