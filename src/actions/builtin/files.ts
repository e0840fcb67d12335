import { createHash } from "node:crypto";
import { closeSync, readFileSync, readSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import { createPatch } from "diff";
import { z } from "zod";
import { writeFileInside } from "../../workspace/atomic.ts";
import { holdsKeyMaterial, MAX_WHOLE_FILE, openRegularFile, PathRefused, type ResolvedPath } from "../../workspace/containment.ts";
import { sha256 } from "../../workspace/ledger.ts";
import { looksBinary } from "../../workspace/walker.ts";
import { type ActionContext, defineAction, ToolFailure } from "../action.ts";
import { applyEdits, EditRefused, type EditSpec, inFileConventions } from "../edit-match.ts";
import { MAX_LINE, numberedLine } from "../../core/text-fit.ts";

const DEFAULT_LIMIT = 2000;

function existing(path: string, ctx: ActionContext, access: "read" | "write") {
  const p = ctx.workspace.resolve(path, access);
  if (!p.exists) throw new ToolFailure(`${path} does not exist; list_files shows what is there`);
  const st = statSync(p.absolute);
  if (st.isDirectory()) throw new ToolFailure(`${path} is a directory; use list_files for directories`);
  return { p, size: st.size };
}

/** A file an edit reads whole: one larger than MAX_WHOLE_FILE is refused, with what to do instead. */
function readExisting(path: string, ctx: ActionContext, access: "read" | "write" = "read") {
  const { p, size } = existing(path, ctx, access);
  if (size > MAX_WHOLE_FILE)
    throw new ToolFailure(
      `${path} is ${(size / 2 ** 20).toFixed(0)} MB, more than the ${MAX_WHOLE_FILE / 2 ** 20} MB weir ` +
        `reads or edits whole; read parts with read_file offset and limit, search it, or change it with a ` +
        `command (sed)`,
    );
  const bytes = readFileSync(p.absolute);
  return { p, bytes };
}

/** Lines numbered from `from + 1`, each cut at MAX_LINE characters, as read_file shows them. */
function numbered(lines: readonly string[], from: number): string {
  const width = String(from + lines.length).length;
  return lines.map((l, k) => numberedLine(from + k + 1, l, width)).join("\n");
}

/**
 * Lines of a file too large to read whole, in one pass of 1 MB reads: the `count` lines from line
 * `from` (0-based), each kept to MAX_LINE characters, with the whole file's SHA and line count.
 * Memory stays at the lines shown; the head decides binary and key material as for a small file.
 */
export function largeLines(abs: string, from: number, count: number): { lines: string[]; total: number; sha: string; head: Buffer } {
  const { fd } = openRegularFile(abs);
  try {
    const hash = createHash("sha256");
    const chunk = Buffer.allocUnsafe(1 << 20);
    const lines: string[] = [];
    let head: Buffer | undefined;
    let line = 0;
    let parts: Buffer[] = [];
    let kept = 0;
    let trailing = false;
    const keep = (b: Buffer) => {
      // Bytes enough for MAX_LINE characters of UTF-8; the rest of a long line is not held.
      const take = b.subarray(0, Math.max(0, MAX_LINE * 4 - kept));
      if (take.length) parts.push(Buffer.from(take));
      kept += take.length;
    };
    const end = () => {
      if (line >= from && line < from + count) lines.push(Buffer.concat(parts).toString("utf8").replace(/\r$/, ""));
      parts = [];
      kept = 0;
      line++;
    };
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const part = chunk.subarray(0, n);
      hash.update(part);
      head ??= Buffer.from(part.subarray(0, 200_000));
      let start = 0;
      for (let nl = part.indexOf(10); nl !== -1; nl = part.indexOf(10, start)) {
        if (line >= from && line < from + count) keep(part.subarray(start, nl));
        end();
        start = nl + 1;
      }
      if (line >= from && line < from + count) keep(part.subarray(start));
      trailing = start < n;
    }
    if (trailing) end();
    return { lines, total: line, sha: hash.digest("hex"), head: head ?? Buffer.alloc(0) };
  } finally {
    closeSync(fd);
  }
}

export const readFile = defineAction({
  id: "read_file",
  capability: "read",
  hint: "read a file (or a line range) with line numbers and its SHA-256",
  description:
    "Read a text file in the workspace: numbered lines and the file's SHA-256 (weir keeps it, so a " +
    "later write detects changes made by others). offset/limit (1-based lines) for large files.",
  input: z
    .object({
      path: z.string().min(1).describe("relative to the workspace root"),
      offset: z.number().int().min(1).optional().describe("first line to show, 1-based"),
      limit: z.number().int().min(1).optional().describe(`how many lines to show (default ${DEFAULT_LIMIT})`),
    })
    .strict(),
  risk: "read",
  source: "builtin",
  readOnly: true,
  moreHint: "read_file with offset and limit for the lines after the cut",
  summary: (i) => `${i.path}${i.offset ? `:${i.offset}` : ""}${i.limit ? `+${i.limit}` : ""}`,
  async run(i, ctx) {
    const { p, size } = existing(i.path, ctx, "read");
    if (size > MAX_WHOLE_FILE) return largeRead(p, i, ctx);
    const bytes = readFileSync(p.absolute);
    const sha = sha256(bytes);
    ctx.ledger.record(p.absolute, sha);
    if (holdsKeyMaterial(bytes)) throw new PathRefused(`${p.relative} holds a private key; weir never shows key material`, "protected");
    if (looksBinary(bytes)) throw new ToolFailure(`${p.relative} is a binary file (${bytes.length} bytes, sha256 ${sha}); it is not shown`);
    const text = bytes.toString("utf8");
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const from = (i.offset ?? 1) - 1;
    if (from >= lines.length && lines.length > 0) throw new ToolFailure(`${p.relative} has ${lines.length} lines; offset ${i.offset} is past the end`);
    // The same bytes, whole, are in the conversation already: point there rather than send them twice.
    const where = i.offset === undefined && i.limit === undefined ? ctx.ledger.whereShown(p.absolute, sha) : undefined;
    if (where) {
      const content =
        `${p.relative} (sha256 ${sha}, ${lines.length} lines) is unchanged since ${where}; it is not ` +
        `repeated here. Its SHA is recorded: you can edit it now. read_file with offset and limit shows a part again.`;
      return { content, details: { kind: "read", path: p.relative, sha, complete: true, lines: lines.length, shown: [1, lines.length], byReference: true } };
    }
    const shown = lines.slice(from, from + (i.limit ?? DEFAULT_LIMIT));
    const body = numbered(shown, from);
    const range = shown.length === lines.length ? `${lines.length} lines` : `lines ${from + 1}-${from + shown.length} of ${lines.length}`;
    return {
      content: `${p.relative} (sha256 ${sha}, ${range})\n${body}`,
      details: { kind: "read", path: p.relative, sha, complete: shown.length === lines.length, lines: lines.length, shown: [from + 1, from + shown.length] },
    };
  },
});

/** read_file of a file over MAX_WHOLE_FILE: the asked lines (the first DEFAULT_LIMIT by default), streamed. */
function largeRead(p: ResolvedPath, i: { offset?: number; limit?: number }, ctx: ActionContext) {
  const from = (i.offset ?? 1) - 1;
  const { lines, total, sha, head } = largeLines(p.absolute, from, i.limit ?? DEFAULT_LIMIT);
  ctx.ledger.record(p.absolute, sha);
  if (holdsKeyMaterial(head)) throw new PathRefused(`${p.relative} holds a private key; weir never shows key material`, "protected");
  if (looksBinary(head)) throw new ToolFailure(`${p.relative} is a binary file (sha256 ${sha}); it is not shown`);
  if (from >= total && total > 0) throw new ToolFailure(`${p.relative} has ${total} lines; offset ${i.offset} is past the end`);
  const content =
    `${p.relative} (sha256 ${sha}, lines ${from + 1}-${from + lines.length} of ${total}; a large file: ` +
    `read parts with offset and limit)\n${numbered(lines, from)}`;
  return {
    content,
    details: {
      kind: "read" as const,
      path: p.relative,
      sha,
      complete: lines.length === total,
      lines: total,
      shown: [from + 1, from + lines.length] as [number, number],
    },
  };
}

export const writeFile = defineAction({
  id: "write_file",
  capability: "code_edit",
  hint: "create a file or replace a whole file (atomic)",
  description:
    "Write a whole file, creating parent directories (for part of a file use edit_file). Overwriting " +
    "needs the file read first and is refused if it changed on disk since.",
  input: z.object({ path: z.string().min(1), content: z.string() }).strict(),
  risk: "write",
  source: "builtin",
  readOnly: false,
  summary: (i) => `${i.path} (${Buffer.byteLength(i.content)} bytes)`,
  run: async (i, ctx) => writeWhole(i.path, ctx.workspace.resolve(i.path, "write"), i.content, ctx),
});

/** A whole file written, for write_file and for edit_file's empty quote on a new or empty file. */
function writeWhole(path: string, p: ResolvedPath, content: string, ctx: ActionContext) {
  if (p.exists && statSync(p.absolute).isDirectory()) throw new ToolFailure(`${path} is a directory`);
  const old = p.exists ? readFileSync(p.absolute) : undefined;
  const current = old ? sha256(old) : undefined;
  const stale = ctx.ledger.staleReason(p.absolute, p.relative, current);
  if (stale) throw new ToolFailure(stale, "sha");
  // A file replaced whole keeps its line ends and byte order mark, as an editor keeps them.
  if (old && !looksBinary(old)) content = inFileConventions(old.toString("utf8"), content);
  writeFileWithLedger(p.absolute, content, ctx);
  const sha = ctx.ledger.get(p.absolute)!;
  const diff = old && looksBinary(old) ? undefined : diffOf(p.relative, old?.toString("utf8") ?? "", content);
  return {
    content: `${p.exists ? "overwrote" : "created"} ${p.relative} (${Buffer.byteLength(content)} bytes, sha256 ${sha})`,
    details: { kind: "write" as const, path: p.relative, sha, created: !p.exists, ...(diff ? { diff } : {}) },
  };
}

/** The change as a unified diff for the person watching (capped; the model gets its own short echo). */
function diffOf(rel: string, before: string, after: string): string {
  const patch = createPatch(rel, before.replace(/\r\n/g, "\n"), after.replace(/\r\n/g, "\n"), "", "", { context: 3 });
  return patch.length > 20_000 ? `${patch.slice(0, 20_000)}\n… (diff cut)` : patch;
}

function writeFileWithLedger(absolute: string, content: string, ctx: ActionContext) {
  const rel = relative(ctx.workspace.root, absolute).split(sep).join("/");
  ctx.undo?.before(rel);
  try {
    writeFileInside(ctx.workspace.root, rel, content);
    ctx.undo?.after(rel);
    ctx.undo?.flush();
  } catch (e) {
    if (e instanceof PathRefused) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOSPC") throw new ToolFailure("the disk is full; nothing was written and the file is unchanged");
    if (code === "EACCES" || code === "EPERM") throw new ToolFailure("permission denied by the operating system; nothing was written");
    throw new ToolFailure(`could not write: ${code ?? (e as Error).message}; the file is unchanged`);
  }
  ctx.ledger.wrote(absolute, sha256(content));
}

const EditItem = z.object({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

/** The first changed lines of the new text, numbered, so the model sees the result without re-reading. */
function changedSnippet(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  const from = Math.max(0, start - 2);
  const to = Math.min(b.length, Math.max(endB, start + 1) + 2, from + 12);
  return b
    .slice(from, to)
    .map((l, k) => `${from + k + 1}\t${l}`)
    .join("\n");
}

export const editFile = defineAction({
  id: "edit_file",
  capability: "code_edit",
  hint: "replace exact text in a file (or several edits at once, all or nothing)",
  description:
    "Replace old_string (exact text, without line numbers) with new_string in a file you have read or weir showed you. " +
    "It must match one place, or set replace_all; else a match ignoring indentation is tried and re-indented; " +
    ("ambiguous matches are refused with their line numbers. An empty old_string creates a new (or " +
      "empty) file. `edits` (instead of old/new): several replacements in order, all or nothing. ") +
    "Refused if the file changed on disk since.",
  input: z
    .object({
      path: z.string().min(1),
      old_string: z.string().optional(),
      new_string: z.string().optional(),
      replace_all: z.boolean().optional(),
      edits: z.array(EditItem).min(1).optional(),
    })
    .strict()
    .refine((i) => (i.edits ? i.old_string === undefined && i.new_string === undefined : i.old_string !== undefined && i.new_string !== undefined), {
      message: "give either old_string and new_string, or edits, not both",
      path: ["edits"],
    }),
  risk: "write",
  source: "builtin",
  readOnly: false,
  summary: (i) => `${i.path} (${i.edits ? `${i.edits.length} edits` : "1 edit"})`,
  async run(i, ctx) {
    // An empty quote on a file that does not exist yet, or is empty, writes it whole (as other agents' edit tools do).
    if (i.old_string === "" && i.new_string !== undefined) {
      const target = ctx.workspace.resolve(i.path, "write");
      if (!target.exists || statSync(target.absolute).size === 0) return writeWhole(i.path, target, i.new_string, ctx);
    }
    const { p, bytes } = readExisting(i.path, ctx, "write");
    const stale = ctx.ledger.staleReason(p.absolute, p.relative, sha256(bytes));
    if (stale) throw new ToolFailure(stale, "sha");
    if (looksBinary(bytes)) throw new ToolFailure(`${p.relative} is binary; edit_file only edits text`);
    const before = bytes.toString("utf8");
    const edits: EditSpec[] = i.edits ?? [{ old_string: i.old_string!, new_string: i.new_string!, replace_all: i.replace_all }];
    let outcome;
    try {
      outcome = applyEdits(before, edits);
    } catch (e) {
      if (e instanceof EditRefused) throw new ToolFailure(`${p.relative}: ${e.message}`);
      throw e;
    }
    writeFileWithLedger(p.absolute, outcome.text, ctx);
    const how = {
      exact: "",
      unescaped: " (matched once the quote's escapes were undone)",
      "line numbers": " (matched without the line numbers read_file shows; they are not part of the file)",
      indentation: " (matched ignoring indentation; re-indented)",
      whitespace: " (matched ignoring whitespace inside lines; re-indented)",
      punctuation: " (matched reading typographic quotes, dashes and ellipses as plain ones; re-indented)",
      "blank lines": " (matched ignoring blank lines; re-indented)",
      "partial lines": " (matched as a quote that starts or ends inside a line; the rest of those lines kept, re-indented)",
      spacing: " (matched part of a line reading its spacing loosely)",
    }[outcome.how];
    const sha = ctx.ledger.get(p.absolute)!;
    return {
      content:
        `edited ${p.relative}: ${outcome.replaced} replacement${outcome.replaced === 1 ? "" : "s"}${how}, ` +
        `sha256 ${sha}\n${changedSnippet(before.replace(/\r\n/g, "\n"), outcome.text.replace(/\r\n/g, "\n"))}`,
      details: { kind: "write", path: p.relative, sha, created: false, how: outcome.how, diff: diffOf(p.relative, before, outcome.text) },
    };
  },
});
