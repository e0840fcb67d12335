import { lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { sortedEntries } from "./walker.ts";
import { readXattr } from "./xattr.ts";

/**
 * One change a command made, as its view's upper layer records it: a file written (whole, as it is
 * now), a directory made (`opaque`: it replaced one that was there, whose old entries are gone), a
 * link, a removal (an overlay whiteout), or a special file (a pipe, a socket, a device).
 */
export type Change =
  | { rel: string; kind: "file"; mode: number; size: number }
  | { rel: string; kind: "dir"; mode: number; opaque: boolean }
  | { rel: string; kind: "link"; target: string }
  | { rel: string; kind: "deleted" }
  | { rel: string; kind: "special" };

export interface ChangeSet {
  changes: Change[];
  /** More entries than `limit`: the set is incomplete, and nothing of it may be applied. */
  truncated: boolean;
}

/** The xattr overlayfs sets on a directory that replaced one below (with `userxattr`). */
export const OPAQUE = "user.overlay.opaque";

/**
 * Reads the upper layer `upper` into the change set, parents before their entries, in name order.
 * Nothing is followed through a link. I/O: lstat, readdir, readlink, one xattr per directory.
 */
export function readChangeSet(upper: string, limit = 250_000): ChangeSet {
  const changes: Change[] = [];
  let truncated = false;
  const visit = (dir: string, rel: string): void => {
    for (const e of sortedEntries(dir) ?? []) {
      if (changes.length >= limit) {
        truncated = true;
        return;
      }
      const at = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = lstatSync(at);
      if (st.isDirectory()) {
        const opaque = (readXattr(at, OPAQUE) ?? "").toLowerCase() === "y";
        changes.push({ rel: r, kind: "dir", mode: st.mode & 0o7777, opaque });
        visit(at, r);
      } else if (st.isFile()) changes.push({ rel: r, kind: "file", mode: st.mode & 0o7777, size: st.size });
      else if (st.isSymbolicLink()) changes.push({ rel: r, kind: "link", target: readlinkSync(at) });
      else if (st.isCharacterDevice() && st.rdev === 0) changes.push({ rel: r, kind: "deleted" });
      else changes.push({ rel: r, kind: "special" });
    }
  };
  visit(upper, "");
  return { changes, truncated };
}
