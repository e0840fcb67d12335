import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileLocks } from "../../src/actions/executor.ts";
import { Fleet, type WorkerEnd, type WorkerStart } from "../../src/agent/fleet.ts";
import { movedPaths, type Revision, workspaceRevision } from "../../src/agent/revision.ts";
import { checkResult, DEFAULT_OUTPUT_SCHEMA, extractJson, SpawnInput } from "../../src/agent/subgoal.ts";
import { emptyUsage } from "../../src/core/usage.ts";
import { PathRefused, resolveInWorkspace } from "../../src/workspace/containment.ts";
import { Ledger } from "../../src/workspace/ledger.ts";
import { badGlob, PathScope, writeOverlap } from "../../src/workspace/scope.ts";
import { tempDir } from "../support/temp.ts";

describe("PathScope", () => {
  test("reads and writes by glob; writing implies reading; the root may be listed", () => {
    const s = new PathScope(["src/**"], ["out/a.txt"]);
    expect(s.allows("src/a/b.ts", "read")).toBe(true);
    expect(s.allows("docs/x.md", "read")).toBe(false);
    expect(s.allows("src/a.ts", "write")).toBe(false);
    expect(s.allows("out/a.txt", "write")).toBe(true);
    expect(s.allows("out/a.txt", "read")).toBe(true);
    expect(s.allows(".", "read")).toBe(true);
    expect(s.allows(".", "write")).toBe(false);
    expect(s.readsEverything).toBe(false);
    expect(new PathScope(["**"], []).readsEverything).toBe(true);
    expect(new PathScope(["src/"], []).allows("src/deep/x.ts", "read")).toBe(true);
  });

  test("a report-only scope never allows a write, whatever the path", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,5}(\/[a-z*]{1,5}){0,3}$/), { maxLength: 4 }), fc.stringMatching(/^[a-z]{1,5}(\/[a-z.]{1,5}){0,3}$/), (reads, path) => {
        expect(new PathScope(reads, []).allows(path, "write")).toBe(false);
      }),
    );
  });

  test("containment checks the scope after its own guards, on the canonical path", () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.path, "src"));
      writeFileSync(join(t.path, "src", "a.ts"), "a");
      writeFileSync(join(t.path, "top.md"), "t");
      const scope = new PathScope(["src/**"], []);
      expect(resolveInWorkspace(t.path, "src/a.ts", { scope }).relative).toBe("src/a.ts");
      expect(resolveInWorkspace(t.path, "src", { scope }).relative).toBe("src");
      expect(() => resolveInWorkspace(t.path, "top.md", { scope })).toThrow(PathRefused);
      expect(() => resolveInWorkspace(t.path, "src/../top.md", { scope })).toThrow(/outside this worker's scope/);
      expect(() => resolveInWorkspace(t.path, "src/a.ts", { scope, access: "write" })).toThrow(/outside this worker's scope/);
      // The workspace guards still come first.
      expect(() => resolveInWorkspace(t.path, "../x", { scope: new PathScope(["**"], ["**"]) })).toThrow(/outside the workspace/);
    } finally {
      t.cleanup();
    }
  });

  test("bad globs are named", () => {
    expect(badGlob("/etc/*")).toMatch(/absolute/);
    expect(badGlob("src/../../x")).toMatch(/leaves the workspace/);
    expect(badGlob("~/x")).toMatch(/absolute/);
    expect(badGlob("src/**")).toBeUndefined();
    expect(SpawnInput.safeParse({ goal: "g", writes: ["../x"] }).success).toBe(false);
  });
});

describe("writeOverlap", () => {
  test("literal, wildcard, existing-file and nested-prefix overlaps are caught; disjoint ones pass", () => {
    expect(writeOverlap(["out/a.txt"], ["out/a.txt"], [])).toBeDefined();
    expect(writeOverlap(["out/*.txt"], ["out/a.txt"], [])).toBeDefined();
    expect(writeOverlap(["src/**/*.ts"], ["src/lib/*.ts"], [])).toBeDefined();
    expect(writeOverlap(["src/*/x.ts"], ["src/lib/*"], ["src/lib/x.ts"])).toContain("both match src/lib/x.ts");
    expect(writeOverlap(["src/**"], ["src/lib/*.ts"], [])).toBeDefined();
    expect(writeOverlap(["out/a.txt"], ["out/b.txt"], ["out/a.txt", "out/b.txt"])).toBeUndefined();
    expect(writeOverlap(["src/a/**"], ["src/b/**"], [])).toBeUndefined();
  });

  test("never misses a file both globs match (property)", () => {
    const seg = fc.constantFrom("a", "b", "c");
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.boolean(), (parts, starA, starB) => {
        const file = `${parts.join("/")}.ts`;
        const a = starA ? `${[...parts.slice(0, -1), "*"].join("/")}.ts` : file;
        const b = starB ? "**/*.ts" : file;
        expect(writeOverlap([a], [b], [file])).toBeDefined();
      }),
    );
  });
});

describe("worker results", () => {
  test("JSON is found whole, fenced, or as the last object; the schema decides", () => {
    expect(extractJson('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(extractJson('here:\n```json\n{"a":2}\n```')).toEqual({ value: { a: 2 } });
    expect(extractJson('I found {"a":3} in the end')).toEqual({ value: { a: 3 } });
    expect(extractJson("nothing")).toBeUndefined();
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(checkResult('{"n": 4}', schema)).toEqual({ ok: true, value: { n: 4 } });
    const bad = checkResult('{"n": "four"}', schema);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain("n:");
    expect(checkResult('{"summary": "s"}', DEFAULT_OUTPUT_SCHEMA).ok).toBe(true);
    expect(checkResult("{}", DEFAULT_OUTPUT_SCHEMA).ok).toBe(false);
  });

  test("a value that fails the schema is never accepted (property)", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false };
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const ok = typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && Number.isInteger((v as Record<string, unknown>).n);
        expect(checkResult(JSON.stringify(v), schema).ok).toBe(ok);
      }),
    );
  });
});

describe("Ledger views", () => {
  test("a worker's write makes the main view stale, and the refusal names the worker", () => {
    const main = new Ledger();
    const w = main.view("worker w1 (fix)");
    main.record("/ws/a.ts", "old");
    w.record("/ws/a.ts", "old");
    w.wrote("/ws/a.ts", "new");
    expect(main.staleReason("/ws/a.ts", "a.ts", "new")).toContain("was changed by worker w1 (fix)");
    expect(w.staleReason("/ws/a.ts", "a.ts", "new")).toBeUndefined();
    // Someone else changed it after the worker: no worker is blamed.
    expect(main.staleReason("/ws/a.ts", "a.ts", "third")).toContain("another program");
  });
});

describe("FileLocks", () => {
  test("writes to one file run one after another; other files do not wait", async () => {
    const locks = new FileLocks();
    const order: string[] = [];
    const slow = (tag: string, ms: number) => async () => {
      order.push(`${tag}+`);
      await Bun.sleep(ms);
      order.push(`${tag}-`);
    };
    await Promise.all([locks.with("/a", slow("a1", 30)), locks.with("/a", slow("a2", 1)), locks.with("/b", slow("b", 1))]);
    expect(order.indexOf("a2+")).toBeGreaterThan(order.indexOf("a1-"));
    expect(order.indexOf("b-")).toBeLessThan(order.indexOf("a1-"));
  });
});

/** A runner whose workers end when the test says so. */
function scriptedWorkers() {
  const ends = new Map<string, (e: WorkerEnd) => void>();
  const signals = new Map<string, AbortSignal>();
  const start: WorkerStart = (s, o) => {
    signals.set(s.id, o.signal);
    const done = new Promise<WorkerEnd>((resolve) => {
      ends.set(s.id, resolve);
      o.signal.addEventListener("abort", () => resolve({ stop: "cancelled", text: "partial", turns: 1, usage: emptyUsage(), wrote: ["kept.txt"] }));
    });
    return { done, stats: () => ({ turns: 0, calls: 0, usage: emptyUsage() }), calls: () => [], health: () => ({ severity: "idle", verdicts: [] }), stopCall: () => "" };
  };
  const finish = (id: string, text: string) => ends.get(id)!({ stop: "end_turn", text, turns: 2, usage: emptyUsage(), wrote: [] });
  return { start, finish, signals };
}

const rev = (id: string, files: Record<string, string> = {}): Revision => ({ id, head: "h", files: new Map(Object.entries(files)) });

describe("Fleet", () => {
  const never = new AbortController().signal;

  test("reports are delivered once; a result is stale once the workspace moves past it", async () => {
    const w = scriptedWorkers();
    let current = rev("r0");
    const fleet = new Fleet({ max: 4, waitMs: 1_000, start: w.start, revision: async () => current, files: () => [] });
    fleet.spawn({ goal: "one" }, "c1");
    fleet.spawn({ goal: "two" }, "c2");
    w.finish("w1", '{"summary":"first"}');
    const a = await fleet.wait(["w1"], 1_000, never);
    expect(a.reports.map((r) => [r.id, r.state, r.stale])).toEqual([["w1", "done", false]]);
    expect((await fleet.wait(["w1"], 10, never)).already).toEqual(["w1"]);
    w.finish("w2", '{"summary":"second"}');
    await Bun.sleep(5);
    current = rev("r1", { "src/a.ts": "x" });
    const b = await fleet.wait(undefined, 1_000, never);
    expect(b.reports[0]!.stale).toBe(true);
    expect(b.reports[0]!.moved).toEqual(["src/a.ts"]);
  });

  test("wait returns running workers at its timeout; stop keeps what the worker produced", async () => {
    const w = scriptedWorkers();
    const fleet = new Fleet({ max: 4, waitMs: 1_000, start: w.start, revision: async () => rev("r"), files: () => [] });
    fleet.spawn({ goal: "slow" }, "c1");
    const r = await fleet.wait(undefined, 20, never);
    expect(r.reports).toEqual([]);
    expect(r.running.map((x) => [x.id, x.state])).toEqual([["w1", "running"]]);
    const stopped = await fleet.stop("w1");
    expect(typeof stopped !== "string" && [stopped.state, stopped.wrote, stopped.answer]).toEqual(["stopped", ["kept.txt"], "partial"]);
    expect(w.signals.get("w1")!.aborted).toBe(true);
  });

  test("limits, bad schemas and overlapping writes are refused at spawn; a finished worker frees its writes", async () => {
    const w = scriptedWorkers();
    const fleet = new Fleet({ max: 2, waitMs: 1_000, start: w.start, revision: async () => rev("r"), files: () => ["out/a.txt"] });
    fleet.spawn({ goal: "a", writes: ["out/a.txt"] }, "c1");
    expect(() => fleet.spawn({ goal: "b", writes: ["out/*"] }, "c2")).toThrow(/overlap w1/);
    expect(() => fleet.spawn({ goal: "b", output_schema: { type: "no-such-type" } }, "c2")).toThrow(/output_schema/);
    fleet.spawn({ goal: "b" }, "c2");
    expect(() => fleet.spawn({ goal: "c" }, "c3")).toThrow(/--max-agents 2/);
    w.finish("w1", '{"summary":"done"}');
    await fleet.wait(["w1"], 1_000, never);
    expect(fleet.spawn({ goal: "d", writes: ["out/*"] }, "c4").id).toBe("w3");
    expect(() => new Fleet({ max: 0, waitMs: 1, start: w.start, revision: async () => rev("r"), files: () => [] }).spawn({ goal: "x" }, "c")).toThrow(/--max-agents 0/);
  });

  test("the deadline and the token budget stop a worker and say which", async () => {
    const w = scriptedWorkers();
    let overBudget: (() => void) | undefined;
    const start: WorkerStart = (s, o) => {
      if (s.goal === "spender") overBudget = o.overBudget;
      return w.start(s, o);
    };
    const fleet = new Fleet({ max: 4, waitMs: 1_000, start, revision: async () => rev("r"), files: () => [] });
    fleet.spawn({ goal: "sleeper", timeout_ms: 1_000 }, "c1");
    fleet.spawn({ goal: "spender" }, "c2");
    overBudget!();
    const r = await fleet.wait(undefined, 3_000, never);
    const states = Object.fromEntries(r.reports.map((x) => [x.id, [x.state, x.error]]));
    expect(states.w1![0]).toBe("timeout");
    expect(states.w2).toEqual(["over_budget", "stopped: it spent its budget of 200000 tokens"]);
  });

  test("stopAll at the run's end stops live workers and names them", async () => {
    const w = scriptedWorkers();
    const fleet = new Fleet({ max: 4, waitMs: 1_000, start: w.start, revision: async () => rev("r"), files: () => [] });
    fleet.spawn({ goal: "a" }, "c1");
    fleet.spawn({ goal: "b" }, "c2");
    w.finish("w2", '{"summary":"ok"}');
    await Bun.sleep(5);
    expect(await fleet.stopAll()).toEqual(["w1"]);
    expect(fleet.list().map((x) => x.state)).toEqual(["stopped", "done"]);
  });
});

describe("workspaceRevision", () => {
  test("in git: changes to a tracked or new file change the revision and are named", async () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.path, "a.txt"), "1");
      for (const c of [["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]]) Bun.spawnSync(["git", ...c], { cwd: t.path });
      const r0 = await workspaceRevision(t.path);
      expect((await workspaceRevision(t.path)).id).toBe(r0.id);
      writeFileSync(join(t.path, "a.txt"), "2");
      writeFileSync(join(t.path, "new.txt"), "n");
      const r1 = await workspaceRevision(t.path);
      expect(r1.id).not.toBe(r0.id);
      expect(movedPaths(r0, r1)).toEqual(["a.txt", "new.txt"]);
    } finally {
      t.cleanup();
    }
  });
});
