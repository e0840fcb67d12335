import { existsSync } from "node:fs";

/**
 * The JavaScriptCore options a compiled weir runs with. JSC reads its options from the environment
 * when the process starts, so setting them takes one exec of the binary by itself (same pid, same
 * descriptors, about 6 ms).
 *
 * `useOMGJIT=0`: WebAssembly stays in the interpreter and the baseline compiler. The optimising
 * tier compiles tree-sitter's hot parse loop while a first run in a repository parses its
 * candidates: that cost about 30 MB of memory and 200 ms of CPU in weir's own tree, more than the
 * faster code ever paid back (bench/memory.ts, the cold rows).
 *
 * `useDFGJIT=0`, for everything but `weir eval`: JavaScript stops at the baseline JIT. A run is
 * short, and what the optimising JITs compile in it costs about 4 MB of memory in weir's tree and
 * no less CPU than it saves, for a first request in 32k files too (bench/memory.ts,
 * bench/first-request.ts). An eval replay is a long numeric loop, five times slower without them.
 */
export function engineOptions(command: string | undefined): Record<string, string> {
  return command === "eval" ? { BUN_JSC_useOMGJIT: "0" } : { BUN_JSC_useOMGJIT: "0", BUN_JSC_useDFGJIT: "0" };
}

type Exec = (file: string, args: string[], env: Record<string, string | undefined>) => never;

/**
 * The file this process runs, to exec again. On Linux the kernel's own link: it reaches the binary
 * even when an upgrade has replaced it since the start, where `process.execPath` then names a path
 * with " (deleted)" on it that no exec can open.
 */
function selfExecutable(): string {
  return process.platform === "linux" && existsSync("/proc/self/exe") ? "/proc/self/exe" : process.execPath;
}

/**
 * Replaces this process with the same binary and `options`, unless they are set already; after the
 * exec they are taken out of `process.env`, so no command weir starts inherits them. Not from source
 * (tests can run the source with their own bun), not on Windows (no exec); a failed exec leaves the
 * run going as it was.
 */
export function startWithEngineOptions(
  compiled: boolean,
  options: Record<string, string>,
  env: Record<string, string | undefined> = process.env,
  self = selfExecutable(),
): void {
  const names = Object.keys(options);
  if (names.every((n) => env[n] !== undefined)) {
    for (const n of names) delete env[n];
    return;
  }
  const execve = (process as { execve?: Exec }).execve;
  if (!compiled || process.platform === "win32" || typeof execve !== "function") return;
  // A failed exec leaves a warning that process.execve is experimental, printed on the next tick:
  // it is no concern of the person's, so no one hears it; later warnings are heard as before.
  const listeners = process.listeners("warning");
  process.removeAllListeners("warning");
  try {
    execve(self, [process.argv0, ...process.argv.slice(2)], { ...env, ...options });
  } catch {
    // The run goes on with the engine's defaults.
  }
  setTimeout(() => {
    for (const l of listeners) process.on("warning", l);
  }, 0);
}
