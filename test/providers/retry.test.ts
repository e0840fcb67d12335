import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { CancelledError, classifyError, retryAfterMs } from "../../src/providers/errors.ts";
import { backoffDelay } from "../../src/providers/retry.ts";

describe("backoffDelay", () => {
  test("stays within half to all of the exponential ceiling and never exceeds the cap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 60000 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, base, max, r) => {
        const d = backoffDelay(attempt, { maxAttempts: 99, baseDelayMs: base, maxDelayMs: max }, undefined, () => r);
        const ceiling = Math.min(max, base * 2 ** (attempt - 1));
        expect(d).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(d).toBeLessThanOrEqual(Math.ceil(ceiling));
      }),
    );
  });

  test("grows with the attempt until the cap", () => {
    const policy = { maxAttempts: 9, baseDelayMs: 100, maxDelayMs: 1000 };
    const at = (n: number) => backoffDelay(n, policy, undefined, () => 0.999);
    expect([at(1), at(2), at(3), at(4), at(5)]).toEqual([100, 200, 400, 800, 1000]);
  });

  test("a server's retry-after wins over backoff", () => {
    expect(backoffDelay(1, { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 }, 7000)).toBe(7000);
  });
});

describe("retryAfterMs", () => {
  test("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "3" }))).toBe(250);
    const now = Date.parse("2026-11-30T10:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Mon, 30 Nov 2026 10:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe("classifyError", () => {
  // In the compiled binary the SDKs' error classes are renamed by minification; their messages stay.
  class ht extends Error {}
  test("a timeout, an abort and a refused connection are told apart by the SDKs' messages when class names are gone", () => {
    expect(classifyError(new ht("Request timed out."), "the endpoint", "").kind).toBe("timeout");
    expect(classifyError(new ht("Request was aborted."), "the endpoint", "")).toBeInstanceOf(CancelledError);
    expect(classifyError(Object.assign(new ht("Connection error."), { cause: { code: "ECONNREFUSED" } }), "the endpoint", "").message).toContain("connection refused");
  });
});
