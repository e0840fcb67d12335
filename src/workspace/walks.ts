import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { restoreWalk, type WalkCache, walkSnapshot } from "./walker.ts";

/** How recent a directory's change may be for its listing to be kept (coarse file-system clocks). */
const RACY_MS = 2_000;

/** The name weir's data directory keeps a workspace's records under: a hash of its path. Pure. */
export function workspaceKey(root: string): string {
  return new Bun.CryptoHasher("sha256").update(root).digest("hex").slice(0, 24);
}

/**
 * A workspace's walk on disk: the listings of its directories with their mtimes, in the data
 * directory under a hash of the workspace's path. A one-shot run starts from it, so walking a large
 * tree costs a stat per directory rather than a read of each. It is a cache: a missing, corrupt or
 * unwritable file costs a full walk, never a run.
 */
export class WalkStore {
  constructor(private dir: string) {}

  private file(root: string): string {
    return join(this.dir, `${workspaceKey(root)}.json`);
  }

  /** The remembered walk of `root`, or an empty cache. */
  load(root: string): WalkCache {
    try {
      const saved = JSON.parse(readFileSync(this.file(root), "utf8")) as { root?: unknown; dirs?: unknown };
      return restoreWalk(saved.root === root ? saved.dirs : undefined);
    } catch {
      return restoreWalk(undefined);
    }
  }

  /**
   * Keeps the walk when a directory was read since it was loaded. A listing whose directory changed
   * in the last RACY_MS is left out: on a file system with coarse mtimes, a change in that same tick
   * would not move the mtime again (git's "racy" entries), so the next run reads it.
   */
  save(root: string, cache: WalkCache, now = Date.now()): void {
    if (!cache.changed) return;
    try {
      const settled = walkSnapshot(cache).filter(([, d]) => now - d.mtime > RACY_MS);
      writeFileAtomic(this.file(root), JSON.stringify({ root, dirs: settled }));
      cache.changed = false;
    } catch {
      // A cache that cannot be written costs the next run a full walk.
    }
  }
}
