/**
 * Cross-compiles weir into single executables under dist/ and writes dist/SHA256SUMS.
 *   bun run build.ts                 all five targets
 *   bun run build.ts --target host   only this machine's platform
 * The version (package.json) and git commit are embedded with --define; `weir --version` prints both.
 * A first build of the host's binary records the bytecode order of a two-turn run (recordOrder).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "./package.json" with { type: "json" };
// The local wire server the tests use: the recorded run needs a model that answers.
import { MockServer } from "./test/support/mock-server.ts";

const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];

export function hostTarget(): Target {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const t = `${os}-${process.arch}` as Target;
  if (!TARGETS.includes(t)) throw new Error(`no build target for this host (${t})`);
  return t;
}

function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

/**
 * The command line that compiles weir for one target: the release flags, the version and `commit`
 * stamped in, and `order` laying the bytecode out by a recorded run (see recordOrder). The tests
 * build their binary with it too (test/support/cli.ts), so they run what ships.
 */
export function compileArgv(target: Target, outfile: string, commit: string, order?: string): string[] {
  return [
    process.execPath,
    "build",
    "--compile",
    "--minify",
    // Precompiled bytecode skips parsing at start-up (measured by bench/startup.ts).
    "--bytecode",
    ...(order ? [`--bytecode-order=${order}`] : []),
    // Tier-up thresholds ×32: a run is short, and what the optimising JITs compile during start-up
    // and the first compile rarely pays back. Against ×1 it saves about 6 MB of a two-turn run's
    // memory and a fifth of its CPU time (bench/memory.ts); a cold compile of 32k files and an
    // eval replay take the same CPU time. Hot loops still reach the optimising tiers.
    "--compile-jit-policy=32",
    // ESM with splitting keeps lazily imported modules (SDKs, MCP, sqlite) out of the start-up path.
    "--format=esm",
    "--splitting",
    // The binary starts inside untrusted repositories: it must not read their .env (which would set
    // weir's own environment, WEIR_BASE_URL included) or bunfig.toml (whose preload runs code in
    // weir's process, outside the sandbox), nor their tsconfig.json or package.json.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--no-compile-autoload-tsconfig",
    "--no-compile-autoload-package-json",
    `--target=bun-${target}`,
    `--define=WEIR_VERSION=${JSON.stringify(pkg.version)}`,
    `--define=WEIR_COMMIT=${JSON.stringify(commit)}`,
    join(import.meta.dir, "src", "cli", "main.ts"),
    "--outfile",
    outfile,
  ];
}

/** Compiles weir for one target, or ends the build with the compiler's error. */
function compile(target: Target, outfile: string, commit: string, order?: string): void {
  const r = Bun.spawnSync(compileArgv(target, outfile, commit, order), { cwd: import.meta.dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) {
    console.error(`build.ts: ${target} failed:\n${r.stderr.toString()}`);
    process.exit(1);
  }
}

/**
 * Which functions a person's run calls, in order: a first build of this host's binary runs a
 * two-turn task (read a file, answer) in this repository against the local wire server, once to
 * warm its outline cache and once recorded. The builds then place that bytecode together, so a run
 * maps fewer pages of the binary (about 3.5 MB less memory, bench/memory.ts). The profile holds
 * function hashes, not code, and serves every target. Home and data are a temp dir.
 */
async function recordOrder(scratch: string, commit: string): Promise<string | undefined> {
  const bin = join(scratch, "weir-unordered");
  const order = join(scratch, "run.order");
  const home = join(scratch, "home");
  mkdirSync(home);
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
  const server = await new MockServer().start();
  try {
    compile(hostTarget(), bin, commit);
    for (const recorded of [false, true]) {
      server.script({ turns: [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/cli/version.ts" } }] }, { text: "It prints the version." }] });
      const argv = [bin, "--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--verify-floor", "off", "what does src/cli/version.ts print?"];
      const p = Bun.spawn(argv, { cwd: import.meta.dir, env: recorded ? { ...env, BUN_BYTECODE_ORDER_OUT: order } : env, stdout: "ignore", stderr: "pipe" });
      if ((await p.exited) !== 0) throw new Error(await new Response(p.stderr).text());
    }
    return existsSync(order) ? order : undefined;
  } catch (e) {
    console.error(`build.ts: recording the bytecode order failed, building without it: ${String(e).split("\n")[0]}`);
    return undefined;
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  const arg = process.argv.indexOf("--target");
  const wanted = arg === -1 ? "all" : process.argv[arg + 1];
  if (wanted !== "all" && wanted !== "host" && !TARGETS.includes(wanted as Target)) {
    console.error(`build.ts: --target ${wanted} is not valid; use host, all, or one of ${TARGETS.join(", ")}`);
    process.exit(2);
  }
  const targets: Target[] = wanted === "all" ? [...TARGETS] : wanted === "host" ? [hostTarget()] : [wanted as Target];

  const commit = (git("rev-parse", "--short=12", "HEAD") || "unknown") + (git("status", "--porcelain") ? "-dirty" : "");
  const dist = join(import.meta.dir, "dist");
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });

  const scratch = mkdtempSync(join(tmpdir(), "weir-build-"));
  const sums: string[] = [];
  try {
    const order = await recordOrder(scratch, commit);
    for (const target of targets) {
      const outfile = join(dist, `weir-${target}${target.startsWith("windows") ? ".exe" : ""}`);
      const started = performance.now();
      compile(target, outfile, commit, order);
      const sum = createHash("sha256").update(readFileSync(outfile)).digest("hex");
      sums.push(`${sum}  ${outfile.slice(dist.length + 1)}`);
      console.log(`built ${outfile.slice(import.meta.dir.length + 1)} in ${((performance.now() - started) / 1000).toFixed(1)}s${order ? "" : " (no bytecode order)"}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  writeFileSync(join(dist, "SHA256SUMS"), `${sums.join("\n")}\n`);
  console.log(`weir ${pkg.version} (${commit}): ${targets.length} build(s), dist/SHA256SUMS written`);
}
