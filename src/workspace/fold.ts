import { chmodSync, lstatSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, type Stats, unlinkSync } from "node:fs";
import { join } from "node:path";
import { faultPoint } from "../core/fault-point.ts";
import { writeFileAtomic } from "./atomic.ts";
import { OPAQUE } from "./changeset.ts";
import { alive, thisProcess, type Owner } from "./journal.ts";
import { readXattr, setXattr } from "./xattr.ts";

/**
 * Folding one overlay upper layer into the one below it, so that the single layer left shows what
 * the two stacked showed: each entry of the newer replaces the older's at its path (a file, a
 * link, a removal, a directory that replaced one), and a directory the newer only added to is
 * folded entry by entry. Moves are renames, and the newer layer stays on top until it is empty, so
 * at every step the two stacked still show the same tree: a kill part-way loses nothing, and the
 * next fold goes on from where it stopped.
 */

/** What stands at `p` (a link that leads nowhere too), without following it; undefined when nothing. I/O. */
export const entryAt = (p: string): Stats | undefined => {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
};

const opaque = (dir: string) => (readXattr(dir, OPAQUE) ?? "").toLowerCase() === "y";

/**
 * Moves what `newer` holds into `older`, entry by entry (see above); `newer` is left empty.
 * `shows(rel)`: whether anything below `older` (the workspace, older layers) has a path there. A
 * removal is kept only where something below would show through; elsewhere (nothing below, or
 * under a directory that replaced one) it is dropped, as overlayfs itself writes none there, and a
 * directory read from one layer alone would list it. I/O.
 */
export function foldInto(newer: string, older: string, shows: (rel: string) => boolean): void {
  let step = 0;
  const fold = (from: string, to: string, rel: string, hidden: boolean): void => {
    for (const name of readdirSync(from).sort()) {
      const a = join(from, name);
      const b = join(to, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(a);
      faultPoint(`fold-step:${step++}`);
      const below = entryAt(b);
      if (st.isCharacterDevice() && st.rdev === 0 && (hidden || !shows(r))) {
        // A removal of what only the older held: the older's entry goes, then the removal.
        if (below) rmSync(b, { recursive: true, force: true });
        unlinkSync(a);
        continue;
      }
      if (st.isDirectory() && !opaque(a)) {
        if (below?.isDirectory()) {
          fold(a, b, r, hidden || opaque(b));
          // The newer's mode of a directory is the one shown.
          chmodSync(b, st.mode & 0o7777);
          rmdirSync(a);
          continue;
        }
        // Over the older's removal or file the directory replaces what the workspace has there:
        // marked so before it moves, so the two stacked show the same at every step.
        if (below && !setXattr(a, OPAQUE, "y")) throw new Error(`cannot mark ${a} as a directory that replaced one`);
      }
      // Replaces whatever the older holds there: a rename replaces a file, a link or a removal in one
      // step; a directory (or a directory over a file) goes first, and the newer's entry still shows over it.
      if (below && (below.isDirectory() || st.isDirectory())) rmSync(b, { recursive: true, force: true });
      renameSync(a, b);
    }
  };
  fold(newer, older, "", false);
}

/**
 * A fold under way is marked by a file of its own process, `folding.<pid>-<start>.json`, naming it.
 * Each process writes its mark before it looks for another's, so of two that start at once at
 * least one sees the other and stands back: two never fold at the same time, and a mark whose
 * process died (a fold cut short) is never mistaken for a live one nor taken by two.
 */
const MARK = /^folding(\..+)?\.json$/; // also `folding.json`, the mark older builds of weir write

function marks(dir: string): { path: string; owner: Owner | undefined }[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => MARK.test(n)).map((n) => ({ path: join(dir, n), owner: ownerIn(join(dir, n)) }));
}

function ownerIn(path: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

const myMark = (dir: string): string => {
  const me = thisProcess();
  return join(dir, `folding.${me.pid}-${me.start}.json`);
};
const liveOther = (dir: string, mine: string): boolean => marks(dir).some((m) => m.path !== mine && m.owner !== undefined && alive(m.owner));

/**
 * Takes the fold for this process, or false when a live process folds: its mark is written whole,
 * then the others are read. The marks of dead processes are removed: this fold goes on with theirs. I/O.
 */
export function markFold(dir: string): boolean {
  const mine = myMark(dir);
  writeFileAtomic(mine, JSON.stringify(thisProcess()));
  if (liveOther(dir, mine)) {
    rmSync(mine, { force: true });
    return false;
  }
  for (const m of marks(dir)) if (m.path !== mine) rmSync(m.path, { force: true });
  return true;
}

export const unmarkFold = (dir: string): void => rmSync(myMark(dir), { force: true });

/** Whether a fold in `dir` was cut short: a mark is there whose process is gone. I/O. */
export function foldCutShort(dir: string): boolean {
  return marks(dir).some((m) => m.owner === undefined || !alive(m.owner));
}

/**
 * Waits while a live process folds layers in `dir`: a view is mounted only over layers no fold is
 * moving. A fold is renames, so the wait is short; a mark whose process died is not waited for. I/O.
 */
export function awaitFold(dir: string): void {
  const mine = myMark(dir);
  while (liveOther(dir, mine)) Bun.sleepSync(10);
}
