/**
 * The seccomp filter a command with the network runs under: it may not make a Unix socket.
 *
 * Without the network a command has a network namespace of its own, and with it the abstract Unix
 * sockets of its own namespace only. With the network approved it shares the person's namespace,
 * and so their abstract sockets: the X server's (`@/tmp/.X11-unix/X0`, which admits any process of
 * the person's uid and then types into their windows), a D-Bus session bus started without systemd
 * (which starts programs outside the sandbox). A seccomp filter cannot read the address a socket
 * connects to, so it refuses what comes before: `socket(AF_UNIX, …)`, the same through the 32-bit
 * `socketcall`, and io_uring, which makes sockets without a system call a filter sees.
 * `socketpair` stays: its two ends reach nothing else. Refused calls fail with EACCES.
 *
 * The program is classic BPF as bubblewrap's `--seccomp` reads it: `struct sock_filter` records
 * (u16 code, u8 jt, u8 jf, u32 k), little-endian, over `struct seccomp_data` (nr at 0, arch at 4,
 * args from 16). Pure.
 */

/** An architecture a process may run in on the host: its audit number and its socket calls (linux/audit.h, the syscall tables). */
interface Abi {
  arch: number;
  socket: number;
  /** The 32-bit x86 multiplexer, whose arguments lie in memory a filter cannot read. */
  socketcall?: number;
  /** x86-64 also runs x32 programs, whose call numbers have bit 30 set: none are allowed. */
  x32?: boolean;
}

const ABIS: Record<string, Abi[]> = {
  x64: [{ arch: 0xc000003e, socket: 41, x32: true }, { arch: 0x40000003, socket: 359, socketcall: 102 }],
  arm64: [{ arch: 0xc00000b7, socket: 198 }, { arch: 0x40000028, socket: 281 }],
};

/** io_uring_setup, io_uring_enter and io_uring_register: the same numbers on every architecture. */
const IO_URING = [425, 426, 427];
const AF_UNIX = 1;
const SYS_SOCKET = 1;
const X32_BIT = 0x40000000;
const EACCES = 13;

const LD_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const RET = 0x06;
const ALLOW = 0x7fff0000;
const DENY = 0x00050000 | EACCES;

/** One instruction; a jump names its targets by label, resolved when the program is laid out. */
type Op = { code: number; k: number; yes?: string; no?: string } | { label: string };

/** One architecture's rules; entered with the architecture loaded, left for the next block when it is another. */
function abiBlock(a: Abi, i: number): Op[] {
  const next = `abi${i + 1}`;
  return [
    { label: `abi${i}` },
    { code: JEQ, k: a.arch, no: next },
    { code: LD_ABS, k: 0 },
    ...(a.x32 ? [{ code: JGE, k: X32_BIT, yes: "deny" }] : []),
    { code: JEQ, k: a.socket, yes: `family${i}` },
    ...(a.socketcall ? [{ code: JEQ, k: a.socketcall, yes: `call${i}` }] : []),
    ...IO_URING.map((n) => ({ code: JEQ, k: n, yes: "deny" })),
    { code: RET, k: ALLOW },
    { label: `family${i}` },
    { code: LD_ABS, k: 16 },
    { code: JEQ, k: AF_UNIX, yes: "deny" },
    { code: RET, k: ALLOW },
    ...(a.socketcall ? [{ label: `call${i}` }, { code: LD_ABS, k: 16 }, { code: JEQ, k: SYS_SOCKET, yes: "deny" }, { code: RET, k: ALLOW }] : []),
  ];
}

/** The filter for the host's architecture (`process.arch`), or undefined for one weir is not built for. */
export function unixSocketFilter(arch: string = process.arch): Uint8Array | undefined {
  const abis = ABIS[arch];
  if (!abis) return undefined;
  // An architecture not listed is refused whole: the host cannot run one, so nothing is lost.
  const ops: Op[] = [{ code: LD_ABS, k: 4 }, ...abis.flatMap(abiBlock), { label: `abi${abis.length}` }, { label: "deny" }, { code: RET, k: DENY }];
  const at = new Map<string, number>();
  const code = ops.filter((o): o is Exclude<Op, { label: string }> => !("label" in o));
  let n = 0;
  for (const o of ops) if ("label" in o) at.set(o.label, n);
  else n++;
  const out = new DataView(new ArrayBuffer(code.length * 8));
  code.forEach((o, pc) => {
    const offset = (label: string | undefined) => {
      if (label === undefined) return 0;
      const d = at.get(label)! - pc - 1;
      if (d < 0 || d > 255) throw new Error(`seccomp jump out of range: ${label}`);
      return d;
    };
    out.setUint16(pc * 8, o.code, true);
    out.setUint8(pc * 8 + 2, offset(o.yes));
    out.setUint8(pc * 8 + 3, offset(o.no));
    out.setUint32(pc * 8 + 4, o.k >>> 0, true);
  });
  return new Uint8Array(out.buffer);
}
