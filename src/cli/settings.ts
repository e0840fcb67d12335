import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfigFiles } from "../config/load.ts";
import { projectConfigFile, userConfigFile } from "../config/paths.ts";
import { envFileSetting, keyVariables, requireKey, resolveSettings, type Resolved } from "../config/resolve.ts";
import { usageError } from "../core/errors.ts";
import { homeDirectory, inside } from "../workspace/containment.ts";
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
 * A workspace must be a project, not the filesystem or the home: at `/` (or inside /proc, /sys,
 * /dev) a walk would read the whole machine and its pseudo-files, and a workspace holding the home
 * would hold its keys, tokens and weir's own stored key. Refused before anything gathers context.
 */
export function requireProjectRoot(workspace: string, home = homeDirectory()): void {
  if (workspace === "/" || /^\/(?:proc|sys|dev)(?:\/|$)/.test(workspace))
    throw usageError(`${workspace} is not a project directory; run weir inside a repository or pass --cwd DIR`);
  let realHome = home;
  try {
    realHome = realpathSync(home);
  } catch {
    // no home on disk: nothing of it to protect
  }
  if (home && inside(workspace, realHome))
    throw usageError(`${workspace} holds your home directory (${realHome}); run weir inside a project directory or pass --cwd DIR`);
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

/**
 * `requireKey`, naming the workspace's `.env` or `.env.local` when it sets the key's variable: a
 * person used to tools that read it learns why weir did not. Only regular files are looked at.
 */
export function requireKeyIn(workspace: string, resolved: Resolved): void {
  if (resolved.settings.apiKey || !resolved.preset.keyRequired) return;
  const file = [".env", ".env.local"].find((name) => {
    try {
      const path = join(workspace, name);
      return lstatSync(path).isFile() && envFileSetting(readFileSync(path, "utf8"), keyVariables(resolved));
    } catch {
      return false;
    }
  });
  requireKey(resolved, file);
}
