import type { Database } from "bun:sqlite";
import { openDerived } from "./cache-file.ts";
import { faultPoint } from "../core/fault-point.ts";

/** A file as the index last read it: what it defines, and the stat that says whether it still holds. */
export interface IndexedFile {
  path: string;
  mtime: number;
  size: number;
  names: string[];
  /** The words it names, as a filter (context/definitions.ts `wordFilter`): where a symbol may be called. */
  words: Uint8Array;
  /** The git blob SHA-1 of the bytes read, when they were read: git can then vouch the file is unchanged. */
  sha?: string;
  /** What its imports may reach, as the import graph's keys (context/import-graph.ts `importKeys`). */
  imports: string[];
}

/** A file's word filter as the index holds it, with the stat and blob SHA the file had when read. */
export interface FilterRow {
  path: string;
  mtime: number;
  size: number;
  sha: string | null;
  words: Uint8Array;
}

/** What the index holds of a file's state when read: its stat, and its blob SHA where it was read whole. */
export type FileState = { mtime: number; size: number; sha: string | null };

/** The rows `filters` and `filtersOf` read, before their WHERE. */
const FILTER_ROWS = "SELECT f.path, f.mtime, f.size, f.sha, w.filter AS words FROM files f JOIN words w ON w.root = f.root AND w.path = f.path";

export interface IndexStatus {
  refreshedAt: number;
  tookMs: number;
  files: number;
  symbols: number;
  /** Edges of the import graph: a file and a module its imports may reach. */
  imports: number;
}

/**
 * The symbol index on disk: for each workspace, the names its source files define, a filter of the
 * words they name (where a symbol may be called) and the modules their imports may reach (the
 * import graph: who may call it), each file with the mtime and size it had when read. A fact is
 * used only while its file's stat still matches (the compiler checks, and reads the file to
 * confirm), so a changed file's facts are never used; a refresh re-reads only the files whose stat
 * moved. Each file's git blob SHA is kept too: where git vouches a file holds that blob, its facts
 * are fresh without a stat (context/definitions.ts `gitVouched`). A refresh is one transaction: a
 * crash in it leaves the previous index whole. A file that is not a database is moved aside with one line.
 */
export class SymbolIndex {
  private constructor(private db: Database) {}

  /** Opens the index at `path`; a corrupt file is moved aside (`notice` says so) and a fresh one made. */
  static open(path: string, notice: (line: string) => void = () => {}, now = Date.now()): SymbolIndex {
    const setup = (db: Database) => {
      db.exec("PRAGMA busy_timeout = 2000");
      db.exec("PRAGMA journal_mode = WAL");
      // An index from a build before the word filters is derived data: it is dropped and built again.
      // So is one from a build before the blob SHAs, or before the import graph.
      const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      const columns = db.query("SELECT name FROM pragma_table_info('files')").all() as { name: string }[];
      const old = !["words", "imports"].every((n) => tables.some((t) => t.name === n)) || !columns.some((c) => c.name === "sha");
      if (tables.some((t) => t.name === "files") && old)
        db.exec(["files", "words", "symbols", "imports", "workspaces"].map((t) => `DROP TABLE IF EXISTS ${t};`).join(" "));
      // The filters have a table of their own, so the symbol search's joins read narrow rows.
      db.exec(`CREATE TABLE IF NOT EXISTS workspaces (root TEXT PRIMARY KEY, refreshed_at INTEGER NOT NULL, took_ms INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS files (
          root TEXT NOT NULL, path TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL, sha TEXT, PRIMARY KEY (root, path)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS words (root TEXT NOT NULL, path TEXT NOT NULL, filter BLOB NOT NULL, PRIMARY KEY (root, path)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS symbols (root TEXT NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (root, name, path)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS imports (root TEXT NOT NULL, key TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (root, key, path)) WITHOUT ROWID;`);
    };
    const { db, movedTo } = openDerived(path, setup, now);
    if (movedTo) notice(`the symbol index ${path} was not a database; moved it to ${movedTo} and started a new one`);
    return new SymbolIndex(db);
  }

  close(): void {
    this.db.close();
  }

  /** Each indexed file's stat, by path (what a refresh compares against). */
  stats(root: string): Map<string, { mtime: number; size: number }> {
    const rows = this.db.query("SELECT path, mtime, size FROM files WHERE root = ?").all(root) as ({ path: string } & Omit<FileState, "sha">)[];
    return new Map(rows.map((r) => [r.path, { mtime: r.mtime, size: r.size }]));
  }

  /** Each indexed file's stat and blob SHA, by path (what a use of its facts compares against). */
  states(root: string): Map<string, FileState> {
    const rows = this.db.query("SELECT path, mtime, size, sha FROM files WHERE root = ?").all(root) as ({ path: string } & FileState)[];
    return new Map(rows.map((r) => [r.path, { mtime: r.mtime, size: r.size, sha: r.sha }]));
  }

  /** The files whose imports, when they were read, reached any of `keys` (context/import-graph.ts). */
  importers(root: string, keys: readonly string[]): string[] {
    if (keys.length === 0) return [];
    const q = `SELECT DISTINCT path FROM imports WHERE root = ? AND key IN (${keys.map(() => "?").join(", ")})`;
    return (this.db.query(q).all(root, ...keys) as { path: string }[]).map((r) => r.path);
  }

  /** The files that defined any of `names` when they were read, with the stat they had then. */
  lookup(root: string, names: readonly string[]): { path: string; mtime: number; size: number }[] {
    if (names.length === 0) return [];
    const q = `SELECT DISTINCT f.path, f.mtime, f.size FROM symbols s JOIN files f ON f.root = s.root AND f.path = s.path
      WHERE s.root = ? AND s.name IN (${names.map(() => "?").join(", ")}) ORDER BY f.path`;
    return this.db.query(q).all(root, ...names) as { path: string; mtime: number; size: number }[];
  }

  /** Every indexed file's word filter, with the stat and blob SHA it had when read. */
  filters(root: string): FilterRow[] {
    return this.db.query(`${FILTER_ROWS} WHERE f.root = ?`).all(root) as FilterRow[];
  }

  /** `filters` of just these files (those the index holds), one lookup each: for a few files of many. */
  filtersOf(root: string, paths: readonly string[]): FilterRow[] {
    const q = this.db.query(`${FILTER_ROWS} WHERE f.root = ? AND f.path = ?`);
    return paths.flatMap((p) => {
      const row = q.get(root, p) as FilterRow | null;
      return row ? [row] : [];
    });
  }

  /** Replaces what the index holds of `changed` files and drops `gone` ones, in one transaction. */
  apply(root: string, changed: readonly IndexedFile[], gone: readonly string[], tookMs: number, now = Date.now()): void {
    const dropFile = this.db.query("DELETE FROM files WHERE root = ? AND path = ?");
    const dropSymbols = this.db.query("DELETE FROM symbols WHERE root = ? AND path = ?");
    const dropWords = this.db.query("DELETE FROM words WHERE root = ? AND path = ?");
    const dropImports = this.db.query("DELETE FROM imports WHERE root = ? AND path = ?");
    const putFile = this.db.query("INSERT INTO files (root, path, mtime, size, sha) VALUES (?, ?, ?, ?, ?)");
    const putWords = this.db.query("INSERT INTO words (root, path, filter) VALUES (?, ?, ?)");
    const putSymbol = this.db.query("INSERT OR IGNORE INTO symbols (root, name, path) VALUES (?, ?, ?)");
    const putImport = this.db.query("INSERT OR IGNORE INTO imports (root, key, path) VALUES (?, ?, ?)");
    this.db.transaction(() => {
      for (const p of [...gone, ...changed.map((f) => f.path)]) {
        dropFile.run(root, p);
        dropSymbols.run(root, p);
        dropWords.run(root, p);
        dropImports.run(root, p);
      }
      for (const f of changed) {
        putFile.run(root, f.path, f.mtime, f.size, f.sha ?? null);
        putWords.run(root, f.path, f.words);
        for (const n of f.names) putSymbol.run(root, n, f.path);
        for (const k of f.imports) putImport.run(root, k, f.path);
      }
      this.db.query("INSERT OR REPLACE INTO workspaces (root, refreshed_at, took_ms) VALUES (?, ?, ?)").run(root, now, Math.round(tookMs));
      // A kill here, with every row written and nothing committed, must leave the index as it was.
      faultPoint("index-apply");
    })();
  }

  /** Whether this workspace was ever indexed (one row; `status` counts every file and symbol). */
  holds(root: string): boolean {
    return this.db.query("SELECT 1 FROM workspaces WHERE root = ?").get(root) !== null;
  }

  status(root: string): IndexStatus | undefined {
    const w = this.db.query("SELECT refreshed_at, took_ms FROM workspaces WHERE root = ?").get(root) as { refreshed_at: number; took_ms: number } | null;
    if (!w) return undefined;
    const files = (this.db.query("SELECT count(*) AS n FROM files WHERE root = ?").get(root) as { n: number }).n;
    const symbols = (this.db.query("SELECT count(*) AS n FROM symbols WHERE root = ?").get(root) as { n: number }).n;
    const imports = (this.db.query("SELECT count(*) AS n FROM imports WHERE root = ?").get(root) as { n: number }).n;
    return { refreshedAt: w.refreshed_at, tookMs: w.took_ms, files, symbols, imports };
  }
}
