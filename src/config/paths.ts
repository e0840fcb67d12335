import { join } from "node:path";
import { homeDirectory } from "../workspace/containment.ts";

type Env = Record<string, string | undefined>;

/** User config dir: `$XDG_CONFIG_HOME/weir`, `~/.config/weir`, or `%APPDATA%\weir` on Windows. */
export function userConfigDir(env: Env = process.env, platform = process.platform): string {
  if (platform === "win32" && env.APPDATA) return join(env.APPDATA, "weir");
  return join(env.XDG_CONFIG_HOME || join(homeDirectory(env), ".config"), "weir");
}

/** User data dir (sessions, history): `$XDG_DATA_HOME/weir`, `~/.local/share/weir`, `%LOCALAPPDATA%\weir`. */
export function userDataDir(env: Env = process.env, platform = process.platform): string {
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "weir");
  return join(env.XDG_DATA_HOME || join(homeDirectory(env), ".local", "share"), "weir");
}

export const userConfigFile = (env: Env = process.env) => join(userConfigDir(env), "config.json");
export const projectConfigFile = (workspace: string) => join(workspace, ".weir", "config.json");
