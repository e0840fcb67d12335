import { counted } from "../../core/text-fit.ts";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { holdsKeyMaterial } from "../../workspace/containment.ts";
import { looksBinary, walk } from "../../workspace/walker.ts";
import { type ActionContext, defineAction, ToolFailure } from "../action.ts";

function scope(ctx: ActionContext, path: string | undefined): string {
  if (!path || path === ".") return "";
  const p = ctx.workspace.resolve(path);
  if (!p.exists) throw new ToolFailure(`${path} does not exist`);
  return p.relative === "." ? "" : p.relative;
}

function* walkUnder(ctx: ActionContext, sub: string) {
  // Walk from the root so ignore files above `sub` apply, but only yield what is below it (and, for a
  // worker, inside its scope: files outside it do not exist for the worker).
  for (const e of walk(ctx.workspace.root)) if ((sub === "" || e.path === sub || e.path.startsWith(`${sub}/`)) && ctx.workspace.inScope(e.path)) yield e;
}

export const listFiles = defineAction({
  id: "list_files",
  capability: "repository_search",
  hint: "list files, optionally by glob, honouring .gitignore",
  description:
    "List files in the workspace or below a directory, honouring .gitignore; `pattern` is a glob on the path from the root.",
  input: z
    .object({
      path: z.string().optional().describe("directory to list below (default: the root)"),
      pattern: z.string().optional().describe("glob, e.g. **/*.test.ts"),
      limit: z.number().int().min(1).max(5000).optional().describe("most paths to return (default 500)"),
    })
    .strict(),
  risk: "read",
  source: "builtin",
  readOnly: true,
  summary: (i) => [i.path, i.pattern].filter(Boolean).join(" ") || ".",
  async run(i, ctx) {
    const sub = scope(ctx, i.path);
    const glob = i.pattern ? new Bun.Glob(i.pattern) : undefined;
    const limit = i.limit ?? 500;
    const out: string[] = [];
    let more = 0;
    let hidden = 0;
    for (const e of walkUnder(ctx, sub)) {
      if (glob && !glob.match(e.path)) continue;
      // Protected files (dotenv and its variants, keys, credentials) are not listed, as they are not read.
      if (ctx.workspace.isProtected(e.path)) {
        hidden++;
        continue;
      }
      if (out.length < limit) out.push(e.path);
      else more++;
    }
    const note = hidden ? `\n[${hidden} protected path${hidden === 1 ? "" : "s"} (secrets, keys) not listed]` : "";
    if (out.length === 0)
      return { content: `no files${i.pattern ? ` match ${i.pattern}` : ""}${sub ? ` below ${sub}` : ""}${note}`, details: { kind: "list", paths: 0 } };
    return {
      content: out.join("\n") + (more ? `\n[${more} more not shown; narrow the pattern or raise limit]` : "") + note,
      details: { kind: "list", paths: out.length + more },
    };
  },
});

export const search = defineAction({
  id: "search",
  capability: "repository_search",
  hint: "regex search over the workspace's text files, honouring .gitignore",
  description:
    "Search file contents with a JavaScript regular expression, skipping ignored and binary files; returns path:line: text per hit, bounded.",
  input: z
    .object({
      pattern: z.string().min(1).describe("regular expression"),
      path: z.string().optional().describe("directory or file (default: the root)"),
      glob: z.string().optional().describe("only matching paths, e.g. **/*.py"),
      ignore_case: z.boolean().optional(),
      max_results: z.number().int().min(1).max(2000).optional().describe("most hits to return (default 100)"),
    })
    .strict(),
  risk: "read",
  source: "builtin",
  readOnly: true,
  summary: (i) => `/${i.pattern}/${i.ignore_case ? "i" : ""}${i.path ? ` in ${i.path}` : ""}${i.glob ? ` ${i.glob}` : ""}`,
  async run(i, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(i.pattern, i.ignore_case ? "i" : "");
    } catch (e) {
      throw new ToolFailure(`invalid regular expression ${i.pattern}: ${(e as Error).message}`);
    }
    const max = i.max_results ?? 100;
    const glob = i.glob ? new Bun.Glob(i.glob) : undefined;
    let target = "";
    let single: string | undefined;
    if (i.path && i.path !== ".") {
      const p = ctx.workspace.resolve(i.path);
      if (!p.exists) throw new ToolFailure(`${i.path} does not exist`);
      if (statSync(p.absolute).isFile()) single = p.relative;
      else target = p.relative === "." ? "" : p.relative;
    }
    const hits: string[] = [];
    const perFile = new Map<string, number>();
    let total = 0;
    let files = 0;
    const large: string[] = [];
    const paths = single ? [single] : Array.from(walkUnder(ctx, target), (e) => e.path);
    for (const rel of paths) {
      if (ctx.signal.aborted) break;
      if (glob && !glob.match(rel)) continue;
      let bytes: Buffer;
      try {
        // Every file passes the same guards as read_file: no symlink or hard link out, nothing protected.
        const abs = ctx.workspace.resolve(rel).absolute;
        // Sized before it is read: a log of gigabytes is skipped, not loaded.
        if (statSync(abs).size > 5_000_000) {
          large.push(rel);
          continue;
        }
        bytes = readFileSync(abs);
      } catch {
        continue;
      }
      if (looksBinary(bytes) || holdsKeyMaterial(bytes)) continue;
      files++;
      const lines = bytes.toString("utf8").split("\n");
      for (let n = 0; n < lines.length; n++) {
        if (!re.test(lines[n]!)) continue;
        total++;
        perFile.set(rel, (perFile.get(rel) ?? 0) + 1);
        if (hits.length < max) {
          const line = lines[n]!.replace(/\r$/, "");
          hits.push(`${rel}:${n + 1}: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
        }
      }
    }
    // A file too large to search is named, not passed over in silence: the answer may be in it.
    const named = `${large.slice(0, 5).join(", ")}${large.length > 5 ? ` and ${large.length - 5} more` : ""}`;
    const skipped = large.length ? `\n[not searched, over 5 MB: ${named}; search one with run_command (grep -n)]` : "";
    const none = `no matches for /${i.pattern}/ in ${counted(files, "file")}${skipped}`;
    if (total === 0) return { content: none, details: { kind: "search", files: [], hits: 0 } };
    const tail = total > hits.length ? `\n[${total - hits.length} more hits in ${counted(perFile.size, "file")} not shown; narrow with path or glob]` : "";
    return {
      content: `${counted(total, "hit")} in ${counted(perFile.size, "file")}\n${hits.join("\n")}${tail}${skipped}`,
      details: { kind: "search", files: [...perFile.keys()], hits: total },
    };
  },
});
