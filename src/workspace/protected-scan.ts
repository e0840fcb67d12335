import { type Dirent, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import {
  AUTORUN_PATHS,
  ENVIRONMENT_DIR,
  ENVIRONMENT_MARKERS,
  ENVIRONMENT_NAMES,
  GIT_DIRECTORY_PARTS,
  inside,
  looksLikeGitDirectory,
  protectedReason,
} from "./containment.ts";
import { gitConfigured, personalGitConfigured } from "./gitconfig.ts";
import { homeReads, shadowingPrograms } from "./home-reads.ts";
import { maskable } from "./toolchains.ts";
import { enclosingRepository } from "./walker.ts";

/**
 * What of a workspace the sandbox must guard, found by one bounded walk: protected files, dependency
 * environments, repositories kept inside it, Python's bytecode directories, and the paths beyond
 * `.git` that run later (`guardedOutsideGit`). The sandbox's policy is built from it. I/O.
 */

export interface ProtectedScan {
  /** Protected files found (absolute). */
  files: string[];
  /** Dependency environments found (absolute), the outermost of each nest. */
  environments: string[];
  /** Directories not read before the time ran out (absolute): treated as protected whole. */
  unscanned: string[];
  /** The directories read outside any environment (absolute), and when the scan began (ms since the epoch). */
  dirs: string[];
  at: number;
  /** Repositories of their own inside the workspace (a clone kept in it): the directories holding a `.git`. */
  repositories: string[];
  /**
   * Directories outside any `.git` that git takes for repositories themselves (`looksLikeGitDirectory`:
   * a bare clone kept in the workspace): their git parts are guarded as a `.git`'s are.
   */
  gitDirectories: string[];
  /** Python's bytecode directories (`__pycache__`) outside the environments. */
  caches: string[];
}

/**
 * Protected files present in the workspace (dotenv files and their variants, keys, credentials),
 * to bind over /dev/null: every depth, vendored directories included, only `.git` skipped (commands
 * see it through git's own guards). Bounded by time, not by count; whatever was not read in time is
 * returned as unscanned, so the caller can hide it. The same walk finds the dependency environments.
 * I/O: reads directories, never follows links.
 */
export function protectedFilesIn(root: string, home: string, budgetMs = 3_000): ProtectedScan {
  const at = Date.now();
  const files: string[] = [];
  const environments: string[] = [];
  const dirs: string[] = [];
  const repositories: string[] = [];
  const gitDirectories: string[] = [];
  const caches: string[] = [];
  // Each directory with whether it lies in an environment already found (only the outermost is kept).
  const queue: { dir: string; within: boolean }[] = [{ dir: root, within: false }];
  const deadline = performance.now() + budgetMs;
  while (queue.length > 0) {
    if (performance.now() > deadline) return { files, environments, unscanned: queue.map((q) => q.dir), dirs, at, repositories, gitDirectories, caches };
    const { dir, within: above } = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing of it can be read by a command either
    }
    const found = above ? undefined : environmentsAmong(dir, entries, dir === root);
    // A virtualenv is guarded in its parts that run; its top stays writable for the lock and
    // temporary files uv keeps there at every `uv run`.
    const marked = found?.dirs[0] === dir;
    const venv = marked && entries.some((e) => e.name === "pyvenv.cfg");
    if (found) environments.push(...(venv ? entries.filter((e) => VENV_PARTS.includes(e.name)).map((e) => join(dir, e.name)) : found.dirs));
    // A node_modules that links to a directory of the workspace makes that directory the environment.
    for (const link of found?.links ?? []) {
      const target = resolvedInside(root, link);
      if (target && !environments.includes(target)) environments.push(target);
    }
    const within = above || marked;
    if (!within) dirs.push(dir);
    if (!within && dir.endsWith(`/${PYTHON_CACHE}`)) caches.push(dir);
    // git's own files of a repository kept inside the workspace run at the person's git there, as the workspace's do.
    if (dir !== root && entries.some((e) => e.name === ".git")) repositories.push(dir);
    // Installed dependencies are their own (an install rewrites them whole); what git takes for a repository elsewhere is guarded.
    if (!within && !relative(root, dir).split(sep).includes(".git") && looksLikeGitDirectory(entries)) gitDirectories.push(dir);
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!(dir === root && e.name === ".git")) queue.push({ dir: abs, within: within || found?.dirs.includes(abs) === true });
      } else if (protectedReason(relative(root, abs), abs, home)) files.push(abs);
    }
  }
  return { files, environments, unscanned: [], dirs, at, repositories, gitDirectories, caches };
}

/** Where a link leads when that is a directory inside `root` (links resolved), else undefined. I/O. */
export function resolvedInside(root: string, link: string): string | undefined {
  try {
    const real = realpathSync(link);
    return real !== root && inside(root, real) && statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dependency environments a directory's entries make: the directory itself when it holds a
 * marker (`pyvenv.cfg`, `conda-meta`; never the workspace root), else the entries named as one
 * (`ENVIRONMENT_NAMES`: `node_modules`, Yarn's); and the `node_modules` links. Pure.
 */
export function environmentsAmong(dir: string, entries: Dirent[], top: boolean): { dirs: string[]; links: string[] } {
  const links = entries.filter((e) => e.isSymbolicLink() && e.name === ENVIRONMENT_DIR).map((e) => join(dir, e.name));
  if (!top && entries.some((e) => (ENVIRONMENT_MARKERS as readonly string[]).includes(e.name))) return { dirs: [dir], links };
  return { dirs: entries.filter((e) => !e.isSymbolicLink() && ENVIRONMENT_NAMES.has(e.name)).map((e) => join(dir, e.name)), links };
}

/**
 * How protected files are hidden: each over /dev/null, a protected link by what it leads to when
 * `sees` shows that (`maskable`), a directory by emptying it. Pure.
 */
export function hiddenPaths(files: string[], sees: (p: string) => boolean): { masked: string[]; emptied: string[] } {
  const hidden = files.flatMap((f) => maskable(f, sees) ?? []);
  return { masked: hidden.filter((h) => !h.dir).map((h) => h.path), emptied: hidden.filter((h) => h.dir).map((h) => h.path) };
}

/**
 * Guarded workspace paths beyond `.git` (bound by `bwrapOptions` itself): what the git config names
 * (`gitConfigured`) of the workspace's repository (a linked worktree's too), of each repository kept
 * inside it, and of the repository it is a directory of (a monorepo's package), the git parts
 * (`GIT_DIRECTORY_PARTS`) of the git directories outside `.git` the scan found, `AUTORUN_PATHS`, and
 * what the person's own git config names and their home links to or their startup files read
 * (`personalGitConfigured`, `homeReads`: shared hooks, dotfiles kept in the workspace or sourced,
 * included by a startup file), and the programs in the workspace's PATH directories that run
 * instead of others of the person's (`shadowingPrograms` of all there: a `bin/git` wrapper of theirs).
 */
export function guardedOutsideGit(root: string, home: string, scan: ProtectedScan): string[] {
  const repositories = [root, ...scan.repositories.filter((r) => inside(root, r))];
  const above = enclosingRepository(root, home);
  const configured = [...[...repositories, ...(above ? [above] : [])].flatMap((r) => gitConfigured(r, home)), ...personalGitConfigured(home)];
  const named = configured.filter((p) => inside(root, p) && p !== root);
  const gitDirectories = scan.gitDirectories.filter((d) => inside(root, d));
  return [
    ...named,
    ...gitDirectories.flatMap((d) => GIT_DIRECTORY_PARTS.map((x) => join(d, x))),
    ...AUTORUN_PATHS.map((a) => join(root, a)),
    ...homeReads(root, home).keys(),
    ...shadowingPrograms(root, new Set()),
  ];
}

/** What is at `path` itself (links not followed), or undefined when nothing is or a file stands on the way. I/O. */
export function entryAt(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is a link leading out of `root`, or nowhere: bubblewrap cannot bind onto it. I/O. */
export function linkOut(root: string, path: string): boolean {
  if (!entryAt(path)?.isSymbolicLink()) return false;
  try {
    return !inside(root, realpathSync(path));
  } catch {
    return true;
  }
}

/**
 * What of a Python virtualenv runs: its programs and activation scripts, its packages (where a
 * `.pth` file runs at every start of its python) and its configuration. Windows names them too.
 */
const VENV_PARTS = ["bin", "Scripts", "lib", "lib64", "Lib", "include", "Include", "pyvenv.cfg"];

/** The name of Python's bytecode directories. */
export const PYTHON_CACHE = "__pycache__";
