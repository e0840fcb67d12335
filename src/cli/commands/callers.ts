import { existsSync } from "node:fs";
import { join } from "node:path";
import { linesNaming } from "../../agent/shown-lines.ts";
import { hasResolver, resolveCallers } from "../../context/callers.ts";
import { indexedCallers } from "../../context/definitions.ts";
import { outline } from "../../context/outline.ts";
import { SymbolIndex } from "../../store/symbol-index.ts";
import { resolveInWorkspace, wholeText } from "../../workspace/containment.ts";
import { userDataDir } from "../../config/paths.ts";
import { WalkStore } from "../../workspace/walks.ts";
import { walkFiles } from "../../workspace/walker.ts";
import { symbolIndexPath } from "./index-command.ts";

/** What `callerSites` found: the lines, or why nothing can be said. */
export type CallerSites = { ok: true; text: string } | { ok: false; text: string };

/**
 * The callers of a symbol a file defines, with the lines that name it (`weir serve --mcp`'s `callers`):
 * resolved from imports as the decision plane resolves them (context/callers.ts), reading only the
 * files the symbol index's import graph and word filters leave where the index is built. Without
 * `symbol`, the file's top-level names that other files can reach. Says so when the callers cannot
 * be known (a language without a resolver; too many files to read without the index).
 */
export async function callerSites(workspace: string, path: string, symbol?: string): Promise<CallerSites> {
  let rel: string;
  let text: string | undefined;
  try {
    const r = resolveInWorkspace(workspace, path);
    rel = r.relative;
    text = r.exists ? wholeText(r.absolute) : undefined;
  } catch (e) {
    return { ok: false, text: (e as Error).message };
  }
  if (text === undefined) return { ok: false, text: `${path} is not a readable file of the workspace` };
  const defined = ((await outline(rel, text).catch(() => undefined))?.symbols ?? []).filter((s) => !s.parent);
  const names = symbol ? [symbol] : defined.filter((s) => s.exported).map((s) => s.name).slice(0, 30);
  if (symbol && !defined.some((s) => s.name === symbol)) {
    const have = defined.map((s) => s.name).slice(0, 12).join(", ");
    return { ok: false, text: `${rel} defines no top-level ${symbol}${have ? ` (it defines ${have})` : ""}` };
  }
  if (names.length === 0) return { ok: true, text: `${rel} defines no name other files can reach` };
  const walk = new WalkStore(join(userDataDir(), "walks")).load(workspace);
  const files = walkFiles(workspace, walk);
  // The search reads each file once; the lines of a caller it found come from the same text.
  const texts = new Map<string, string | undefined>();
  const read = (f: string) => {
    if (!texts.has(f))
      try {
        texts.set(f, wholeText(resolveInWorkspace(workspace, f).absolute));
      } catch {
        texts.set(f, undefined);
      }
    return texts.get(f);
  };
  const index = existsSync(symbolIndexPath()) ? SymbolIndex.open(symbolIndexPath()) : undefined;
  try {
    const graph = index?.holds(workspace) ? () => indexedCallers(workspace, index, rel, names, files) : undefined;
    const found = await resolveCallers(rel, names, files, read, graph);
    if (!found) {
      const why = !hasResolver(rel)
        ? "weir resolves imports of TypeScript, JavaScript, Python, Go, Java, Rust and PHP"
        : `more files than the search reads may call it${graph ? "" : " (weir index builds the symbol index, which narrows them)"}`;
      return { ok: false, text: `the callers of ${names.join(", ")} in ${rel} cannot be known here: ${why}` };
    }
    const sections = [...found].map(([name, callers]) => {
      const sites = callers.map((f) => {
        const at = linesIn(read(f), name);
        return `  ${f}: line${at.length === 1 ? "" : "s"} ${at.join(", ")}`;
      });
      return [`${name}: ${callers.length || "no"} caller file${callers.length === 1 ? "" : "s"}`, ...sites].join("\n");
    });
    const how = graph ? "through the symbol index's import graph" : "reading every file";
    return { ok: true, text: `callers of ${rel}, resolved from imports ${how}:\n${sections.join("\n")}` };
  } finally {
    index?.close();
  }
}

const linesIn = (text: string | undefined, name: string) => (text === undefined ? [] : linesNaming(text, name));
