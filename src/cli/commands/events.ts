import { appendFileSync, existsSync, renameSync, statSync } from "node:fs";
import type { ParsedArgs } from "../args.ts";
import { withExistingStore } from "../data.ts";

const ROTATE_BYTES = 10 * 1024 * 1024;
const KEEP = 5;

/** Appends lines to FILE, rotating it (FILE.1 … FILE.5) whenever it would pass the size limit. */
export function appendRotating(file: string, lines: string[], limit = ROTATE_BYTES): void {
  for (const line of lines) {
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size > 0 && size + line.length + 1 > limit) {
      for (let i = KEEP - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
      renameSync(file, `${file}.1`);
    }
    appendFileSync(file, `${line}\n`);
  }
}

/** `weir events --export FILE [--session ID]`: the supervisor's record of finished calls. */
export function eventsCommand(args: ParsedArgs, out: (s: string) => void): number {
  const file = typeof args.flags.export === "string" ? args.flags.export : undefined;
  return withExistingStore("no events recorded yet", out, (store) => {
    const rows = store.callEvents(args.session);
    const lines = rows.map((r) => JSON.stringify(r));
    if (file) {
      appendRotating(file, lines);
      out(`exported ${lines.length} events to ${file}\n`);
    } else if (args.json) out(`${lines.join("\n")}\n`);
    else {
      if (rows.length === 0) out("no events recorded yet\n");
      for (const r of rows)
        out(
          `${new Date(Number(r.started_at)).toISOString()}  ${String(r.action).padEnd(14)} ` +
            `${String(r.result_class).padEnd(8)} ${String(r.duration_ms).padStart(7)} ms  ${r.preview}\n`,
        );
    }
    return 0;
  });
}
