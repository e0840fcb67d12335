import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inBatch, mkdirInside, placeInside, removeInside, symlinkInside, writeFileInside } from "../../src/workspace/atomic.ts";
import { PathRefused } from "../../src/workspace/containment.ts";
import { tempDir } from "../support/temp.ts";

/**
 * A batch of writes shares directory handles (a settled change set of thousands of files walks each
 * directory once). A handle must never outlive the directory it names: what the batch itself removes
 * or replaces is walked again, so a later write lands in the new directory, or is refused at a link.
 */
function world() {
  const tmp = tempDir("weir-batch-");
  const base = realpathSync(tmp.path);
  const root = join(base, "ws");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside, cleanup: tmp.cleanup };
}

describe.skipIf(process.platform !== "linux")("writes in one batch", () => {
  test("a directory the batch removes and makes again receives the next write; none is lost", () => {
    const w = world();
    try {
      inBatch(w.root, () => {
        writeFileInside(w.root, "a/b/one.txt", "1");
        removeInside(w.root, "a");
        writeFileInside(w.root, "a/b/two.txt", "2");
      });
      expect(readdirSync(join(w.root, "a", "b"))).toEqual(["two.txt"]);
    } finally {
      w.cleanup();
    }
  });

  test("a directory the batch replaces by a link out is not written through: the write is refused, nothing lands outside", () => {
    const w = world();
    try {
      expect(() =>
        inBatch(w.root, () => {
          writeFileInside(w.root, "a/b/one.txt", "1");
          symlinkInside(w.root, "a/b", w.outside);
          writeFileInside(w.root, "a/b/two.txt", "2");
        }),
      ).toThrow(PathRefused);
      expect(readdirSync(w.outside)).toEqual([]);
    } finally {
      w.cleanup();
    }
  });

  test("a directory replaced by a file placed over it, then made again, is a new directory", () => {
    const w = world();
    try {
      const from = join(w.outside, "f");
      inBatch(w.root, () => {
        writeFileInside(w.root, "a/x.txt", "x");
        writeFileSync(from, "file now");
        placeInside(w.root, "a", from, 0o644);
        expect(readFileSync(join(w.root, "a"), "utf8")).toBe("file now");
        mkdirInside(w.root, "a", 0o755);
        writeFileInside(w.root, "a/y.txt", "y");
      });
      expect(readdirSync(join(w.root, "a"))).toEqual(["y.txt"]);
      expect(existsSync(join(w.root, "a", "x.txt"))).toBe(false);
    } finally {
      w.cleanup();
    }
  });

  test("every handle a batch opened is closed when it ends, many directories or few", () => {
    const w = world();
    try {
      const open = () => readdirSync("/proc/self/fd").length;
      const before = open();
      inBatch(w.root, () => {
        for (let i = 0; i < 600; i++) writeFileInside(w.root, `d${i}/f.txt`, String(i));
      });
      expect(open()).toBe(before);
      expect(readdirSync(w.root)).toHaveLength(600);
    } finally {
      w.cleanup();
    }
  });
});
