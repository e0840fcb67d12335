import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfigFiles } from "../config/load.ts";
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

/**
 * A workspace must be a project, not the filesystem: at `/` (or inside /proc, /sys, /dev) a walk
 * would read the whole machine and its pseudo-files. Refused before anything gathers context.
 */
export function requireProjectRoot(workspace: string): void {
  if (workspace === "/" || /^\/(?:proc|sys|dev)(?:\/|$)/.test(workspace))
    throw usageError(`${workspace} is not a project directory; run weir inside a repository or pass --cwd DIR`);
}

/** Loads both config files and resolves them under the flags and environment. */
export function loadSettings(args: ParsedArgs, workspace: string, env = process.env): Resolved {
  const userPath = userConfigFile(env);
  const projectPath = projectConfigFile(workspace);
  const [user, project] = loadConfigFiles([
    { path: userPath, kind: "user" },
    { path: projectPath, kind: "project" },
  ]);
  return resolveSettings({ flags: args.config, env, user: user!, project: project!, userPath, projectPath });
}
