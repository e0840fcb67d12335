import { existsSync } from "node:fs";
import { join } from "node:path";
import { userDataDir } from "../config/paths.ts";
import { UserError } from "../core/errors.ts";
import { SessionStore } from "../store/sessions.ts";
import { resumeNotices } from "../ui/sessions.ts";

/** The session database. */
export const databasePath = (env = process.env) => join(userDataDir(env), "weir.db");

/** Runs `f` on the session database when it exists; read-only commands never create one. */
export function withExistingStore(none: string, out: (s: string) => void, f: (store: SessionStore) => number): number {
  if (!existsSync(databasePath())) {
    out(`${none}\n`);
    return 0;
  }
  const store = SessionStore.open(databasePath());
  try {
    return f(store);
  } finally {
    store.close();
  }
}

/** The session `-c` / `--resume ID` continues, and what to tell the user about it; a clear error when there is none. */
export function resumeTarget(store: SessionStore, which: { latest: true } | { id: string }, workspace: string, now: string): { id: string; notices: string[] } {
  const row = "id" in which ? store.find(which.id) : store.latest(workspace);
  if (!row) throw new UserError(`no session in ${workspace} to continue; start one with weir "task"`, 2);
  return { id: row.id, notices: resumeNotices(row, store.lastRun(row.id), store.workers(row.id), now, workspace) };
}
