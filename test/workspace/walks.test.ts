import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WalkStore } from "../../src/workspace/walks.ts";
import { walk, walkFiles, WalkCache } from "../../src/workspace/walker.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The walk kept between runs: restored, it gives exactly the list a fresh walk gives, whatever
 * changed in between (files added or removed, ignore rules edited); broken or foreign files on disk
 * cost a full walk and nothing else.
 */
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

function tree() {
  tmp = tempDir();
  const root = join(tmp.path, "ws");
  for (const [p, t] of Object.entries({ "src/a.ts": "a", "src/b/c.ts": "c", "docs/x.md": "x", ".gitignore": "out/\n", "out/gen.js": "g" })) {
    mkdirSync(join(root, p, ".."), { recursive: true });
    writeFileSync(join(root, p), t);
  }
  return { root, store: new WalkStore(join(tmp.path, "data", "walks")) };
}

const fresh = (root: string) => Array.from(walk(root), (e) => e.path);

describe("the walk kept between runs", () => {
  test("a saved walk restores to the same list, and sees a file added, a file removed and an ignore rule changed since", () => {
    const { root, store } = tree();
    const first = new WalkCache();
    expect(walkFiles(root, first)).toEqual(fresh(root));
    store.save(root, first, Date.now() + 10_000);
    writeFileSync(join(root, "src", "new.ts"), "n");
    rmSync(join(root, "docs", "x.md"));
    writeFileSync(join(root, ".gitignore"), "");
    // An edit within the same second must still be seen: the rule file's mtime is set apart.
    utimesSync(join(root, ".gitignore"), new Date(), new Date(Date.now() + 5_000));
    const restored = store.load(root);
    expect(restored.dirs.size).toBeGreaterThan(0);
    expect(walkFiles(root, restored)).toEqual(fresh(root));
    expect(walkFiles(root, restored)).toContain("out/gen.js");
  });

  test("nothing is written when no directory was read; a corrupt file or another workspace's costs a full walk", () => {
    const { root, store } = tree();
    const c = new WalkCache();
    walkFiles(root, c);
    store.save(root, c, Date.now() + 10_000);
    const dir = join(tmp!.path, "data", "walks");
    const [file] = readdirSync(dir);
    const again = store.load(root);
    walkFiles(root, again);
    expect(again.changed).toBe(false);
    writeFileSync(join(dir, file!), "{not json");
    expect(store.load(root).dirs.size).toBe(0);
    writeFileSync(join(dir, file!), JSON.stringify({ root: "/elsewhere", dirs: [...c.dirs] }));
    expect(store.load(root).dirs.size).toBe(0);
    writeFileSync(join(dir, file!), JSON.stringify({ root, dirs: [["x", { mtime: "no" }], 7] }));
    const partial = store.load(root);
    expect(walkFiles(root, partial)).toEqual(fresh(root));
  });

  test("a directory changed in the last two seconds is not kept: a coarse clock could hide a change in the same tick", () => {
    const { root, store } = tree();
    const c = new WalkCache();
    walkFiles(root, c);
    store.save(root, c);
    expect(store.load(root).dirs.size).toBe(0);
    c.changed = true;
    store.save(root, c, Date.now() + 10_000);
    expect(store.load(root).dirs.size).toBe(c.dirs.size);
  });

  test("property: after any changes between two runs, the restored walk lists what a fresh walk lists", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("add" as const), dir: fc.constantFrom("", "src", "src/b", "lib"), name: fc.constantFrom("p.ts", "q.md", "r.js") }),
      fc.record({ kind: fc.constant("rm" as const), dir: fc.constantFrom("", "src", "src/b", "lib"), name: fc.constantFrom("p.ts", "q.md", "a.ts") }),
      fc.record({ kind: fc.constant("ignore" as const), dir: fc.constantFrom("", "src"), name: fc.constantFrom("*.md\n", "b/\n", "") }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 6 }), (ops) => {
        const { root, store } = tree();
        const c = new WalkCache();
        walkFiles(root, c);
        store.save(root, c, Date.now() + 10_000);
        let tick = 1;
        for (const o of ops) {
          const dir = join(root, o.dir);
          mkdirSync(dir, { recursive: true });
          if (o.kind === "add") writeFileSync(join(dir, o.name), "x");
          if (o.kind === "rm") rmSync(join(dir, o.name), { force: true });
          if (o.kind === "ignore") {
            writeFileSync(join(dir, ".gitignore"), o.name);
            utimesSync(join(dir, ".gitignore"), new Date(), new Date(Date.now() + 1_000 * tick++));
          }
          // Directory mtimes move with each change, as on a real file system seconds apart.
          utimesSync(dir, new Date(), new Date(Date.now() + 1_000 * tick++));
        }
        const ok = JSON.stringify(walkFiles(root, store.load(root))) === JSON.stringify(fresh(root));
        tmp!.cleanup();
        return ok;
      }),
      { numRuns: 40 },
    );
  });
});
