import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Who holds a lock: written beside it once it is taken, read by whoever is refused. */
export interface LockHolder {
  pid: number;
  since: number;
}

/**
 * A lock the operating system releases when its process dies, however it dies: an exclusive lock on
 * a SQLite file (POSIX record locks on Linux and macOS, a file lock on Windows), held by a connection
 * kept open until `release`. A killed process never leaves it held; a second process is refused at
 * once. The holder's pid and start are written to a side file, so a refusal can say who holds it.
 */
export class ProcessLock {
  private constructor(
    private db: Database,
    private path: string,
  ) {}

  /** Takes the lock at `path`, or says who holds it (undefined when that is not known). */
  static take(path: string, now = Date.now()): ProcessLock | { held: LockHolder | undefined } {
    const db = locked(path);
    if (!db) return { held: readHolder(path) };
    const side = `${path}.holder`;
    writeFileSync(`${side}.tmp`, JSON.stringify({ pid: process.pid, since: now }));
    renameSync(`${side}.tmp`, side);
    return new ProcessLock(db, path);
  }

  /** Whether a live process holds the lock at `path`; it is taken and let go at once to find out. */
  static isHeld(path: string): boolean {
    if (!existsSync(path)) return false;
    const db = locked(path);
    db?.close();
    return db === undefined;
  }

  release(): void {
    rmSync(`${this.path}.holder`, { force: true });
    this.db.close();
  }
}

/** A connection holding the exclusive lock on `path`, or undefined when another process holds it. */
function locked(path: string): Database | undefined {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true });
  try {
    db.exec("PRAGMA busy_timeout = 0");
    // In exclusive locking mode the first write keeps the file locked until the connection closes.
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return db;
  } catch {
    db.close();
    return undefined;
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(`${path}.holder`, "utf8")) as LockHolder;
    return typeof h.pid === "number" && typeof h.since === "number" ? h : undefined;
  } catch {
    return undefined;
  }
}
