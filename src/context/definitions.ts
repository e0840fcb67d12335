import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { importKeys, moduleKeys } from "./import-graph.ts";
import type { FileState, IndexedFile, SymbolIndex } from "../store/symbol-index.ts";
import { WalkCache, walkFiles } from "../workspace/walker.ts";
import { readRegularFile, wholeText } from "../workspace/containment.ts";

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

/** A word filter's size in bits, and how many bits each word sets. */
const FILTER_BITS = 2048;
const FILTER_HASHES = 3;

/** The filter positions of a word: FNV-1a, seeded once per hash. Pure. */
function positions(word: string): number[] {
  return Array.from({ length: FILTER_HASHES }, (_, k) => {
    let h = (2166136261 ^ (k * 16777619)) >>> 0;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    return h % FILTER_BITS;
  });
}

/**
 * The words (identifiers of three characters or more) a source text names, as a Bloom filter of 256
 * bytes: a word it names always tests as present; one it does not, rarely (a few in a hundred for a
 * file of 300 words). Where a symbol may be called, kept per file in the index. Pure.
 */
export function wordFilter(text: string): Uint8Array {
  const filter = new Uint8Array(FILTER_BITS / 8);
  for (const word of new Set(text.match(/[A-Za-z_$][\w$]{2,}/g) ?? []))
    for (const p of positions(word)) filter[p >> 3]! |= 1 << (p & 7);
  return filter;
}

/** A word a filter holds when its file names it: an identifier of three characters or more. */
const FILTERED = /^[A-Za-z_$][\w$]{2,}$/;

/**
 * Whether a word filter may hold `word`: false means the file does not name it. A word no filter
 * holds (`fn`, `my-module`) may always be named. Pure.
 */
export function mayName(filter: Uint8Array, word: string): boolean {
  return namingTest([word])(filter);
}

/** `mayName` for any of `words`, as one test: each word's positions computed once for every filter it meets. Pure. */
function namingTest(words: readonly string[]): (filter: Uint8Array) => boolean {
  if (words.some((w) => !FILTERED.test(w))) return () => true;
  const each = words.map(positions);
  return (filter) => each.some((ps) => ps.every((p) => ((filter[p >> 3] ?? 0) & (1 << (p & 7))) !== 0));
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
    let text = "";
    let sha: string | undefined;
    try {
      if (st.size <= MAX_BYTES) {
        const bytes = readRegularFile(join(root, path));
        text = bytes.toString("utf8");
        sha = blobSha(bytes);
      }
    } catch {
      // unreadable: indexed as naming nothing, and read again once its stat moves
    }
    // A file too large to read is indexed as possibly naming and importing everything: a caller is never ruled out unread.
    const large = st.size > MAX_BYTES;
    const words = large ? new Uint8Array(FILTER_BITS / 8).fill(255) : wordFilter(text);
    const imports = large ? [ANY_MODULE] : importKeys(path, text);
    changed.push({ path, mtime: st.mtimeMs, size: st.size, names: definedNames(text), words, imports, ...(sha ? { sha } : {}) });
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

/** The import key of a file whose imports were not read (too large): it may reach any module. */
const ANY_MODULE = "*";

/** Up to this many files, `indexedNamers` looks each one up rather than reading every filter. */
const FEW_FILES = 1_000;

/** The SHA-1 git names these bytes by as a blob. Pure. */
export function blobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * The files git vouches hold their staged blob, with its SHA: from `git ls-files -s -v -z`, the
 * entries tagged `H` (no assume-unchanged or skip-worktree flag, which would let a change hide from
 * git) at stage 0, less every path `git status` reports (`dirty`: changed, deleted, untracked).
 * Git compares each file's stat, inode and ctime with what it staged and hashes it again where they
 * differ, so a file it vouches for holds that blob whatever its mtime says. Pure.
 */
export function gitVouched(lsFiles: string, dirty: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of lsFiles.split("\0")) {
    // "H 100644 <sha> 0\t<path>": a tag, a mode of six octal digits, the blob, the stage.
    const tab = entry.indexOf("\t");
    if (!entry.startsWith("H ") || tab < 11 || entry[8] !== " " || !entry.startsWith(" 0", tab - 2)) continue;
    out.set(entry.slice(tab + 1), entry.slice(9, tab - 2));
  }
  for (const path of dirty) out.delete(path);
  return out;
}

/**
 * Of `files`, those that may name any of `names`: a file the index holds unchanged since it was read
 * when its word filter may hold one of them; every file the index does not hold as it is now (new,
 * changed, never indexed), since nothing is known of it. A caller is never ruled out by a stale fact.
 * Unchanged means git vouches the file holds the blob the index read (`vouched`, from `gitVouched`:
 * no stat), else the stat the index read.
 */
export function indexedNamers(
  root: string,
  index: SymbolIndex,
  names: readonly string[],
  files: readonly string[],
  vouched?: ReadonlyMap<string, string>,
): Set<string> {
  // A few files are looked up one by one; many, read with every other file's in one query.
  const rows = files.length <= FEW_FILES ? index.filtersOf(root, files) : index.filters(root);
  const held = new Map(rows.map((f) => [f.path, f]));
  const namesOne = namingTest(names);
  return new Set(
    files.filter((path) => {
      const f = held.get(path);
      if (!f) return true;
      const holds = holdsNow(root, path, f, vouched);
      return holds === undefined ? false : !holds || namesOne(f.words);
    }),
  );
}

/**
 * Of `files`, those that may call any of `names` defined in `target`: those `indexedImporters` leaves
 * (or that share the target's Go or Java package) whose word filter may hold one of the names, and
 * every file the index does not hold as it is now. Where imports do not decide who reaches the target
 * (a Rust crate's root, a language without a resolver), the word filters alone narrow
 * (`indexedNamers`). The caller search confirms each file with the parser.
 */
export function indexedCallers(
  root: string,
  index: SymbolIndex,
  target: string,
  names: readonly string[],
  files: readonly string[],
  vouched?: ReadonlyMap<string, string>,
): Set<string> {
  const keys = moduleKeys(target, /\.php$/i.test(target) ? wholeText(join(root, target)) : undefined);
  if (!keys) return indexedNamers(root, index, names, files, vouched);
  const pkg = /\.(?:go|java)$/.test(target) ? dirname(target) : undefined;
  const { unknown, reaching } = byGraph(root, index, keys, files, vouched, (path) => dirname(path) === pkg);
  const namesOne = namingTest(names);
  const out = new Set(unknown);
  for (const row of index.filtersOf(root, reaching)) if (namesOne(row.words)) out.add(row.path);
  return out;
}

/**
 * Of `files`, those that may import any of `targets`, by the import graph (context/import-graph.ts):
 * a file the index holds unchanged since it read it when its imports may reach a target's module,
 * and every file the index does not hold as it is now (new, changed, never indexed). A file is never
 * ruled out by a stale fact; the reader confirms each with the parser. Undefined where imports do not
 * decide who reaches a target.
 */
export function indexedImporters(
  root: string,
  index: SymbolIndex,
  targets: readonly string[],
  files: readonly string[],
  vouched?: ReadonlyMap<string, string>,
): Set<string> | undefined {
  const keys = targets.map((t) => moduleKeys(t));
  if (keys.some((k) => k === undefined)) return undefined;
  const { unknown, reaching } = byGraph(root, index, keys.flat() as string[], files, vouched, () => false);
  return new Set([...unknown, ...reaching]);
}

/**
 * `files` split by the import graph: `unknown`, those the index does not hold as they are now;
 * `reaching`, those it holds unchanged whose imports may reach one of `keys` (or that `alsoReach`).
 * A file gone is in neither. Unchanged means git vouches for the blob the index read, else its stat.
 */
function byGraph(
  root: string,
  index: SymbolIndex,
  keys: readonly string[],
  files: readonly string[],
  vouched: ReadonlyMap<string, string> | undefined,
  alsoReach: (path: string) => boolean,
): { unknown: string[]; reaching: string[] } {
  const importers = new Set(index.importers(root, [...keys, ANY_MODULE]));
  const held = index.states(root);
  const unknown: string[] = [];
  const reaching: string[] = [];
  for (const path of files) {
    const f = held.get(path);
    const holds = f ? holdsNow(root, path, f, vouched) : false;
    if (holds === false) unknown.push(path);
    else if (holds && (importers.has(path) || alsoReach(path))) reaching.push(path);
  }
  return { unknown, reaching };
}

/**
 * Whether the index's facts of a file still hold: git vouches it holds the blob the index read, else
 * its stat has not moved since. Undefined when the file is gone.
 */
function holdsNow(root: string, path: string, f: FileState, vouched?: ReadonlyMap<string, string>): boolean | undefined {
  if (f.sha !== null && vouched?.get(path) === f.sha) return true;
  try {
    const st = statSync(join(root, path));
    return st.mtimeMs === f.mtime && st.size === f.size;
  } catch {
    return undefined;
  }
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
