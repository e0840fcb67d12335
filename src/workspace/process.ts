import { statfsSync } from "node:fs";

/** Environment variables whose names suggest a secret; they never reach a command weir runs. */
const SECRET_ENV = /(^|_)(API_?KEY|KEY_?ID|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|PRIVATE_?KEY|ACCESS_?KEY|SESSION_?KEY|AUTH)(_|$)/i;

export function scrubEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !SECRET_ENV.test(k)) out[k] = v;
  return out;
}

export interface ProgramRun {
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** stdout and stderr interleaved as they arrived, up to the cap. */
  output: string;
  /** Bytes beyond the cap that were dropped from the middle. */
  droppedBytes: number;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  pid: number | undefined;
  /** stderr alone, when asked for with `separateStderr` (then `output` is stdout only). */
  stderr?: string;
  /** It was ended because the disk it writes to fell below its floor (`diskFloor`). */
  diskFull?: true;
}

export interface ProgramOptions {
  program: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  /** Bytes of output kept: the first half and the last half; the middle is dropped. */
  outputCap: number;
  env: Record<string, string>;
  signal?: AbortSignal;
  stdin?: string;
  onStart?: (pid: number | undefined) => void;
  onOutput?: () => void;
  /** Keep stderr apart (hooks: stdout is data, stderr is the message). */
  separateStderr?: boolean;
  /** Open descriptors the child gets as fd 3, 4, … (bubblewrap reads its options from one). */
  fds?: number[];
  /** Ends the program when the file system holding `path` has fewer than `bytes` free (`diskFloor`), or fewer than `inodes` (`inodeFloor`). */
  diskFloor?: { path: string; bytes: number; inodes?: number };
}

/** Bytes free to an unprivileged writer on the file system holding `path`, and its size; undefined when unknown. I/O. */
export function diskSpace(path: string): DiskSpace | undefined {
  try {
    const s = statfsSync(path);
    // A file system that counts no inodes (btrfs) reports none in total.
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize, ...(s.files > 0 ? { files: { free: s.ffree, total: s.files } } : {}) };
  } catch {
    return undefined;
  }
}

/** A file system's free and total bytes, and its free and total inodes where it counts them. */
interface DiskSpace {
  free: number;
  total: number;
  files?: { free: number; total: number };
}

/**
 * The free inodes a command may not take a file system below: 5% of them, or half of what is free
 * when less than that is left already. Empty files take no space but one inode each. Pure.
 */
export function inodeFloor(files: { free: number; total: number }): number {
  return Math.min(files.free / 2, files.total * 0.05);
}

/**
 * The free space a command may not take a disk below: 5% of it or 1 GiB, whichever is more, or half
 * of what is free when less than that is left already. Pure.
 */
export function diskFloor(space: { free: number; total: number }): number {
  return Math.min(space.free / 2, Math.max(space.total * 0.05, 2 ** 30));
}

/** How often a running program's disk is looked at. */
const DISK_POLL_MS = 200;

/** Ends the whole process tree: the process group on Unix, taskkill /T on Windows. */
export function killTree(pid: number, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    if (process.platform === "win32") Bun.spawn(["taskkill", "/pid", String(pid), "/T", "/F"], { stdio: ["ignore", "ignore", "ignore"] });
    else process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs a program with an argument array (no shell) in its own process group, with a timeout and an
 * output cap. Never throws for the program's own failure: a missing program, a non-zero exit, a
 * timeout or a cancel are all reported in the result. Bun.spawn, not node's child_process, whose
 * module alone costs a run about 2 MB.
 */
export async function runProgram(o: ProgramOptions): Promise<ProgramRun> {
  const started = performance.now();
  const head: Buffer[] = [];
  let headBytes = 0;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let dropped = 0;
  const half = Math.floor(o.outputCap / 2);
  const take = (chunk: Buffer) => {
    o.onOutput?.();
    if (headBytes < half) {
      const part = chunk.subarray(0, half - headBytes);
      head.push(part);
      headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tailBytes > o.outputCap - half && tail.length > 0) {
      const excess = tailBytes - (o.outputCap - half);
      const first = tail[0]!;
      if (first.length <= excess) {
        tail.shift();
        tailBytes -= first.length;
        dropped += first.length;
      } else {
        tail[0] = first.subarray(excess);
        tailBytes -= excess;
        dropped += excess;
      }
    }
  };

  let child;
  try {
    child = Bun.spawn([o.program, ...o.args], {
      cwd: o.cwd,
      env: o.env,
      // Its own session and process group, so the whole tree can be ended (killTree).
      detached: process.platform !== "win32",
      stdio: [o.stdin === undefined ? "ignore" : Buffer.from(o.stdin), "pipe", "pipe", ...(o.fds ?? [])],
      windowsHide: true,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const output =
      code === "ENOENT" ? `program not found: ${o.program} (is it installed and on PATH?)` : `could not start ${o.program}: ${(e as Error).message}`;
    return {
      exitCode: null,
      signal: null,
      output,
      droppedBytes: 0,
      timedOut: false,
      cancelled: false,
      durationMs: performance.now() - started,
      pid: undefined,
    };
  }
  const pid = child.pid;
  o.onStart?.(pid);
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(pid);
  }, o.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    killTree(pid);
  };
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  let diskFull = false;
  const floor = o.diskFloor;
  const watch = floor
    ? setInterval(() => {
        const space = diskSpace(floor.path);
        if ((space?.free ?? Infinity) >= floor.bytes && (space?.files?.free ?? Infinity) >= (floor.inodes ?? 0)) return;
        diskFull = true;
        killTree(pid);
      }, DISK_POLL_MS)
    : undefined;
  const errParts: Buffer[] = [];
  let errBytes = 0;
  const keepErr = (c: Buffer) => {
    if (errBytes < o.outputCap) errParts.push(c.subarray(0, o.outputCap - errBytes));
    errBytes += c.length;
  };
  const drain = async (stream: ReadableStream<Uint8Array>, into: (c: Buffer) => void) => {
    for await (const chunk of stream) into(Buffer.from(chunk));
  };
  await Promise.all([drain(child.stdout, take), drain(child.stderr, o.separateStderr ? keepErr : take), child.exited]);
  clearTimeout(timer);
  clearInterval(watch);
  o.signal?.removeEventListener("abort", onAbort);
  // Children that outlived the leader are ended with it.
  if (process.platform !== "win32") killTree(pid);
  const output = Buffer.concat(head).toString("utf8") + (dropped > 0 ? "\n" : "") + Buffer.concat(tail).toString("utf8");
  const signal = child.signalCode === null ? null : String(child.signalCode);
  return {
    exitCode: child.exitCode, signal, output, droppedBytes: dropped, timedOut, cancelled, durationMs: performance.now() - started, pid,
    ...(o.separateStderr ? { stderr: Buffer.concat(errParts).toString("utf8") } : {}),
    ...(diskFull ? { diskFull } : {}),
  };
}
