/**
 * The public surface of workspace/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { writeFileAtomic, writeFileInside } from "./atomic.ts";
export {
  INSTRUCTION_FILES,
  MAX_WHOLE_FILE,
  NotAFile,
  PathRefused,
  autorunReason,
  configReason,
  dottedReason,
  reviewFileReason,
  dependencyEnvironment,
  gitDirectoryReason,
  holdsKeyMaterial,
} from "./containment.ts";
export { headText, homeDirectory, inside, installScripts, openRegularFile, protectedReason } from "./containment.ts";
export { readableInWorkspace, readRegularFile, resolveInWorkspace, wholeText } from "./containment.ts";
export type { ResolvedPath } from "./containment.ts";
export { gitConfigReason } from "./gitconfig.ts";
export { homeReadReason, pathReason, personalReads } from "./home-reads.ts";
export { detectChecks } from "./checks.ts";
export type { Check } from "./checks.ts";
export { gitOutput, gitWrite, repositoryPrefix, worktreeSnapshot } from "./git.ts";
export { hashWithHead, Ledger, sha256 } from "./ledger.ts";
export { killTree, runProgram, scrubEnv } from "./process.ts";
export { borrowsObjects, createSandbox, defaultLimits, defaultTmpBytes, detectSandbox, networkFilter, runCommandIn, widenableDir } from "./sandbox.ts";
export { bwrapArgv, bwrapDisablesUserns, guardBinds } from "./bwrap.ts";
export { systemPath } from "./sandbox-policy.ts";
export { workspaceGuards } from "./sweep.ts";
export { toolchainsShown } from "./toolchains.ts";
export { applyHeld, changesDir, dropLayer, finishSettles, heldLayers, Transactions } from "./transaction.ts";
export { removeLayer, viewTools } from "./view.ts";
export { UndoLog, undoDir, undoTurns } from "./undo.ts";
export { commandEnv, knownSecretValues, secretFileValues } from "./environment.ts";
export { cgroupsAvailable } from "./limits.ts";
export { PROPERTIES, propertiesHere } from "./properties.ts";
export type { HeldLayer, Settled } from "./transaction.ts";
export type { CommandSandbox } from "./sandbox.ts";
export { PathScope, badGlob, writeOverlap } from "./scope.ts";
export { dirsBetween, enclosingRepository, WalkCache, looksBinary, restoreWalk, walk, walkFiles, walkSnapshot } from "./walker.ts";
export { WalkStore } from "./walks.ts";
export { Workspace } from "./workspace.ts";
