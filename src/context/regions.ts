/**
 * The regions of a file a task points at, and the file shown as its outline with those regions
 * inlined: a model can act on the lines that matter in a 2,000-line file without its first 400
 * lines, or an outline that shows none of the code. Pure.
 */
import { bm25Term, termsOf } from "./lexical.ts";
import { type Outline, outlineLine } from "./outline.ts";
import { numberedLine } from "../core/text-fit.ts";

/** 1-based lines, both ends included. */
export interface Region {
  start: number;
  end: number;
}

/** What a task points at in a file: the symbols it names, and its terms (as `termsOf` gives them). */
export interface Focus {
  names: readonly string[];
  terms: readonly string[];
}

/** A symbol this long or shorter is shown whole when chosen; a longer one by its head and its densest lines. */
const WHOLE_SYMBOL = 40;
/** Lines a window holds: around the densest line of a long symbol, or a line outside every symbol. */
const WINDOW = { before: 5, size: 18 };
/** How much a term already shown counts again: the next region should bring terms of its own. */
const SHOWN_AGAIN = 0.2;
/** Lines this long are data (minified code, a table), never scored. */
const LONG_LINE = 400;

/** A part of a file that is chosen whole or not at all: a symbol with no symbol inside it, or a window. */
interface Unit {
  start: number;
  end: number;
  /** The symbol's name; a window has none. */
  name?: string;
}

/**
 * Up to `maxLines` lines of `text` the focus points at, as regions in line order. A symbol the task
 * names comes first, from its head. Then units by BM25 of the task's terms not yet shown (a term on
 * fewer lines of the file weighs more), each a short symbol whole, or a long symbol's head and the
 * window where its terms are densest. Empty when the focus is not in the file. Pure.
 */
export function regionsOf(text: string, focus: Focus, maxLines: number, outline?: Outline): Region[] {
  return firstLines(rankedRegions(text, focus, maxLines, outline), maxLines);
}

/**
 * The regions `regionsOf` chooses, in the order it chooses them, up to `maxLines` lines in all (the
 * last one cut to fit): a smaller view is a prefix of a larger one (`firstLines`). Pure.
 */
export function rankedRegions(text: string, focus: Focus, maxLines: number, outline?: Outline): Region[] {
  const lines = termLines(text, focus.terms);
  if (maxLines <= 0) return [];
  const linesWith = new Map<string, number>();
  for (const ts of lines.hits.values()) for (const t of ts) linesWith.set(t, (linesWith.get(t) ?? 0) + 1);
  const weight = new Map([...linesWith].map(([t, n]) => [t, Math.log(1 + lines.total / n)]));
  const hitLines = [...lines.hits.keys()].sort((a, b) => a - b);
  const termsIn = (r: Region): Map<string, number> => {
    const tf = new Map<string, number>();
    for (let i = firstAtOrAfter(hitLines, r.start); i < hitLines.length && hitLines[i]! <= r.end; i++)
      for (const t of lines.hits.get(hitLines[i]!)!) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  };
  const units = unitsOf(lines.total, hitLines, outline).map((u) => ({ ...u, tf: termsIn(u) }));
  const named = new Set(focus.names);
  const avg = units.reduce((n, u) => n + u.end - u.start + 1, 0) / Math.max(1, units.length);
  const shown = new Set<string>();
  const score = (u: (typeof units)[number]): number => {
    let s = 0;
    for (const [t, n] of u.tf) s += bm25Term(weight.get(t)!, n, u.end - u.start + 1, avg) * (shown.has(t) ? SHOWN_AGAIN : 1);
    return s;
  };
  const chosen: Region[] = [];
  let used = 0;
  const take = (r: Region) => {
    const fitted = { start: r.start, end: Math.min(r.end, r.start + (maxLines - used) - 1) };
    chosen.push(fitted);
    used += fitted.end - fitted.start + 1;
    for (const t of termsIn(fitted).keys()) shown.add(t);
  };
  for (const u of units) if (u.name && named.has(u.name) && used < maxLines) take(u);
  const left = units.filter((u) => !(u.name && named.has(u.name)));
  while (used < maxLines) {
    let [best, bestScore] = [-1, 0];
    left.forEach((u, i) => {
      const s = score(u);
      if (s > bestScore) [best, bestScore] = [i, s];
    });
    if (best < 0) break;
    const [u] = left.splice(best, 1);
    for (const r of shownOf(u!, lines.hits, weight)) if (used < maxLines) take(r);
  }
  return chosen;
}

/** The first of `ranked` that hold at most `maxLines` lines (the last one cut to fit), in line order, touching ones made one. Pure. */
export function firstLines(ranked: readonly Region[], maxLines: number): Region[] {
  const out: Region[] = [];
  let used = 0;
  for (const r of ranked) {
    if (used >= maxLines) break;
    const end = Math.min(r.end, r.start + (maxLines - used) - 1);
    out.push({ start: r.start, end });
    used += end - r.start + 1;
  }
  return merged(out);
}

/** Where a file holds the task's terms: each line with one, and the terms it holds. */
export interface TermLines {
  /** The file's line count. */
  total: number;
  /** 1-based line → the task's terms on it; only lines with one. */
  hits: Map<number, string[]>;
}

/**
 * The lines of `text` holding one of `terms`. Only the lines where a term's letters occur are split
 * into terms (the rest cannot hold one), found by one case-blind pass: a file is read once, not
 * tokenised. Pure.
 */
export function termLines(text: string, terms: readonly string[]): TermLines {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const hits = new Map<number, string[]>();
  if (!terms.length) return { total: starts.length, hits };
  // Terms are letters only (`termsOf`). One stemmed from "-ies" to "-y" is found by the letters before its "y".
  const letters = new RegExp(terms.map((t) => (t.endsWith("y") ? t.slice(0, -1) : t)).join("|"), "gi");
  const maybe = new Set<number>();
  for (let m = letters.exec(text); m !== null; m = letters.exec(text)) maybe.add(lastAtOrBefore(starts, m.index) + 1);
  const wanted = new Set(terms);
  for (const n of maybe) {
    const line = text.slice(starts[n - 1]!, (starts[n] ?? text.length + 1) - 1);
    if (line.length > LONG_LINE) continue;
    const on = [...new Set(termsOf(line))].filter((t) => wanted.has(t));
    if (on.length) hits.set(n, on);
  }
  return { total: starts.length, hits };
}

/** The index of the first of sorted `xs` at or after `x` (`xs.length` if none). */
function firstAtOrAfter(xs: readonly number[], x: number): number {
  let [lo, hi] = [0, xs.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the last of sorted `xs` at or before `x` (`xs[0]` is at most `x`). */
const lastAtOrBefore = (xs: readonly number[], x: number): number => firstAtOrAfter(xs, x + 1) - 1;

/**
 * The units of a file: each symbol of the outline no other symbol sits inside (a function, a
 * method), and a window around each line with a term that no such symbol holds.
 */
function unitsOf(total: number, hitLines: readonly number[], outline?: Outline): Unit[] {
  // Symbols nest, so one holds another exactly when the next to start, in line order, starts inside it.
  const symbols = [...(outline?.symbols ?? [])].sort((a, b) => a.line - b.line || b.endLine - a.endLine);
  const leaves = symbols.filter((s, i) => {
    const next = symbols[i + 1];
    return !next || next.line > s.endLine || (next.line === s.line && next.endLine === s.endLine);
  });
  const units: Unit[] = leaves.map((s) => ({ start: s.line, end: Math.min(total, s.endLine), name: s.name }));
  // Leaves do not overlap, so the one that may hold a line is the last to start at or before it.
  const starts = units.map((u) => u.start);
  const held = (n: number) => (units[lastAtOrBefore(starts, n)]?.end ?? 0) >= n;
  let last: Unit | undefined;
  for (const n of hitLines) if (!held(n) && !(last && n <= last.end)) units.push((last = window(n, total)));
  return units.sort((a, b) => a.start - b.start);
}

/** What a chosen unit shows: a short one whole; a long one its first lines and the window of its densest line. */
function shownOf(u: Unit, hits: Map<number, string[]>, weight: Map<string, number>): Region[] {
  if (u.end - u.start + 1 <= WHOLE_SYMBOL || u.name === undefined) return [u];
  let best = u.start;
  let bestWorth = -1;
  for (const [n, ts] of hits) {
    const w = ts.reduce((s, t) => s + weight.get(t)!, 0);
    if (u.start <= n && n <= u.end && (w > bestWorth || (w === bestWorth && n < best))) [best, bestWorth] = [n, w];
  }
  const w = window(best, u.end);
  return [{ start: u.start, end: Math.min(u.start + 2, w.start - 1) }, { start: Math.max(w.start, u.start), end: w.end }].filter((r) => r.start <= r.end);
}

/** A window of `WINDOW.size` lines from a few lines before `line`, ending by `last`. */
function window(line: number, last: number): Unit {
  const start = Math.max(1, line - WINDOW.before);
  return { start, end: Math.min(last, start + WINDOW.size - 1) };
}

/** Regions sorted, those that overlap or touch made one. */
function merged(regions: Region[]): Region[] {
  const out: Region[] = [];
  for (const r of [...regions].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

/**
 * A file (its lines) as its outline with `regions` inlined, in line order: an outline entry reads
 * `   40  def parse(...)`, a region's line `   41<tab>code` as read_file numbers it (so a quote of
 * it is one edit_file reads); without an outline, a gap between regions reads `    ⋮`. Pure.
 */
export function regionView(lines: readonly string[], regions: readonly Region[], outline?: Outline): string {
  const rows: { line: number; text: string }[] = [];
  const inRegion = (n: number) => regions.some((r) => r.start <= n && n <= r.end);
  for (const s of outline?.symbols ?? []) {
    if (!inRegion(s.line)) rows.push({ line: s.line, text: outlineLine(s) });
  }
  for (const r of regions) {
    for (let n = r.start; n <= r.end; n++) rows.push({ line: n, text: numberedLine(n, lines[n - 1] ?? "", 5) });
  }
  rows.sort((a, b) => a.line - b.line);
  const out: string[] = [];
  rows.forEach((row, i) => {
    const prev = rows[i - 1];
    if (!outline?.symbols.length && prev && row.line > prev.line + 1) out.push("    ⋮");
    out.push(row.text);
  });
  return out.join("\n");
}
