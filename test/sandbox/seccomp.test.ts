import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { unixSocketFilter } from "../../src/workspace/seccomp.ts";

/**
 * The filter's program run by a classic-BPF interpreter over `struct seccomp_data`, against the rule
 * written out per architecture. The kernel runs the host's own case in test/security (a command with
 * the network); this covers the 32-bit and x32 cases no process here runs.
 */
const EACCES = 13;
const ALLOW = 0x7fff0000;
const DENY = 0x00050000 | EACCES;

function run(program: Uint8Array, data: { nr: number; arch: number; arg0: number }): number {
  const v = new DataView(program.buffer, program.byteOffset, program.byteLength);
  const word = (offset: number) => (offset === 0 ? data.nr : offset === 4 ? data.arch : offset === 16 ? data.arg0 : 0) >>> 0;
  let a = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = v.getUint16(pc * 8, true);
    const jt = v.getUint8(pc * 8 + 2);
    const jf = v.getUint8(pc * 8 + 3);
    const k = v.getUint32(pc * 8 + 4, true);
    if (code === 0x20) a = word(k);
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x35) pc += a >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected instruction ${code}`);
  }
  throw new Error("the program ran off its end");
}

const IO_URING = [425, 426, 427];
const rules: Record<string, Record<number, (nr: number, arg0: number) => boolean>> = {
  // x86-64, x32 inside it, and 32-bit x86 with its socketcall.
  x64: {
    0xc000003e: (nr, arg0) => nr >= 0x40000000 || (nr === 41 && arg0 === 1) || IO_URING.includes(nr),
    0x40000003: (nr, arg0) => ((nr === 359 || nr === 102) && arg0 === 1) || IO_URING.includes(nr),
  },
  arm64: {
    0xc00000b7: (nr, arg0) => (nr === 198 && arg0 === 1) || IO_URING.includes(nr),
    0x40000028: (nr, arg0) => (nr === 281 && arg0 === 1) || IO_URING.includes(nr),
  },
};

describe("the network's seccomp filter", () => {
  for (const [host, arches] of Object.entries(rules)) {
    test(`${host}: a Unix socket and io_uring are refused with EACCES, everything else allowed, an architecture the host cannot run refused whole`, () => {
      const program = unixSocketFilter(host)!;
      const archs = [...Object.keys(arches).map(Number), 0xc00000f3];
      const interesting = [41, 102, 198, 281, 359, 425, 426, 427, 0x40000029, 0, 1, 59, 221];
      const nr = fc.oneof(fc.constantFrom(...interesting), fc.nat({ max: 0x7fffffff }));
      const arg0 = fc.oneof(fc.constantFrom(1, 2, 10, 16, 0x100000001 >>> 0), fc.nat({ max: 0xffffffff }));
      fc.assert(
        fc.property(fc.constantFrom(...archs), nr, arg0, (arch, n, a0) => {
          const rule = arches[arch];
          const expected = !rule || rule(n, a0) ? DENY : ALLOW;
          expect(run(program, { arch, nr: n, arg0: a0 })).toBe(expected);
        }),
        { numRuns: 2000 },
      );
    });
  }

  test("an architecture weir is not built for has no filter", () => {
    expect(unixSocketFilter("riscv64")).toBeUndefined();
  });
});
