import { userDataDir } from "../../config/paths.ts";
import { usageError } from "../../core/errors.ts";
import { reviewable } from "../../ui/visible.ts";
import { changesDir, finishSettles } from "../../workspace/transaction.ts";
import { UndoLog, undoDir, undoTurns } from "../../workspace/undo.ts";

/**
 * `weir undo [N] [--session ID]` (and `/undo [N]`): the workspace put back as it was before the
 * last N tasks weir worked on (1 by default), what commands and file actions changed alike; one
 * path the person changed since refuses it all. Returns the lines to show.
 */
export function undoLines(words: string[], workspace: string, session?: string): string[] {
  const raw = words[0] ?? "1";
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1) throw usageError(`weir undo ${raw}: give how many tasks to undo, a whole number from 1`);
  const dir = undoDir(userDataDir(), workspace);
  // A settle whose process died part-way is finished first: its record is complete only then.
  finishSettles(workspace, changesDir(userDataDir(), workspace), new UndoLog(dir, workspace));
  const { restored, cutShort } = undoTurns(dir, workspace, n, session);
  const paths = restored.length === 1 ? "1 path" : `${restored.length} paths`;
  const head =
    cutShort === undefined
      ? `undid the last ${n === 1 ? "task" : `${n} tasks`}: ${paths} as they were`
      : `finished an undo that was cut short (${cutShort === 1 ? "1 task" : `${cutShort} tasks`}): ${paths} as they were; nothing else was undone`;
  return [head, ...restored.map((l) => `  ${reviewable(l)}`)];
}
