import {
  closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync,
  unlinkSync, writeSync,
} from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { inside, PathRefused } from "./containment.ts";

/**
 * Writes `data` as `name` in the directory `dir` so that a crash at any moment leaves either the old
 * bytes or the new ones: a temp file beside it (same filesystem, so the rename is atomic), fsync,
 * then rename over the target. The target's mode is kept unless `mode` says what it must be. On
 * failure (a full disk) the temp file is removed and the original is untouched.
 */
function writeIn(dir: string, name: string, data: string | Uint8Array, opts: { mode?: number }): void {
  const path = join(dir, name);
  let mode = 0o644;
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) throw new PathRefused(`${name} became a symlink while weir was writing it; nothing was written`, "symlink");
    mode = st.mode & 0o7777;
  } catch (e) {
    if (e instanceof PathRefused) throw e;
  }
  // A file holding a secret gets exactly this mode (the umask could only narrow it, never widen).
  if (opts.mode !== undefined) mode = opts.mode;
  const tmp = join(dir, `.${name}.weir-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (opts.mode !== undefined) fchmodSync(fd, opts.mode);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(tmp);
    } catch {
      // never created or already renamed
    }
    throw e;
  }
}

/** Writes a file atomically (see `writeIn`), creating its parent directories. For weir's own files. */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  writeIn(dirname(path), basename(path), data, opts);
}

const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes `rel` inside the workspace `root` atomically, so that no file, temp file or rename lands
 * outside however the tree is swapped meanwhile (a command that exchanges a directory with a symlink
 * out). On Linux the path is walked one directory handle at a time, never following a link, and the
 * temp file and rename happen through the last handle (`/proc/self/fd/N/name` resolves from the
 * open directory, not from its name). Elsewhere the parent is checked after the temp file exists
 * and before the rename. A swap is refused as a symlink; missing directories are created.
 */
export function writeFileInside(root: string, rel: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  const name = parts.pop();
  if (!name || parts.includes("..")) throw new PathRefused(`${rel} is not a file path inside the workspace`, "containment");
  if (process.platform !== "linux") return writeChecked(root, parts, name, data, opts);
  inParent(root, rel, (dir, file) => writeIn(dir, file, data, opts));
}

/** Whether `path` itself is a link; false when nothing is there or a file stands on the way. */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The first link on the way from `root` down to `path` (a directory a command replaced by a link to
 * somewhere else), `path` itself counted only when `self` is set; undefined when all are real. I/O: lstat.
 */
export function linkOnTheWay(root: string, path: string, self = false): string | undefined {
  const parts = relative(root, path).split(sep).filter((x) => x !== "" && x !== ".");
  let at = root;
  for (const part of self ? parts : parts.slice(0, -1)) {
    at = join(at, part);
    if (isLink(at)) return at;
  }
  return undefined;
}

/**
 * Removes `rel` inside the workspace `root` (a directory whole), never through a link: on Linux the
 * path is walked one directory handle at a time, as `writeFileInside` does, so a directory swapped
 * for a link meanwhile cannot take the removal outside; elsewhere each directory on the way is
 * checked first. Returns the first link on the way (absolute) when there is one, and removes nothing
 * then; what is missing is nothing to remove.
 */
export function removeInside(root: string, rel: string): { link?: string } {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  const name = parts.pop();
  if (!name || parts.includes("..")) throw new PathRefused(`${rel} is not a path inside the workspace`, "containment");
  forgetHandles();
  if (process.platform !== "linux") {
    const link = linkOnTheWay(root, join(root, ...parts, name));
    if (!link) rmSync(join(root, ...parts, name), { recursive: true, force: true });
    return link ? { link } : {};
  }
  let dir = openSync(root, DIR_FLAGS);
  try {
    let at = root;
    for (const part of parts) {
      at = join(at, part);
      let next: number;
      try {
        next = openSync(`/proc/self/fd/${dir}/${part}`, DIR_FLAGS);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // A link where a directory was expected (or a file): the caller decides what of a link goes.
        if (code === "ELOOP" || code === "ENOTDIR") return isLink(at) ? { link: at } : {};
        if (code === "ENOENT") return {};
        throw e;
      }
      closeSync(dir);
      dir = next;
    }
    rmSync(`/proc/self/fd/${dir}/${name}`, { recursive: true, force: true });
    return {};
  } finally {
    closeSync(dir);
  }
}

function writeChecked(root: string, parts: string[], name: string, data: string | Uint8Array, opts: { mode?: number }): void {
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true });
  const check = () => {
    if (!inside(root, realpathSync(dir)) || !statSync(dir).isDirectory())
      throw new PathRefused(`${join(...parts)} leads outside the workspace; nothing was written`, "symlink");
  };
  check();
  writeIn(dir, name, data, opts);
  try {
    check();
  } catch (e) {
    // Swapped between the check and the rename: take back what landed outside.
    try {
      unlinkSync(join(dir, name));
    } catch {
      // gone already
    }
    throw e;
  }
}

/**
 * The directory handles one batch of writes keeps open (`inBatch`), by their path relative to its
 * root ("" the root itself): a change set of 20,000 files in 200 directories walks each directory
 * once, not once a file. Every handle was reached as `inParent` reaches one, never through a link;
 * a removal or replacement in the batch forgets them all (once the write using them is done), so
 * none outlives the directory it names. A batch is only for writes no other process races: a
 * settled change set, whose command's processes are all gone.
 */
let batch: { root: string; dirs: Map<string, number>; busy: number; stale: boolean } | undefined;
/** Handles a batch keeps at most; past it the batch starts again from the root. */
const BATCH_HANDLES = 512;

/** Runs `fn`, whose writes under `root` share directory handles; they are closed when it returns. */
export function inBatch<T>(root: string, fn: () => T): T {
  const outer = batch;
  batch = { root, dirs: new Map(), busy: 0, stale: false };
  try {
    return fn();
  } finally {
    forgetHandles();
    batch = outer;
  }
}

/** Closes the batch's handles (a directory is about to go or be replaced), or marks them so while a write still uses them. */
function forgetHandles(): void {
  if (!batch) return;
  batch.stale = batch.busy > 0;
  if (batch.stale) return;
  for (const fd of batch.dirs.values()) closeSync(fd);
  batch.dirs.clear();
}

/** Opens the directory `part` of the open directory `dir` (never through a link), making it when missing. */
function openPart(dir: number, part: string, rel: string): number {
  const at = `/proc/self/fd/${dir}/${part}`;
  try {
    return openSync(at, DIR_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR")
      throw new PathRefused(`${rel}: ${part} is not a directory (a symlink or a file); nothing was written`, "symlink");
    if (code !== "ENOENT") throw e;
    mkdirSync(at);
    return openSync(at, DIR_FLAGS);
  }
}

/**
 * Runs `fn` with the parent directory of `rel` inside `root` as a path that names the open directory
 * itself (`/proc/self/fd/N`), walked one handle at a time and never through a link; missing
 * directories are made. Inside a batch for `root` the handles on the way are kept for the next
 * write. Linux only (the change-set writer runs only there).
 */
function inParent<T>(root: string, rel: string, fn: (dir: string, name: string) => T): T {
  const parts = rel.split("/").filter((p) => p !== "" && p !== ".");
  const name = parts.pop();
  if (!name || parts.includes("..")) throw new PathRefused(`${rel} is not a path inside the workspace`, "containment");
  const mine = batch?.root === root ? batch : undefined;
  const kept = mine?.dirs;
  if (kept && kept.size > BATCH_HANDLES) forgetHandles();
  const opened = (key: string, open: () => number) => {
    const fd = kept?.get(key) ?? open();
    kept?.set(key, fd);
    return fd;
  };
  let dir = opened("", () => openSync(root, DIR_FLAGS));
  try {
    for (const [i, part] of parts.entries()) {
      const from = dir;
      dir = opened(parts.slice(0, i + 1).join("/"), () => openPart(from, part, rel));
      if (!kept) closeSync(from);
    }
    if (mine) mine.busy++;
    try {
      return fn(`/proc/self/fd/${dir}`, name);
    } finally {
      if (mine) mine.busy--;
    }
  } finally {
    if (!kept) closeSync(dir);
    if (mine?.stale && mine.busy === 0) forgetHandles();
  }
}

/** What is at `path` without following a link: a directory, anything else, or nothing. */
function standing(path: string): "dir" | "other" | undefined {
  try {
    return lstatSync(path).isDirectory() ? "dir" : "other";
  } catch {
    return undefined;
  }
}

/**
 * Puts the file `from` (a command's finished write) at `rel` inside `root`: renamed into place on
 * the same file system, else copied atomically. Whatever stood there goes first when it is not a
 * file; a file is replaced by the rename, so another hard link to it keeps its old bytes.
 */
export function placeInside(root: string, rel: string, from: string, mode: number): void {
  inParent(root, rel, (dir, name) => {
    const at = join(dir, name);
    if (standing(at) === "dir") {
      forgetHandles();
      rmSync(at, { recursive: true, force: true });
    }
    try {
      renameSync(from, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
      writeIn(dir, name, readFileSync(from), { mode });
    }
  });
}

/** Makes the directory `rel` inside `root` (and its parents); a file or link standing there goes first. */
export function mkdirInside(root: string, rel: string, mode: number): void {
  inParent(root, rel, (dir, name) => {
    const at = join(dir, name);
    const was = standing(at);
    if (was === "dir") return;
    if (was) rmSync(at, { force: true });
    mkdirSync(at, { mode });
  });
}

/** Makes `rel` inside `root` a symbolic link to `target`, in place of whatever stood there. */
export function symlinkInside(root: string, rel: string, target: string): void {
  inParent(root, rel, (dir, name) => {
    const at = join(dir, name);
    const was = standing(at);
    if (was === "dir") forgetHandles();
    if (was) rmSync(at, { recursive: true, force: true });
    symlinkSync(target, at);
  });
}
