import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { cgroupsAvailable } from "../../src/workspace/limits.ts";
import { createSandbox, detectSandbox } from "../../src/workspace/sandbox.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The process limit holds for root: prlimit's --nproc does not bind uid 0, a pids cgroup does. The
 * kernel is the oracle: a program forks until fork fails and says how many it got. Played both ways
 * where weir runs as root: with the cgroup the forks stop at the limit; prlimit alone lets them all
 * through (the reason for the cgroup).
 */
const root = process.getuid?.() === 0;
const viable = detectSandbox().kind === "bwrap" && cgroupsAvailable();
const PYTHON = Bun.which("python3") ? Bun.spawnSync(["python3", "-c", "import sys; print(sys.executable)"]).stdout.toString().trim() : "";
const FORKS = "import os, time\nok = 0\nfor i in range(200):\n    try:\n        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n        time.sleep(2)\n        os._exit(0)\n    ok += 1\nprint(ok)";

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

async function forks(processes: number): Promise<number> {
  tmp = tempDir("weir-limits-");
  const base = realpathSync(tmp.path);
  const ws = join(base, "ws");
  mkdirSync(ws);
  const sandbox = createSandbox({ mode: "workspace-write", root: ws, home: join(base, "home"), processes });
  const run = await sandbox.run({ argv: [PYTHON, "-c", FORKS], cwd: ws, timeoutMs: 30_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
  return Number(run.output.trim().split("\n").at(-1));
}

describe.skipIf(!viable || !PYTHON)("a command's process limit", () => {
  test("a pids cgroup stops a command's forks at the limit", async () => {
    const got = await forks(40);
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThan(40);
  });

  test.skipIf(!root)("as root, prlimit alone would not have: the same forks all start without the cgroup", async () => {
    const bare = Bun.spawnSync(["prlimit", "--nproc=40", "--", PYTHON, "-c", FORKS]);
    expect(Number(bare.stdout.toString().trim())).toBe(200);
  });
});
