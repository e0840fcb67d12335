/**
 * What a repository's git config makes git read or run: its settings as git reads them, whether a
 * config runs a program, and the paths inside a workspace it names, which commands may not change.
 *
 * git reads `.git/config` (or, in a linked worktree, the common config and `config.worktree`) and
 * what it includes at every command; a value naming a program by a path runs it from the
 * repository's top. So a file the config names is as much git's metadata as the config itself.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { homeDirectory, inside, readRegularFile } from "./containment.ts";
import { enclosingRepository, gitFileTarget } from "./walker.ts";

/** One setting of a git config file: its section (lower case, with any subsection), key (lower case) and value. */
interface GitSetting {
  section: string;
  key: string;
  value: string;
}

/** A config value as git reads it: quotes joined, `\"` and `\\` unescaped, a comment outside quotes cut. Pure. */
function configValue(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === "\\" && i + 1 < raw.length) out += raw[++i];
    else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/** The settings of a git config file's text, in order (`[section "sub"] key = value`, also on one line). Pure. */
export function gitSettings(text: string): GitSetting[] {
  const out: GitSetting[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    const header = /^\[\s*([\w.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      section = header[2] === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()} ${header[2]}`;
      line = header[3]!.trim();
    }
    const kv = /^([A-Za-z][\w-]*)\s*(?:=(.*))?$/.exec(line);
    if (kv) out.push({ section, key: kv[1]!.toLowerCase(), value: configValue(kv[2] ?? "true") });
  }
  return out;
}

/**
 * Keys whose value git runs as a program (or, for `hookspath`, whose directory's programs it runs):
 * core's and a diff, merge, filter or credential driver's, `remote.*.uploadpack` for a local remote.
 */
const PROGRAM_KEYS = new Set([
  "fsmonitor",
  "sshcommand",
  "pager",
  "editor",
  "askpass",
  "helper",
  "external",
  "textconv",
  "command",
  "cmd",
  "clean",
  "smudge",
  "process",
  "driver",
  "program",
  "gitproxy",
  "uploadpack",
  "receivepack",
  "hookspath",
]);

/** Whether a setting has git run a program: a program key, any `pager.<command>`, or an alias starting with `!`. Pure. */
const runsProgram = ({ section, key, value }: GitSetting) => PROGRAM_KEYS.has(key) || section === "pager" || (section === "alias" && value.startsWith("!"));

/** Whether a git config's text has git run a program, or read another file that may (an include). Pure. */
export function runsPrograms(text: string): boolean {
  return gitSettings(text).some((s) => runsProgram(s) || s.section === "include" || s.section.startsWith("includeif "));
}

/**
 * The config files git reads for the repository whose top is `top`: `.git/config`; for a `.git` file,
 * the config of the git directory it names (a submodule's), or a linked worktree's common config and
 * its own `config.worktree`. I/O: reads the `.git` file.
 */
export function gitConfigFiles(top: string): string[] {
  const target = gitFileTarget(top);
  if (!target) return [join(top, ".git", "config")];
  return [join(target.common, "config"), ...(target.linked ? [join(target.own, "config.worktree")] : [])];
}

/**
 * The paths the git config (`gitConfigFiles`) of the repository whose top is `top` names for git to
 * read or run at the person's next git command there: files it includes (`include.path`,
 * `includeIf.*.path`, followed in turn), the hooks directory, and programs (`core.fsmonitor`, a
 * filter, an alias's `!` command, …) given by a path, which git takes from the top. Those inside a
 * workspace a command may not change, as it may not change `.git/config`. I/O: reads the config and
 * what it includes, regular files only.
 */
export function gitConfigured(top: string, home = homeDirectory()): string[] {
  return namedBy(gitConfigFiles(top), top, home);
}

/**
 * The config files every git command of the person's reads, whatever the repository: the global one
 * (`~/.gitconfig`, or `GIT_CONFIG_GLOBAL`), the XDG one and the system's.
 */
function personalConfigFiles(home: string, env: Record<string, string | undefined>): string[] {
  return [env.GIT_CONFIG_GLOBAL ?? join(home, ".gitconfig"), join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "git", "config"), "/etc/gitconfig"];
}

/**
 * What the person's own git config (`personalConfigFiles`) names by an absolute or `~/` path: files
 * it includes, a shared hooks directory (`core.hooksPath = ~/src/team-hooks`), programs. Every git
 * command of theirs, in any repository, reads or runs these. I/O.
 */
export function personalGitConfigured(home = homeDirectory(), env: Record<string, string | undefined> = process.env): string[] {
  return namedBy(personalConfigFiles(home, env), undefined, home);
}

/**
 * The paths config `files` name, and what the files they include name in turn (up to five deep).
 * A program or hooks directory given by a relative path is taken from `top`; without a top (the
 * person's own config, read in every repository) it names no one path and is left out. I/O.
 */
function namedBy(files: string[], top: string | undefined, home: string): string[] {
  const found = new Set<string>();
  const read = (file: string, depth: number) => {
    let text: string;
    try {
      text = readRegularFile(file, "utf8");
    } catch {
      return;
    }
    for (const setting of gitSettings(text)) {
      const { section, key, value } = setting;
      const include = (section === "include" || section.startsWith("includeif ")) && key === "path";
      if (!include && !runsProgram(setting)) continue;
      const word = include ? value : (value.replace(/^!\s*/, "").split(/\s+/)[0] ?? "");
      if (!include && key !== "hookspath" && !word.includes("/")) continue; // a program the PATH finds
      const relativeTo = include ? dirname(file) : top;
      const path = word.startsWith("~/")
        ? join(home, word.slice(2))
        : isAbsolute(word)
          ? word
          : relativeTo === undefined
            ? undefined
            : resolve(relativeTo, word);
      if (path === undefined || found.has(path) || path === top) continue;
      found.add(path);
      if (include && depth < 5) read(path, depth + 1);
    }
  };
  for (const file of files) read(file, 0);
  return [...found];
}

/**
 * Why writing `rel` needs the person's yes because the git config of a repository it lies in names it
 * (`gitConfigured`): the workspace's, one kept inside it, or the one the workspace is a directory of
 * (a monorepo's package); or the person's own does (`personalGitConfigured`). Undefined otherwise. I/O.
 */
export function gitConfigReason(root: string, rel: string, home = homeDirectory()): string | undefined {
  const abs = join(root, rel);
  const tops: string[] = [];
  for (let dir = dirname(abs); inside(root, dir); dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) tops.push(dir);
    if (dir === root) break;
  }
  const above = enclosingRepository(root, home);
  for (const top of above ? [...tops, above] : tops) {
    const named = gitConfigured(top, home).find((p) => inside(p, abs));
    if (named)
      return (
        `${rel} is named by the git config of the repository at ${relative(root, top) || "."} (` +
        `${relative(root, named)}), which git reads or runs at the person's next git command there`
      );
  }
  const personal = personalGitConfigured(home).find((p) => inside(p, abs));
  if (personal)
    return `${rel} is named by your own git config (${relative(root, personal)}), which every git command of yours reads or runs, in any repository`;
  return undefined;
}
