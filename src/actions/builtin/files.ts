import { readFileSync, statSync } from "node:fs";
import { relative, sep } from "node:path";
import { createPatch } from "diff";
import { z } from "zod";
import { writeFileInside } from "../../workspace/atomic.ts";
import { holdsKeyMaterial, PathRefused } from "../../workspace/containment.ts";
import { sha256 } from "../../workspace/ledger.ts";
import { looksBinary } from "../../workspace/walker.ts";
import { type ActionContext, defineAction, ToolFailure } from "../action.ts";
import { applyEdits, EditRefused, type EditSpec } from "../edit-match.ts";

const MAX_LINE = 2000;
const DEFAULT_LIMIT = 2000;

function readExisting(path: string, ctx: ActionContext, access: "read" | "write" = "read") {
  const p = ctx.workspace.resolve(path, access);
  if (!p.exists) throw new ToolFailure(`${path} does not exist; list_files shows what is there`);
  if (statSync(p.absolute).isDirectory()) throw new ToolFailure(`${path} is a directory; use list_files for directories`);
  const bytes = readFileSync(p.absolute);
  return { p, bytes };
}

export const readFile = defineAction({
  id: "read_file",
  capability: "read",
  hint: "read a file (or a line range) with line numbers and its SHA-256",
  description:
    "Read a text file in the workspace: numbered lines and the file's SHA-256 (weir keeps it, so a later write detects changes made by others). offset/limit (1-based lines) for large files.",
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
    const { p, bytes } = readExisting(i.path, ctx);
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
      const content = `${p.relative} (sha256 ${sha}, ${lines.length} lines) is unchanged since ${where}; it is not repeated here. Its SHA is recorded: you can edit it now. read_file with offset and limit shows a part again.`;
      return { content, details: { kind: "read", path: p.relative, sha, complete: true, lines: lines.length, shown: [1, lines.length] } };
    }
    const shown = lines.slice(from, from + (i.limit ?? DEFAULT_LIMIT));
    const width = String(from + shown.length).length;
    const body = shown.map((l, k) => `${String(from + k + 1).padStart(width)}\t${l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}… [line cut at ${MAX_LINE} chars]` : l}`).join("\n");
    const range = shown.length === lines.length ? `${lines.length} lines` : `lines ${from + 1}-${from + shown.length} of ${lines.length}`;
    return { content: `${p.relative} (sha256 ${sha}, ${range})\n${body}`, details: { kind: "read", path: p.relative, sha, complete: shown.length === lines.length, lines: lines.length, shown: [from + 1, from + shown.length] } };
  },
});

export const writeFile = defineAction({
  id: "write_file",
  capability: "code_edit",
  hint: "create a file or replace a whole file (atomic)",
  description:
    "Write a whole file, creating parent directories (for part of a file use edit_file). Overwriting needs the file read first and is refused if it changed on disk since.",
  input: z.object({ path: z.string().min(1), content: z.string() }).strict(),
  risk: "write",
  source: "builtin",
  readOnly: false,
  summary: (i) => `${i.path} (${Buffer.byteLength(i.content)} bytes)`,
  async run(i, ctx) {
    const p = ctx.workspace.resolve(i.path, "write");
    if (p.exists && statSync(p.absolute).isDirectory()) throw new ToolFailure(`${i.path} is a directory`);
    const old = p.exists ? readFileSync(p.absolute) : undefined;
    const current = old ? sha256(old) : undefined;
    const stale = ctx.ledger.staleReason(p.absolute, p.relative, current);
    if (stale) throw new ToolFailure(stale, "sha");
    writeFileWithLedger(p.absolute, i.content, ctx);
    const sha = ctx.ledger.get(p.absolute)!;
    const diff = old && looksBinary(old) ? undefined : diffOf(p.relative, old?.toString("utf8") ?? "", i.content);
    return { content: `${p.exists ? "overwrote" : "created"} ${p.relative} (${Buffer.byteLength(i.content)} bytes, sha256 ${sha})`, details: { kind: "write", path: p.relative, sha, created: !p.exists, ...(diff ? { diff } : {}) } };
  },
});

/** The change as a unified diff for the person watching (capped; the model gets its own short echo). */
function diffOf(rel: string, before: string, after: string): string {
  const patch = createPatch(rel, before.replace(/\r\n/g, "\n"), after.replace(/\r\n/g, "\n"), "", "", { context: 3 });
  return patch.length > 20_000 ? `${patch.slice(0, 20_000)}\n… (diff cut)` : patch;
}

function writeFileWithLedger(absolute: string, content: string, ctx: ActionContext) {
  try {
    writeFileInside(ctx.workspace.root, relative(ctx.workspace.root, absolute).split(sep).join("/"), content);
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
      "ambiguous matches are refused with their line numbers. `edits` (instead of old/new): several replacements in order, all or nothing. " +
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
    const how = { exact: "", unescaped: " (matched once the quote's escapes were undone)", indentation: " (matched ignoring indentation; re-indented)", whitespace: " (matched ignoring whitespace inside lines; re-indented)" }[outcome.how];
    const sha = ctx.ledger.get(p.absolute)!;
    return {
      content: `edited ${p.relative}: ${outcome.replaced} replacement${outcome.replaced === 1 ? "" : "s"}${how}, sha256 ${sha}\n${changedSnippet(before.replace(/\r\n/g, "\n"), outcome.text.replace(/\r\n/g, "\n"))}`,
      details: { kind: "write", path: p.relative, sha, created: false, how: outcome.how, diff: diffOf(p.relative, before, outcome.text) },
    };
  },
});
