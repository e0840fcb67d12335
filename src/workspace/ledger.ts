import { createHash } from "node:crypto";
import { closeSync, readFileSync, readSync } from "node:fs";
import { openRegularFile } from "./containment.ts";

export const sha256 = (bytes: string | Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** hashWithHead's read buffer, made once: the reads are synchronous, so one serves every call. */
let chunk: Buffer | undefined;

/**
 * A regular file's SHA-256 and its first `maxBytes`, in one pass of 1 MB reads: a file of any size
 * (a log of gigabytes named in a task) costs the head's memory, not its own. Throws as
 * `readRegularFile` does.
 */
export function hashWithHead(path: string, maxBytes: number): { head: Buffer; size: number; sha: string } {
  const { fd, size } = openRegularFile(path);
  try {
    // The usual file is read at once, as it is.
    if (size <= maxBytes) {
      const bytes = readFileSync(fd);
      return { head: bytes.subarray(0, maxBytes), size: bytes.length, sha: sha256(bytes) };
    }
    const hash = createHash("sha256");
    chunk ??= Buffer.allocUnsafe(1 << 20);
    const head: Buffer[] = [];
    let kept = 0;
    let total = 0;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const part = chunk.subarray(0, n);
      hash.update(part);
      if (kept < maxBytes) {
        const take = part.subarray(0, maxBytes - kept);
        head.push(Buffer.from(take));
        kept += take.length;
      }
      total += n;
    }
    return { head: Buffer.concat(head), size: Math.max(size, total), sha: hash.digest("hex") };
  } finally {
    closeSync(fd);
  }
}

/**
 * The SHA of the bytes weir last saw for each path. A write to a file that changed on disk since
 * (the user's editor, a formatter, another agent) is refused, and so is overwriting a file weir
 * never read.
 *
 * Each agent of a run has its own view (`view`): what *it* has seen. The views share one record of
 * who wrote each file last, so when a worker writes a file the main agent read, the main agent's
 * view is stale and the refusal names the worker.
 */
export class Ledger {
  private seen = new Map<string, string>();
  private whole = new Map<string, { sha: string; where: string }>();

  constructor(
    /** Who wrote each path last, and the SHA written: shared by every view of one run. */
    private writers: Map<string, { by: string; sha: string }> = new Map(),
    /** The agent this view belongs to ("main" or a worker's label). */
    readonly agent = "main",
  ) {}

  /** Another agent's view over the same record of writes; it starts having seen nothing. */
  view(agent: string): Ledger {
    return new Ledger(this.writers, agent);
  }

  record(path: string, sha: string): void {
    this.seen.set(path, sha);
  }

  /**
   * The conversation holds these bytes of `path` whole, in a place that is never demoted (a run's
   * working set): a later full read of the same bytes can point there instead of repeating them.
   */
  shownWhole(path: string, sha: string, where: string): void {
    this.record(path, sha);
    this.whole.set(path, { sha, where });
  }

  /** Where the conversation already holds exactly these bytes of `path` whole, if it does. */
  whereShown(path: string, sha: string): string | undefined {
    const w = this.whole.get(path);
    return w?.sha === sha ? w.where : undefined;
  }

  /** This agent wrote `sha` to `path`: it has seen those bytes, and every other view has not. */
  wrote(path: string, sha: string): void {
    this.seen.set(path, sha);
    this.writers.set(path, { by: this.agent, sha });
  }

  forget(path: string): void {
    this.seen.delete(path);
  }

  get(path: string): string | undefined {
    return this.seen.get(path);
  }

  /** The agent that wrote the current bytes of `path`, when it was another view of this ledger. */
  writtenByOther(path: string, currentSha: string | undefined): string | undefined {
    const w = this.writers.get(path);
    return w && w.by !== this.agent && w.sha === currentSha ? w.by : undefined;
  }

  /** Why writing over `path` (whose current bytes hash to `currentSha`, or undefined if absent) is refused. */
  staleReason(path: string, rel: string, currentSha: string | undefined): string | undefined {
    if (currentSha === undefined) return undefined;
    const last = this.seen.get(path);
    const other = this.writtenByOther(path, currentSha);
    if (last === undefined)
      return other
        ? `${rel} was written by ${other} and you have not read it; read it first (read_file), then write`
        : `${rel} exists and weir has not read it; read it first (read_file), then write`;
    if (last !== currentSha)
      return other
        ? `${rel} was changed by ${other} since you last read it; re-read it first`
        : `${rel} changed on disk since weir last read it (another program edited it); re-read it first`;
    return undefined;
  }
}
