/**
 * What of the workspace the person's own environment reads and runs at its next start, from outside
 * any sandbox: files their home links to (a dotfiles repository), scripts their shells source, and
 * programs in directories on their PATH. A command may not change the first two, nor leave a program
 * there that shadows one of theirs, and `write_file` asks, as for the files other tools run later
 * (`AUTORUN_PATHS` of containment.ts).
 */
import { type Dirent, existsSync, readdirSync, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join, relative, resolve, sep } from "node:path";
import { dependencyEnvironment, inside, readRegularFile } from "./containment.ts";
import { personalGitConfigured } from "./gitconfig.ts";

/**
 * The directories of the person's PATH inside the workspace (a project's `bin/` that direnv's
 * `PATH_add` put there; a relative entry taken from the workspace), in the PATH's order. Not the
 * root itself, and not installed dependencies' (an activated virtualenv's `bin`,
 * `node_modules/.bin`), which their installs write and their own guards keep; one not there yet
 * counts when its parent is (a `bin/` to come), not otherwise (a virtualenv to come). I/O.
 */
export function pathDirectoriesInside(root: string, path = process.env.PATH ?? ""): string[] {
  return pathDirectories(root, path).filter((d) => inside(root, d) && d !== root && dependencyEnvironment(root, relative(root, d).split(sep).join("/")) === undefined);
}

/** The PATH's directories in order, relative entries taken from the workspace, links resolved where they lead somewhere. I/O. */
function pathDirectories(root: string, path: string): string[] {
  const dirs: string[] = [];
  for (const entry of path.split(delimiter)) {
    if (!entry) continue;
    let dir = resolve(root, entry);
    try {
      dir = realpathSync(dir);
    } catch {
      if (!existsSync(dirname(dir))) continue;
    }
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return dirs;
}

/**
 * Where a program named `name` in `dir`, a directory of the PATH, would run instead of one the PATH
 * finds further on (a `bin/git` before `/usr/bin/git`): the one it shadows, or undefined. I/O.
 */
function shadows(dirs: string[], dir: string, name: string): string | undefined {
  return dirs.slice(dirs.indexOf(dir) + 1).map((d) => join(d, name)).find((p) => existsSync(p));
}

/** What is in the workspace's PATH directories now (`pathDirectoriesInside`), to tell later what a command added. I/O. */
export function programsOnPath(root: string, path = process.env.PATH ?? ""): Set<string> {
  const out = new Set<string>();
  for (const dir of pathDirectoriesInside(root, path)) {
    try {
      for (const name of readdirSync(dir)) out.add(join(dir, name));
    } catch {
      // not there (yet)
    }
  }
  return out;
}

/**
 * Programs in the workspace's PATH directories that were not there `before` (`programsOnPath`:
 * made, renamed or linked there since) and shadow one the person's PATH finds further on: when the
 * person types `git`, this one would run, outside any sandbox. A build's own output (`bin/app`)
 * shadows nothing and stays; what was there before is the person's. I/O.
 */
export function shadowingPrograms(root: string, before: Set<string>, path = process.env.PATH ?? ""): string[] {
  const dirs = pathDirectories(root, path);
  return [...programsOnPath(root, path)].filter((p) => !before.has(p) && shadows(dirs, dirname(p), basename(p)) !== undefined);
}

/** Why writing `rel` needs the person's yes because it would shadow a program their PATH finds (`shadowingPrograms`), or undefined. I/O. */
export function pathReason(root: string, rel: string, path = process.env.PATH ?? ""): string | undefined {
  const abs = join(root, rel);
  const dir = dirname(abs);
  if (!pathDirectoriesInside(root, path).includes(dir)) return undefined;
  const shadowed = shadows(pathDirectories(root, path), dir, basename(abs));
  return shadowed ? `${rel} is in ${relative(root, dir)}, a directory on your PATH, and would run instead of ${shadowed} when you type ${basename(abs)}` : undefined;
}

/** How many entries of the home `linkedFromHome` reads at most: a home's dot-directories can be large. */
const HOME_ENTRIES_READ = 5_000;

/** How the person's home comes to read a path of the workspace, and what then runs it. */
interface HomeRead {
  via: string;
  runs: string;
}

const homeReadsKept = new Map<string, Map<string, HomeRead>>();

/**
 * The paths inside the workspace the person's home links to, each with the link (a dotfiles
 * repository kept by stow or by hand: `~/.gitconfig`, `~/.bashrc`, `~/.config/nvim`, a script in
 * `~/.local/bin`). Read are the home's entries, those of its dot-directories, and those of the
 * directories in `.config` and `.local`; a link to the workspace itself or to a directory holding it
 * names nothing in particular. I/O.
 */
function linkedFromHome(root: string, home: string): Map<string, string> {
  const found = new Map<string, string>();
  let read = 0;
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++read > HOME_ENTRIES_READ) return;
      const path = join(dir, e.name);
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(path);
        } catch {
          continue; // dangling
        }
        if (inside(root, target) && target !== root && !found.has(target)) found.set(target, path);
      } else if (e.isDirectory() && (depth === 0 ? e.name.startsWith(".") : depth === 1 && [".config", ".local"].includes(basename(dir)))) {
        visit(path, depth + 1);
      }
    }
  };
  visit(home, 0);
  return found;
}

/** The shells' startup files in a home, which a new shell of the person's runs. */
const SHELL_STARTUP = [".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_aliases", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".config/fish/config.fish"];

/** A `source FILE` or `. FILE` command: at a line's start or after `;`, `&&`, `||`, `then`, `do`, `{`. */
const SOURCE_COMMAND = /(?:^|[;&|{(]|\bthen|\bdo)\s*(?:source|\.)\s+(["']?)([^\s"';&|)]+)\1/gm;

/**
 * The files a shell script's text sources by a path it names plainly: absolute, `~/`, `$HOME/` or
 * `${HOME}/`, or relative (taken from the home, where a login shell starts). A path built from other
 * variables, or by a loop, is not followed. Pure.
 */
export function sourcedPaths(text: string, home: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SOURCE_COMMAND)) {
    const word = m[2]!;
    const fromHome = /^(?:~|\$HOME|\$\{HOME\})\//.exec(word);
    if (fromHome) out.push(join(home, word.slice(fromHome[0].length)));
    else if (!word.includes("$")) out.push(resolve(home, word));
  }
  return out;
}

/**
 * The paths inside the workspace the person's shells source at their start (`sourcedPaths` of each
 * startup file, followed three deep), each with the startup file that leads there. I/O.
 */
function sourcedByShell(root: string, home: string): Map<string, string> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const read = (file: string, from: string, depth: number) => {
    let path: string;
    let text: string;
    try {
      path = realpathSync(file);
      text = readRegularFile(path, "utf8");
    } catch {
      return;
    }
    if (seen.has(path)) return;
    seen.add(path);
    if (inside(root, path) && path !== root && !found.has(path)) found.set(path, from);
    if (depth < 3) for (const next of sourcedPaths(text, home)) read(next, from, depth + 1);
  };
  for (const name of SHELL_STARTUP) read(join(home, name), join(home, name), 0);
  return found;
}

/**
 * What of the workspace the person's home reads at their next start of a shell, git, an editor or
 * ssh, from outside any sandbox: files and directories it links to (`linkedFromHome`: a dotfiles
 * repository) and scripts their shells source (`sourcedByShell`), each with why. A command may not
 * change them and `write_file` asks. Kept for the process (a command cannot change the home). I/O.
 */
export function homeReads(root: string, home: string): Map<string, HomeRead> {
  const key = `${root}\0${home}`;
  const known = homeReadsKept.get(key);
  if (known) return known;
  const tilde = (p: string) => `~/${relative(home, p)}`;
  const found = new Map<string, HomeRead>();
  for (const [target, link] of linkedFromHome(root, home)) found.set(target, { via: `what ${tilde(link)} in your home links to`, runs: "what reads it there (your shell, git, editor, ssh) runs it at its next start" });
  for (const [target, startup] of sourcedByShell(root, home)) if (!found.has(target)) found.set(target, { via: `sourced by ${tilde(startup)} in your home`, runs: "your shell runs it at its next start" });
  homeReadsKept.set(key, found);
  return found;
}

/** Why writing `rel` needs the person's yes because their home reads it (`homeReads`), or undefined. I/O. */
export function homeReadReason(root: string, rel: string, home: string): string | undefined {
  const abs = join(root, rel);
  for (const [target, { via, runs }] of homeReads(root, home)) if (inside(target, abs)) return `${rel} is ${via}: ${runs}`;
  return undefined;
}

/**
 * Everything of the workspace the person's own environment reads or runs at its next start, with
 * how, workspace-relative: what their home links to or sources (`homeReads`), what their own git
 * config names (`personalGitConfigured`), the directories of their PATH (`pathDirectoriesInside`).
 * For `weir doctor`, which says what commands may not change and why. I/O.
 */
export function personalReads(root: string, home: string): { path: string; why: string }[] {
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  return [
    ...[...homeReads(root, home)].map(([p, r]) => ({ path: rel(p), why: r.via })),
    ...personalGitConfigured(home).filter((p) => inside(root, p) && p !== root).map((p) => ({ path: rel(p), why: "named by your own git config" })),
    ...pathDirectoriesInside(root).map((p) => ({ path: rel(p), why: "a directory on your PATH: a program a command adds there that shadows one of yours is removed" })),
  ];
}
