/**
 * Text made to fit `maxChars`: whole when it does, else its first and last halves at line breaks,
 * with a line in between that says how many characters went. Pure.
 */
export function middleCut(text: string, maxChars: number): { text: string; cut: number } {
  if (text.length <= maxChars) return { text, cut: 0 };
  const half = Math.max(0, Math.floor(maxChars / 2));
  // A line break at or before the half's last character, so the head never passes the half.
  const headEnd = text.lastIndexOf("\n", half - 1);
  const head = text.slice(0, headEnd > half / 2 ? headEnd + 1 : half);
  const tailStart = text.indexOf("\n", text.length - half);
  const tail = text.slice(tailStart !== -1 && tailStart < text.length - half / 2 ? tailStart + 1 : text.length - half);
  const cut = text.length - head.length - tail.length;
  return { text: `${head}[... ${cut.toLocaleString("en")} characters cut from the middle ...]\n${tail}`, cut };
}

/** The most characters of a line shown in part of a file: a longer one (minified code, data) is cut. */
export const MAX_LINE = 2000;

/**
 * One line as read_file and a file's regions show it: its number right-aligned to `width`, a tab,
 * and the line cut at MAX_LINE characters with a note that says so. edit_file takes the number off
 * a quote of such lines. Pure.
 */
export function numberedLine(n: number, line: string, width: number): string {
  return `${String(n).padStart(width)}\t${cutLine(line)}`;
}

/** A line kept to MAX_LINE characters, with a note where it was cut. Pure. */
export const cutLine = (line: string): string => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… [line cut at ${MAX_LINE} chars]` : line);

/** Characters a task (with whatever was piped beside it) may take: a quarter of the window, four to a token. Pure. */
export const taskRoom = (contextSize: number): number => contextSize;

/** A count with its noun in the right number: "1 file", "3 files", "1 attempt". Pure. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
