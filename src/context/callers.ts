import { dirname, join, normalize } from "node:path";
import { jsStem, phpModule, phpNamespaces, resolvesImports, rustModule } from "./import-graph.ts";
import { languageOf, outline, type OutlineSymbol } from "./outline.ts";

export { rustModule };

/** Files a caller search reads at most; past it the callers are not known. */
const MAX_FILES = 5_000;

/** A file's text by workspace-relative path (cached by the caller), undefined when unreadable or binary. */
export type ReadText = (rel: string) => string | undefined;

/**
 * The files that call `names` of `target`, as the compiler resolves them from the imports a parser
 * sees: a file is a caller when it imports the target's module (or shares its Go package) and uses
 * the name as a word. Where the symbol index is built, `mayCall` narrows the files read to those
 * its import graph and word filters leave (context/definitions.ts `indexedCallers`); the rest are
 * known not to call. Undefined when the target's language has no resolver here (C, Ruby, ...) or
 * more than `MAX_FILES` files would be read: then the callers are not known. Precision is `syntax`:
 * a name used through a re-export or a dynamic import is missed.
 */
export async function resolveCallers(
  target: string,
  names: readonly string[],
  files: readonly string[],
  read: ReadText,
  mayCall?: () => ReadonlySet<string>,
): Promise<Map<string, string[]> | undefined> {
  const lang = languageOf(target);
  if (!lang || !hasResolver(target)) return undefined;
  const narrowed = mayCall?.();
  const reads = narrowed ? files.filter((f) => narrowed.has(f)) : files;
  if (reads.length > MAX_FILES) return undefined;
  const out = new Map<string, string[]>(names.map((n) => [n, []]));
  if (names.length === 0) return out;
  const fileSet = new Set(files);
  // A name as a whole identifier: `$Gson$Preconditions` does not name `Gson` (`$` is part of a Java or JS name).
  const word = new RegExp(`(?<![\\w$])(?:${names.map(escape).join("|")})(?![\\w$])`);
  const php = lang === "php" ? phpModule(read(target) ?? "") : undefined;
  const each = names.map((n) => [n, new RegExp(`(?<![\\w$])${escape(n)}(?![\\w$])`)] as const);
  for (const f of reads) {
    if (f === target || !sameFamily(lang, languageOf(f))) continue;
    const text = read(f);
    // Cheap text check before parsing: a caller names the symbol.
    if (text === undefined || !word.test(text)) continue;
    if (!(await importsTarget(lang, f, text, target, fileSet, php))) continue;
    for (const [n, re] of each) if (re.test(text)) out.get(n)!.push(f);
  }
  return out;
}

/** Whether the caller search resolves imports of this file's language. */
export function hasResolver(path: string): boolean {
  return resolvesImports(path);
}

/**
 * Whether other files can reach a symbol: the criteria's "exported". TypeScript/JavaScript: an
 * export. Go: every top-level name, from the files of its package. Python: every module-level name
 * without a leading underscore, and an underscored one another module imports. Rust: any `pub`,
 * `pub(crate)` or `pub(super)`. Java: anything not `private` (package-private from its package).
 */
export function reachableFromOtherFiles(path: string, s: OutlineSymbol, importedElsewhere: boolean): boolean {
  const lang = languageOf(path);
  if (lang === "go") return true;
  if (lang === "python") return !s.name.startsWith("_") || importedElsewhere;
  return s.exported;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function sameFamily(a: string, b: string | undefined): boolean {
  const family = (l: string | undefined) => (l === "ts" || l === "tsx" || l === "js" ? "js" : l);
  return family(a) === family(b);
}

async function importsTarget(lang: string, from: string, text: string, target: string, files: Set<string>, php?: PhpModule): Promise<boolean> {
  // A Go or Java file sees every name of its own package (its directory) without importing it.
  if ((lang === "go" || lang === "java") && dirname(from) === dirname(target)) return true;
  const imports = (await outline(from, text))?.imports ?? [];
  if (lang === "go") return imports.some((p) => p === dirname(target) || p.endsWith(`/${dirname(target)}`));
  if (lang === "python") return imports.some((m) => pythonModule(from, m, files) === target);
  if (lang === "java") return imports.some((i) => javaClass(i, target));
  if (lang === "rust") return rustReaches(from, text, imports, target);
  if (lang === "php") return phpReaches(text, imports, php!);
  return imports.some((s) => jsModule(from, s, files) === target);
}

/** A `use` path (`crate::a::{b, c::d}`) as the module paths it names, from the using file's module. Pure. */
export function rustUsePaths(use: string, from: string[]): string[][] {
  const brace = use.indexOf("{");
  const heads = brace < 0 ? [use] : splitTop(use.slice(brace + 1, use.lastIndexOf("}"))).map((item) => `${use.slice(0, brace)}${item.trim()}`);
  return heads.flatMap((h) => {
    if (h.includes("{")) return rustUsePaths(h, from);
    const segs = h.split(" as ")[0]!.split("::").map((s) => s.trim()).filter(Boolean);
    let base: string[] = [];
    while (segs[0] === "super" || segs[0] === "self") base = segs.shift() === "super" ? (base.length ? base : from).slice(0, -1) : from;
    if (segs[0] === "crate") segs.shift();
    return [[...base, ...segs]];
  });
}

/** Splits a use group's items at its top-level commas. Pure. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "{") depth++;
    else if (s[i] === "}") depth--;
    else if (s[i] === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  return [...out, s.slice(start)].filter((x) => x.trim());
}

/**
 * Whether a Rust file reaches the module of `target`: a `use` of it or of something in it, a path
 * through the crate to it (`crate::lexer::token::lex`), or, from its parent module, its name as a
 * path (`token::lex` after `mod token;`); the crate's root is reached from anywhere. Pure.
 */
function rustReaches(from: string, text: string, uses: readonly string[], target: string): boolean {
  const mine = rustModule(from);
  const theirs = rustModule(target);
  // The crate's root (lib.rs, main.rs) is reachable from every module: a file naming the word may call it.
  if (theirs.length === 0) return true;
  const under = (p: string[]) => theirs.every((s, i) => p[i] === s);
  if (uses.some((u) => rustUsePaths(u, mine).some(under))) return true;
  if (text.includes(`crate::${theirs.join("::")}::`)) return true;
  const parent = theirs.slice(0, -1);
  return mine.length === parent.length && parent.every((s, i) => mine[i] === s) && new RegExp(`\\b${escape(theirs.at(-1)!)}::`).test(text);
}

type PhpModule = ReturnType<typeof phpModule>;

/**
 * Whether a PHP file reaches what the target declares: it declares the target's namespace (whose
 * names it sees without a `use`), imports one of the target's names from that namespace or the
 * namespace itself (`use App\Models;` then `Models\User`), or names one qualified
 * (`\App\Models\User`). A target in the global namespace is reached from anywhere. Names and
 * namespaces compare as PHP compares them, ignoring case. Pure.
 */
function phpReaches(text: string, uses: readonly string[], target: PhpModule): boolean {
  const ns = target.namespace;
  if (!ns) return true;
  if (phpNamespaces(text).includes(ns)) return true;
  const qualified = target.names.map((n) => `${ns}\\${n}`);
  if (uses.some((u) => [ns, ...qualified].includes(u.toLowerCase().replace(/^\\/, "")))) return true;
  const lower = text.toLowerCase();
  return qualified.some((q) => new RegExp(`(?<![\\w\\\\])\\\\?${escape(q)}(?!\\w)`).test(lower));
}

/** A relative JS/TS specifier as the file it names, if it is one of `files`. */
export function jsModule(from: string, spec: string, files: Set<string>): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = normalize(join(dirname(from), spec)).replace(/\\/g, "/");
  const stem = jsStem(base);
  for (const cand of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.js`, `${stem}.jsx`, `${stem}.mjs`, `${base}/index.ts`, `${base}/index.js`])
    if (files.has(cand)) return cand;
  return undefined;
}

/** Whether a Java import (`com.acme.Keys`, `static com.acme.Keys.encode`, `com.acme.*`) names the class file `target`. */
export function javaClass(imported: string, target: string): boolean {
  const under = (path: string, suffix: string) => `/${path}`.endsWith(`/${suffix}`);
  const parts = imported.split(".");
  if (parts.at(-1) === "*") return under(dirname(target), parts.slice(0, -1).join("/"));
  const path = target.replace(/\.java$/, "");
  return under(path, parts.join("/")) || under(path, parts.slice(0, -1).join("/"));
}

/**
 * A Python module name (`pkg.mod`, `.mod`, `..pkg.mod`) as the file it names: from the importer's
 * directory when relative, else from the root or a `src/` root.
 */
export function pythonModule(from: string, module: string, files: Set<string>): string | undefined {
  const dots = module.match(/^\.*/)![0].length;
  const parts = module.slice(dots).split(".").filter(Boolean);
  let bases: string[];
  if (dots > 0) {
    let dir = dirname(from);
    for (let i = 1; i < dots; i++) dir = dirname(dir);
    bases = [dir === "." ? "" : dir];
  } else bases = ["", "src", "lib"];
  for (const b of bases) {
    const path = [b, ...parts].filter(Boolean).join("/");
    for (const cand of [`${path}.py`, `${path}/__init__.py`]) if (files.has(cand)) return cand;
  }
  return undefined;
}
