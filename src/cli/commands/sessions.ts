import { formatSessions } from "../../ui/sessions.ts";
import { withExistingStore } from "../data.ts";

/** `weir --list [--all]`: this workspace's sessions (or every workspace's), newest first. */
export function listCommand(workspace: string, all: boolean, out: (s: string) => void, json = false): number {
  return withExistingStore(json ? "[]" : "no sessions yet", out, (store) => {
    const rows = store.list(all ? undefined : workspace);
    out(`${json ? JSON.stringify(rows, null, 2) : formatSessions(rows, all)}\n`);
    return 0;
  });
}
