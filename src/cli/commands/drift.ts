import { dirname, join } from "node:path";
import { type CodeFacts, codeWords, docsDrift, type Drift } from "../../context/docs-drift.ts";
import { SOURCE } from "../../context/definitions.ts";
import { isDocumentation } from "../../context/public-api.ts";
import { readRegularFile } from "../../workspace/containment.ts";
import { WalkCache, walkFiles } from "../../workspace/walker.ts";

/** Files whose words count as the code's: the source the symbol index reads, shell scripts and configuration. */
const CODE = (f: string) => SOURCE.test(f) || /\.(?:sh|json|toml|ya?ml|ini|cfg)$/i.test(f);
/** Files over this size are not read (bundles, generated code, data). */
const MAX_BYTES = 512_000;

/**
 * The workspace's docs drift (`docsDrift`): its Markdown read, and what its code holds gathered by
 * one ignore-aware walk. I/O at this edge only.
 */
export function workspaceDrift(root: string): Drift[] {
  const files = walkFiles(root, new WalkCache());
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f);
    for (let d = dirname(f); d !== "." && !paths.has(`${d}/`); d = dirname(d)) paths.add(`${d}/`);
  }
  const read = (f: string) => {
    try {
      const text = readRegularFile(join(root, f), "utf8");
      return text.length <= MAX_BYTES ? text : undefined;
    } catch {
      return undefined;
    }
  };
  const words = new Set<string>();
  for (const f of files) if (CODE(f) && !isDocumentation(f)) codeWords(read(f) ?? "", words);
  const docs = files.filter((f) => /\.mdx?$/i.test(f)).flatMap((f) => {
    const text = read(f);
    return text === undefined ? [] : [{ path: f, text }];
  });
  const code: CodeFacts = { paths, words };
  return docsDrift(docs, code);
}

/** `weir drift [--json]`: what the docs name that the code no longer has, one line each; exit 1 when any. */
export function driftCommand(root: string, json: boolean, out: (s: string) => void): number {
  const found = workspaceDrift(root);
  if (json) out(`${JSON.stringify({ drift: found }, null, 2)}\n`);
  else if (found.length === 0) out("no drift: every path, flag and name the docs give as code is in the repository\n");
  else for (const d of found) out(`${d.doc}:${d.line}: \`${d.name}\`: ${d.why}\n`);
  return found.length === 0 ? 0 : 1;
}
