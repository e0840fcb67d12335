import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../core/errors.ts";
import { faultPoint } from "../core/fault-point.ts";
import { mkdirInside, placeInside, removeInside, symlinkInside, writeFileAtomic } from "./atomic.ts";
import { hashWithHead } from "./ledger.ts";
import { folderRecords } from "./walker.ts";
import { workspaceKey } from "./walks.ts";

/** What stood at a path: a file (its bytes' SHA and mode), a link, a directory, or nothing. */
export type Snapshot = { kind: "file"; sha: string; mode: number } | { kind: "link"; target: string } | { kind: "dir" } | { kind: "absent" };

/** One path a turn changed: what was there before its first change (`blob` holds a file's bytes) and after its last. */
interface Entry {
  rel: string;
  before: Snapshot;
  blob?: string;
  after?: Snapshot;
}

/** A turn as the log keeps it: one task the person gave, and every path weir changed for it. */
interface Turn {
  id: string;
  session: string;
  task: string;
  at: string;
  entries: Entry[];
}

/** Where the undo log of the workspace `root` lives under weir's data directory `dataDir`. Pure. */
export function undoDir(dataDir: string, root: string): string {
  return join(dataDir, "undo", workspaceKey(root));
}

/** What stands at `path` now, never followed through a link; a file's SHA only when `hash`. I/O. */
export function snapshotOf(path: string, hash = true): Snapshot {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return { kind: "link", target: readlinkSync(path) };
    if (st.isDirectory()) return { kind: "dir" };
    // Hashed in 1 MB reads: a file of gigabytes a command wrote costs no more memory than a small one.
    if (st.isFile()) return { kind: "file", sha: hash ? hashWithHead(path, 0).sha : "", mode: st.mode & 0o777 };
    return { kind: "absent" };
  } catch {
    return { kind: "absent" };
  }
}

const same = (a: Snapshot, b: Snapshot): boolean =>
  a.kind === b.kind &&
  (a.kind !== "file" || (b.kind === "file" && a.sha === b.sha && a.mode === b.mode)) &&
  (a.kind !== "link" || (b.kind === "link" && a.target === b.target));

/**
 * The workspace's undo log: for each task the person gave (a turn), what every path weir changed
 * was before (a file's bytes kept) and what weir left there, recorded as each change is applied (a
 * command's change set, a file action), so that `weir undo` can put the workspace back exactly, and
 * refuses a path the person changed since. Kept under weir's data directory, one folder a turn.
 */
export class UndoLog {
  private turn: Turn | undefined;
  private recorded = new Map<string, Entry>();
  /** The turn's blobs directory, once made. */
  private blobs: string | undefined;

  constructor(
    readonly dir: string,
    readonly root: string,
  ) {}

  /** A new turn: the changes from now on are undone together. */
  begin(session: string, task: string): void {
    const id = `${Date.now().toString(36).padStart(9, "0")}-${Math.random().toString(36).slice(2, 8)}`;
    this.turn = { id, session, task: task.split("\n")[0]!.slice(0, 120), at: new Date().toISOString(), entries: [] };
    this.recorded = new Map();
    this.blobs = undefined;
  }

  /**
   * Records what stands at `rel` before weir changes it, the first time in this turn; a directory
   * with everything in it when `whole` (it is about to be removed). A file's bytes are copied, or with `link` (a change set, whose writer replaces files by
   * rename and removes them by unlink) kept by a hard link at no cost: the workspace's name goes,
   * the bytes stay with the log. A link across file systems falls back to a copy.
   */
  before(rel: string, keep: "copy" | "link" = "copy", whole = false): void {
    if (!this.turn || this.recorded.has(rel)) return;
    const at = join(this.root, rel);
    // A file's bytes are kept, not hashed: its SHA is needed only if an older task is undone past it.
    const snap = snapshotOf(at, false);
    const entry: Entry = { rel, before: snap };
    if (snap.kind === "file") {
      entry.blob = String(this.turn.entries.length);
      const blobs = join(this.dir, this.turn.id, "blobs");
      // Made once a turn (an install's thousands of files ask again); made again if it went meanwhile.
      if (this.blobs !== blobs) mkdirSync(blobs, { recursive: true });
      this.blobs = blobs;
      const kept = join(blobs, entry.blob);
      try {
        if (keep !== "link") throw new Error("copy");
        linkSync(at, kept);
      } catch {
        if (!existsSync(blobs)) mkdirSync(blobs, { recursive: true });
        copyFileSync(at, kept);
      }
    }
    this.turn.entries.push(entry);
    this.recorded.set(rel, entry);
    // A directory about to go goes with all it holds; one that stays is only itself.
    if (snap.kind === "dir" && whole) for (const name of readdirSync(at)) this.before(`${rel}/${name}`, keep, true);
  }

  /** Records what weir left at `rel`. */
  after(rel: string): void {
    const entry = this.recorded.get(rel);
    if (entry) entry.after = snapshotOf(join(this.root, rel));
  }

  /** Writes the turn's record; called after each batch of changes (a change set, a file action). */
  flush(): void {
    if (this.turn?.entries.length) writeFileAtomic(join(this.dir, this.turn.id, "turn.json"), JSON.stringify(this.turn));
  }

  /** The turn being recorded, if one is. */
  get turnId(): string | undefined {
    return this.turn?.id;
  }

  /**
   * Records what weir left at every path recorded before a batch of writes and not since (a change
   * set's settle records all its befores, then writes), and writes the turn's record.
   */
  completeAfters(kept: ReadonlySet<string> = new Set()): void {
    if (!this.turn) return;
    withAfters(this.turn, this.root, kept);
    this.recorded = new Map(this.turn.entries.map((e) => [e.rel, e]));
    this.flush();
  }
}

/**
 * Gives each entry of `turn` recorded without what weir left there what stands at its path now, and
 * drops the entries of `kept` paths (and below them): weir did not write them after all. I/O.
 */
function withAfters(turn: Turn, root: string, kept: ReadonlySet<string>): void {
  const mine = (rel: string) => !kept.has(rel) && ![...kept].some((k) => rel.startsWith(`${k}/`));
  turn.entries = turn.entries.filter((e) => e.after !== undefined || mine(e.rel));
  for (const e of turn.entries) e.after ??= snapshotOf(join(root, e.rel));
}

/**
 * Completes the record of a turn of another process, killed between a change set's first write and
 * its record's completion: once the settle is finished (`finishSettles`), what stands is what weir
 * left. I/O.
 */
export function completeTurn(dir: string, id: string, root: string, kept: ReadonlySet<string> = new Set()): void {
  const file = join(dir, id, "turn.json");
  let turn: Turn;
  try {
    turn = JSON.parse(readFileSync(file, "utf8")) as Turn;
  } catch {
    return;
  }
  withAfters(turn, root, kept);
  writeFileAtomic(file, JSON.stringify(turn));
}

/** The turns kept for the workspace, newest first; `session` keeps only that session's (an id prefix will do). I/O. */
function turnsIn(dir: string, session?: string): Turn[] {
  return folderRecords<Turn>(dir, "turn.json")
    .map((r) => r.record)
    .filter((t) => t.entries.length > 0 && (!session || t.session.startsWith(session)))
    .reverse();
}

/**
 * Puts the workspace back as it was before the last `n` turns (of `session`, when given): contents,
 * removals, links and modes, newest turn first. Every path is checked before anything is written:
 * one the person changed since weir left it refuses the whole undo in one line. An undo a kill cut
 * short is finished first, and alone (`cutShort`: how many tasks it had left). Returns what was
 * restored, one line a path. I/O.
 */
export function undoTurns(dir: string, root: string, n: number, session?: string): { restored: string[]; cutShort?: number } {
  const cut = turnsIn(dir).filter((t) => existsSync(join(dir, t.id, UNDOING)));
  if (cut.length > 0) return { restored: finishUndo(dir, root, cut), cutShort: cut.length };
  const turns = turnsIn(dir, session).slice(0, n);
  if (turns.length === 0) throw new UserError(`nothing to undo in this workspace${session ? ` for session ${session}` : ""}`, 2);
  // What each path would be once the newer turns are undone: the disk, then each turn's before.
  const state = new Map<string, Snapshot>();
  const now = (rel: string) => state.get(rel) ?? snapshotOf(join(root, rel));
  for (const t of turns) {
    for (const e of t.entries) {
      const expected = e.after ?? e.before;
      if (!same(now(e.rel), expected)) throw new UserError(`${e.rel} changed since weir left it (task "${t.task}"); nothing was undone`, 1);
    }
    const kept = (e: Entry) => hashWithHead(join(dir, t.id, "blobs", e.blob!), 0).sha;
    for (const e of t.entries) state.set(e.rel, e.before.kind === "file" ? { ...e.before, sha: kept(e) } : e.before);
  }
  // Marked before the first write: a kill part-way leaves turns the next `weir undo` finishes, whatever it is asked.
  for (const t of turns) writeFileAtomic(join(dir, t.id, UNDOING), "");
  return { restored: restoreTurns(dir, root, turns) };
}

/** The file in a turn's folder that says an undo of it began. */
const UNDOING = "undoing";

/**
 * Finishes an undo a kill cut short: its turns, newest first, each path put back unless it already
 * is (a file whose kept bytes have moved back into place), and a path the person changed since weir
 * left it refuses the rest in one line, as an undo does. I/O.
 */
function finishUndo(dir: string, root: string, turns: Turn[]): string[] {
  const state = new Map<string, Snapshot>();
  const now = (rel: string) => state.get(rel) ?? snapshotOf(join(root, rel));
  for (const t of turns) {
    for (const e of t.entries) {
      if (restoredAlready(dir, t, e, () => now(e.rel))) continue;
      if (!same(now(e.rel), e.after ?? e.before))
        throw new UserError(`${e.rel} changed since weir left it (task "${t.task}"); the undo a kill cut short was not finished`, 1);
    }
    for (const e of t.entries) state.set(e.rel, e.before.kind === "file" ? { ...e.before, sha: keptSha(dir, t, e, root) } : e.before);
  }
  return restoreTurns(dir, root, turns);
}

/** The SHA of a file entry's kept bytes: in the log, or in place once they moved back. */
function keptSha(dir: string, t: Turn, e: Entry, root: string): string {
  const blob = join(dir, t.id, "blobs", e.blob!);
  return hashWithHead(existsSync(blob) ? blob : join(root, e.rel), 0).sha;
}

/**
 * Whether an entry is back as it was: a file's kept bytes have left the log (moved into place);
 * anything else stands (`at`, asked only then) as before.
 */
function restoredAlready(dir: string, t: Turn, e: Entry, at: () => Snapshot): boolean {
  if (e.before.kind === "file") return !existsSync(join(dir, t.id, "blobs", e.blob!));
  return same(at(), e.before);
}

/** Puts each turn's paths back, newest turn first, and removes its record; one line a path. I/O. */
function restoreTurns(dir: string, root: string, turns: Turn[]): string[] {
  const restored = new Map<string, string>();
  let step = 0;
  for (const t of turns) {
    for (const e of [...t.entries].reverse()) {
      faultPoint(`undo-restore:${step++}`);
      // Not a file before: what stands is compared by kind and link target, so its bytes need no hash.
      if (!restoredAlready(dir, t, e, () => snapshotOf(join(root, e.rel), false))) restore(root, e, join(dir, t.id, "blobs"));
      restored.set(e.rel, describe(e.before));
    }
    // The record first: a kill while the rest goes leaves no turn whose paths are already back.
    rmSync(join(dir, t.id, "turn.json"), { force: true });
    rmSync(join(dir, t.id), { recursive: true, force: true });
  }
  return [...restored].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, what]) => `${rel}: ${what}`);
}

const describe = (s: Snapshot): string =>
  s.kind === "absent" ? "removed (weir made it)" : s.kind === "file" ? "restored" : s.kind === "link" ? `a link to ${s.target} again` : "a directory again";

/** Writes one path back as it was, through the guarded writer. */
function restore(root: string, e: Entry, blobs: string): void {
  const b = e.before;
  const there = snapshotOf(join(root, e.rel));
  if (b.kind === "absent") {
    if (there.kind !== "absent") removeInside(root, e.rel);
    return;
  }
  if (there.kind !== "absent" && there.kind !== b.kind) removeInside(root, e.rel);
  if (b.kind === "dir") mkdirInside(root, e.rel, 0o755);
  else if (b.kind === "link") symlinkInside(root, e.rel, b.target);
  // The kept bytes move back into place (the turn's record goes after the undo): no read, whatever the size.
  else placeInside(root, e.rel, join(blobs, e.blob!), b.mode);
}
