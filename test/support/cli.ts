import { mkdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * Where bun keeps what it transpiled when a test runs weir from source. Tests give weir a fresh
 * home, so bun's default cache (under the home) would be empty at every start and each run would
 * transpile the whole source again; this one is inside the project's node_modules.
 */
const TRANSPILER_CACHE = join(ROOT, "node_modules", ".cache", "weir-test-transpiler");

/**
 * The command that runs weir: the compiled binary when WEIR_BIN is set (CI runs the end-to-end
 * tests against it), else the source through bun (`env` sets the transpiler cache whatever
 * environment the caller gives it, and execs bun in its place).
 */
export function weirCommand(): string[] {
  const bin = process.env.WEIR_BIN;
  // From source, bun is told what the compiled binary is built to do: read no .env, bunfig.toml or
  // tsconfig.json of the directory it starts in (the workspace).
  const source = ["--no-env-file", `--config=${join(ROOT, "bunfig.toml")}`, `--tsconfig-override=${join(ROOT, "tsconfig.json")}`, join(ROOT, "src", "cli", "main.ts")];
  return bin ? [bin] : ["env", `BUN_RUNTIME_TRANSPILER_CACHE_PATH=${TRANSPILER_CACHE}`, process.execPath, ...source];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs weir with an isolated environment: HOME and XDG dirs inside `home`, no API keys from the
 * developer's shell, no colour unless asked.
 */
export async function runWeir(
  args: string[],
  opts: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number },
): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: opts.home,
    XDG_CONFIG_HOME: join(opts.home, ".config"),
    XDG_DATA_HOME: join(opts.home, ".local", "share"),
    ...opts.env,
  };
  // weir refuses the home itself as a workspace: without a cwd, a project directory inside it.
  const cwd = opts.cwd ?? join(opts.home, "project");
  mkdirSync(cwd, { recursive: true });
  const proc = Bun.spawn([...weirCommand(), ...args], {
    cwd,
    env,
    stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
    stdout: "pipe",
    stderr: "pipe",
    // A test of a hang gets a killed weir (a signal's exit code), not a test runner's timeout.
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
