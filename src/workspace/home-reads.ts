/**
 * What of the workspace the person's own environment reads and runs at its next start, from outside
 * any sandbox: files their home links to (a dotfiles repository), what their startup files source or
 * include, and programs in directories on their PATH. A command may not change the first two, nor leave a program
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
  return ofWorkspace(root, pathDirectories(root, path));
}

/** Of the PATH's directories, those `pathDirectoriesInside` keeps. I/O: looks for environment markers. */
function ofWorkspace(root: string, dirs: string[]): string[] {
  return dirs.filter((d) => inside(root, d) && d !== root && dependencyEnvironment(root, relative(root, d).split(sep).join("/")) === undefined);
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
  return entriesOf(pathDirectoriesInside(root, path));
}

/** The entries of `dirs`, as paths. I/O. */
function entriesOf(dirs: string[]): Set<string> {
  const out = new Set<string>();
  for (const dir of dirs) {
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
  return [...entriesOf(ofWorkspace(root, dirs))].filter((p) => !before.has(p) && shadows(dirs, dirname(p), basename(p)) !== undefined);
}

/** Why writing `rel` needs the person's yes because it would shadow a program their PATH finds (`shadowingPrograms`), or undefined. I/O. */
export function pathReason(root: string, rel: string, path = process.env.PATH ?? ""): string | undefined {
  const abs = join(root, rel);
  const dir = dirname(abs);
  const dirs = pathDirectories(root, path);
  if (!ofWorkspace(root, dirs).includes(dir)) return undefined;
  const shadowed = shadows(dirs, dir, basename(abs));
  return shadowed
    ? `${rel} is in ${relative(root, dir)}, a directory on your PATH, and would run instead of ${shadowed} when you type ${basename(abs)}`
    : undefined;
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

/** A `source FILE` or `. FILE` command: at a line's start or after `;`, `&&`, `||`, `then`, `do`, `{`. */
const SOURCE_COMMAND = /(?:^|[;&|{(]|\bthen|\bdo)\s*(?:source|\.)\s+(["']?)([^\s"';&|)]+)\1/gm;

/** ssh's `Include` (its paths, space-separated), tmux's `source-file` (after its flags), vim's `source`. */
const SSH_INCLUDE = /^\s*Include\s+(.+)$/gim;
const TMUX_SOURCE = /^\s*source(?:-file)?(?:\s+-[a-zA-Z]+)*\s+(["']?)(\S+?)\1\s*$/gm;
const VIM_SOURCE = /^\s*so(?:urce)?\s+(\S+)\s*$/gm;

/**
 * A path as a startup file names it, or undefined: `~/`, `$HOME/` and `${HOME}/` taken from the
 * home, another variable left out, a relative one taken from `base`; a glob stands for the
 * directory above its first wildcard. Pure.
 */
function namedPath(word: string, home: string, base: string): string | undefined {
  const fromHome = /^(?:~|\$HOME|\$\{HOME\})\//.exec(word);
  if (!fromHome && word.includes("$")) return undefined;
  const path = fromHome ? join(home, word.slice(fromHome[0].length)) : resolve(base, word);
  const wild = path.search(/[*?[]/);
  return wild === -1 ? path : dirname(path.slice(0, wild + 1));
}

/**
 * The files a shell script's text sources by a path it names plainly: absolute, `~/`, `$HOME/` or
 * `${HOME}/`, or relative (taken from the home, where a login shell starts). A path built from other
 * variables, or by a loop, is not followed. Pure.
 */
export function sourcedPaths(text: string, home: string): string[] {
  return [...text.matchAll(SOURCE_COMMAND)].flatMap((m) => namedPath(m[2]!, home, home) ?? []);
}

/**
 * The startup files of programs a person runs all day, in their home, and the files each reads in
 * turn (`reads`) and what then runs them: shells' rc files (`source`), ssh's config (`Include`: its
 * `ProxyCommand` and `Match exec` run), tmux's (`source-file`: its `run-shell` runs), vim's (`source`).
 */
const STARTUP: { files: string[]; reads: (text: string, home: string) => string[]; verb: string; runs: string }[] = [
  {
    files: [".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_aliases", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".config/fish/config.fish"],
    reads: sourcedPaths,
    verb: "sourced by",
    runs: "your shell runs it at its next start",
  },
  {
    files: [".ssh/config"],
    reads: (text, home) =>
      [...text.matchAll(SSH_INCLUDE)].flatMap((m) =>
        m[1]!
          .trim()
          .split(/\s+/)
          .flatMap((w) => namedPath(w, home, join(home, ".ssh")) ?? []),
      ),
    verb: "included by",
    runs: "ssh runs the commands it names (ProxyCommand, Match exec) at its next start",
  },
  {
    files: [".tmux.conf", ".config/tmux/tmux.conf"],
    reads: (text, home) => [...text.matchAll(TMUX_SOURCE)].flatMap((m) => namedPath(m[2]!, home, home) ?? []),
    verb: "sourced by",
    runs: "tmux runs the commands it names at its next start",
  },
  {
    files: [".vimrc", ".vim/vimrc", ".config/nvim/init.vim"],
    reads: (text, home) => [...text.matchAll(VIM_SOURCE)].flatMap((m) => namedPath(m[1]!, home, home) ?? []),
    verb: "sourced by",
    runs: "vim runs it at its next start",
  },
];

/**
 * The paths inside the workspace the person's startup files read (`STARTUP`, followed three deep),
 * each with the startup file that leads there and what runs it. I/O.
 */
function readAtStart(root: string, home: string): Map<string, HomeRead> {
  const found = new Map<string, HomeRead>();
  for (const startup of STARTUP) {
    const seen = new Set<string>();
    const read = (file: string, from: string, depth: number) => {
      let path: string;
      try {
        path = realpathSync(file);
      } catch {
        return;
      }
      if (seen.has(path)) return;
      seen.add(path);
      if (inside(root, path) && path !== root && !found.has(path))
        found.set(path, { via: `${startup.verb} ~/${relative(home, from)} in your home`, runs: startup.runs });
      let text: string;
      try {
        text = readRegularFile(path, "utf8");
      } catch {
        return; // a directory an Include's glob names, or no file
      }
      if (depth < 3) for (const next of startup.reads(text, home)) read(next, from, depth + 1);
    };
    for (const name of startup.files) read(join(home, name), join(home, name), 0);
  }
  return found;
}

/**
 * What of the workspace the person's home reads at their next start of a shell, git, an editor or
 * ssh, from outside any sandbox: files and directories it links to (`linkedFromHome`: a dotfiles
 * repository) and what their shells, ssh, tmux and vim read at their start (`readAtStart`), each
 * with why. A command may not change them and `write_file` asks. Kept for the process (a command
 * cannot change the home). I/O.
 */
export function homeReads(root: string, home: string): Map<string, HomeRead> {
  const key = `${root}\0${home}`;
  const known = homeReadsKept.get(key);
  if (known) return known;
  const found = new Map<string, HomeRead>();
  for (const [target, link] of linkedFromHome(root, home))
    found.set(target, {
      via: `what ~/${relative(home, link)} in your home links to`,
      runs: "what reads it there (your shell, git, editor, ssh) runs it at its next start",
    });
  for (const [target, r] of readAtStart(root, home)) if (!found.has(target)) found.set(target, r);
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
 * how, workspace-relative: what their home links to or their startup files read (`homeReads`),
 * what their own git config names (`personalGitConfigured`), the directories of their PATH
 * (`pathDirectoriesInside`). For `weir doctor`, which says what commands may not change and why. I/O.
 */
export function personalReads(root: string, home: string): { path: string; why: string }[] {
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  return [
    ...[...homeReads(root, home)].map(([p, r]) => ({ path: rel(p), why: r.via })),
    ...personalGitConfigured(home)
      .filter((p) => inside(root, p) && p !== root)
      .map((p) => ({ path: rel(p), why: "named by your own git config" })),
    ...pathDirectoriesInside(root).map((p) => ({
      path: rel(p),
      why: "a directory on your PATH: a program a command adds there that shadows one of yours is removed",
    })),
  ];
}
