import { closeSync, existsSync, lstatSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import type { Change } from "./changeset.ts";
import type { HeldChange } from "./transaction.ts";

/**
 * A layer's settling made recoverable. Before the first write into the workspace, the writer records
 * what it will do (the journal: each step in order, what stays held, whose process it is); after
 * each step it appends the step's number to a progress log; when the last is done, both go. A writer
 * killed in between leaves them, and the next process to open the workspace's transactions finishes
 * the work from the first step not logged. The log is appended with plain writes: what a killed
 * process wrote is in the kernel's cache and stays (a power cut is another matter, as for git).
 */

/** What stood at a path, enough to tell whether anyone changed it since: its kind, and a file's size and time. */
export interface Stamp {
  kind: "file" | "dir" | "link" | "other" | "absent";
  size?: number;
  mtimeMs?: number;
}

/** One write of a settle: a change of the layer, or a new directory placed whole (`move`), and what stood at its path before. */
export interface Step {
  change: Change;
  move: boolean;
  was: Stamp;
}

/** What stands at `path` now, never followed through a link. I/O. */
export function stampOf(path: string): Stamp {
  try {
    const st = lstatSync(path);
    if (st.isFile()) return { kind: "file", size: st.size, mtimeMs: st.mtimeMs };
    return { kind: st.isDirectory() ? "dir" : st.isSymbolicLink() ? "link" : "other" };
  } catch {
    return { kind: "absent" };
  }
}

export const sameStamp = (a: Stamp, b: Stamp): boolean => a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** The process a view or a settle belongs to: its pid and its start time, so a reused pid is not taken for it. */
export interface Owner {
  pid: number;
  start: string;
}

export interface Journal {
  /** What ran: the command whose change set this is, or the person's `weir changes apply`. */
  command: string;
  at: string;
  owner: Owner;
  steps: Step[];
  /** What stays in the layer as held (none: the layer goes once the steps are done). */
  held: HeldChange[];
  /** Files left the layer by rename (one file system), so a file no longer in it was placed. */
  renames: boolean;
  /** The undo log's turn whose records the settle made before its first write, to complete. */
  undoTurn?: string;
}

const JOURNAL = "settling.json";
const PROGRESS = "settled.log";
const OWNER = "owner.json";

/** The process's start time, from the kernel (Linux: clock ticks since boot); "" where unknown. I/O. */
function startOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

/** This process, as an owner. I/O. */
export const thisProcess = (): Owner => ({ pid: process.pid, start: startOf(process.pid) });

/** Whether the owner is still running: the pid is alive and started when the owner did. I/O. */
export function alive(o: Owner): boolean {
  if (o.pid === process.pid) return o.start === startOf(process.pid);
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = startOf(o.pid);
  return now === "" || now === o.start;
}

/** Marks a view as this process's, so another process never settles or removes it while it runs. I/O. */
export const claimView = (dir: string): void => writeFileAtomic(join(dir, OWNER), JSON.stringify(thisProcess()));

/** The owner of a view, when it has one. I/O. */
export function viewOwner(dir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, OWNER), "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

export const writeJournal = (dir: string, j: Journal): void => writeFileAtomic(join(dir, JOURNAL), JSON.stringify(j));

/** The journal of a settle that has not finished, if the layer has one; an unreadable one is none. I/O. */
export function readJournal(dir: string): Journal | undefined {
  if (!existsSync(join(dir, JOURNAL))) return undefined;
  try {
    return JSON.parse(readFileSync(join(dir, JOURNAL), "utf8")) as Journal;
  } catch {
    return undefined;
  }
}

/** The steps the progress log says are done, and of those the ones kept held rather than written. I/O. */
export function stepsDone(dir: string): { done: Set<number>; kept: Set<number> } {
  let lines: string[];
  try {
    lines = readFileSync(join(dir, PROGRESS), "utf8").split("\n").filter(Boolean);
  } catch {
    lines = [];
  }
  const kept = new Set(lines.filter((l) => l.startsWith("k")).map((l) => Number(l.slice(1))));
  return { done: new Set([...lines.map((l) => Number(l.replace(/^k/, "")))]), kept };
}

/** The progress log, open for appending: one line a step done. */
export class Progress {
  private fd: number;

  constructor(dir: string) {
    this.fd = openSync(join(dir, PROGRESS), "a");
  }

  /** A step done; `kept`: not written, held instead (its path changed since the journal). */
  done(step: number, kept = false): void {
    writeSync(this.fd, `${kept ? "k" : ""}${step}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Ends a settle's record: the journal first, so that no journal is ever left whose progress log is
 * gone (its steps would all be done again). I/O.
 */
export function endJournal(dir: string): void {
  rmSync(join(dir, JOURNAL), { force: true });
  rmSync(join(dir, PROGRESS), { force: true });
}
