/**
 * The text side of `edit_file`, pure. The exact match comes first; only when it fails, tolerances
 * for the ways real models misquote, in order: an over-escaped old_string (`\n`, `\'`, `\$`, `\\`
 * written for the plain character); read_file's line numbers copied into the quote; then line by
 * line ignoring indentation, then also ignoring runs of whitespace inside lines (non-breaking
 * spaces included), then also reading typographic quotes, dashes and the ellipsis as their plain
 * forms, then also ignoring blank lines; then a quote that starts or ends inside a line; last, a
 * quote of part of one line whose spacing differs. A tolerance applies only when it finds exactly
 * one match (or every match with replace_all, line by line or in spacing), never touches a line
 * outside the matched range, and the outcome names it. Re-indentation follows each line's own depth
 * in the file, so nesting a model flattened in its quote is kept. An ambiguous match is refused
 * with the line number of every occurrence. Line endings of the file are kept line by line: a line
 * the edit leaves alone keeps its own, a new line takes the ending of the line it replaces.
 */
import { diffArrays } from "diff";

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export class EditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditRefused";
  }
}

interface EditOutcome {
  text: string;
  /** How many places changed, and how the match was found. */
  replaced: number;
  how: "exact" | "unescaped" | "line numbers" | "indentation" | "whitespace" | "punctuation" | "blank lines" | "partial lines" | "spacing";
}

const leading = (s: string) => s.match(/^[ \t]*/)![0];


const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

function exactPositions(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function ambiguous(lines: number[], how: string): EditRefused {
  return new EditRefused(
    `old_string matches ${lines.length} places${how} (lines ${lines.join(", ")}); either include more ` +
      `surrounding lines so it matches exactly one, or set replace_all: true to change every one`,
  );
}

/** Undoes the escaping a model added when quoting: `\n` `\t` `\'` `\"` `` \` `` `\$` `\\`. Pure. */
function unescapeQuoted(s: string): string {
  return s.replace(/\\(n|t|r|'|"|`|\$|\\)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : c));
}

const collapse = (l: string) => l.trim().replace(/\s+/g, " ");

/** Typographic forms a model may write for the plain ones, or the plain for them. */
const PLAIN: Record<string, string> = {
  "\u2026": "...",
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2212": "-",
};

/** A line with whitespace runs collapsed (`\s` holds non-breaking spaces) and typographic punctuation made plain. */
const plain = (l: string) => collapse(l).replace(/[\u2018-\u201f\u2010-\u2014\u2026\u2212]/g, (c) => PLAIN[c] ?? c);

/**
 * The quote without read_file's line numbers (`  12\t`), when every line of it carries one and they
 * count up by one; undefined otherwise, so a file whose lines hold numbers and tabs is never
 * mistaken for them. Pure.
 */
function withoutLineNumbers(quote: string): string | undefined {
  const lines = quote.replace(/\n$/, "").split("\n");
  const numbers = lines.map((l) => /^ *(\d+)\t/.exec(l)?.[1]);
  if (numbers.some((n) => n === undefined)) return undefined;
  if (numbers.some((n, k) => Number(n) !== Number(numbers[0]) + k)) return undefined;
  return lines.map((l) => l.replace(/^ *\d+\t/, "")).join("\n");
}

/** Where each line of `b` sits in `a`: LCS anchors on trimmed text, gaps mapped by position. Pure. */
function align(a: string[], b: string[]): number[] {
  const n = a.length;
  const m = b.length;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i]!.trim() === b[j]!.trim() ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const anchors: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i]!.trim() === b[j]!.trim() && a[i]!.trim() !== "") anchors.push([i++, j++]);
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  const out = new Array<number>(m).fill(0);
  const bounds: [number, number][] = [[-1, -1], ...anchors, [n, m]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [ai, bj] = bounds[g]!;
    const [ai2, bj2] = bounds[g + 1]!;
    if (bj >= 0 && bj < m) out[bj] = ai;
    for (let j = bj + 1; j < bj2; j++) out[j] = Math.max(0, Math.min(n - 1, ai + 1 + (j - bj - 1), ai2 < n ? Math.max(ai + 1, ai2 - 1) : n - 1));
  }
  return out;
}

/**
 * The new lines re-indented to the file: each new line takes the file indentation of the old line
 * it aligns with, plus whatever it is indented beyond that old line in the model's own quote. When
 * the quote began inside a line (`midLine`), its first line's indentation in the quote says nothing,
 * so the new lines after the first that align with it are placed from the quote's second line. Pure.
 */
function reindent(fileLines: string[], oldLines: string[], newLines: string[], midLine = false): string[] {
  const map = align(oldLines, newLines);
  const unit = fileLines.map(leading).find((l) => l !== "")?.[0] === "\t" ? "\t" : " ";
  return newLines.map((l, j) => {
    if (l.trim() === "") return "";
    const k = midLine && j > 0 && map[j] === 0 ? 1 : map[j]!;
    const fileIndent = leading(fileLines[k] ?? fileLines[fileLines.length - 1] ?? "");
    const extra = leading(l).length - leading(oldLines[k] ?? "").length;
    const base = extra < 0 ? fileIndent.slice(0, Math.max(0, fileIndent.length + extra)) : fileIndent + unit.repeat(extra);
    return base + l.trimStart();
  });
}

/** Line-by-line matches of `oldLines` in the file under a normalisation; non-overlapping starts. */
function lineMatches(fileLines: string[], oldLines: string[], norm: (l: string) => string): number[] {
  const want = oldLines.map(norm);
  const starts: number[] = [];
  for (let i = 0; i + want.length <= fileLines.length; i++) {
    let ok = true;
    for (let k = 0; k < want.length && ok; k++) ok = norm(fileLines[i + k]!) === want[k];
    if (ok) {
      starts.push(i);
      i += want.length - 1;
    }
  }
  return starts;
}

/** [first, last] line ranges where the quote's non-blank lines match in order with only blank lines between. */
function blankTolerantMatches(fileLines: string[], oldLines: string[]): [number, number][] {
  const want = oldLines.filter((l) => l.trim() !== "").map(plain);
  const out: [number, number][] = [];
  for (let i = 0; i < fileLines.length; i++) {
    if (plain(fileLines[i]!) !== want[0]) continue;
    let k = 1;
    let j = i + 1;
    for (; k < want.length && j < fileLines.length; j++) {
      if (fileLines[j]!.trim() === "") continue;
      if (plain(fileLines[j]!) !== want[k]) break;
      k++;
    }
    if (k === want.length) {
      out.push([i, j - 1]);
      i = j - 1;
    }
  }
  return out;
}

/**
 * LF text `edited` with the line endings of `original`: all CRLF when every line of it ends so;
 * otherwise (mixed endings) a line the edit kept keeps its own ending, and a new line takes the
 * ending of the line it replaces, or of the line before it when it replaces none. Pure.
 */
function withEndingsOf(original: string, edited: string): string {
  if (!original.includes("\r\n")) return edited;
  if (!/(^|[^\r])\n/.test(original)) return edited.replace(/\n/g, "\r\n");
  const before = original.split("\n");
  // The last line has nothing after it; as a line others follow, it would end as the one before it.
  const ends = before.map((l, i) => (l.endsWith("\r") || (i === before.length - 1 && before[i - 1]?.endsWith("\r")) ? "\r\n" : "\n"));
  const after = edited.split("\n");
  const out: string[] = [];
  let i = 0; // the next line of the original
  let removed: string[] = []; // endings of the lines the current change took out
  let added = 0; // lines the current change put in so far
  for (const part of diffArrays(before.map((l) => l.replace(/\r$/, "")), after)) {
    if (part.removed) {
      removed = ends.slice(i, i + part.value.length);
      i += part.value.length;
      continue;
    }
    for (const line of part.value) out.push(line + (part.added ? (removed[Math.min(added++, removed.length - 1)] ?? ends[Math.max(0, i - 1)]!) : ends[i++]!));
    if (!part.added) [removed, added] = [[], 0];
  }
  // The edited text's last line has no ending.
  out[out.length - 1] = after[after.length - 1]!;
  return out.join("");
}

const wordy = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);

/**
 * Where a quote of two lines or more matches when its first line is the end of a file line and/or
 * its last line the start of one, exactly but for the whitespace around them, and the lines between
 * match ignoring whitespace. A cut must fall between words, never inside one. Each match gives the
 * file's text before the quote on its first line and after it on its last. Pure.
 */
function partialMatches(fileLines: string[], oldLines: string[]): { start: number; before: string; after: string }[] {
  const n = oldLines.length;
  const head = oldLines[0]!.trim();
  const tail = oldLines[n - 1]!.trim();
  if (n < 2 || head === "" || tail === "") return [];
  const out: { start: number; before: string; after: string }[] = [];
  for (let i = 0; i + n <= fileLines.length; i++) {
    const first = fileLines[i]!.trimEnd();
    const last = fileLines[i + n - 1]!.trimStart();
    if (!first.endsWith(head) || !last.startsWith(tail)) continue;
    const before = first.slice(0, first.length - head.length);
    const after = last.slice(tail.length);
    if (before.trim() === "" && after.trim() === "") continue; // whole lines: the tolerances above
    if ((wordy(before.at(-1)) && wordy(head[0])) || (wordy(after[0]) && wordy(tail.at(-1)))) continue;
    if (oldLines.slice(1, -1).every((l, k) => collapse(l) === collapse(fileLines[i + 1 + k]!))) out.push({ start: i, before, after });
  }
  return out;
}

/**
 * Where a one-line quote occurs within lines when spacing is read loosely: a run of spaces or tabs
 * may differ in length, and space next to punctuation may be there or not (`add(a,b)`, `add( a, b )`),
 * but two words stay apart (`a b` never matches `ab`). A match starts and ends between words. Pure.
 */
function fragmentMatches(text: string, quote: string): { index: number; length: number }[] {
  const tokens = quote.match(/[\w$]+|\S/g) ?? [];
  if (tokens.length < 2) return [];
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const source = tokens.map((t, i) => (i === 0 ? "" : wordy(tokens[i - 1]!.at(-1)) && wordy(t[0]) ? "[^\\S\\n]+" : "[^\\S\\n]*") + esc(t)).join("");
  const out: { index: number; length: number }[] = [];
  for (const m of text.matchAll(new RegExp(source, "g"))) {
    const before = text[m.index - 1];
    const after = text[m.index + m[0].length];
    if ((wordy(before) && wordy(quote[0])) || (wordy(after) && wordy(quote.at(-1)))) continue;
    out.push({ index: m.index, length: m[0].length });
  }
  return out;
}

export function applyEdit(original: string, edit: EditSpec): EditOutcome {
  if (edit.old_string === "") throw new EditRefused("old_string is empty; to create or overwrite a whole file use write_file");
  if (edit.old_string === edit.new_string) throw new EditRefused("old_string and new_string are identical; there is nothing to change");
  const text = original.replace(/\r\n/g, "\n");
  const oldS = edit.old_string.replace(/\r\n/g, "\n");
  const newS = edit.new_string.replace(/\r\n/g, "\n");
  const restore = (s: string) => withEndingsOf(original, s);
  try {
    const r = match(text, oldS, newS, edit.replace_all === true);
    return { ...r, text: restore(r.text) };
  } catch (e) {
    // read_file's line numbers copied into the quote (and into the new text, when it has them too).
    const bare = e instanceof EditRefused && !exactPositions(text, oldS).length ? withoutLineNumbers(oldS) : undefined;
    if (bare === undefined) throw e;
    const r = match(text, bare, withoutLineNumbers(newS) ?? newS, edit.replace_all === true);
    return { ...r, text: restore(r.text), how: r.how === "exact" ? "line numbers" : r.how };
  }
}

/** One edit of LF text: the exact match, then each tolerance in turn. */
function match(text: string, oldS: string, newS: string, replaceAll: boolean): EditOutcome {
  const positions = exactPositions(text, oldS);
  if (positions.length === 1 || (positions.length > 1 && replaceAll)) {
    const out = replaceAll ? text.split(oldS).join(newS) : text.slice(0, positions[0]) + newS + text.slice(positions[0]! + oldS.length);
    return { text: out, replaced: positions.length, how: "exact" };
  }
  if (positions.length > 1) throw ambiguous(positions.map((p) => lineOf(text, p)), "");

  // Over-escaped: the quote holds `\n` or `\'` where the file has the plain character.
  const unOld = unescapeQuoted(oldS);
  if (unOld !== oldS) {
    const at = exactPositions(text, unOld);
    if (at.length === 1) {
      const unNew = unescapeQuoted(newS);
      return { text: text.slice(0, at[0]) + unNew + text.slice(at[0]! + unOld.length), replaced: 1, how: "unescaped" };
    }
    if (at.length > 1) throw ambiguous(at.map((p) => lineOf(text, p)), " once unescaped");
  }

  const fileLines = text.split("\n");
  const oldLines = oldS.replace(/\n$/, "").split("\n");
  if (oldLines.every((l) => l.trim() === "")) throw new EditRefused("old_string is only whitespace and was not found exactly; include real text from the file");
  const newLines = newS.replace(/\n$/, "").split("\n");

  // Line by line ignoring indentation (and trailing spaces), then also ignoring whitespace runs
  // inside lines, then also typographic punctuation.
  for (const [how, norm] of [
    ["indentation", (l: string) => l.trim()],
    ["whitespace", collapse],
    ["punctuation", plain],
  ] as const) {
    const starts = lineMatches(fileLines, oldLines, norm);
    if (starts.length === 0) continue;
    if (starts.length > 1 && !replaceAll) throw ambiguous(starts.map((s) => s + 1), ` ignoring ${how === "punctuation" ? "whitespace and punctuation" : how}`);
    let out = fileLines;
    // Replace from the last match backwards so earlier indexes stay valid.
    for (const start of [...starts].reverse()) {
      const matched = out.slice(start, start + oldLines.length);
      const replacement = newS === "" ? [] : reindent(matched, oldLines, newLines);
      out = [...out.slice(0, start), ...replacement, ...out.slice(start + oldLines.length)];
    }
    return { text: out.join("\n"), replaced: starts.length, how };
  }

  // Then ignoring blank lines too: the quote's other lines, in order, with only blank lines between
  // them in the file. The range from the first to the last is replaced.
  const ranges = blankTolerantMatches(fileLines, oldLines);
  if (ranges.length > 1) throw ambiguous(ranges.map(([a]) => a + 1), " ignoring blank lines");
  if (ranges.length === 1) {
    const [start, end] = ranges[0]!;
    const solid = (ls: string[]) => ls.filter((l) => l.trim() !== "");
    const replacement = newS === "" ? [] : reindent(solid(fileLines.slice(start, end + 1)), solid(oldLines), newLines);
    return { text: [...fileLines.slice(0, start), ...replacement, ...fileLines.slice(end + 1)].join("\n"), replaced: 1, how: "blank lines" };
  }
  // Then a quote that starts or ends inside a line (the rest of its lines matched ignoring
  // whitespace): the file's text before it on its first line and after it on its last is kept.
  const partial = partialMatches(fileLines, oldLines);
  if (partial.length > 1) throw ambiguous(partial.map((m) => m.start + 1), " starting or ending inside a line");
  if (partial.length === 1) {
    const { start, before, after } = partial[0]!;
    const whole = (ls: string[]) => ls.map((l, k) => (k === 0 ? before + l.trim() : l) + (k === ls.length - 1 ? after : ""));
    const matched = fileLines.slice(start, start + oldLines.length);
    const replacement = reindent(matched, whole(oldLines), whole(newS === "" ? [""] : newLines), before.trim() !== "");
    return { text: [...fileLines.slice(0, start), ...replacement, ...fileLines.slice(start + oldLines.length)].join("\n"), replaced: 1, how: "partial lines" };
  }
  // Last, a quote of part of one line whose spacing differs: in runs, or around punctuation.
  if (oldLines.length === 1) {
    const at = fragmentMatches(text, oldS.trim());
    if (at.length > 1 && !replaceAll) throw ambiguous(at.map((m) => lineOf(text, m.index)), " ignoring spacing");
    if (at.length > 0) {
      let out = text;
      for (const m of [...at].reverse()) out = out.slice(0, m.index) + newS + out.slice(m.index + m.length);
      return { text: out, replaced: at.length, how: "spacing" };
    }
  }
  const first = oldLines.map((l) => l.trim()).find((l) => l !== "")!;
  const near = fileLines.flatMap((l, i) => (collapse(l).includes(collapse(first)) ? [i + 1] : [])).slice(0, 5);
  throw new EditRefused(
    `old_string was not found, exactly or ignoring indentation and ` +
      (`whitespace${near.length ? `; its first line appears at line ${near.join(", ")}, so the lines after it differ` : ""}; ` +
        `read the file again and copy the text exactly`),
  );
}

/** Applies edits in order to one buffer; all or nothing: the first refusal names its edit and nothing is written. */
export function applyEdits(original: string, edits: EditSpec[]): EditOutcome {
  let text = original;
  let replaced = 0;
  let how: EditOutcome["how"] = "exact";
  for (const [i, edit] of edits.entries()) {
    try {
      const r = applyEdit(text, edit);
      text = r.text;
      replaced += r.replaced;
      if (r.how !== "exact") how = r.how;
    } catch (e) {
      if (e instanceof EditRefused && edits.length > 1) throw new EditRefused(`edit ${i + 1} of ${edits.length}: ${e.message}; no edit was applied`);
      throw e;
    }
  }
  return { text, replaced, how };
}

/**
 * A whole file's new text in the conventions of the text it replaces, as an editor keeps them: all
 * CRLF line ends when every line of the old text ended so and the new text uses none, and the old
 * text's byte order mark when the new text has none. New text that chose its own is left as it is. Pure.
 */
export function inFileConventions(before: string | undefined, content: string): string {
  if (!before) return content;
  let out = content;
  const breaks = before.split("\n").length - 1;
  if (breaks > 0 && before.split("\r\n").length - 1 === breaks && !out.includes("\r")) out = out.replace(/\n/g, "\r\n");
  if (before.startsWith("\uFEFF") && !out.startsWith("\uFEFF")) out = `\uFEFF${out}`;
  return out;
}

/**
 * A file's text after an edit_file or write_file call (`before` undefined: the file does not exist),
 * or undefined when the call is neither or would fail. An empty quote on a new or empty file writes
 * it whole, as edit_file does. Pure.
 */
export function textAfter(call: { name: string; input: unknown }, before: string | undefined): string | undefined {
  const i = (call.input ?? {}) as { content?: unknown; old_string?: unknown; new_string?: unknown; replace_all?: unknown; edits?: unknown };
  if (call.name === "write_file") return typeof i.content === "string" ? inFileConventions(before, i.content) : undefined;
  if (call.name !== "edit_file") return undefined;
  if (i.old_string === "" && typeof i.new_string === "string" && !before) return i.new_string;
  const edits = Array.isArray(i.edits)
    ? (i.edits as EditSpec[])
    : [{ old_string: i.old_string, new_string: i.new_string, replace_all: i.replace_all === true } as EditSpec];
  if (before === undefined || edits.some((e) => typeof e?.old_string !== "string" || typeof e.new_string !== "string")) return undefined;
  try {
    return applyEdits(before, edits).text;
  } catch {
    return undefined; // the edit itself will be refused with its reason
  }
}
