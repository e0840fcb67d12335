import type { Pointer } from "bun:ffi";

/**
 * Extended attributes of a path, never followed through a link (Linux: libc's lgetxattr,
 * lsetxattr and lremovexattr through bun:ffi; neither bun nor node has them). Loaded on first use:
 * only a run that reads a command's change set pays for it. Elsewhere every read is undefined.
 */
type Libc = {
  lgetxattr: (path: Buffer, name: Buffer, value: Pointer, size: number) => number | bigint;
  lremovexattr: (path: Buffer, name: Buffer) => number;
  lsetxattr: (path: Buffer, name: Buffer, value: Buffer, size: number, flags: number) => number;
};

let libc: Libc | null | undefined;

function load(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return libc;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      lgetxattr: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u64], returns: FFIType.i64 },
      lremovexattr: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
      lsetxattr: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.i32], returns: FFIType.i32 },
    });
    libc = lib.symbols as unknown as Libc;
  } catch {
    libc = null;
  }
  return libc;
}

const cstring = (s: string) => Buffer.from(`${s}\0`, "utf8");

/** The attribute's value as text, or undefined when it is not set (or cannot be read here). */
export function readXattr(path: string, name: string): string | undefined {
  const c = load();
  if (!c) return undefined;
  const { ptr } = require("bun:ffi") as typeof import("bun:ffi");
  const buf = new Uint8Array(256);
  const n = Number(c.lgetxattr(cstring(path), cstring(name), ptr(buf), buf.length));
  return n < 0 ? undefined : new TextDecoder().decode(buf.subarray(0, n));
}

/** Removes the attribute; whether it is gone. */
export function removeXattr(path: string, name: string): boolean {
  const c = load();
  return !!c && c.lremovexattr(cstring(path), cstring(name)) === 0;
}

/** Sets the attribute to `value`; whether it is set. */
export function setXattr(path: string, name: string, value: string): boolean {
  const c = load();
  const v = Buffer.from(value, "utf8");
  return !!c && c.lsetxattr(cstring(path), cstring(name), v, v.length, 0) === 0;
}
