import { createHash } from "node:crypto";

export const sha256 = (bytes: string | Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * The SHA of the bytes weir last saw for each path. A write to a file that changed on disk since
 * (the user's editor, a formatter) is refused, and so is overwriting a file weir never read.
 */
export class Ledger {
  private seen = new Map<string, string>();

  record(path: string, sha: string): void {
    this.seen.set(path, sha);
  }

  forget(path: string): void {
    this.seen.delete(path);
  }

  get(path: string): string | undefined {
    return this.seen.get(path);
  }

  /** Why writing over `path` (whose current bytes hash to `currentSha`, or undefined if absent) is refused. */
  staleReason(path: string, rel: string, currentSha: string | undefined): string | undefined {
    if (currentSha === undefined) return undefined;
    const last = this.seen.get(path);
    if (last === undefined) return `${rel} exists and weir has not read it; read it first (read_file), then write`;
    if (last !== currentSha) return `${rel} changed on disk since weir last read it (another program edited it); re-read it first`;
    return undefined;
  }
}
