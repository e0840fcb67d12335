/**
 * Cross-compiles weir into single executables under dist/ and writes dist/SHA256SUMS.
 *   bun run build.ts                 all five targets
 *   bun run build.ts --target host   only this machine's platform
 * The version (package.json) and git commit are embedded with --define; `weir --version` prints both.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "./package.json" with { type: "json" };

const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
type Target = (typeof TARGETS)[number];

function hostTarget(): Target {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const t = `${os}-${process.arch}` as Target;
  if (!TARGETS.includes(t)) throw new Error(`no build target for this host (${t})`);
  return t;
}

function git(...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "";
}

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

const sums: string[] = [];
for (const target of targets) {
  const outfile = join(dist, `weir-${target}${target.startsWith("windows") ? ".exe" : ""}`);
  const started = performance.now();
  const r = Bun.spawnSync(
    [
      process.execPath,
      "build",
      "--compile",
      "--minify",
      // Precompiled bytecode skips parsing at start-up (measured by bench/startup.ts).
      "--bytecode",
      // Tier-up thresholds ×8: a run is short, and code the optimising JITs compile during start-up
      // and the first compile rarely pays back; it costs about 5 MB of a two-turn run's memory and
      // a fifth of its CPU time (bench/memory.ts). Hot loops still reach the optimising tiers.
      "--compile-jit-policy=8",
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
      "src/cli/main.ts",
      "--outfile",
      outfile,
    ],
    { cwd: import.meta.dir, stdout: "pipe", stderr: "pipe" },
  );
  if (r.exitCode !== 0) {
    console.error(`build.ts: ${target} failed:\n${r.stderr.toString()}`);
    process.exit(1);
  }
  const sum = createHash("sha256").update(readFileSync(outfile)).digest("hex");
  sums.push(`${sum}  ${outfile.slice(dist.length + 1)}`);
  console.log(`built ${outfile.slice(import.meta.dir.length + 1)} in ${((performance.now() - started) / 1000).toFixed(1)}s`);
}
writeFileSync(join(dist, "SHA256SUMS"), `${sums.join("\n")}\n`);
console.log(`weir ${pkg.version} (${commit}): ${targets.length} build(s), dist/SHA256SUMS written`);
