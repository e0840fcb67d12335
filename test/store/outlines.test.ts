import { Database } from "bun:sqlite";
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outline, useOutlineCache } from "../../src/context/outline.ts";
import { OutlineCache } from "../../src/store/outlines.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir();
afterEach(() => useOutlineCache(undefined, ""));
afterAll(() => tmp.cleanup());

test("values persist across processes' handles; queued values are readable before they are written", () => {
  const path = join(tmp.path, "a", "outlines.db");
  const a = OutlineCache.open(path);
  a.put("k1", "v1");
  expect(a.get("k1")).toBe("v1");
  a.close();
  const b = OutlineCache.open(path);
  expect(b.get("k1")).toBe("v1");
  expect(b.get("k2")).toBeUndefined();
  b.close();
});

test("entries older than thirty days are dropped when the cache opens", () => {
  const path = join(tmp.path, "old", "outlines.db");
  const day = 24 * 3600 * 1000;
  const a = OutlineCache.open(path, 0);
  a.put("old", "x");
  a.flush(0);
  a.put("new", "y");
  a.flush(40 * day);
  a.close();
  const b = OutlineCache.open(path, 40 * day);
  expect(b.get("old")).toBeUndefined();
  expect(b.get("new")).toBe("y");
  b.close();
});

test("a file that is not a database is moved aside, and a fresh cache works", () => {
  const dir = join(tmp.path, "corrupt");
  mkdirSync(dir);
  writeFileSync(join(dir, "outlines.db"), "not sqlite ".repeat(200));
  const c = OutlineCache.open(join(dir, "outlines.db"), 7);
  c.put("k", "v");
  c.close();
  expect(readdirSync(dir)).toContain("outlines.db.corrupt-7");
  expect(OutlineCache.open(join(dir, "outlines.db")).get("k")).toBe("v");
});

test("a cache that cannot be opened holds nothing and never throws", () => {
  const dir = join(tmp.path, "blocked");
  mkdirSync(join(dir, "outlines.db"), { recursive: true }); // a directory where the file should be
  const c = OutlineCache.open(join(dir, "outlines.db"));
  c.put("k", "v");
  expect(c.get("k")).toBeUndefined();
  c.close();
});

test("a locked cache costs a parse, not a run", () => {
  const path = join(tmp.path, "locked", "outlines.db");
  OutlineCache.open(path).close();
  const other = new Database(path);
  other.exec("BEGIN EXCLUSIVE");
  const c = OutlineCache.open(path);
  c.put("k", "v");
  expect(() => c.flush()).not.toThrow();
  other.exec("ROLLBACK");
  other.close();
  c.close();
});

test("outline() reads what the cache holds for the same content and build, and parses otherwise", async () => {
  const c = OutlineCache.open(join(tmp.path, "o", "outlines.db"));
  const text = "export function alpha() {}\n";
  useOutlineCache(c, "1.0.0+abc");
  const parsed = await outline("a.ts", text);
  expect(parsed?.symbols.map((s) => s.name)).toEqual(["alpha"]);
  c.flush();
  // Rewrite the stored value: a second call must return it, proving it was read, not parsed.
  const db = new Database(join(tmp.path, "o", "outlines.db"));
  const row = db.query("SELECT key FROM outlines").get() as { key: string };
  expect(row.key.startsWith("1.0.0+abc:ts:")).toBe(true);
  db.query("UPDATE outlines SET value = ?").run(JSON.stringify({ language: "ts", symbols: [], imports: ["from-cache"] }));
  db.close();
  expect((await outline("a.ts", text))?.imports).toEqual(["from-cache"]);
  // Another build, or other content, parses afresh.
  useOutlineCache(c, "1.0.1+def");
  expect((await outline("a.ts", text))?.symbols.map((s) => s.name)).toEqual(["alpha"]);
  useOutlineCache(c, "1.0.0+abc");
  expect((await outline("a.ts", `${text}export const BETA = 1;\n`))?.symbols.map((s) => s.name)).toEqual(["alpha", "BETA"]);
  c.close();
});

test("from source, the key holds the parser module's modification time", async () => {
  const c = OutlineCache.open(join(tmp.path, "s", "outlines.db"));
  useOutlineCache(c, "0.1.0+source");
  await outline("b.py", "def beta():\n    pass\n");
  c.flush();
  const db = new Database(join(tmp.path, "s", "outlines.db"), { readonly: true });
  const { key } = db.query("SELECT key FROM outlines").get() as { key: string };
  db.close();
  expect(key).toMatch(/^0\.1\.0\+source@[\d.]+:python:/);
  c.close();
});
