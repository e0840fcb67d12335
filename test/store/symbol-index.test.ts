import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SymbolIndex } from "../../src/store/symbol-index.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp?.cleanup());

/** The builds before the index's present tables: before the word filters, the blob SHAs, the import graph. */
type Earlier = "words" | "shas" | "imports";

/** The tables an index of an earlier build had, with one workspace and one file in them. */
function earlierIndex(before: Earlier): string {
  tmp = tempDir();
  const path = join(tmp.path, "symbols.db");
  const old = new Database(path, { create: true });
  const key = "PRIMARY KEY (root, path)) WITHOUT ROWID";
  old.exec(`CREATE TABLE workspaces (root TEXT PRIMARY KEY, refreshed_at INTEGER NOT NULL, took_ms INTEGER NOT NULL);
    CREATE TABLE files (root TEXT NOT NULL, path TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL, ${before === "imports" ? "sha TEXT, " : ""}${key};
    ${before !== "words" ? `CREATE TABLE words (root TEXT NOT NULL, path TEXT NOT NULL, filter BLOB NOT NULL, ${key};` : ""}
    CREATE TABLE symbols (root TEXT NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (root, name, path)) WITHOUT ROWID;
    INSERT INTO workspaces VALUES ('/w', 1, 1); INSERT INTO files VALUES ('/w', 'a.ts', 1, 1${before === "imports" ? ", NULL" : ""}); INSERT INTO symbols VALUES ('/w', 'old', 'a.ts');`);
  old.close();
  return path;
}

describe("the symbol index on disk", () => {
  test("an index from a build before the word filters is dropped and built again, not read with a column missing", () => {
    const path = earlierIndex("words");
    const index = SymbolIndex.open(path);
    expect(index.status("/w")).toBeUndefined();
    expect(index.holds("/w")).toBe(false);
    const words = new Uint8Array(256).fill(7);
    index.apply("/w", [{ path: "a.ts", mtime: 2, size: 3, names: ["fresh"], words, imports: [] }], [], 1);
    expect(index.lookup("/w", ["fresh"]).map((f) => f.path)).toEqual(["a.ts"]);
    expect(index.filters("/w")).toEqual([{ path: "a.ts", mtime: 2, size: 3, sha: null, words }]);
    // An empty refresh still marks the workspace indexed: "nothing defined" is a fact, not a missing index.
    index.apply("/v", [], [], 1);
    expect([index.holds("/w"), index.holds("/v"), index.holds("/u")]).toEqual([true, true, false]);
    index.close();
  });

  test("an index from a build before the blob SHAs is dropped: its files could never be vouched for", () => {
    const path = earlierIndex("shas");
    const index = SymbolIndex.open(path);
    expect(index.holds("/w")).toBe(false);
    index.apply("/w", [{ path: "a.ts", mtime: 2, size: 3, names: [], words: new Uint8Array(256), sha: "ab".repeat(20), imports: [] }], [], 1);
    expect(index.filters("/w")[0]!.sha).toBe("ab".repeat(20));
    index.close();
  });

  test("an index from a build before the import graph is dropped: a file with no import rows would look like one importing nothing", () => {
    const path = earlierIndex("imports");
    const index = SymbolIndex.open(path);
    expect(index.holds("/w")).toBe(false);
    expect(index.stats("/w").size).toBe(0);
    const file = { mtime: 2, size: 3, names: [], words: new Uint8Array(256) };
    index.apply("/w", [{ ...file, path: "a.ts", imports: ["src/b", "src/c"] }, { ...file, path: "d.ts", imports: ["src/c"] }], [], 1);
    expect(index.importers("/w", ["src/c"]).sort()).toEqual(["a.ts", "d.ts"]);
    expect(index.importers("/w", ["src/b", "src/x"])).toEqual(["a.ts"]);
    // A file read again replaces its edges; a file gone takes its edges with it.
    index.apply("/w", [{ ...file, path: "a.ts", imports: ["src/x"] }], ["d.ts"], 1);
    expect([index.importers("/w", ["src/c"]), index.importers("/w", ["src/x"])]).toEqual([[], ["a.ts"]]);
    index.close();
  });
});
