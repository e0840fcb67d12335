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

/** Characters a task (with whatever was piped beside it) may take: a quarter of the window, four to a token. Pure. */
export const taskRoom = (contextSize: number): number => contextSize;

/** A count with its noun in the right number: "1 file", "3 files", "1 attempt". Pure. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
