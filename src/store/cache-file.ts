import { Database } from "bun:sqlite";
import { mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";

/** Whether an error says the file is not a SQLite database, or a damaged one. Pure. */
export function isCorrupt(e: unknown): boolean {
  const text = `${(e as { code?: string }).code ?? ""} ${(e as Error)?.message ?? e}`;
  return /NOTADB|not a database|malformed|CORRUPT/i.test(text);
}

/**
 * Opens a derived-data database (a cache, an index: nothing in it that cannot be derived again) and
 * runs `setup` on it. A file that is not a database is moved aside to `PATH.corrupt-NOW` and a fresh
 * one made (`movedTo` says where); any other failure is thrown.
 */
export function openDerived(path: string, setup: (db: Database) => void, now = Date.now()): { db: Database; movedTo?: string } {
  const attempt = () => {
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path, { create: true, strict: true });
    try {
      setup(db);
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  };
  try {
    return { db: attempt() };
  } catch (e) {
    if (!isCorrupt(e)) throw e;
    const movedTo = `${path}.corrupt-${now}`;
    renameSync(path, movedTo);
    return { db: attempt(), movedTo };
  }
}
