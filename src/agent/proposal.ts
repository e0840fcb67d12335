import { outline } from "../context/outline.ts";

/**
 * What an edit the model proposes would change, read from the edit itself before it is applied:
 * the symbols whose lines it touches, those whose declaration it changes (or removes), and whether
 * it changes code at all (an edit of comments and blank lines only changes no behaviour).
 */
export interface Proposal {
  path: string;
  /** Symbols of the file before the edit whose lines the edit touches. */
  touched: string[];
  /** Touched symbols whose declaration line the edit changes or removes. */
  signatures: string[];
  behaviour: boolean;
}

/** The 1-based line range of `before` an edit replaced: lines outside the common head and tail. */
export function changedRange(before: string, after: string): [number, number] | undefined {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  if (head === a.length && head === b.length) return undefined;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // An insertion between two lines touches the line before it.
  return [Math.max(1, head + 1), Math.max(head + 1, a.length - tail)];
}

/** Languages whose line comments start with `#`; the others' start with `//` (and `/*` blocks). */
const HASH = /\.(?:py|pyi|rb|sh|bash|zsh|ya?ml|toml|pl|r|cfg|ini)$/i;

/**
 * The code lines of a text: comments, docstrings and blank lines left out, and a trailing comment
 * cut where it is set off by spaces (` // note`, ` # note`).
 */
export function codeLines(path: string, text: string): string[] {
  const hash = HASH.test(path);
  const comment = hash ? /^#/ : /^(?:\/\/|\/\*|\*(?:\s|\/|$)|<!--)/;
  const trailing = hash ? /\s#\s.*$/ : /\s\/\/\s.*$/;
  const out: string[] = [];
  let docstring: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (docstring) {
      if (line.includes(docstring)) docstring = undefined;
      continue;
    }
    const quote = !hash ? undefined : line.startsWith('"""') ? '"""' : line.startsWith("'''") ? "'''" : undefined;
    if (quote) {
      if (!line.slice(3).includes(quote)) docstring = quote;
      continue;
    }
    if (line === "" || comment.test(line)) continue;
    out.push(line.replace(trailing, "").trim());
  }
  return out;
}

/**
 * A declaration line without its body or value: cut at the first `{`, `=>` (kept) or `=` outside
 * parentheses, so `const add = (a, b) => a - b` declares `const add =` ... `(a, b) =>` and
 * `const LIMIT = 10` declares `const LIMIT`. Whitespace runs count as one space.
 */
export function declarationOf(signature: string): string {
  const tidy = (t: string) => t.replace(/\s+/g, " ").trim();
  let depth = 0;
  for (let i = 0; i < signature.length; i++) {
    const c = signature[i]!;
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth > 0) continue;
    else if (c === "{") return tidy(signature.slice(0, i));
    else if (signature.startsWith("=>", i)) return tidy(signature.slice(0, i + 2));
    else if (c === "=" && !"=!<>".includes(signature[i - 1] ?? "") && signature[i + 1] !== "=" && !signature.includes("=>", i))
      return tidy(signature.slice(0, i));
  }
  return tidy(signature);
}

/** Reads a proposed edit against the file's current text. */
export async function readProposal(path: string, before: string, after: string): Promise<Proposal> {
  const range = changedRange(before, after);
  const behaviour = codeLines(path, before).join("\n") !== codeLines(path, after).join("\n");
  if (!range) return { path, touched: [], signatures: [], behaviour: false };
  const [from, to] = range;
  const old = (await outline(path, before).catch(() => undefined))?.symbols ?? [];
  const touched = old.filter((s) => s.line <= to && s.endLine >= from);
  // Only an edit that reaches a declaration line can change one: then the new text is parsed too.
  const declared = touched.filter((s) => s.line >= from);
  const now = declared.length ? ((await outline(path, after).catch(() => undefined))?.symbols ?? []) : [];
  const signatures = declared.filter((s) => {
    const same = now.find((n) => n.name === s.name && n.parent === s.parent);
    // A type's or interface's first line is its declaration whole.
    const decl = (x: typeof s) => (x.kind === "type" || x.kind === "interface" ? x.signature.replace(/\s+/g, " ").trim() : declarationOf(x.signature));
    return !same || decl(same) !== decl(s);
  });
  return { path, touched: touched.map((s) => s.name), signatures: signatures.map((s) => s.name), behaviour };
}
