import { existsSync, lstatSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { linkOnTheWay, removeInside, writeFileInside } from "./atomic.ts";
import { inside, installManifests, installScripts, looksLikeGitDirectory, readRegularFile, wholeText, workspaceGlobs } from "./containment.ts";
import { runsPrograms } from "./gitconfig.ts";
import { programsOnPath, shadowingPrograms } from "./home-reads.ts";
import {
  entryAt,
  environmentsAmong,
  guardedOutsideGit,
  hiddenPaths,
  linkOut,
  PYTHON_CACHE,
  type ProtectedScan,
  protectedFilesIn,
  resolvedInside,
} from "./protected-scan.ts";
import { GIT_GUARDED, type SandboxPolicy } from "./sandbox-policy.ts";

/**
 * Where a command has no copy-on-write view (macOS, a Linux without unprivileged overlays, an MCP
 * server shown the workspace), what it made that must not stay is found after it, by the times the
 * kernel stamps, and removed: files other tools run later, a repository of its own's risks,
 * bytecode, dependency environments made without the network, changed install scripts. This is the
 * weaker path: a command that puts times back can pass it, which the view cannot be. I/O.
 */

/** What a command may not leave, as it was before the command started (`watchCommand`). */
export interface CommandWatch {
  /** The guarded paths watched: git's metadata of each repository, and the other guarded paths. */
  watched: string[];
  /** Those present before the command. */
  before: Set<string>;
  /** The guarded paths that are links out of the workspace, with what they name (`SandboxPolicy.linked`). */
  links: Map<string, string>;
  /** The programs in the workspace's PATH directories, before. */
  onPath: Set<string>;
  /** The package.json files the next install runs scripts from, with their text before. */
  manifests: Map<string, string | undefined>;
  globs: string[];
  /** Whether the workspace had a `.git` before. */
  hadGit: boolean;
}

/**
 * Reads what `sweepCommand` compares against, before a command starts. Only where commands may
 * write the whole workspace (`writes`) is there anything of theirs to undo. I/O.
 */
export function watchCommand(root: string, scan: ProtectedScan, guarded: string[], writes: boolean): CommandWatch {
  const repos = [root, ...scan.repositories.filter((r) => inside(root, r))];
  const watched = writes ? [...repos.flatMap((r) => GIT_GUARDED.map((g) => join(r, g))), ...guarded] : [];
  // The package.json files the next install runs scripts from, as they were: the root's and its workspace packages'.
  const globs = writes ? workspaceGlobs(wholeText(join(root, "package.json")), wholeText(join(root, "pnpm-workspace.yaml"))) : [];
  return {
    watched,
    before: new Set(watched.filter((w) => existsSync(w))),
    links: new Map(watched.filter((w) => linkOut(root, w)).map((w) => [w, readlinkSync(w)])),
    onPath: writes ? programsOnPath(root) : new Set<string>(),
    manifests: new Map(writes ? installManifests(root, globs).map((m) => [m, wholeText(m)] as const) : []),
    globs,
    hadGit: existsSync(join(root, ".git")),
  };
}

/** What `sweepCommand` removed or put back, workspace-relative. */
export interface Swept {
  /** Created where commands may not write, removed. */
  undone: string[];
  /** package.json files put back because the command changed what the next install runs. */
  restored?: string[];
  /** Dependency environments the command made without the network, removed. */
  installed?: string[];
  /** Guarded links the command replaced or changed, put back. */
  relinked?: string[];
}

/** After a command that ran with no view: removes and puts back what it must not leave (`watch` read before it). I/O. */
export function sweepCommand(root: string, scan: ProtectedScan, watch: CommandWatch, started: number, o: { writes: boolean; network: boolean }): Swept {
  const gitDir = join(root, ".git");
  // Whatever the command created among the guarded paths goes: it would run or instruct later. A
  // repository the command made (git init) is its own, less what would run at the person's next git.
  const undone = watch.watched.filter((w) => !watch.before.has(w) && existsSync(w) && (watch.hadGit || !inside(gitDir, w)));
  if (!watch.hadGit && o.writes) undone.push(...newRepositoryRisks(gitDir));
  // What the command made below the root: a repository of its own, a dependency environment.
  const made = o.writes ? madeSince(root, scan, started) : { environments: [], gits: [], bytecode: [], madeRepository: [] };
  // A program it put in a directory of the person's PATH that shadows one of theirs (a bin/git) goes too.
  undone.push(...made.gits.flatMap(madeGitRisks), ...made.bytecode, ...made.madeRepository, ...(o.writes ? shadowingPrograms(root, watch.onPath) : []));
  const removed = removeAll(root, undone, started);
  // A package.json whose install scripts or workspaces the command changed (or a new package with
  // install scripts) is put back as it was: the next npm install would run them outside any sandbox.
  const now = o.writes ? installManifests(root, watch.globs) : [];
  const changedScripts = (m: string) => installScripts(wholeText(m)) !== installScripts(watch.manifests.get(m));
  const restored = [...new Set([...watch.manifests.keys(), ...now])].filter((m) => changedScripts(m) && putBack(root, m, watch.manifests.get(m), started));
  // A dependency environment the command made without the network goes too (an install from a
  // cache, a node_modules planted beside the code to shadow the installed one): git would not
  // show it, and the person's next command would run it.
  const installed = !o.network ? removeAll(root, made.environments, started) : [];
  // A guarded link the command replaced or changed (not bound: SandboxPolicy.linked) is put back.
  const relinked = [...watch.links].filter(([w, target]) => relink(root, w, target)).map(([w]) => w);
  const rel = (paths: string[]) => paths.map((p) => relative(root, p));
  return {
    undone: rel(removed),
    ...(restored.length ? { restored: rel(restored) } : {}),
    ...(installed.length ? { installed: rel(installed) } : {}),
    ...(relinked.length ? { relinked: rel(relinked) } : {}),
  };
}

/**
 * What a command made in the workspace since `since` that runs at the person's next command, by
 * birth time: dependency environments (and `node_modules` links), and `.git` directories and files
 * below the root (a repository of its own whose hooks or config would run at the person's git
 * there). Only what changed since `scan` is read: a directory whose modification time is the
 * scan's or later (an entry came or went), and whatever directory is new below it; the known
 * environments (read-only to the command) and the root's `.git` are not entered. Gives up after
 * `budgetMs`. I/O: a stat of each directory the scan read, and the reads of those that changed.
 */
export function madeSince(
  root: string,
  scan: ProtectedScan,
  since: number,
  budgetMs = 3_000,
): { environments: string[]; gits: string[]; bytecode: string[]; madeRepository: string[] } {
  const known = new Set(scan.dirs);
  const skip = new Set([join(root, ".git"), ...scan.environments]);
  const environments: string[] = [];
  const gits: string[] = [];
  const bytecode: string[] = [];
  const madeRepository: string[] = [];
  const queue = scan.dirs.filter((d) => inside(root, d) && stampedSince(d, "mtimeMs", scan.at));
  const deadline = performance.now() + budgetMs;
  while (queue.length > 0 && performance.now() < deadline) {
    const dir = queue.shift()!;
    // A directory the command replaced by a link (to the person's home, say) is not the workspace's to read or clean.
    if (linkOnTheWay(root, dir, true)) continue;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const found = environmentsAmong(dir, entries, dir === root);
    environments.push(...[...found.dirs, ...found.links].filter((e) => !skip.has(e) && !environments.includes(e) && bornSince(e, since)));
    if (dir !== root) gits.push(...entries.filter((e) => e.name === ".git" && bornSince(join(dir, e.name), since)).map((e) => join(dir, e.name)));
    // A directory git now takes for a repository itself: one the command made is its repository, a
    // directory of the person's made into one loses what made it so.
    if (!relative(root, dir).split(sep).includes(".git") && looksLikeGitDirectory(entries)) {
      if (bornSince(dir, since)) gits.push(dir);
      else madeRepository.push(...["HEAD", "objects", "refs"].map((n) => join(dir, n)).filter((p) => bornSince(p, since)));
    }
    // Python loads bytecode in place of its source only from a __pycache__ beside it.
    if (basename(dir) === PYTHON_CACHE)
      bytecode.push(
        ...entries.filter((e) => e.isFile() && e.name.endsWith(".pyc") && stampedSince(join(dir, e.name), "ctimeMs", since)).map((e) => join(dir, e.name)),
      );
    if (found.dirs[0] === dir) continue; // an environment: what is below it is its own
    // A directory the scan did not know is new: read it whole.
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory() && e.name !== ".git" && !skip.has(abs) && !known.has(abs) && !environments.includes(abs)) {
        known.add(abs);
        queue.push(abs);
      }
    }
  }
  return { environments, gits, bytecode, madeRepository };
}

/** What of a `.git` a command made below the root must go: a file naming a git directory whole, a new repository's risks (`newRepositoryRisks`). I/O. */
export function madeGitRisks(git: string): string[] {
  try {
    return lstatSync(git).isDirectory() ? newRepositoryRisks(git) : [git];
  } catch {
    return [];
  }
}

/**
 * The guards of a workspace shown to a process that is not a command (an MCP server given it), as
 * commands have them: what other tools run later and the hooks directory read-only, installed
 * dependencies read-only without the network, protected files hidden. For `guardBinds`. I/O: scans
 * the workspace.
 */
export function workspaceGuards(root: string, home: string, sees: (p: string) => boolean): WorkspaceGuards {
  const scan = protectedFilesIn(root, home);
  const hidden = hiddenPaths(scan.files, sees);
  const guarded = guardedOutsideGit(root, home, scan);
  const onPath = programsOnPath(root);
  return {
    guarded,
    linked: [...GIT_GUARDED.map((g) => join(root, g)), ...guarded].filter((g) => linkOut(root, g)),
    environments: scan.environments,
    caches: scan.caches,
    masked: hidden.masked,
    unscanned: [...scan.unscanned, ...hidden.emptied],
    sweep: (since, network) => sweepWorkspace(root, home, since, scan, network, onPath),
  };
}

/** A workspace's guards for a process that is not a command (`workspaceGuards`). */
interface WorkspaceGuards extends Pick<SandboxPolicy, "guarded" | "linked" | "environments" | "caches" | "masked" | "unscanned"> {
  /** Removes what the process made since `since` (ms) that no command may leave behind (`sweepWorkspace`); returns it. */
  sweep(since: number, network: boolean): string[];
}

/**
 * What a process shown the workspace for longer than a command (an MCP server) made since `since`
 * that no command may leave behind: files other tools run later (`AUTORUN_PATHS`, the hooks
 * directory), a repository of its own's risks, programs that shadow the person's on their PATH
 * and were not there when it started (`shadowingPrograms` against `onPath`) and, without the
 * network, dependency environments, told by birth time. They are removed; returns them,
 * workspace-relative. I/O.
 */
function sweepWorkspace(root: string, home: string, since: number, scan: ProtectedScan, network: boolean, onPath: Set<string>): string[] {
  const below = madeSince(root, scan, since);
  const guarded = guardedOutsideGit(root, home, scan);
  const made = [
    ...guarded.filter((g) => bornSince(g, since)),
    ...(network ? [] : below.environments),
    ...below.gits.flatMap(madeGitRisks),
    ...below.bytecode,
    ...below.madeRepository,
    ...shadowingPrograms(root, onPath),
  ];
  return removeAll(root, made, since).map((m) => relative(root, m));
}

/**
 * Removes what a command left that must go, never through a link (`removeInside` of atomic.ts): a
 * path with a link on the way is removed where the link leads inside the workspace, and otherwise
 * the link goes, when the command made it, while what it leads to stays. Returns what was removed. I/O.
 */
export function removeAll(root: string, paths: string[], since: number): string[] {
  const removed = new Set<string>();
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  for (const p of paths) {
    if (removed.has(p)) continue;
    const { link } = removeInside(root, rel(p));
    if (!link) {
      removed.add(p);
      continue;
    }
    const real = resolvedInside(root, dirname(p));
    const target = real ? join(real, basename(p)) : bornSince(link, since) ? link : undefined;
    if (!target || removed.has(target) || removeInside(root, rel(target)).link) continue;
    removed.add(target);
  }
  return [...removed];
}

/** Puts the link `path` back, naming `target`, when a command replaced or changed it; whether it did. I/O. */
export function relink(root: string, path: string, target: string): boolean {
  if (entryAt(path)?.isSymbolicLink() && readlinkSync(path) === target) return false;
  if (linkOnTheWay(root, path) || removeInside(root, relative(root, path).split(sep).join("/")).link) return false;
  symlinkSync(target, path);
  return true;
}

/**
 * Puts a package.json back as it was (`text` undefined: it was not there), inside the workspace only:
 * where its directory became a link, the link goes if the command made it. Whether that worked.
 */
export function putBack(root: string, path: string, text: string | undefined, since: number): boolean {
  if (linkOnTheWay(root, path)) return removeAll(root, [path], since).length > 0;
  const rel = relative(root, path).split(sep).join("/");
  try {
    // What stands there now that is not a file (a directory, a link to the person's other project's) goes first.
    if (text === undefined || !entryAt(path)?.isFile()) removeInside(root, rel);
    if (text !== undefined) writeFileInside(root, rel, text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a path's `stamp` is `since` (ms since the epoch) or later: made (birth time), changed in
 * any way, set-back times included (status-change time), or its entries changed (modification
 * time, for a directory). The kernel stamps with a clock up to a tick (10 ms at most) behind the
 * process's, hence the slack; a file system that keeps no such time says no. I/O: one lstat.
 */
function stampedSince(path: string, stamp: "birthtimeMs" | "ctimeMs" | "mtimeMs", since: number): boolean {
  try {
    const at = lstatSync(path)[stamp];
    return at > 0 && at >= since - 15;
  } catch {
    return false;
  }
}

export const bornSince = (path: string, since: number) => stampedSince(path, "birthtimeMs", since);

/**
 * In a repository a command just created: hooks that are not git's samples, a commondir, and the
 * whole repository when its config names a program to run or is a link, or when the `.git` is a file
 * or a link. I/O: reads the new `.git`, never through a link.
 */
export function newRepositoryRisks(gitDir: string): string[] {
  const entry = entryAt;
  const dir = entry(gitDir);
  if (!dir) return [];
  // A .git that is a file or a link names another git directory, whose config git then reads.
  if (!dir.isDirectory()) return [gitDir];
  const config = entry(join(gitDir, "config"));
  // git follows a linked config; weir does not read through it.
  if (config && !config.isFile()) return [gitDir];
  try {
    if (config && runsPrograms(readRegularFile(join(gitDir, "config"), "utf8"))) return [gitDir];
  } catch {
    // unreadable: nothing in it git could read either
  }
  const hooks = join(gitDir, "hooks");
  const hooksEntry = entry(hooks);
  // A linked hooks directory goes whole; weir never lists, let alone removes, what it leads to.
  const planted = !hooksEntry ? [] : hooksEntry.isDirectory() ? readdirSync(hooks).filter((h) => !h.endsWith(".sample")).map((h) => join(hooks, h)) : [hooks];
  return [...planted, ...[join(gitDir, "commondir")].filter((c) => entry(c) !== undefined)];
}
