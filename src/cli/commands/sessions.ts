import { formatSessions } from "../../ui/sessions.ts";
import { withExistingStore } from "../data.ts";

/** `weir --list [--all]`: this workspace's sessions (or every workspace's), newest first. */
export function listCommand(workspace: string, all: boolean, out: (s: string) => void): number {
  return withExistingStore("no sessions yet", out, (store) => {
    out(`${formatSessions(store.list(all ? undefined : workspace), all)}
`);
    return 0;
  });
}
