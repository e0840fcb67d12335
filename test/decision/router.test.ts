import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { chooseRoute, FAST_VIEW_LIMIT, ModelRouter, requestCost, routeFacts, type RouteFacts, type RouteInput } from "../../src/decision/router.ts";
import { changeScope } from "../../src/decision/scope.ts";
import { request } from "../support/requests.ts";
import type { Price } from "../../src/core/usage.ts";

const SONNET: Price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const HAIKU: Price = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const inspect: RouteFacts = { kind: "inspect", targets: 1, scope: "local", securitySensitive: false, publicApi: false, testsMapped: 0, failed: false };

const arbFacts: fc.Arbitrary<RouteFacts> = fc.record({
  kind: fc.constantFrom("change", "inspect"),
  targets: fc.integer({ min: 0, max: 6 }),
  scope: fc.constantFrom("none", "local", "module", "cross_module"),
  securitySensitive: fc.boolean(),
  publicApi: fc.boolean(),
  testsMapped: fc.integer({ min: 0, max: 3 }),
  failed: fc.boolean(),
});
const arbPrice: fc.Arbitrary<Price | undefined> = fc.option(
  fc.record({ input: fc.double({ min: 0.01, max: 20, noNaN: true }), output: fc.double({ min: 0.01, max: 80, noNaN: true }), cacheRead: fc.double({ min: 0.001, max: 5, noNaN: true }) }),
  { nil: undefined },
);
const arbSide = fc.record({ price: arbPrice, warm: fc.integer({ min: 0, max: 60_000 }), caches: fc.boolean() });
const arbInput: fc.Arbitrary<RouteInput> = fc.record({
  facts: fc.option(arbFacts, { nil: undefined }),
  view: fc.integer({ min: 100, max: 60_000 }),
  output: fc.integer({ min: 1, max: 4000 }),
  escalated: fc.option(fc.constant("the checks failed on the fast model"), { nil: undefined }),
  prefer: fc.constantFrom("main", "fast"),
  last: fc.option(fc.constantFrom("main", "fast"), { nil: undefined }),
  main: arbSide,
  fast: arbSide,
}).map((i) => Object.fromEntries(Object.entries(i).filter(([, v]) => v !== undefined)) as unknown as RouteInput);

describe("the model router's choice", () => {
  test("whatever the facts need main for goes to main: an escalation, a large view, a failure, security, a public API, a cross-module change", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const f = i.facts;
        const must = i.escalated !== undefined || i.view > FAST_VIEW_LIMIT || (f !== undefined && (f.failed || f.securitySensitive || f.publicApi || f.scope === "cross_module"));
        if (must) expect(chooseRoute(i).role).toBe("main");
      }),
    );
  });

  test("no move off a warm main is made unless the turn costs less on fast with its prefill than on main with its cache", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const r = chooseRoute(i);
        if (r.role !== "fast" || i.last !== "main" || !i.main.caches || i.main.warm === 0) return;
        const onFast = requestCost(i.fast, i.view, i.output);
        const onMain = requestCost(i.main, i.view, i.output);
        expect(onFast).toBeDefined();
        expect(onMain).toBeDefined();
        expect(onFast!).toBeLessThan(onMain!);
      }),
    );
  });

  test("a change goes to fast by its facts only with tests mapped, to at most two files in one directory (or one file)", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const f = i.facts;
        if (i.prefer !== "main" || f?.kind !== "change" || chooseRoute(i).role !== "fast") return;
        expect(f.testsMapped).toBeGreaterThan(0);
        expect(f.targets <= 1 || (f.targets === 2 && f.scope === "local")).toBe(true);
      }),
    );
  });

  test("every choice says why in one line", () => {
    fc.assert(fc.property(arbInput, (i) => expect(chooseRoute(i).reason).toMatch(/^[^\n]{10,200}$/)));
  });

  test("small inspect tasks, and changes to one file or two in one directory with tests, go to fast from a cold start; wider changes go to the preferred role", () => {
    const cold = { price: undefined, warm: 0, caches: true };
    const base = { view: 3000, output: 400, prefer: "main" as const, main: cold, fast: cold };
    expect(chooseRoute({ ...base, facts: inspect }).role).toBe("fast");
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", testsMapped: 1 } }).role).toBe("fast");
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", testsMapped: 0 } }).role).toBe("main");
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", targets: 2, testsMapped: 2 } })).toEqual({
      role: "fast",
      reason: "a change to 2 files in one directory with its tests mapped, in a 3000-token view",
    });
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", targets: 2, testsMapped: 0 } }).role).toBe("main");
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", targets: 2, scope: "module", testsMapped: 2 } })).toEqual({ role: "main", reason: "a change planned to 2 files with 2 tests mapped" });
    expect(chooseRoute({ ...base, facts: { ...inspect, kind: "change", targets: 3, testsMapped: 3 } }).role).toBe("main");
    expect(chooseRoute({ ...base, prefer: "fast", facts: { ...inspect, kind: "change", targets: 3, testsMapped: 0 } }).role).toBe("fast");
  });

  test("a cost is the cached prefix at the read price, the rest at the write price, the output at its own (written out by hand)", () => {
    expect(requestCost({ price: SONNET, warm: 8000, caches: true }, 10_000, 500)).toBeCloseTo((8000 * 0.3 + 2000 * 3.75 + 500 * 15) / 1e6, 12);
    expect(requestCost({ price: SONNET, warm: 8000, caches: false }, 10_000, 500)).toBeCloseTo((10_000 * 3 + 500 * 15) / 1e6, 12);
    expect(requestCost({ price: undefined, warm: 0, caches: true }, 10_000, 500)).toBeUndefined();
  });
});

describe("the facts the router reads", () => {
  const target = (path: string) => ({ path, named_by_user: true, read: true, sha_fresh: true, dirty_in_worktree: false, body_complete: true });

  test("a change across modules keeps its scope after its first file is edited (the state then scopes what was edited)", () => {
    // After the edit of src/total.ts the decision state plans the edited file alone: local.
    const r = request({ targets: [target("src/total.ts"), target("src/orders/ship.ts")], change: { ...request().change, planned_scope: "local" } });
    expect(routeFacts(r)).toMatchObject({ targets: 2, scope: "cross_module" });
    const cold = { price: undefined, warm: 0, caches: true };
    expect(chooseRoute({ facts: routeFacts(r), view: 3000, output: 400, prefer: "main", main: cold, fast: cold })).toEqual({ role: "main", reason: "the change spans modules" });
  });

  test("the scope is never narrower than the decision state's, nor than the named files'", () => {
    const paths = ["src/a.ts", "src/b.ts", "src/x/c.ts", "lib/d.ts", "packages/p/src/e.ts"];
    const scopes = ["none", "local", "module", "cross_module"] as const;
    fc.assert(
      fc.property(fc.subarray(paths), fc.constantFrom(...scopes), (files, planned) => {
        const r = request({ targets: files.map(target), change: { ...request().change, planned_scope: planned } });
        const got = scopes.indexOf(routeFacts(r).scope);
        expect(got).toBeGreaterThanOrEqual(scopes.indexOf(planned));
        expect(got).toBeGreaterThanOrEqual(scopes.indexOf(changeScope(files)));
        // Files read, not named, widen nothing: the state's own plan stands.
        const read = request({ targets: files.map((p) => ({ ...target(p), named_by_user: false })), change: { ...request().change, planned_scope: planned } });
        expect(routeFacts(read).scope).toBe(planned);
      }),
    );
  });

  test("a change's scope: two files in one directory are local; three, or two directories of a module, are the module; two modules are across", () => {
    expect(changeScope([])).toBe("none");
    expect(changeScope(["src/orders/a.ts", "src/orders/b.ts"])).toBe("local");
    expect(changeScope(["src/orders/a.ts", "src/orders/b.ts", "src/orders/c.ts"])).toBe("module");
    expect(changeScope(["src/orders/a.ts", "src/orders/util/b.ts"])).toBe("module");
    expect(changeScope(["src/orders/a.ts", "src/billing/b.ts"])).toBe("cross_module");
  });
});

describe("a conversation's router", () => {
  const router = (now: { t: number }) =>
    new ModelRouter({ price: { main: SONNET, fast: HAIKU }, caches: { main: true, fast: true }, prefer: "main", edits: (n) => n === "edit_file", now: () => now.t });
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 50 };

  test("a warm main holds an inspect follow-up; once its cache has expired the follow-up goes to fast", () => {
    const now = { t: 0 };
    const r = router(now);
    r.served("main", 12_000, usage);
    now.t = 60_000;
    expect(r.choose(inspect, 12_500).role).toBe("main");
    now.t = 60_000 + 300_001;
    expect(r.choose(inspect, 12_500).role).toBe("fast");
  });

  test("a failure on a fast turn escalates the rest of the run to main; a person's refusal does not; a new run starts over", () => {
    const r = router({ t: 0 });
    r.served("fast", 2000, usage);
    r.observe({ type: "tool_call", id: "a", name: "edit_file", input: {} }, { type: "tool_result", callId: "a", content: "no", isError: true, origin: "weir", refused: { rule: "user" } });
    expect(r.choose(inspect, 2000).role).toBe("fast");
    r.observe({ type: "tool_call", id: "b", name: "edit_file", input: {} }, { type: "tool_result", callId: "b", content: "old_string not found", isError: true });
    expect(r.choose(inspect, 2000)).toEqual({ role: "main", reason: "escalated: edit_file did not apply on the fast model" });
    r.newRun();
    expect(r.choose(inspect, 2000).role).toBe("fast");
  });

  test("its memory survives a process: a restored router knows main is warm; malformed memory is dropped", () => {
    const now = { t: 1000 };
    const a = router(now);
    a.served("main", 12_000, usage);
    const b = router(now);
    b.restore(JSON.parse(JSON.stringify(a.memory())));
    expect(b.choose(inspect, 12_500).role).toBe("main");
    const c = router(now);
    c.restore({ last: "elsewhere", warm: { main: { tokens: "lots" } }, outputs: "x" });
    expect(c.choose(inspect, 12_500).role).toBe("fast");
  });
});
