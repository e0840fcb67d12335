import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addRange, callerWithLines, type LineRange, linesNaming, unseenLines } from "../../src/agent/shown-lines.ts";

describe("lines shown of a file", () => {
  const range = fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 20 })).map(([a, n]): LineRange => [a, a + n]);

  test("merged ranges hold exactly the lines the ranges added hold, sorted, apart (property)", () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 12 }), (added) => {
        const merged = added.reduce<LineRange[]>((acc, r) => addRange(acc, r), []);
        for (let line = 0; line <= 85; line++) {
          const inAdded = added.some(([a, b]) => a <= line && line <= b);
          expect(unseenLines(merged, [line]).length === 0).toBe(inAdded);
        }
        for (let i = 1; i < merged.length; i++) expect(merged[i]![0]).toBeGreaterThan(merged[i - 1]![1] + 1);
      }),
    );
  });

  test("the lines naming a symbol are its word's, not a longer name's", () => {
    const text = 'import { encodeKey } from "./keys";\nconst a = encodeKeys(1);\nconst b = encodeKey(2);\n$encodeKey(3);\n';
    expect(linesNaming(text, "encodeKey")).toEqual([1, 3]);
    expect(callerWithLines("src/a.ts", [3])).toBe("src/a.ts line 3");
    expect(callerWithLines("src/a.ts", [1, 2, 3, 4, 5, 6])).toBe("src/a.ts lines 1, 2, 3, 4, 5, …");
  });
});
