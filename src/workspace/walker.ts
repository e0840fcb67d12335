import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { homeDirectory, inside, readRegularFile, secretName } from "./containment.ts";
import ignore, { type Ignore } from "ignore";

/** Directories never walked whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set([".git", ".hg", ".svn"]);

/**
 * Where a `.git` file points (a linked worktree's or a submodule's): the git directory it names and
 * that directory's common directory (its `commondir`, which only a linked worktree's has; itself
 * otherwise). Undefined when `.git` is a directory, absent, or names nothing. Nothing is checked here:
 * `linkedGitDir` (sandbox.ts) checks that the two name each other before anything is shown.
 */
export function gitFileTarget(root: string): { own: string; common: string; linked: boolean } | undefined {
  try {
    const dotgit = join(root, ".git");
    if (!statSync(dotgit).isFile()) return undefined;
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(readRegularFile(dotgit, "utf8"))?.[1];
    if (!named) return undefined;
    const own = resolve(root, named);
    const linked = existsSync(join(own, "commondir"));
    return { own, common: linked ? resolve(own, readRegularFile(join(own, "commondir"), "utf8").trim()) : own, linked };
  } catch {
    return undefined;
  }
}

/**
 * The directory holding git's `info/exclude` for a workspace: `.git/info`, or the `info` of the
 * common directory a `.git` file leads to. Only ignore rules are read from it.
 */
export function gitInfoDir(root: string): string {
  return join(gitFileTarget(root)?.common ?? join(root, ".git"), "info");
}

/**
 * The top of the repository a workspace lies inside when the workspace is one of its
 * subdirectories (a monorepo's package). Undefined when the workspace is a repository's top itself,
 * lies in none, or the repository above holds the home (a dotfiles repository) or is the
 * filesystem root: then nothing above the workspace is shown or read. I/O: looks for `.git` above.
 */
export function enclosingRepository(root: string, home = homeDirectory()): string | undefined {
  if (existsSync(join(root, ".git"))) return undefined;
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return inside(dir, home) ? undefined : dir;
  }
  return undefined;
}

/** The directories from a repository's top down to the workspace's parent, top first. Pure. */
export function dirsBetween(top: string, root: string): string[] {
  const steps = relative(top, root).split(sep);
  return steps.map((_, i) => join(top, ...steps.slice(0, i)));
}

interface Layer {
  /** Directory (relative to the root, "" for the root) the rules are anchored at. */
  base: string;
  /** For rules above the root: the path from their directory down to the root. */
  above?: string;
  rules: Ignore;
}

/**
 * The ignore rules that apply from above the walk: git's `info/exclude` and, for a workspace inside
 * a repository, the ignore files of each directory from the repository's top down to it, as git
 * reads them there. `read` gives a directory's rules and a signature that changes with them.
 */
function rulesAbove(root: string, read: (dir: string, names: string[]) => { rules: Ignore | undefined; sig: string }): { layers: Layer[]; sig: string } {
  const top = enclosingRepository(root);
  const below = (dir: string) => relative(dir, root).split(sep).join("/");
  // git's exclude file, anchored at the repository's top; then each directory from the top down.
  const found: { dir: string; names: string[]; above?: string }[] = [{ dir: gitInfoDir(top ?? root), names: ["exclude"] }];
  if (top) found[0]!.above = below(top);
  for (const dir of top ? dirsBetween(top, root) : []) found.push({ dir, names: [".gitignore", ".ignore"], above: below(dir) });
  const layers: Layer[] = [];
  let sig = "";
  for (const f of found) {
    const r = read(f.dir, f.names);
    sig += `${r.sig}/`;
    if (r.rules) layers.push({ base: "", ...(f.above ? { above: f.above } : {}), rules: r.rules });
  }
  return { layers, sig };
}

function readRules(dir: string, names: string[]): Ignore | undefined {
  let text = "";
  for (const name of names) {
    try {
      text += `${readRegularFile(join(dir, name), "utf8")}\n`;
    } catch {
      // absent
    }
  }
  return text.trim() === "" ? undefined : ignore().add(text);
}

function ignored(layers: Layer[], rel: string, isDir: boolean): boolean {
  // Later (deeper) layers override earlier ones, as git does; a negation can re-include.
  let result = false;
  for (const layer of layers) {
    const sub = layer.above ? `${layer.above}/${rel}` : layer.base === "" ? rel : rel.slice(layer.base.length + 1);
    const r = layer.rules.test(isDir ? `${sub}/` : sub);
    if (r.ignored) result = true;
    else if (r.unignored) result = false;
  }
  return result;
}

interface WalkEntry {
  /** Relative to the root, forward slashes. */
  path: string;
  isDir: boolean;
}

/**
 * Walks the tree below `root` honouring .gitignore files at every level, .ignore files, and git's
 * `info/exclude`, the way git and ripgrep read them. Symlinked directories are not followed (they may
 * lead outside the workspace). Yields files (and, with `dirs`, directories) in a stable order.
 */
export function* walk(root: string, opts: { dirs?: boolean; limit?: number } = {}): Generator<WalkEntry> {
  const base = rulesAbove(root, (dir, names) => ({ rules: readRules(dir, names), sig: "" })).layers;
  let count = 0;
  const stack: { dir: string; rel: string; layers: Layer[] }[] = [{ dir: root, rel: "", layers: base }];
  while (stack.length > 0) {
    const { dir, rel, layers: parent } = stack.pop()!;
    const own = readRules(dir, [".gitignore", ".ignore"]);
    const layers = own ? [...parent, { base: rel, rules: own }] : parent;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: skip, as rg does
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { dir: string; rel: string; layers: Layer[] }[] = [];
    for (const e of entries) {
      const childRel = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (ALWAYS_SKIPPED.has(e.name) || ignored(layers, childRel, true)) continue;
        if (opts.dirs) {
          yield { path: childRel, isDir: true };
          if (opts.limit && ++count >= opts.limit) return;
        }
        subdirs.push({ dir: join(dir, e.name), rel: childRel, layers });
      } else if (e.isFile() || e.isSymbolicLink()) {
        // A linked worktree's or a submodule's `.git` is a file naming its git directory: git's, never the project's.
        if (ALWAYS_SKIPPED.has(e.name) || ignored(layers, childRel, false)) continue;
        yield { path: childRel, isDir: false };
        if (opts.limit && ++count >= opts.limit) return;
      }
    }
    // Depth-first in name order: push in reverse so the first name is walked first.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}

/** Whether bytes look binary: a NUL in the first 8 KiB, as git and ripgrep decide. */
export function looksBinary(bytes: Uint8Array): boolean {
  // The native search: a byte loop in JavaScript costs a warm run tens of milliseconds on a large tree.
  return bytes.subarray(0, 8192).indexOf(0) !== -1;
}

interface DirEntry {
  mtime: number;
  /** Signature of every ignore file that applies here (their mtimes), so a changed rule invalidates. */
  sig: string;
  files: string[];
  subdirs: string[];
  /** The directory's files whose names say they hold secrets (`secretName`), ignored or not. */
  secrets: string[];
}

/**
 * A walk remembered between calls: a directory is re-read only when its mtime or the ignore files
 * that apply to it changed, so a warm walk of a large tree costs one stat per directory.
 */
export class WalkCache {
  readonly dirs = new Map<string, DirEntry>();
  /** Whether a directory was read since the cache was made or restored: worth saving again. */
  changed = false;
  /** Parsed ignore rules by directory and the mtimes of its ignore files. */
  private rules = new Map<string, Ignore | undefined>();

  /** The ignore rules in one directory, with a signature (the files' mtimes) that changes when they do. */
  rulesAt(dir: string, names: string[]): { rules: Ignore | undefined; sig: string } {
    let sig = "";
    for (const name of names) {
      // No exception for the common case of an absent file: thousands of directories have none
      // (and none for a path through a file, `.git/info` where `.git` is a worktree's file).
      let st;
      try {
        st = statSync(join(dir, name), { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      if (st) sig += `${name}@${st.mtimeMs};`;
    }
    if (sig === "") return { rules: undefined, sig };
    const key = `${dir}|${sig}`;
    if (!this.rules.has(key)) this.rules.set(key, readRules(dir, names));
    return { rules: this.rules.get(key), sig };
  }
}

/** A cache's directory listings as plain data, to keep on disk (`restoreWalk` takes them back). */
export function walkSnapshot(cache: WalkCache): [string, DirEntry][] {
  return [...cache.dirs];
}

/**
 * A cache from a snapshot. Every listing is checked again before use (its directory's mtime and its
 * ignore files' signature), so a stale snapshot costs reads, never a wrong list; a malformed entry is
 * left out.
 */
export function restoreWalk(entries: unknown): WalkCache {
  const cache = new WalkCache();
  if (!Array.isArray(entries)) return cache;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === "string");
  for (const e of entries) {
    const [dir, d] = Array.isArray(e) ? (e as [unknown, Partial<DirEntry>]) : [];
    const lists = strings(d?.files) && strings(d?.subdirs) && strings(d?.secrets);
    if (typeof dir === "string" && d && typeof d.mtime === "number" && typeof d.sig === "string" && lists) cache.dirs.set(dir, d as DirEntry);
  }
  return cache;
}

/**
 * The same files `walk` yields, in the same order, reusing what `cache` remembers. Into `secrets`,
 * when given, go the files of every walked directory whose names say they hold secrets (a `.env`
 * two levels down, a `credentials.json`), ignored or not: weir learns their values to remove them.
 */
export function walkFiles(root: string, cache: WalkCache, secrets?: string[]): string[] {
  const out: string[] = [];
  const above = rulesAbove(root, (dir, names) => cache.rulesAt(dir, names));
  const visit = (dir: string, rel: string, parent: Layer[], parentSig: string) => {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (!st) return;
    const mtime = st.mtimeMs;
    let entry = cache.dirs.get(dir);
    // A listing that had no ignore file of its own, of a directory whose mtime has not moved, still
    // has none (creating one changes the mtime): its two stats are skipped.
    const none = entry !== undefined && entry.mtime === mtime && entry.sig.endsWith("|");
    const own = none ? { rules: undefined, sig: "" } : cache.rulesAt(dir, [".gitignore", ".ignore"]);
    const layers = own.rules ? [...parent, { base: rel, rules: own.rules }] : parent;
    const sig = `${parentSig}|${own.sig}`;
    if (!entry || entry.mtime !== mtime || entry.sig !== sig) {
      const files: string[] = [];
      const subdirs: string[] = [];
      const secrets: string[] = [];
      const entries = sortedEntries(dir);
      if (!entries) return;
      for (const e of entries) {
        const childRel = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) {
          if (!ALWAYS_SKIPPED.has(e.name) && !ignored(layers, childRel, true)) subdirs.push(e.name);
        } else if (e.isFile() || e.isSymbolicLink()) {
          if (!ALWAYS_SKIPPED.has(e.name) && !ignored(layers, childRel, false)) files.push(childRel);
          if (secretName(e.name)) secrets.push(childRel);
        }
      }
      entry = { mtime, sig, files, subdirs, secrets };
      cache.dirs.set(dir, entry);
      cache.changed = true;
    }
    out.push(...entry.files);
    secrets?.push(...entry.secrets);
    for (const name of entry.subdirs) visit(join(dir, name), rel === "" ? name : `${rel}/${name}`, layers, sig);
  };
  visit(root, "", above.layers, above.sig);
  return out;
}

/** A directory's entries in name order, or undefined when it cannot be read. I/O. */
export function sortedEntries(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return undefined;
  }
}

/**
 * The JSON record `file` in each folder directly under `dir`, with the folder's path, in name
 * order; a folder without a readable record (one still being written) is passed over. I/O.
 */
export function folderRecords<T>(dir: string, file: string): { at: string; record: T }[] {
  const out: { at: string; record: T }[] = [];
  for (const e of sortedEntries(dir) ?? []) {
    try {
      out.push({ at: join(dir, e.name), record: JSON.parse(readFileSync(join(dir, e.name, file), "utf8")) as T });
    } catch {
      // no record yet
    }
  }
  return out;
}
