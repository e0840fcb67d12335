import { counted } from "../../core/text-fit.ts";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { languageOf, outline } from "../../context/outline.ts";
import { holdsKeyMaterial } from "../../workspace/containment.ts";
import { looksBinary, walk } from "../../workspace/walker.ts";
import { defineAction, ToolFailure } from "../action.ts";

/** Files the search reads at most; past it, it asks for a narrower path. */
const MAX_FILES = 20_000;
/** Files the search walks at most, of which the symbol index may rule most out unread. */
const MAX_WALKED = 200_000;

/**
 * `find_references`: definitions, references and call sites of a symbol. Definitions come from the
 * tree-sitter outline (precision `syntax`); references and calls from an ignore-aware text search
 * (precision `heuristic`), of the files the symbol index's word filters allow where one is built.
 * Never claimed as compiler-checked. "None found" and "could not search" are different answers.
 */
export const findReferences = defineAction({
  id: "find_references",
  capability: "navigation",
  hint: "find where a symbol is defined, referenced and called",
  description:
    "Find the definitions (from a parser: precision syntax), references and call sites (from a text search: " +
    "precision heuristic) of a symbol across the workspace. Use before changing an exported symbol's signature or behaviour. " +
    "Results are not type-checked; a name shared by unrelated symbols shows up too.",
  input: z
    .object({
      symbol: z
        .string()
        .min(1)
        .regex(/^[\w$.]+$/, "a plain identifier"),
      path: z.string().optional().describe("limit to files below this directory"),
    })
    .strict(),
  risk: "read",
  source: "builtin",
  readOnly: true,
  summary: (i) => `${i.symbol}${i.path ? ` in ${i.path}` : ""}`,
  async run(i, ctx) {
    const name = i.symbol.split(".").pop()!;
    let below = "";
    if (i.path && i.path !== ".") below = ctx.workspace.resolve(i.path).relative;
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
    const defs: string[] = [];
    const calls: string[] = [];
    const refs: string[] = [];
    const walked: string[] = [];
    for (const e of walk(ctx.workspace.root)) {
      if (below && !e.path.startsWith(`${below}/`) && e.path !== below) continue;
      if (!ctx.workspace.inScope(e.path)) continue;
      if (walked.push(e.path) > MAX_WALKED) throw new ToolFailure(`could not search: more than ${MAX_WALKED} files; narrow it with path`);
    }
    // Where the symbol index is built, a file its word filter rules out does not name the symbol: it is not read.
    const named = walked.length > 1_000 ? ctx.namers?.([name], walked) : undefined;
    const reads = named ? walked.filter((f) => named.has(f)) : walked;
    if (reads.length > MAX_FILES) throw new ToolFailure(`could not search: more than ${MAX_FILES} files; narrow it with path`);
    const files = reads.length;
    for (const path of reads) {
      let bytes: Buffer;
      try {
        const abs = ctx.workspace.resolve(path).absolute;
        // Sized before it is read: a log of gigabytes is skipped, not loaded.
        if (statSync(abs).size > 2_000_000) continue;
        bytes = readFileSync(abs);
      } catch {
        continue;
      }
      if (looksBinary(bytes) || holdsKeyMaterial(bytes)) continue;
      const text = bytes.toString("utf8");
      if (!word.test(text)) continue;
      const defLines = new Set<number>();
      if (languageOf(path)) {
        const o = await outline(path, text).catch(() => undefined);
        for (const s of o?.symbols ?? [])
          if (s.name === name) {
            defLines.add(s.line);
            defs.push(`${path}:${s.line}: ${s.signature}  [syntax${s.exported ? ", exported" : ""}]`);
          }
      }
      text.split("\n").forEach((line, k) => {
        if (defLines.has(k + 1) || !word.test(line)) return;
        const isCall = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}\\s*(?:<[^>]*>)?\\(`).test(line);
        (isCall ? calls : refs).push(`${path}:${k + 1}: ${line.trim().slice(0, 160)}  [heuristic]`);
      });
    }
    const details = { kind: "references" as const, symbol: name, found: defs.length + calls.length + refs.length };
    const skipped = walked.length - files;
    const searched = `${counted(files, "file")} searched${skipped ? ` (${counted(skipped, "more file")} the symbol index rules out)` : ""}`;
    if (details.found === 0) return { content: `none found: no definition, reference or call of ${name} in ${searched}`, details };
    const cap = (xs: string[]) => (xs.length > 60 ? [...xs.slice(0, 60), `[${xs.length - 60} more]`] : xs);
    const content = [
      `definitions (${defs.length}):`,
      ...cap(defs),
      `call sites (${calls.length}):`,
      ...cap(calls),
      `other references (${refs.length}):`,
      ...cap(refs),
      `${searched}; definitions are from the parser, references are text matches`,
    ].join("\n");
    return { content, details };
  },
});
