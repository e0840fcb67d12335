import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a file so that a crash at any moment leaves either the old bytes or the new ones: a temp
 * file in the same directory (same filesystem, so the rename is atomic), fsync, then rename over the
 * target. The target's mode is kept, unless `mode` says what it must be. On failure (a full disk) the temp file is removed and the
 * original is untouched.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // new file
  }
  // A file holding a secret gets exactly this mode (the umask could only narrow it, never widen).
  if (opts.mode !== undefined) mode = opts.mode;
  const tmp = join(dir, `.${basename(path)}.weir-${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`);
  const fd = openSync(tmp, "wx", mode);
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
