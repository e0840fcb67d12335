import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { foldCutShort, markFold, unmarkFold } from "../../src/workspace/fold.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The fold's mark, with real processes racing for it: two never hold it at once, a dead process's
 * mark is a fold cut short until a live process takes the fold, and none is taken by two.
 */
const FOLD = join(import.meta.dir, "../../src/workspace/fold.ts");
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

/** A process that tries for the fold `tries` times from `at` (ms since the epoch), logging when it holds it. */
function racer(dir: string, log: string, at: number, tries: number) {
  const script = `
    const { appendFileSync } = await import("node:fs");
    const { markFold, unmarkFold } = await import(${JSON.stringify(FOLD)});
    while (Date.now() < ${at}) {}
    for (let i = 0; i < ${tries}; i++) {
      if (markFold(${JSON.stringify(dir)})) {
        appendFileSync(${JSON.stringify(log)}, "in " + process.pid + "\\n");
        Bun.sleepSync(2);
        appendFileSync(${JSON.stringify(log)}, "out " + process.pid + "\\n");
        unmarkFold(${JSON.stringify(dir)});
      }
      Bun.sleepSync(Math.random() * 3);
    }`;
  return Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "inherit" });
}

describe("the fold's mark", () => {
  test("processes racing for it, a dead one's mark among them: one at a time, and the dead mark is taken once", async () => {
    tmp = tempDir();
    const dir = tmp.path;
    const log = join(dir, "log.txt");
    writeFileSync(log, "");
    // A fold cut short: its process is gone.
    writeFileSync(join(dir, "folding.999999-1.json"), JSON.stringify({ pid: 999_999, start: "1" }));
    expect(foldCutShort(dir)).toBe(true);
    const at = Date.now() + 600;
    const procs = Array.from({ length: 6 }, () => racer(dir, log, at, 40));
    for (const p of procs) expect(await p.exited).toBe(0);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    // Held at least once, and every hold ends before the next begins, by the same process.
    expect(lines.length).toBeGreaterThan(1);
    for (let i = 0; i < lines.length; i += 2) {
      const [what, pid] = lines[i]!.split(" ");
      expect(what).toBe("in");
      expect(lines[i + 1]).toBe(`out ${pid}`);
    }
    expect(readdirSync(dir).filter((n) => n.startsWith("folding."))).toEqual([]);
    expect(foldCutShort(dir)).toBe(false);
  });

  test("this process's own mark: taken again after it is let go, and never a fold cut short while it lives", () => {
    tmp = tempDir();
    expect(markFold(tmp.path)).toBe(true);
    expect(foldCutShort(tmp.path)).toBe(false);
    unmarkFold(tmp.path);
    expect(markFold(tmp.path)).toBe(true);
    unmarkFold(tmp.path);
    expect(readdirSync(tmp.path)).toEqual([]);
  });
});
