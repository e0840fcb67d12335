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
