/**
 * The JavaScriptCore options a compiled weir runs with. JSC reads its options from the environment
 * when the process starts, so setting them takes one exec of the binary by itself (same pid, same
 * descriptors, about 6 ms).
 *
 * `useOMGJIT=0`: WebAssembly stays in the interpreter and the baseline compiler. The optimising
 * tier compiles tree-sitter's hot parse loop while a first run in a repository parses its
 * candidates: that cost about 30 MB of memory and 200 ms of CPU in weir's own tree, more than the
 * faster code ever paid back (bench/memory.ts, the cold rows). JavaScript's tiers are unchanged.
 */
const ENGINE: Record<string, string> = { BUN_JSC_useOMGJIT: "0" };

type Exec = (file: string, args: string[], env: Record<string, string | undefined>) => never;

/**
 * Replaces this process with the same binary and the engine options, unless they are set already;
 * after the exec they are taken out of `process.env`, so no command weir starts inherits them.
 * Not from source (tests run the source with their own bun), not on Windows (no exec); a failed
 * exec leaves the run going as it was.
 */
export function startWithEngineOptions(compiled: boolean, env: Record<string, string | undefined> = process.env): void {
  const names = Object.keys(ENGINE);
  if (names.every((n) => env[n] !== undefined)) {
    for (const n of names) delete env[n];
    return;
  }
  const execve = (process as { execve?: Exec }).execve;
  if (!compiled || process.platform === "win32" || typeof execve !== "function") return;
  try {
    execve(process.execPath, [process.argv0, ...process.argv.slice(2)], { ...env, ...ENGINE });
  } catch {
    // The run goes on with the engine's defaults.
  }
}
