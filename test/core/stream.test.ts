import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type StreamEvent, TurnAccumulator } from "../../src/core/stream.ts";

/** Splits a string at the given cut points into consecutive fragments. */
function split(s: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(s.slice(prev, p));
    prev = p;
  }
  out.push(s.slice(prev));
  return out;
}

describe("TurnAccumulator", () => {
  test("text split at any points reassembles to the original", () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.nat()), (text, cuts) => {
        const acc = new TurnAccumulator();
        for (const piece of split(text, cuts)) acc.push({ type: "text_delta", index: 0, text: piece });
        expect(acc.message().content).toEqual(text === "" ? [] : [{ type: "text", text }]);
      }),
    );
  });

  test("tool arguments split at any points parse back to the same value, each call in its own slot", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.jsonValue(), fc.array(fc.nat())), { minLength: 1, maxLength: 4 }), (calls) => {
        const acc = new TurnAccumulator();
        const events: StreamEvent[][] = calls.map(([value, cuts], i) => [
          { type: "tool_call_start", index: i + 2, id: `call_${i}`, name: "t" },
          ...split(JSON.stringify(value), cuts).map((json) => ({ type: "tool_call_delta" as const, index: i + 2, json })),
        ]);
        // Interleave the calls' fragments as a parallel stream may.
        const longest = Math.max(...events.map((e) => e.length));
        for (let k = 0; k < longest; k++) for (const e of events) if (e[k]) acc.push(e[k]!);
        const got = acc.message().content;
        expect(got).toEqual(calls.map(([value], i) => ({ type: "tool_call", id: `call_${i}`, name: "t", input: JSON.parse(JSON.stringify(value)) })));
      }),
    );
  });

  test("a retry discards everything the failed attempt streamed", () => {
    const acc = new TurnAccumulator();
    acc.push({ type: "text_delta", index: 0, text: "half an answ" });
    acc.push({ type: "usage", usage: { input: 5, cacheRead: 0, cacheWrite: 0, output: 3 } });
    acc.push({ type: "retry", attempt: 2, delayMs: 0, reason: "dropped" });
    acc.push({ type: "text_delta", index: 0, text: "whole answer" });
    expect(acc.message().content).toEqual([{ type: "text", text: "whole answer" }]);
    expect(acc.usage.output).toBe(0);
  });

  test("arguments that are not JSON are kept for the tool layer to report instead of throwing", () => {
    const acc = new TurnAccumulator();
    acc.push({ type: "tool_call_start", index: 0, id: "c", name: "t" });
    acc.push({ type: "tool_call_delta", index: 0, json: '{"path": "a' });
    expect(acc.message().content).toEqual([{ type: "tool_call", id: "c", name: "t", input: { __invalid_json: '{"path": "a' } }]);
  });

  test("signature fragments accumulate on the reasoning block", () => {
    const acc = new TurnAccumulator();
    acc.push({ type: "reasoning_delta", index: 0, text: "think" });
    acc.push({ type: "reasoning_signature", index: 0, signature: "ab" });
    acc.push({ type: "reasoning_signature", index: 0, signature: "cd" });
    expect(acc.message().content).toEqual([{ type: "reasoning", text: "think", signature: "abcd" }]);
  });
});
