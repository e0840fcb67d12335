/**
 * The public surface of context/: the only names other folders may import (test/architecture.test.ts
 * holds every cross-folder import to it). Other folders import them from the defining module, not
 * from here: in a Bun bundle a re-export evaluates every module it names, and lazily loaded parts
 * (the MCP SDK, zod on the --version path) must stay lazy. See docs/architecture.md.
 */
export { expandCommand, loadCommands, matchCommand } from "./slash-commands.ts";
export type { SlashCommand } from "./slash-commands.ts";
export { conversationTokens, createContextStep } from "./context-step.ts";
export type { ContextStep } from "./context-step.ts";
export { hasResolver, reachableFromOtherFiles, resolveCallers } from "./callers.ts";
export { documentedName, documentedValue, isDocumentation, isPublicApi, isSurfaceFile, namesLiteral } from "./public-api.ts";
export { securityBindings, touchesSecurity } from "./security-surface.ts";
export { codeWords, docsDrift } from "./docs-drift.ts";
export type { CodeFacts, Drift } from "./docs-drift.ts";
export { locate, parseFailureLocations } from "./failures.ts";
export { classify, RULES } from "./firewall.ts";
export { sanitise } from "./sanitise.ts";
export { languageOf, outline, parserFor, useOutlineCache } from "./outline.ts";
export { quoteData, quoteMarker, useQuoteMarker } from "./render.ts";
export { attachImages, imageMentions, takesNoImages } from "./images.ts";
export { loadSkills, skillIndex } from "./skills.ts";
export type { Skill } from "./skills.ts";
export { aboutChecks, byCodePoint } from "./lexical.ts";
export { diffShows, goalWords, isTestPath, namedTestsOf, pathsIn, textNaming, textOf } from "./sources.ts";
export { SOURCE, definedNames, freshness, indexedCallers, indexedDefiners, indexedImporters, indexedNamers, refreshSymbols } from "./definitions.ts";
export type { Refresh } from "./definitions.ts";
export { ContextIndex, compileWorkingSet, failureUpdate, floorCap, heldKey, workingSetBudget } from "./working-set.ts";
export type { WorkingSet } from "./working-set.ts";
