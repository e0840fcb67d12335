/**
 * What the command sandbox costs: the same command (`true`, then `git status` in a small
 * repository) started bare and inside bubblewrap as weir wraps it, 40 runs each, interleaved so
 * machine noise hits both alike. Prints medians and the difference (target: <= 15 ms a command).
 *   bun run bench sandbox
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProgram } from "../src/workspace/process.ts";
import { createSandbox, detectSandbox } from "../src/workspace/sandbox.ts";
import { median, sized } from "./lib/measure.ts";

if (detectSandbox().kind !== "bwrap") {
  console.log("sandbox bench: no bubblewrap on this machine; nothing to measure");
  process.exit(0);
}
const dir = realpathSync(mkdtempSync(join(tmpdir(), "weir-bench-sandbox-")));
const root = join(dir, "ws");
mkdirSync(root);
writeFileSync(join(root, "a.txt"), "a\n");
Bun.spawnSync(["git", "init", "-q"], { cwd: root });
const sandbox = createSandbox({ mode: "workspace-write", root, home: process.env.HOME ?? "" });
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
async function time(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const r = await runProgram({ program: argv[0]!, args: argv.slice(1), cwd: root, timeoutMs: 10_000, outputCap: 10_000, env });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.output}`);
  return performance.now() - t0;
}
try {
  for (const cmd of [["true"], ["git", "status", "--short"]]) {
    const bare: number[] = [];
    const boxed: number[] = [];
    await time(cmd);
    await time(sandbox.wrap(cmd, root));
    for (let i = 0; i < sized(40, 2); i++) {
      bare.push(await time(cmd));
      boxed.push(await time(sandbox.wrap(cmd, root)));
    }
    const b = median(bare);
    const s = median(boxed);
    console.log(`${cmd.join(" ").padEnd(18)} bare median ${b.toFixed(1)} ms, sandboxed ${s.toFixed(1)} ms: +${(s - b).toFixed(1)} ms (${(s / b).toFixed(2)}x; target +15 ms)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
