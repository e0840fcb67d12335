import { statSync } from "node:fs";
import { join } from "node:path";
import type { IndexedFile, SymbolIndex } from "../store/symbol-index.ts";
import { WalkCache, walkFiles } from "../workspace/walker.ts";
import { readRegularFile } from "../workspace/containment.ts";

/** Source files whose definitions are indexed. */
export const SOURCE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|kts|scala|rb|php|cs|swift|c|cc|cpp|h|hpp|ex|exs|lua)$/i;

/**
 * Words that open a definition, in the languages weir outlines: the name after one is defined here.
 * Data; the compiler confirms a hit with the file's outline before it uses it.
 */
const OPENERS = ["function", "def", "fn", "func", "class", "struct", "enum", "trait", "interface", "type"]
  .concat(["const", "let", "var", "val", "object", "module", "record", "impl", "defmodule", "defp?"]);
const DEFINES = new RegExp(String.raw`\b(?:${OPENERS.join("|")})\*?\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)`, "g");
/** Words that may stand before a signature's name (Java, C#, C, Kotlin): `public static int parse(`. */
const MODIFIERS = ["public", "private", "protected", "static", "final", "abstract", "async", "override", "virtual"]
  .concat(["export", "default", "synchronized", "inline", "fun"]);
/** A method or function declared by its signature: modifiers, a return type, the name, its parameters, then `{`. */
const SIGNATURE = new RegExp(String.raw`^[ \t]*(?:(?:${MODIFIERS.join("|")})\s+)*[\w<>[\],.? ]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:[\w\s,.<>:]*)\{`, "gm");

/** Files over this size are not indexed (bundles, generated code). */
const MAX_BYTES = 512_000;

/** The names a source text defines, by the words that open definitions and by signatures. Pure. */
export function definedNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(DEFINES)) names.add(m[1]!);
  for (const m of text.matchAll(SIGNATURE)) if (!["if", "for", "while", "switch", "catch", "return", "function"].includes(m[1]!)) names.add(m[1]!);
  return [...names].filter((n) => n.length > 2);
}

/** What a refresh did. */
export interface Refresh {
  files: number;
  read: number;
  gone: number;
  ms: number;
}

/**
 * Brings the index of `root` up to date: every source file whose mtime or size moved since it was
 * indexed is read again, every file gone is dropped, in one transaction. I/O at this edge only.
 */
export function refreshSymbols(root: string, index: SymbolIndex, walk?: WalkCache): Refresh {
  const t0 = performance.now();
  const known = index.stats(root);
  const files = walkFiles(root, walk ?? new WalkCache()).filter((f) => SOURCE.test(f));
  const changed: IndexedFile[] = [];
  for (const path of files) {
    let st;
    try {
      st = statSync(join(root, path));
    } catch {
      continue;
    }
    const was = known.get(path);
    known.delete(path);
    if (was && was.mtime === st.mtimeMs && was.size === st.size) continue;
    let names: string[] = [];
    try {
      if (st.size <= MAX_BYTES) names = definedNames(readRegularFile(join(root, path), "utf8"));
    } catch {
      // unreadable: indexed as defining nothing, and read again once its stat moves
    }
    changed.push({ path, mtime: st.mtimeMs, size: st.size, names });
  }
  const gone = [...known.keys()];
  const ms = performance.now() - t0;
  index.apply(root, changed, gone, ms);
  return { files: files.length, read: changed.length, gone: gone.length, ms };
}

/**
 * The files the index says define any of `names` and whose stat has not moved since: facts about a
 * changed file are not used. The caller still confirms each with the file's outline.
 */
export function indexedDefiners(root: string, index: SymbolIndex, names: readonly string[]): string[] {
  return index.lookup(root, names).flatMap((f) => {
    try {
      const st = statSync(join(root, f.path));
      return st.mtimeMs === f.mtime && st.size === f.size ? [f.path] : [];
    } catch {
      return [];
    }
  });
}

/** How many source files are fresh, changed or new against the index (`weir index --status`). */
export function freshness(root: string, index: SymbolIndex, walk?: WalkCache): { fresh: number; stale: number; unindexed: number; gone: number } {
  const known = index.stats(root);
  let fresh = 0;
  let stale = 0;
  let unindexed = 0;
  for (const path of walkFiles(root, walk ?? new WalkCache()).filter((f) => SOURCE.test(f))) {
    const was = known.get(path);
    known.delete(path);
    if (!was) {
      unindexed++;
      continue;
    }
    try {
      const st = statSync(join(root, path));
      if (st.mtimeMs === was.mtime && st.size === was.size) fresh++;
      else stale++;
    } catch {
      stale++;
    }
  }
  return { fresh, stale, unindexed, gone: known.size };
}
