import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { counted, middleCut } from "../../src/core/text-fit.ts";

test("property: a text that fits is kept whole; one that does not keeps its two ends within the room, and counts what went", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 200 }), fc.integer({ min: 10, max: 4000 }), (lines, room) => {
      const text = lines.join("\n");
      const r = middleCut(text, room);
      if (text.length <= room) return expect(r).toEqual({ text, cut: 0 });
      const [head, tail] = r.text.split(/\[\.\.\. [\d,]+ characters cut from the middle \.\.\.\]\n/);
      expect(text.startsWith(head!)).toBe(true);
      expect(text.endsWith(tail!)).toBe(true);
      expect(head!.length + tail!.length).toBeLessThanOrEqual(room);
      expect(r.cut).toBe(text.length - head!.length - tail!.length);
    }),
  );
});

describe("counted", () => {
  test("a count names its noun in the right number", () => {
    expect([counted(1, "file"), counted(3, "file"), counted(1, "attempt"), counted(0, "match", "matches"), counted(20_000, "file")]).toEqual(["1 file", "3 files", "1 attempt", "0 matches", "20,000 files"]);
  });
});
