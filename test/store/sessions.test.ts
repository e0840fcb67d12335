import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { raised, thrown } from "../support/errors.ts";
import { userText } from "../../src/core/messages.ts";
import { explainDatabaseError } from "../../src/store/db.ts";
import { SessionStore } from "../../src/store/sessions.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp.cleanup());
const usage = { input: 1, cacheRead: 0, cacheWrite: 0, output: 1 };


describe("SessionStore", () => {
  test("a run's messages land together; history is the completed runs in order", () => {
    tmp = tempDir();
    const store = SessionStore.open(join(tmp.path, "data", "weir.db"));
    const s = store.createSession("/ws", "first task", "anthropic", "m1");
    const r1 = store.startRun(s, "first task", "anthropic", "m1");
    store.finishRun(s, r1, [userText("first task"), { role: "assistant", content: [{ type: "text", text: "done" }] }], { status: "end_turn", turns: 1, usage, provider: "anthropic", model: "m1" });
    const r2 = store.startRun(s, "second", "openai", "m2");
    expect(store.history(s)).toHaveLength(2);
    store.finishRun(s, r2, [userText("second")], { status: "error", turns: 1, usage, error: "boom", provider: "openai", model: "m2" });
    expect(store.history(s).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(store.lastRun(s)).toEqual({ provider: "openai", model: "m2", status: "error" });
    store.close();
  });

  test("sessions are listed per workspace, newest first, and found by id prefix", () => {
    tmp = tempDir();
    const store = SessionStore.open(join(tmp.path, "weir.db"));
    const a = store.createSession("/ws", "a", "p", "m", 1000);
    const b = store.createSession("/ws", "b", "p", "m", 2000);
    store.createSession("/other", "c", "p", "m", 3000);
    expect(store.list("/ws").map((r) => r.id)).toEqual([b, a]);
    expect(store.list().map((r) => r.title)).toEqual(["c", "b", "a"]);
    expect(store.latest("/ws")!.id).toBe(b);
    expect(store.find(a.slice(0, 10)).id).toBe(a);
    expect(thrown(() => store.find("zzzz")).message).toContain("no session matches");
    expect(thrown(() => store.find("")).message).toContain("no session matches");
    store.close();
  });

  test("a corrupt database is refused with a clear message and left byte-for-byte untouched", () => {
    tmp = tempDir();
    const path = join(tmp.path, "weir.db");
    const garbage = "this is not a sqlite database, just some text ".repeat(200);
    writeFileSync(path, garbage);
    const e = thrown(() => SessionStore.open(path));
    expect(e.message).toContain("is corrupt");
    expect(e.message).toContain("move it aside");
    expect(readFileSync(path, "utf8")).toBe(garbage);
  });

  test("a data directory that cannot be made, and a full disk, are each one clear line", () => {
    tmp = tempDir();
    writeFileSync(join(tmp.path, "file"), "");
    const e = thrown(() => SessionStore.open(join(tmp.path, "file", "weir", "weir.db")));
    expect(e.message).toBe(`cannot create weir's data directory ${join(tmp.path, "file", "weir")}: not a directory; point XDG_DATA_HOME at a directory you can write`);
    // A real SQLITE_FULL: a database allowed no more pages than it has.
    const db = new Database(join(tmp.path, "full.db"));
    db.exec("CREATE TABLE t (x TEXT); PRAGMA max_page_count = 2");
    const full = raised(() => db.query("INSERT INTO t VALUES (?)").run("x".repeat(100_000)));
    db.close();
    expect(explainDatabaseError(join(tmp.path, "full.db"), full).message).toBe(`the disk holding the session database ${join(tmp.path, "full.db")} is full; free some space and retry`);
  });

  test("reopening applies no migration twice and keeps data", () => {
    tmp = tempDir();
    const path = join(tmp.path, "weir.db");
    const s1 = SessionStore.open(path);
    const id = s1.createSession("/ws", "t", "p", "m");
    s1.close();
    const s2 = SessionStore.open(path);
    expect(s2.find(id).title).toBe("t");
    s2.close();
  });
});
