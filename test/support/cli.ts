import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { compileArgv, hostTarget } from "../../build.ts";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * Where bun keeps what it transpiled when a test runs weir from source. Tests give weir a fresh
 * home, so bun's default cache (under the home) would be empty at every start and each run would
 * transpile the whole source again; this one is inside the project's node_modules.
 */
const TRANSPILER_CACHE = join(ROOT, "node_modules", ".cache", "weir-test-transpiler");

/** Whether the tests run a compiled binary (the product) rather than the source. */
export const runsCompiled = process.env.WEIR_FROM_SOURCE !== "1";

let built: string | undefined;

/** Where the tests' binaries are kept, one per state of what the build reads (`buildKey`). */
const TEST_BIN = join(ROOT, "node_modules", ".cache", "weir-test-bin");

/** What the build reads: the source, the policies it embeds, the build script and the dependency set. */
const BUILD_INPUTS = ["src", "policies", "build.ts", "package.json", "bun.lock", "tsconfig.json", "bunfig.toml"];

/** A digest of every build input's path and bytes, and of the bun that compiles them. */
function buildKey(): string {
  const hash = new Bun.CryptoHasher("sha256").update(`${Bun.version} ${Bun.revision}\n`);
  const add = (rel: string) => {
    const abs = join(ROOT, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(join(rel, name));
      return;
    }
    hash.update(`${rel}\0${statSync(abs).size}\0`).update(readFileSync(abs));
  };
  for (const input of BUILD_INPUTS) add(input);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The binary of the source under test, compiled with the release flags (build.ts `compileArgv`,
 * without the recorded bytecode order). Every test file runs in a process of its own, so the binary
 * is kept by what the build read (`buildKey`) and built only when no test process has built it
 * from the same source: a file's first test then starts at once, not after a compile. It is built
 * under a name of its own and renamed into place, so processes building at once each finish with a
 * whole binary; binaries of other sources are removed once an hour old.
 */
function testBinary(): string {
  if (built) return built;
  const key = buildKey();
  const name = process.platform === "win32" ? "weir.exe" : "weir";
  const dir = join(TEST_BIN, key);
  const target = join(dir, name);
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    const fresh = join(dir, `${process.pid}-${name}`);
    const r = Bun.spawnSync(compileArgv(hostTarget(), fresh, "test"), { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`building the test binary failed:\n${r.stderr.toString()}`);
    renameSync(fresh, target);
    for (const other of readdirSync(TEST_BIN)) {
      const at = join(TEST_BIN, other);
      if (other !== key && Date.now() - statSync(at).mtimeMs > 3_600_000) rmSync(at, { recursive: true, force: true });
    }
  }
  built = target;
  return built;
}

/**
 * The command that runs weir, as a person starts it: the compiled binary. WEIR_BIN names one (CI
 * runs the end-to-end tests again against the release build); otherwise the source under test is
 * compiled once. WEIR_FROM_SOURCE=1 runs the source through bun instead, for a stack trace (`env`
 * sets the transpiler cache whatever environment the caller gives it, and execs bun in its place).
 */
export function weirCommand(): string[] {
  if (process.env.WEIR_BIN) return [process.env.WEIR_BIN];
  if (runsCompiled) return [testBinary()];
  // From source, bun is told what the compiled binary is built to do: read no .env, bunfig.toml or
  // tsconfig.json of the directory it starts in (the workspace).
  const source = ["--no-env-file", `--config=${join(ROOT, "bunfig.toml")}`, `--tsconfig-override=${join(ROOT, "tsconfig.json")}`, join(ROOT, "src", "cli", "main.ts")];
  return ["env", `BUN_RUNTIME_TRANSPILER_CACHE_PATH=${TRANSPILER_CACHE}`, process.execPath, ...source];
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

/**
 * weir started in the background with its stdout read as it comes: `until(needle)` resolves with
 * everything read once the output holds `needle` (or the process ended), `rest()` reads to the end.
 */
export function weirStreaming(args: string[], opts: { home: string; cwd: string }) {
  const proc = Bun.spawn([...weirCommand(), ...args], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: opts.home, XDG_CONFIG_HOME: join(opts.home, ".config"), XDG_DATA_HOME: join(opts.home, ".local", "share") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const read = async (enough: () => boolean) => {
    while (!enough()) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    return seen;
  };
  return { proc, until: (needle: string) => read(() => seen.includes(needle)), rest: () => read(() => false) };
}
