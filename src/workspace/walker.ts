import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Directories never walked whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set([".git", ".hg", ".svn"]);

interface Layer {
  /** Directory (relative to the root, "" for the root) the rules are anchored at. */
  base: string;
  rules: Ignore;
}

function readRules(dir: string, names: string[]): Ignore | undefined {
  let text = "";
  for (const name of names) {
    try {
      text += `${readFileSync(join(dir, name), "utf8")}\n`;
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
    const sub = layer.base === "" ? rel : rel.slice(layer.base.length + 1);
    const r = layer.rules.test(isDir ? `${sub}/` : sub);
    if (r.ignored) result = true;
    else if (r.unignored) result = false;
  }
  return result;
}

export interface WalkEntry {
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
  const base: Layer[] = [];
  const exclude = readRules(join(root, ".git", "info"), ["exclude"]);
  if (exclude) base.push({ base: "", rules: exclude });
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
        if (ignored(layers, childRel, false)) continue;
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
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
