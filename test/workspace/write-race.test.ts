import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeInside, writeFileInside } from "../../src/workspace/atomic.ts";
import { PathRefused, resolveInWorkspace } from "../../src/workspace/containment.ts";
import { tempDir } from "../support/temp.ts";

/**
 * A command swaps a directory of the workspace with a symlink leading out (rename exchange, the
 * kernel's atomic swap) while weir writes under that directory: every write is resolved and then
 * written as write_file does it, and the oracle is the directory outside, which must stay empty of
 * files and temp files alike.
 */
const python = Bun.which("python3");
const SWAPPER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
os.chdir(sys.argv[1])
end = time.time() + float(sys.argv[2])
while time.time() < end:
    libc.renameat2(-100, b"d", -100, b"l", 2)
`;

/**
 * A workspace with `d/` and a link `l` to a directory outside, `prepare` run on both, then `race`
 * run while a swapper exchanges the two names; the swapper is stopped, what `race` returned is run
 * (checks that need the names to stay put), and the directories are removed.
 */
async function whileSwapping(prepare: (root: string, outside: string) => void, race: (root: string, outside: string) => Promise<(() => void) | void>): Promise<void> {
  const tmp = tempDir("weir-race-");
  try {
    const base = realpathSync(tmp.path);
    const root = join(base, "ws");
    const outside = join(base, "outside");
    mkdirSync(join(root, "d"), { recursive: true });
    mkdirSync(outside);
    prepare(root, outside);
    symlinkSync(outside, join(root, "l"));
    const swapper = Bun.spawn([python!, "-c", SWAPPER, root, "60"], { stdout: "ignore", stderr: "inherit" });
    // The race starts once the swapping has.
    while (!lstatSync(join(root, "d")).isSymbolicLink()) await Bun.sleep(5);
    let after: (() => void) | void;
    try {
      after = await race(root, outside);
    } finally {
      swapper.kill();
      await swapper.exited;
    }
    after?.();
  } finally {
    tmp.cleanup();
  }
}

describe.skipIf(process.platform !== "linux" || !python)("writes under a directory swapped with a symlink out", () => {
  test("1,500 writes while the directory is exchanged with a link: nothing lands outside", async () => {
    await whileSwapping(
      () => {},
      async (root, outside) => {
        let written = 0;
        let refused = 0;
        for (let i = 0; i < 1_500; i++) {
          try {
            const p = resolveInWorkspace(root, `d/sub${i % 7}/f${i}.txt`, { home: join(root, "..", "home") });
            writeFileInside(root, p.relative, `x${i}`);
            written++;
          } catch (e) {
            if (!(e instanceof PathRefused)) throw e;
            refused++;
          }
          if (i % 100 === 0) await Bun.sleep(0);
        }
        expect(readdirSync(outside, { recursive: true })).toEqual([]);
        // The swap really raced the writes: some went through and some were refused mid-walk.
        expect(written).toBeGreaterThan(0);
        expect(written + refused).toBe(1_500);
      },
    );
  });
});

describe.skipIf(process.platform !== "linux" || !python)("removals under a directory swapped with a symlink out", () => {
  test("1,500 removals while the directory is exchanged with a link to files of the same names: none outside goes", async () => {
    await whileSwapping(
      (root, outside) => {
        for (let i = 0; i < 1_500; i++) {
          writeFileSync(join(root, "d", `f${i}`), "mine");
          writeFileSync(join(outside, `f${i}`), "theirs");
        }
      },
      async (root, outside) => {
        let links = 0;
        for (let i = 0; i < 1_500; i++) {
          if (removeInside(root, `d/f${i}`).link) links++;
          if (i % 100 === 0) await Bun.sleep(0);
        }
        expect(readdirSync(outside).length).toBe(1_500);
        // The swap really raced the removals: some met the link on the way and left their file.
        // Which name is the directory is asked once the swapping has stopped.
        return () => {
          const mine = [join(root, "d"), join(root, "l")].find((p) => !lstatSync(p).isSymbolicLink())!;
          expect(links + readdirSync(mine).length).toBeGreaterThan(0);
        };
      },
    );
  });
});
