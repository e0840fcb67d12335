import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { refusalReason, UserError } from "../core/errors.ts";

/** Ordered schema migrations; index + 1 is the schema version (PRAGMA user_version). Append only. */
const MIGRATIONS: string[] = [
  `CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     workspace TEXT NOT NULL,
     title TEXT NOT NULL,
     provider TEXT NOT NULL,
     model TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX sessions_by_workspace ON sessions (workspace, updated_at DESC);
   CREATE TABLE runs (
     id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL REFERENCES sessions (id),
     task TEXT NOT NULL,
     provider TEXT NOT NULL,
     model TEXT NOT NULL,
     status TEXT NOT NULL,
     turns INTEGER NOT NULL DEFAULT 0,
     usage TEXT,
     error TEXT,
     started_at INTEGER NOT NULL,
     ended_at INTEGER
   );
   CREATE INDEX runs_by_session ON runs (session_id, started_at);
   CREATE TABLE messages (
     session_id TEXT NOT NULL REFERENCES sessions (id),
     seq INTEGER NOT NULL,
     run_id TEXT NOT NULL REFERENCES runs (id),
     role TEXT NOT NULL,
     content TEXT NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
  // Project MCP servers the user approved for a workspace; the fingerprint pins the exact command.
  `CREATE TABLE mcp_approvals (
     workspace TEXT NOT NULL,
     server TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     approved_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, server)
   );`,
  // Context-firewall verdicts on what the session read, with the rules that fired.
  `CREATE TABLE firewall_verdicts (
     session_id TEXT NOT NULL,
     call_id TEXT NOT NULL,
     action TEXT NOT NULL,
     verdict TEXT NOT NULL,
     findings TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (session_id, call_id)
   );`,
  // Decision-plane comparisons: the baseline and a judgment provider on the same request.
  `CREATE TABLE decisions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     session_id TEXT,
     request_hash TEXT NOT NULL,
     question_set TEXT NOT NULL,
     provider TEXT NOT NULL,
     requested_model TEXT,
     resolved_model TEXT,
     latency_ms INTEGER,
     record TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX decisions_by_session ON decisions (session_id, id);`,
  // The supervisor's record of every finished call.
  `CREATE TABLE call_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     session_id TEXT,
     call_id TEXT NOT NULL,
     action TEXT NOT NULL,
     preview TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     duration_ms INTEGER NOT NULL,
     result_class TEXT NOT NULL,
     error_class TEXT
   );`,
  // Workers' sessions hang under the session (and run) of the agent that spawned them.
  `ALTER TABLE sessions ADD COLUMN parent_id TEXT;
   ALTER TABLE sessions ADD COLUMN label TEXT;
   CREATE INDEX sessions_by_parent ON sessions (parent_id);`,
  // Goals: an objective with a budget and a completion check, pursued across runs of one session;
  // every change of status is a transition with its reason.
  `CREATE TABLE goals (
     id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL,
     workspace TEXT NOT NULL,
     objective TEXT NOT NULL,
     check_command TEXT,
     budget INTEGER,
     spent INTEGER NOT NULL DEFAULT 0,
     status TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX goals_by_workspace ON goals (workspace, updated_at DESC);
   CREATE TABLE goal_transitions (
     goal_id TEXT NOT NULL REFERENCES goals (id),
     at INTEGER NOT NULL,
     status TEXT NOT NULL,
     reason TEXT NOT NULL,
     spent INTEGER NOT NULL
   );`,
  // Goal graphs: a validated plan of nodes, each run as a goal in a worktree of its own and merged
  // into the graph's branch; every change of a graph's or a node's state is an event.
  `CREATE TABLE graphs (
     id TEXT PRIMARY KEY,
     workspace TEXT NOT NULL,
     objective TEXT NOT NULL,
     base TEXT NOT NULL,
     branch TEXT NOT NULL,
     check_command TEXT,
     budget INTEGER,
     concurrency INTEGER NOT NULL,
     plan TEXT NOT NULL,
     status TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX graphs_by_workspace ON graphs (workspace, updated_at DESC);
   CREATE TABLE graph_nodes (
     graph_id TEXT NOT NULL REFERENCES graphs (id),
     node_id TEXT NOT NULL,
     state TEXT NOT NULL,
     goal_id TEXT,
     worktree TEXT,
     spent INTEGER NOT NULL DEFAULT 0,
     reason TEXT NOT NULL,
     PRIMARY KEY (graph_id, node_id)
   );
   CREATE TABLE graph_events (
     graph_id TEXT NOT NULL REFERENCES graphs (id),
     node_id TEXT,
     at INTEGER NOT NULL,
     state TEXT NOT NULL,
     reason TEXT NOT NULL
   );`,
  // Tool memory: which actions the person's tasks went on to call, by the words of the task, so the
  // router offers them for the next task that says the same. The word '' counts every task recorded.
  `CREATE TABLE tool_words (
     word TEXT NOT NULL,
     action TEXT NOT NULL,
     uses INTEGER NOT NULL,
     last_at INTEGER NOT NULL,
     PRIMARY KEY (word, action)
   ) WITHOUT ROWID;
   CREATE TABLE tool_word_tasks (
     word TEXT PRIMARY KEY,
     tasks INTEGER NOT NULL,
     last_at INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // What keeps a session's requests the same bytes in any process: its quote marker, and the
  // actions its conversation had loaded (JSON ids, in the order they were offered).
  `ALTER TABLE sessions ADD COLUMN quote_marker TEXT;
   ALTER TABLE sessions ADD COLUMN tools TEXT;`,
  // The model router: what each model's cache holds of a session (JSON), and where each request
  // went, why, on what view and for what usage (\`weir eval routing\` replays them under a policy).
  `ALTER TABLE sessions ADD COLUMN routing TEXT;
   CREATE TABLE routes (
     session_id TEXT NOT NULL,
     at INTEGER NOT NULL,
     role TEXT NOT NULL,
     model TEXT NOT NULL,
     reason TEXT NOT NULL,
     view INTEGER NOT NULL,
     facts TEXT,
     usage TEXT NOT NULL
   );
   CREATE INDEX routes_by_session ON routes(session_id, at);`,
  // A graph node's reserved share of the budget and the commit that merged it, for \`weir graph status\`.
  `ALTER TABLE graph_nodes ADD COLUMN reserved INTEGER;
   ALTER TABLE graph_nodes ADD COLUMN merge_commit TEXT;`,
  // The test map's recorded part: tests a check saw fail, then pass once these source files changed.
  `CREATE TABLE test_links (
     workspace TEXT NOT NULL,
     source TEXT NOT NULL,
     test TEXT NOT NULL,
     seen INTEGER NOT NULL,
     last_at INTEGER NOT NULL,
     PRIMARY KEY (workspace, source, test)
   ) WITHOUT ROWID;`,
  // Review findings: per file reviewed, the files the review read (path and SHA, JSON) and what it
  // found (JSON), so a finding is used only while every file it read is unchanged.
  `CREATE TABLE reviews (
     workspace TEXT NOT NULL,
     path TEXT NOT NULL,
     model TEXT NOT NULL,
     at INTEGER NOT NULL,
     reads TEXT NOT NULL,
     findings TEXT NOT NULL,
     PRIMARY KEY (workspace, path)
   ) WITHOUT ROWID;`,
];

const SCHEMA_VERSION = MIGRATIONS.length;

/** How long a statement waits for another process's write lock before the database is "locked". */
const BUSY_WAIT_MS = 20_000;

function explain(path: string, e: unknown): UserError {
  const msg = String((e as Error).message ?? e);
  const code = (e as { code?: string }).code ?? "";
  if (/NOTADB|not a database|malformed|CORRUPT/i.test(code + msg))
    return new UserError(`the session database ${path} is corrupt (${msg}); weir left it untouched: move it aside to start with a fresh one`);
  if (/BUSY|LOCKED|locked/i.test(code + msg))
    return new UserError(`the session database ${path} is locked by another process; close other weir sessions and retry`);
  if (/FULL|ENOSPC|disk is full/i.test(code + msg)) return new UserError(`the disk holding the session database ${path} is full; free some space and retry`);
  // The data directory could not be made: a file in its place, a parent that is not there to write.
  if (/ENOTDIR|ENOENT|EEXIST|EROFS/.test(code) && (e as { syscall?: string }).syscall === "mkdir")
    return new UserError(
      `cannot create weir's data directory ${dirname(path)}: ${refusalReason(e)}; point ` +
        `${process.platform === "win32" ? "LOCALAPPDATA" : "XDG_DATA_HOME"} at a directory you can write`,
    );
  if (/READONLY|CANTOPEN|EACCES|EROFS|permission/i.test(code + msg))
    return new UserError(`cannot open the session database ${path} (${msg}); check its permissions`);
  return new UserError(`the session database ${path} failed: ${msg}`);
}

/**
 * The row of `table` whose id starts with `prefix` (the newest six looked at); none or several is
 * a clear error naming `noun` and the command that lists them.
 */
export function findByPrefix<T extends { id: string }>(db: Database, table: "goals" | "graphs", prefix: string, noun: string): T {
  const rows = db.query(`SELECT * FROM ${table} WHERE id LIKE ? ORDER BY updated_at DESC LIMIT 6`).all(`${prefix.replace(/[%_]/g, "")}%`) as T[];
  if (prefix.trim() === "" || rows.length === 0) throw new UserError(`no ${noun} matches "${prefix}"; weir ${noun} list shows this workspace's ${noun}s`, 2);
  if (rows.length > 1) throw new UserError(`"${prefix}" matches ${rows.length} ${noun}s (${rows.map((r) => r.id).join(", ")}); give more of the id`, 2);
  return rows[0]!;
}

/**
 * Opens (creating if absent) the database in WAL mode and applies pending migrations. A file that is
 * not a database, is from a newer weir, or is locked gets a clear error and is never overwritten.
 */
export function openDatabase(path: string): Database {
  let db: Database | undefined;
  try {
    if (!existsSync(path)) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { create: true, strict: true });
    // Other weir processes share the file and each write is short, but on a loaded machine (a
    // script's parallel runs, a slow disk's fsync) one can hold the lock for seconds: wait that out.
    db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    // Reading the schema first fails fast on a corrupt file, before anything is written.
    db.query("SELECT count(*) FROM sqlite_master").get();
    const version = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    if (version > SCHEMA_VERSION)
      throw new UserError(`the session database ${path} was written by a newer weir (schema ${version}, this one knows ${SCHEMA_VERSION}); upgrade weir`);
    db.exec("PRAGMA journal_mode = WAL");
    // In WAL mode NORMAL survives a killed process (commits are in the OS already); only a power cut
    // can lose the last commits, never corrupt the file.
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    // Another weir may be opening the same file at this moment (two terminals, parallel `weir -p`):
    // each step takes the write lock first and reads the version again under it, so one process
    // applies it and the others see it applied.
    const step = db.transaction(() => {
      const v = (db!.query("PRAGMA user_version").get() as { user_version: number }).user_version;
      if (v >= SCHEMA_VERSION) return false;
      db!.exec(MIGRATIONS[v]!);
      db!.exec(`PRAGMA user_version = ${v + 1}`);
      return true;
    });
    if (version < SCHEMA_VERSION) while (step.immediate()) {}
    return db;
  } catch (e) {
    db?.close();
    if (e instanceof UserError) throw e;
    throw explain(path, e);
  }
}

export { explain as explainDatabaseError };
