import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfigFile } from "../config/load.ts";
import { projectConfigFile, userConfigFile } from "../config/paths.ts";
import { resolveSettings, type Resolved } from "../config/resolve.ts";
import { usageError } from "../core/errors.ts";
import type { ParsedArgs } from "./args.ts";

/** The workspace root: `--cwd` or the current directory, canonical, and it must be a directory. */
export function workspaceRoot(args: ParsedArgs): string {
  const dir = resolve(args.cwd ?? process.cwd());
  let st;
  try {
    st = statSync(dir);
  } catch {
    throw usageError(`--cwd ${dir} does not exist; pass an existing directory`);
  }
  if (!st.isDirectory()) throw usageError(`--cwd ${dir} is not a directory`);
  return realpathSync(dir);
}

/** Loads both config files and resolves them under the flags and environment. */
export function loadSettings(args: ParsedArgs, workspace: string, env = process.env): Resolved {
  const userPath = userConfigFile(env);
  const projectPath = projectConfigFile(workspace);
  return resolveSettings({
    flags: args.config,
    env,
    user: loadConfigFile(userPath, "user"),
    project: loadConfigFile(projectPath, "project"),
    userPath,
    projectPath,
  });
}
