import type { Database } from "bun:sqlite";
import { openDerived } from "./cache-file.ts";

/** Entries older than this are dropped when the cache opens; a file that still exists is parsed again. */
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/**
 * Parsed outlines on disk, keyed by what determines them (the file's content hash, its language and
 * the build that parsed it), shared by every weir process of the user: one-shot runs, the REPL and
 * workers. A warm run reads outlines from here and never loads a parser.
 *
 * It is a cache: whatever goes wrong (a corrupt or locked file, a full disk) costs a parse, never a
 * run. A file that is not a database is moved aside and a fresh one started.
 */
export class OutlineCache {
  private pending = new Map<string, string>();
  private flushing: ReturnType<typeof setTimeout> | undefined;

  private constructor(private db: Database | undefined) {}

  /** Opens the cache at `path`; `undefined` inside when it cannot be opened (the run parses instead). */
  static open(path: string, now = Date.now()): OutlineCache {
    const setup = (db: Database) => {
      db.exec("PRAGMA busy_timeout = 500");
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = OFF");
      db.exec("CREATE TABLE IF NOT EXISTS outlines (key TEXT PRIMARY KEY, value TEXT NOT NULL, stored_at INTEGER NOT NULL)");
      db.query("DELETE FROM outlines WHERE stored_at < ?").run(now - MAX_AGE_MS);
    };
    try {
      return new OutlineCache(openDerived(path, setup, now).db);
    } catch {
      return new OutlineCache(undefined);
    }
  }

  /** A cache that holds nothing (no data directory, or tests of the parser itself). */
  static none(): OutlineCache {
    return new OutlineCache(undefined);
  }

  /** The stored value, or undefined on a miss (or when the cache is unavailable). */
  get(key: string): string | undefined {
    const queued = this.pending.get(key);
    if (queued !== undefined) return queued;
    if (!this.db) return undefined;
    try {
      return (this.db.query("SELECT value FROM outlines WHERE key = ?").get(key) as { value: string } | null)?.value;
    } catch {
      return undefined; // locked or broken since it opened: parse instead
    }
  }

  /** Queues a value; queued values are written together, in one transaction, once the run is idle. */
  put(key: string, value: string): void {
    if (!this.db) return;
    this.pending.set(key, value);
    this.flushing ??= setTimeout(() => this.flush(), 0);
  }

  /** Writes what is queued. A failure drops the batch: the next run parses those files again. */
  flush(now = Date.now()): void {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = undefined;
    if (!this.db || this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    try {
      const insert = this.db.query("INSERT OR REPLACE INTO outlines (key, value, stored_at) VALUES (?, ?, ?)");
      this.db.transaction(() => {
        for (const [k, v] of batch) insert.run(k, v, now);
      }).immediate();
    } catch {
      // busy or full: these outlines are parsed again next time
    }
  }

  close(): void {
    this.flush();
    this.db?.close();
    this.db = undefined;
  }
}
