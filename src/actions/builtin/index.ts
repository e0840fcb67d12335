import type { Action } from "../action.ts";
import { runCommand, shell } from "./commands.ts";
import { editFile, readFile, writeFile } from "./files.ts";
import { listFiles, search } from "./find.ts";

/** The built-in actions, in the order the model sees them. */
export const BUILTIN_ACTIONS: readonly Action[] = [readFile, editFile, writeFile, search, listFiles, runCommand, shell];
