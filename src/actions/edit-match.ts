/**
 * The text side of `edit_file`, pure: exact match first, then line by line ignoring indentation with
 * the new text re-indented to the file's own. An ambiguous match is refused with the line number of
 * every occurrence. Line endings of the file are kept.
 */
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

export interface EditOutcome {
  text: string;
  /** How many places changed, and how the match was found. */
  replaced: number;
  how: "exact" | "indentation";
}

const leading = (s: string) => s.match(/^[ \t]*/)![0];

function commonIndent(lines: string[]): string {
  const nonBlank = lines.filter((l) => l.trim() !== "");
  if (nonBlank.length === 0) return "";
  let prefix = leading(nonBlank[0]!);
  for (const l of nonBlank.slice(1)) {
    const ind = leading(l);
    let i = 0;
    while (i < prefix.length && i < ind.length && prefix[i] === ind[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

function exactPositions(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function ambiguous(lines: number[], how: string): EditRefused {
  return new EditRefused(
    `old_string matches ${lines.length} places${how} (lines ${lines.join(", ")}); either include more surrounding lines so it matches exactly one, or set replace_all: true to change every one`,
  );
}

export function applyEdit(original: string, edit: EditSpec): EditOutcome {
  if (edit.old_string === "") throw new EditRefused("old_string is empty; to create or overwrite a whole file use write_file");
  if (edit.old_string === edit.new_string) throw new EditRefused("old_string and new_string are identical; there is nothing to change");
  const crlf = original.includes("\r\n");
  const text = crlf ? original.replace(/\r\n/g, "\n") : original;
  const oldS = edit.old_string.replace(/\r\n/g, "\n");
  const newS = edit.new_string.replace(/\r\n/g, "\n");
  const restore = (s: string) => (crlf ? s.replace(/\n/g, "\r\n") : s);

  const positions = exactPositions(text, oldS);
  if (positions.length === 1 || (positions.length > 1 && edit.replace_all)) {
    const out = edit.replace_all ? text.split(oldS).join(newS) : text.slice(0, positions[0]) + newS + text.slice(positions[0]! + oldS.length);
    return { text: restore(out), replaced: positions.length, how: "exact" };
  }
  if (positions.length > 1) throw ambiguous(positions.map((p) => lineOf(text, p)), "");

  // Line by line, ignoring indentation and trailing spaces.
  const fileLines = text.split("\n");
  const oldLines = oldS.replace(/\n$/, "").split("\n");
  if (oldLines.every((l) => l.trim() === "")) throw new EditRefused("old_string is only whitespace and was not found exactly; include real text from the file");
  const norm = (l: string) => l.trim();
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
  if (starts.length === 0) {
    const first = want.find((l) => l !== "")!;
    const near = fileLines.flatMap((l, i) => (l.includes(first) ? [i + 1] : [])).slice(0, 5);
    throw new EditRefused(
      `old_string was not found, exactly or ignoring indentation${near.length ? `; its first line appears at line ${near.join(", ")}, so the lines after it differ` : ""}; read the file again and copy the text exactly`,
    );
  }
  if (starts.length > 1 && !edit.replace_all) throw ambiguous(starts.map((s) => s + 1), " ignoring indentation");

  const oldBase = commonIndent(oldLines);
  const newLines = newS.replace(/\n$/, "").split("\n");
  let out = fileLines;
  // Replace from the last match backwards so earlier indexes stay valid.
  for (const start of [...starts].reverse()) {
    const fileBase = commonIndent(out.slice(start, start + want.length));
    const reindented = newS === "" ? [] : newLines.map((l) => (l.trim() === "" ? "" : l.startsWith(oldBase) ? fileBase + l.slice(oldBase.length) : fileBase + l.trimStart()));
    out = [...out.slice(0, start), ...reindented, ...out.slice(start + want.length)];
  }
  return { text: restore(out.join("\n")), replaced: starts.length, how: "indentation" };
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
      if (r.how === "indentation") how = "indentation";
    } catch (e) {
      if (e instanceof EditRefused && edits.length > 1) throw new EditRefused(`edit ${i + 1} of ${edits.length}: ${e.message}; no edit was applied`);
      throw e;
    }
  }
  return { text, replaced, how };
}
