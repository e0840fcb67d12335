/**
 * What the conversation has shown of a file, by line range, and which of a caller's call sites that
 * leaves unseen. A caller counts as seen when the lines holding its call sites were shown, not when
 * its file was touched: a 10-line read of a 600-line file shows 10 lines. Pure.
 */

/** 1-based, inclusive. */
export type LineRange = [number, number];

/** `ranges` with `r` added: sorted, overlapping and adjacent ranges merged. Pure. */
export function addRange(ranges: readonly LineRange[], r: LineRange): LineRange[] {
  const all = [...ranges, r].filter(([a, b]) => a <= b).sort((x, y) => x[0] - y[0]);
  const out: LineRange[] = [];
  for (const [a, b] of all) {
    const last = out.at(-1);
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The lines of `lines` no range holds. Pure. */
export const unseenLines = (ranges: readonly LineRange[], lines: readonly number[]): number[] =>
  lines.filter((l) => !ranges.some(([a, b]) => a <= l && l <= b));

/** The 1-based lines of `text` that name `name` as a word: where its call sites and imports are. Pure. */
export function linesNaming(text: string, name: string): number[] {
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, "\\$")}(?![\\w$])`);
  const out: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.includes(name) && word.test(line)) out.push(i + 1);
  });
  return out;
}

/** A caller with the call-site lines not yet shown, as the model is told it: `src/a.ts lines 40, 577`. Pure. */
export function callerWithLines(path: string, lines: readonly number[]): string {
  const named = lines.slice(0, 5).join(", ") + (lines.length > 5 ? ", …" : "");
  return `${path} line${lines.length === 1 ? "" : "s"} ${named}`;
}
