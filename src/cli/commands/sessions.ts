import { existsSync } from "node:fs";
import { SessionStore } from "../../store/sessions.ts";
import { formatSessions } from "../../ui/sessions.ts";
import { databasePath } from "../runtime.ts";

/** `weir --list [--all]`: this workspace's sessions (or every workspace's), newest first. */
export function listCommand(workspace: string, all: boolean, out: (s: string) => void): number {
  const path = databasePath();
  if (!existsSync(path)) {
    out("no sessions yet\n");
    return 0;
  }
  const store = SessionStore.open(path);
  try {
    out(`${formatSessions(store.list(all ? undefined : workspace), all)}\n`);
    return 0;
  } finally {
    store.close();
  }
}
