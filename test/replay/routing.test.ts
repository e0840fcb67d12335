import { describe, expect, test } from "bun:test";
import type { RouteFacts } from "../../src/decision/router.ts";
import { replayRouting } from "../../src/replay/routing.ts";

const MAIN = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const FAST = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const inspect: RouteFacts = { kind: "inspect", targets: 1, scope: "local", securitySensitive: false, publicApi: false, testsMapped: 0, failed: false };
const wide: RouteFacts = { ...inspect, kind: "change", targets: 3, scope: "cross_module" };

describe("a recorded session replayed under a routing policy", () => {
  const requests = [
    { at: 0, role: "main", reason: "the change spans modules", view: 10_000, output: 100, facts: wide },
    { at: 1000, role: "main", reason: "the change spans modules", view: 11_000, output: 100, facts: wide },
    // Six minutes later main's cache has gone cold: the inspect question may move to fast.
    { at: 361_000, role: "main", reason: "x", view: 12_000, output: 100, facts: inspect },
  ];

  test("all on main: costs written out by hand, the cache warm within five minutes and cold after", () => {
    const r = replayRouting(requests, "main", { main: MAIN, fast: FAST });
    const want = (10_000 * 3.75 + 100 * 15 + (10_000 * 0.3 + 1000 * 3.75 + 100 * 15) + (12_000 * 3.75 + 100 * 15)) / 1e6;
    expect(r.usd).toBeCloseTo(want, 12);
    expect(r).toMatchObject({ requests: { main: 3, fast: 0 }, moved: 0 });
  });

  test("the router moves the cold inspect question to fast and prices it there; an unpriced model leaves the cost unknown", () => {
    const r = replayRouting(requests, "router", { main: MAIN, fast: FAST });
    const want = (10_000 * 3.75 + 100 * 15 + (10_000 * 0.3 + 1000 * 3.75 + 100 * 15) + (12_000 * 1.25 + 100 * 5)) / 1e6;
    expect(r.usd).toBeCloseTo(want, 12);
    expect(r).toMatchObject({ requests: { main: 2, fast: 1 }, moved: 1 });
    expect(replayRouting(requests, "router", { main: MAIN, fast: undefined }).usd).toBeUndefined();
  });
});
