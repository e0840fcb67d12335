/**
 * Every module specifier a file names: value and type imports, re-exports, dynamic imports and
 * `import("...")` type expressions. (The transpiler's scanImports drops `import type`, so an upward
 * type-only edge would pass unseen.) Comments are removed first.
 */
export function importsOf(source: string): string[] {
  const code = source.replace(/^#!.*/, "").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1");
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]!);
  return out;
}

/** One import of named bindings: the specifier and the names taken from it (value or type). */
export interface NamedImport {
  spec: string;
  names: string[];
  /** `import * as`, a default import, or a dynamic import whose names cannot be read. */
  opaque: boolean;
}

/**
 * The names each import, re-export or dynamic import takes: `import { a, type B as C }`,
 * `export { x } from`, `const { a, b } = await import("...")` and `(await import("...")).a`.
 * Comments are removed first. Pure.
 */
export function namedImportsOf(source: string): NamedImport[] {
  const code = source.replace(/^#!.*/, "").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1");
  const out: NamedImport[] = [];
  const names = (list: string) =>
    list
      .split(",")
      .map((p) => p.trim().replace(/^type\s+/, "").split(/\s+as\s+|\s*:\s*/)[0]!.trim())
      .filter(Boolean);
  for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s+(?:type\s+)?([\w*{}\s,$]+?)\s+from\s+["']([^"']+)["']/g)) {
    const what = m[1]!.trim();
    const braces = /\{([^}]*)\}/.exec(what);
    out.push({ spec: m[2]!, names: braces ? names(braces[1]!) : [], opaque: !braces || /^[\w$]+\s*,|\*/.test(what) });
  }
  for (const m of code.matchAll(/(?:const|let)\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[2]!, names: names(m[1]!), opaque: false });
  for (const m of code.matchAll(/\(\s*await\s+import\(\s*["']([^"']+)["']\s*\)\s*\)\s*\.\s*([\w$]+)/g)) out.push({ spec: m[1]!, names: [m[2]!], opaque: false });
  // `import("...").Type` in a type position.
  for (const m of code.matchAll(/(?<!await\s+)(?<!\(\s*)\bimport\(\s*["']([^"']+)["']\s*\)\s*\.\s*([\w$]+)/g)) out.push({ spec: m[1]!, names: [m[2]!], opaque: false });
  return out;
}
