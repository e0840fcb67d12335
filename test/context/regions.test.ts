import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { termsOf } from "../../src/context/lexical.ts";
import { outline } from "../../src/context/outline.ts";
import { firstLines, rankedRegions, regionsOf, regionView } from "../../src/context/regions.ts";
import { MAX_LINE } from "../../src/core/text-fit.ts";

/** A file of `count` small functions, each with a body of `body` lines of its own words. */
function functions(count: number, body: number, words: (i: number) => string): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(`export function fn${i}(input) {`);
    for (let j = 0; j < body; j++) out.push(`  const v${j} = input.${words(i)}${j};`);
    out.push("}", "");
  }
  return out.join("\n");
}

const focus = (task: string, names: string[] = []) => ({ names, terms: [...new Set(termsOf(task))] });
const lineCount = (rs: { start: number; end: number }[]) => rs.reduce((n, r) => n + r.end - r.start + 1, 0);

describe("regions a task points at", () => {
  test("property: regions are in line order, apart, inside the file, and hold at most the lines asked for", async () => {
    const vocabulary = ["parse", "render", "refund", "order", "cancel", "token", "cache", "retry"];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...vocabulary), { minLength: 20, maxLength: 120 }),
        fc.subarray(vocabulary, { minLength: 1 }),
        fc.integer({ min: 0, max: 60 }),
        fc.boolean(),
        async (words, task, maxLines, parsed) => {
          const text = functions(words.length, 3, (i) => words[i]!);
          const o = parsed ? await outline("a.ts", text) : undefined;
          const rs = regionsOf(text, focus(task.join(" ")), maxLines, o);
          const total = text.split("\n").length;
          expect(lineCount(rs)).toBeLessThanOrEqual(maxLines);
          rs.forEach((r, i) => {
            expect(1 <= r.start && r.start <= r.end && r.end <= total).toBe(true);
            if (i > 0) expect(r.start).toBeGreaterThan(rs[i - 1]!.end + 1);
          });
          // A region is only where a task word is: none when no word of the task is in the file.
          const present = task.some((w) => words.includes(w));
          if (!present) expect(rs).toEqual([]);
          if (present && maxLines >= 5) expect(rs.length).toBeGreaterThan(0);
          // A smaller view is the start of a larger one's choices: one ranking serves both.
          expect(firstLines(rankedRegions(text, focus(task.join(" ")), maxLines + 40, o), maxLines)).toEqual(rs);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("the function holding the task's rarest words is shown whole, far past the file's first 400 lines", async () => {
    const text = functions(300, 4, (i) => (i === 240 ? "refundAmount" : "orderTotal"));
    const o = await outline("shop.ts", text);
    const rs = regionsOf(text, focus("refunds are applied to the wrong order"), 40, o);
    const at = text.split("\n").indexOf("export function fn240(input) {") + 1;
    expect(at).toBeGreaterThan(1_000);
    expect(rs.some((r) => r.start <= at && at + 5 <= r.end)).toBe(true);
    // Nothing of the file's head is shown for a word every function has, before the rare one.
    expect(regionsOf(text, focus("refunds are applied to the wrong order"), 6, o)).toEqual([{ start: at, end: at + 5 }]);
  });

  test("a symbol the task names comes first, from its head, even where its words are common", async () => {
    const text = functions(100, 60, () => "orderTotal");
    const o = await outline("shop.ts", text);
    const rs = regionsOf(text, focus("fn77 gets the order total wrong", ["fn77"]), 30, o);
    const at = text.split("\n").indexOf("export function fn77(input) {") + 1;
    expect(rs.some((r) => r.start === at)).toBe(true);
  });

  test("the view inlines each region's lines with their numbers among the outline's entries", async () => {
    const text = functions(60, 3, (i) => (i === 50 ? "refund" : "order"));
    const o = await outline("shop.ts", text);
    const rs = regionsOf(text, focus("refund"), 10, o);
    const view = regionView(text.split("\n"), rs, o).split("\n");
    const lines = text.split("\n");
    for (const r of rs) for (let n = r.start; n <= r.end; n++) expect(view).toContain(`${String(n).padStart(5)}\t${lines[n - 1]}`);
    // An entry of the outline outside every region keeps its signature line.
    expect(view).toContain(`${String(1).padStart(5)}  function fn0(input) {`);
    // Without an outline, a gap between regions is marked.
    const plain = regionView(text.split("\n"), [{ start: 3, end: 4 }, { start: 30, end: 31 }]);
    expect(plain.split("\n")).toEqual([`    3\t${lines[2]}`, `    4\t${lines[3]}`, "    ⋮", `   30\t${lines[29]}`, `   31\t${lines[30]}`]);
  });

  test("a line of data in a region is cut as read_file cuts it, so one line cannot take the budget", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `row ${i}`);
    lines[9] = `const table = "${"x".repeat(50_000)}";`;
    lines[11] = "refund the order";
    const text = lines.join("\n");
    const rs = regionsOf(text, focus("refund"), 30);
    expect(rs.some((r) => r.start <= 10 && 10 <= r.end)).toBe(true);
    const view = regionView(text.split("\n"), rs).split("\n");
    const cut = view.find((l) => l.startsWith("   10\t"))!;
    expect(cut).toBe(`   10\t${lines[9]!.slice(0, MAX_LINE)}… [line cut at ${MAX_LINE} chars]`);
    expect(view).toContain("   12\trefund the order");
  });
});
