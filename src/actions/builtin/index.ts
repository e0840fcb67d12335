import type { Action } from "../action.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction, type ToolRecall } from "../disclosure.ts";
import { ActionRegistry } from "../registry.ts";
import type { VerificationLedger } from "../verification.ts";
import { findReferences } from "./references.ts";
import { verifyAction } from "./verify.ts";
import { runCommand, shell } from "./commands.ts";
import { editFile, readFile, writeFile } from "./files.ts";
import { listFiles, search } from "./find.ts";
import { type TodoItem, todoAction } from "./todo.ts";

/** The built-in actions, in the order the model sees them. */
export const BUILTIN_ACTIONS: readonly Action[] = [readFile, editFile, writeFile, search, listFiles, runCommand, shell];

/**
 * A registry of the built-ins (find_references, verify over `verification`, the skills if any) with
 * progressive disclosure over it: the main agent's and each worker's action set. With `memory`, the
 * router also offers what the person's earlier tasks with the same words called.
 */
export function builtinActionSet(
  verification: VerificationLedger,
  skill: { action: Action; hint: string } | undefined,
  tools: "auto" | "all",
  memory?: ToolRecall,
  plan: { items: TodoItem[] } = { items: [] },
): { registry: ActionRegistry; disclosure: Disclosure } {
  const registry = new ActionRegistry();
  for (const a of [...BUILTIN_ACTIONS, findReferences, verifyAction(verification), todoAction(plan)]) registry.register(a);
  // Skills enter the capability index by their descriptions; their bodies load on demand.
  if (skill) registry.register(skill.action, skill.hint);
  const disclosure = new Disclosure(registry, { mode: tools, core: DEFAULT_CORE, ...(memory ? { memory } : {}) });
  registry.register(loadActionsAction(() => disclosure));
  return { registry, disclosure };
}
