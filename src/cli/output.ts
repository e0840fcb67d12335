import { writeSync } from "node:fs";
import { refusalReason, UserError } from "../core/errors.ts";

/** A quarter-second is never waited for: a full pipe is polled every 2 ms. */
const pause = new Int32Array(new SharedArrayBuffer(4));
const closed = new Set<number>();

/**
 * Writes all of `text` to a file descriptor before returning. The runtime's own stdout stream keeps
 * what a slow pipe reader has not taken yet in a buffer that `process.exit` drops, so a script reading
 * `weir … --json | jq` could get a cut document; a write here waits out a full pipe (EAGAIN) instead.
 * A reader that went away (EPIPE, `| head`) ends the output quietly. Output that cannot be written at
 * all (a full disk under `> file`) ends the run with a one-line error, since what it answers would be
 * lost; when that is standard error itself, nothing more is written there.
 */
export function writeAll(fd: number, text: string): void {
  if (closed.has(fd)) return;
  let bytes = Buffer.from(text, "utf8");
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return void closed.add(fd);
      if (code !== "EAGAIN") {
        closed.add(fd);
        if (fd === 2) return;
        throw new UserError(
          `could not write to ${fd === 1 ? "standard output" : `descriptor ${fd}`}: ${refusalReason(e)}; the run stopped, its session kept (weir -c goes on)`,
        );
      }
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

/** stdout and stderr as sinks that lose nothing. */
export const stdout = { write: (s: string) => writeAll(1, s) };
export const stderr = { write: (s: string) => writeAll(2, s) };
