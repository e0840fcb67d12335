import { expect, test } from "bun:test";
import fc from "fast-check";
import { middleCut } from "../../src/core/text-fit.ts";

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
