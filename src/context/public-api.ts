import { dirname, normalize } from "node:path";
import { jsModule, pythonModule, type ReadText, rustModule, rustUsePaths } from "./callers.ts";
import { languageOf } from "./outline.ts";

/**
 * Whether a symbol is public API: reachable from its package's entry points, where users of the
 * package (not only other files of it) call it. Read from the package's own declarations, per
 * language:
 * - TypeScript/JavaScript: package.json's `exports`, `main`, `module`, `types` (a built path mapped
 *   back to its source), and what those entry files re-export (`export * from`, `export { x } from`),
 *   followed from file to file;
 * - Python: the package's `__init__.py` importing it (`from .mod import name`, or `*`), up to the
 *   top package;
 * - Rust: `lib.rs` itself, a `pub use` in `lib.rs` naming it or its module, or a chain of `pub mod`
 *   from `lib.rs` down to its file (a `pub fn`, not `pub(crate)`);
 * - Go: an exported name in a package that is not `main` and not under `internal/`;
 * - Java: a `public` member of a package `module-info.java` exports.
 * Pure given `read`; bounded by the files it follows.
 */
export function isPublicApi(path: string, name: string, files: ReadonlySet<string>, read: ReadText): boolean {
  const lang = languageOf(path);
  if (lang === "ts" || lang === "tsx" || lang === "js") return jsPublic(path, name, files, read);
  if (lang === "python") return pythonPublic(path, name, files, read);
  if (lang === "rust") return rustPublic(path, name, files, read);
  if (lang === "go") return goPublic(path, name, read);
  if (lang === "java") return javaPublic(path, name, files, read);
  return false;
}

/** The most files followed from one package's entry points. */
const MAX_FOLLOWED = 200;

/** The directories above a path, nearest first, ending with the root (""). Pure. */
function above(path: string): string[] {
  const out: string[] = [];
  for (let d = dirname(path); ; d = dirname(d)) {
    out.push(d === "." ? "" : d);
    if (d === "." || d === "/" || d === "") return out;
  }
}

const at = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

/** Every string value of package.json's entry fields, `exports` at any depth. Pure. */
function entryStrings(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const collect = (v: unknown) => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) collect(x);
  };
  for (const k of ["exports", "main", "module", "types", "typings", "browser"]) collect(pkg[k]);
  return out;
}

/** A declared entry as the source files it may be built from: itself, its TypeScript, and the same under `src/`. Pure. */
function entrySources(dir: string, entry: string, files: ReadonlySet<string>): string[] {
  const rel = normalize(entry).replace(/\\/g, "/").replace(/^\.\//, "");
  const stem = rel.replace(/\.d\.ts$/, "").replace(/\.[cm]?[jt]sx?$/, "");
  const unbuilt = stem.replace(/^(?:dist|lib|build|out|esm|cjs)\//, "src/");
  const candidates = [rel, ...[stem, unbuilt].flatMap((s) => [`${s}.ts`, `${s}.tsx`, `${s}.js`, `${s}.mjs`, `${s}/index.ts`, `${s}/index.js`])];
  return [...new Set(candidates.map((c) => at(dir, c)))].filter((c) => files.has(c));
}

/** What a JS/TS file re-exports: each module it names, with the names (`*` for all). Pure. */
function reExports(text: string): { spec: string; names: string[] }[] {
  const out: { spec: string; names: string[] }[] = [];
  for (const m of text.matchAll(/export\s+\*\s+(?:as\s+\w+\s+)?from\s+["']([^"']+)["']/g)) out.push({ spec: m[1]!, names: ["*"] });
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/g)) {
    const names = m[1]!.split(",").map((x) => x.trim().split(/\s+as\s+/)[0]!.replace(/^type\s+/, "")).filter(Boolean);
    out.push({ spec: m[2]!, names });
  }
  return out;
}

function jsPublic(path: string, name: string, files: ReadonlySet<string>, read: ReadText): boolean {
  return jsReached(path, files, read, (names) => names.includes("*") || names.includes(name));
}

/**
 * Whether a JS/TS file is reached from its package's entry points, passing on names `passes`
 * accepts: the entries package.json declares, or where it declares none, the `index.js` beside it
 * (Node's default), then what each re-exports, file to file. Pure given `read`.
 */
function jsReached(path: string, files: ReadonlySet<string>, read: ReadText, passes: (names: string[]) => boolean): boolean {
  const dir = above(path).find((d) => files.has(at(d, "package.json")));
  if (dir === undefined) return false;
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(read(at(dir, "package.json")) ?? "{}") as Record<string, unknown>;
  } catch {
    return false;
  }
  const declared = entryStrings(pkg);
  const entries = (declared.length ? declared : ["index.js"]).flatMap((e) => entrySources(dir, e, files));
  // Each file reached, with the names it is known to pass on (`*`: all it exports).
  const queue = entries.map((file) => ({ file, names: ["*"] }));
  const seen = new Set<string>();
  const all = files as Set<string>;
  while (queue.length > 0 && seen.size < MAX_FOLLOWED) {
    const { file, names } = queue.shift()!;
    if (file === path && passes(names)) return true;
    if (seen.has(`${file}\0${names.join(",")}`)) continue;
    seen.add(`${file}\0${names.join(",")}`);
    for (const r of reExports(read(file) ?? "")) {
      const next = jsModule(file, r.spec, all);
      const passed = r.names.includes("*") ? names : names.includes("*") ? r.names : r.names.filter((n) => names.includes(n));
      if (next && passed.length) queue.push({ file: next, names: passed });
    }
  }
  return false;
}

/**
 * Whether a file is itself a package's surface, whatever part of it a change touches: a declaration
 * file, a Rust crate's `lib.rs`, a Python package's `__init__.py`, a file under an `api/` or
 * `public/` folder, or a JS/TS module its package's entry points reach (an `index.js` counts as
 * its package's entry only where package.json or Node's default makes it one). Pure given `read`.
 */
export function isSurfaceFile(path: string, files: ReadonlySet<string>, read: ReadText): boolean {
  if (/(?:^|\/)(?:api\/|public\/|[^/]+\.d\.ts$|lib\.rs$|__init__\.py$)/.test(path)) return true;
  const lang = languageOf(path);
  return (lang === "ts" || lang === "tsx" || lang === "js") && jsReached(path, files, read, () => true);
}

function pythonPublic(path: string, name: string, files: ReadonlySet<string>, read: ReadText): boolean {
  if (name.startsWith("_")) return false;
  // A package's own __init__.py is what `import pkg` gives its users.
  if (path.endsWith("__init__.py")) return true;
  const names = (list: string) => list.split(",").map((n) => n.trim().split(/\s+as\s+/)[0]);
  // Any package's __init__.py on the way up may import it (`from .lib.round import round_price` at the top).
  return above(path).some((dir) => {
    const init = at(dir, "__init__.py");
    if (!files.has(init)) return false;
    const imports = [...(read(init) ?? "").matchAll(/^\s*from\s+([.\w]+)\s+import\s+\(?([^)\n]*)/gm)];
    return imports.some((m) => pythonModule(init, m[1]!, files as Set<string>) === path && (m[2]!.trim() === "*" || names(m[2]!).includes(name)));
  });
}

function rustPublic(path: string, name: string, files: ReadonlySet<string>, read: ReadText): boolean {
  const crateSrc = above(path).find((d) => files.has(at(d, "lib.rs")) && (d === "src" || d.endsWith("/src")));
  if (crateSrc === undefined) return false;
  const lib = at(crateSrc, "lib.rs");
  const text = read(path) ?? "";
  // The item must be plain `pub`: pub(crate) and pub(super) stay inside the crate.
  if (!new RegExp(`\\bpub\\s+(?:const\\s+|async\\s+|unsafe\\s+)*(?:fn|struct|enum|trait|type|const|static|mod)\\s+${name}\\b`).test(text)) return false;
  if (path === lib) return true;
  const module = rustModule(path);
  const libText = read(lib) ?? "";
  // A `pub use` in lib.rs naming the item, its module, or all of its module.
  for (const m of libText.matchAll(/\bpub\s+use\s+([^;]+);/g)) {
    for (const p of rustUsePaths(m[1]!, [])) {
      const last = p.at(-1);
      const inModule = module.every((s, i) => p[i] === s);
      if (inModule && (p.length === module.length + 1 ? last === name || last === "*" : p.length === module.length)) return true;
    }
  }
  // A chain of `pub mod` from lib.rs down to the file.
  let parent = lib;
  for (let i = 0; i < module.length; i++) {
    if (!new RegExp(`\\bpub\\s+mod\\s+${module[i]}\\s*[;{]`).test(read(parent) ?? "")) return false;
    const dir = at(crateSrc, module.slice(0, i + 1).join("/"));
    parent = files.has(`${dir}.rs`) ? `${dir}.rs` : `${dir}/mod.rs`;
  }
  return true;
}

function goPublic(path: string, name: string, read: ReadText): boolean {
  if (!/^[A-Z]/.test(name) || path.endsWith("_test.go") || path.split("/").includes("internal")) return false;
  return !/^\s*package\s+main\b/m.test(read(path) ?? "");
}

function javaPublic(path: string, name: string, files: ReadonlySet<string>, read: ReadText): boolean {
  const text = read(path) ?? "";
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
  if (!pkg || !new RegExp(`\\bpublic\\b[^;{}=]*\\b${name}\\b`).test(text)) return false;
  const info = [...files].find((f) => f.endsWith("module-info.java"));
  return info !== undefined && new RegExp(`\\bexports\\s+${pkg.replace(/\./g, "\\.")}\\s*[;\\s]`).test(read(info) ?? "");
}

/** Documentation a person reads: READMEs, changelogs, Markdown and reStructuredText anywhere. Pure. */
export const isDocumentation = (path: string): boolean => /(?:^|\/)(?:README|CHANGELOG)[^/]*$|\.(?:md|mdx|rst)$/i.test(path);

/**
 * Whether documentation names a symbol as code: in backticks, called, or as a name no prose word
 * has (an underscore, a capital after the first letter, a digit). A documented default or
 * behaviour is public API: its readers depend on it. Pure.
 */
export function documentedName(name: string, docs: string): boolean {
  if (name.length < 3 || !docs.includes(name)) return false;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, "\\$")}(?![\\w$])`);
  // Code spans are the odd pieces between backticks (a fence's body among them).
  const code = docs.split("`").filter((_, i) => i % 2 === 1);
  if (code.some((c) => word.test(c)) || new RegExp(`${word.source}\\(`).test(docs)) return true;
  return /[_\d]|.[A-Z]/.test(name) && word.test(docs);
}

/**
 * The names a task gives: quoted (`"total"`, `'retries'`), as a flag (`--limit`), or bare in a shape
 * no prose word has (`APP_PORT`, `max-retries`). Pure.
 */
export function givenNames(task: string): string[] {
  const flags = [...task.matchAll(/(?<![\w-])--[a-z][\w-]*/gi)].map((m) => m[0]);
  const quoted = [...task.matchAll(/["'`]([\w.-]+)["'`]/g)].map((m) => m[1]!);
  // A name no prose word is, given bare: `APP_PORT`, `max-retries`, `db.host` (parts joined inside it).
  const shaped = [...task.matchAll(/(?<![\w.-])[A-Za-z]\w*(?:[_.-]\w+)+/g)].map((m) => m[0]).filter((n) => /[A-Za-z]+[_.-]+\w/.test(n));
  return [...new Set([...flags, ...quoted, ...shaped])];
}

/**
 * Whether `text` (a planned file) holds a name the task gives as a string literal: a flag, a field
 * of an output, a key of a configuration, which programs and people outside the code read by that
 * name, where an identifier is the code's own. Pure.
 */
export function namesLiteral(task: string, text: string): boolean {
  return givenNames(task).some((n) => [`"${n}"`, `'${n}'`, `\`${n}\``].some((q) => text.includes(q)));
}

/**
 * Whether the task names a value (a number of two digits or more: a port, a size, a timeout) that a
 * planned file holds and the documentation states: the change alters documented behaviour. Pure.
 */
export function documentedValue(task: string, text: string, docs: string): boolean {
  const values = [...new Set(task.match(/\b\d{2,}\b/g) ?? [])];
  const word = (n: string) => new RegExp(`(?<![\\w.])${n}(?!\\w)`);
  return values.some((n) => word(n).test(text) && word(n).test(docs));
}

