import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SymbolIndex } from "../../src/store/symbol-index.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp?.cleanup());

/** The tables an index of an earlier build had, with one workspace and one file in them; `words` as the build had it. */
function earlierIndex(words: boolean): string {
  tmp = tempDir();
  const path = join(tmp.path, "symbols.db");
  const old = new Database(path, { create: true });
  const key = "PRIMARY KEY (root, path)) WITHOUT ROWID";
  old.exec(`CREATE TABLE workspaces (root TEXT PRIMARY KEY, refreshed_at INTEGER NOT NULL, took_ms INTEGER NOT NULL);
    CREATE TABLE files (root TEXT NOT NULL, path TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL, ${key};
    ${words ? `CREATE TABLE words (root TEXT NOT NULL, path TEXT NOT NULL, filter BLOB NOT NULL, ${key};` : ""}
    CREATE TABLE symbols (root TEXT NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (root, name, path)) WITHOUT ROWID;
    INSERT INTO workspaces VALUES ('/w', 1, 1); INSERT INTO files VALUES ('/w', 'a.ts', 1, 1); INSERT INTO symbols VALUES ('/w', 'old', 'a.ts');`);
  old.close();
  return path;
}

describe("the symbol index on disk", () => {
  test("an index from a build before the word filters is dropped and built again, not read with a column missing", () => {
    const path = earlierIndex(false);
    const index = SymbolIndex.open(path);
    expect(index.status("/w")).toBeUndefined();
    expect(index.holds("/w")).toBe(false);
    const words = new Uint8Array(256).fill(7);
    index.apply("/w", [{ path: "a.ts", mtime: 2, size: 3, names: ["fresh"], words }], [], 1);
    expect(index.lookup("/w", ["fresh"]).map((f) => f.path)).toEqual(["a.ts"]);
    expect(index.filters("/w")).toEqual([{ path: "a.ts", mtime: 2, size: 3, sha: null, words }]);
    // An empty refresh still marks the workspace indexed: "nothing defined" is a fact, not a missing index.
    index.apply("/v", [], [], 1);
    expect([index.holds("/w"), index.holds("/v"), index.holds("/u")]).toEqual([true, true, false]);
    index.close();
  });

  test("an index from a build before the blob SHAs is dropped: its files could never be vouched for", () => {
    const path = earlierIndex(true);
    const index = SymbolIndex.open(path);
    expect(index.holds("/w")).toBe(false);
    index.apply("/w", [{ path: "a.ts", mtime: 2, size: 3, names: [], words: new Uint8Array(256), sha: "ab".repeat(20) }], [], 1);
    expect(index.filters("/w")[0]!.sha).toBe("ab".repeat(20));
    index.close();
  });
});
