import { basename, dirname, join, normalize } from "node:path/posix";
import { languageOf } from "./language.ts";

/**
 * The import graph's keys, as the symbol index stores them: `importKeys` of a file are what its
 * imports may reach, `moduleKeys` of a file what it is reached by. Whenever context/callers.ts
 * resolves an import of file F to target T, one of T's module keys is among F's import keys: the
 * scan here reads a superset of what the parser reads as imports (imports anywhere in the file,
 * any spacing, every continuation), so the index narrows a search for T's importers to the files
 * holding one of its keys without missing one. It only narrows: the caller search still confirms
 * each file with the parser and the resolvers. A key names a module, not a file (`src/lib` for
 * `./lib`, `lib.ts` and `lib/index.ts`), so the same key serves whatever the file set is. Pure.
 */

/** The languages whose imports the caller search resolves (context/callers.ts), by family. */
function family(path: string): "js" | "python" | "go" | "java" | "rust" | "php" | undefined {
  const lang = languageOf(path);
  if (lang === "ts" || lang === "tsx" || lang === "js") return "js";
  return lang === "python" || lang === "go" || lang === "java" || lang === "rust" || lang === "php" ? lang : undefined;
}

/** Whether the caller search resolves this file's imports (context/callers.ts): whether it has keys here. Pure. */
export function resolvesImports(path: string): boolean {
  return family(path) !== undefined;
}

/** The keys a file's imports may reach; none for a language without a resolver. Pure. */
export function importKeys(path: string, text: string): string[] {
  const keys = new Set<string>();
  const add = (k: string | undefined) => k && keys.add(k);
  switch (family(path)) {
    case "js":
      for (const spec of jsSpecifiers(text)) for (const k of jsKeys(path, spec)) add(k);
      break;
    case "python":
      for (const m of pythonModules(text)) add(pythonKey(path, m));
      break;
    case "go":
      for (const p of goImports(text)) add(p.split("/").pop());
      break;
    case "java":
      for (const i of javaImports(text)) for (const k of javaKeys(i)) add(k);
      break;
    case "rust":
      for (const k of rustKeys(path, text)) add(k);
      break;
    case "php":
      for (const k of phpKeys(text)) add(k);
      break;
  }
  return [...keys];
}

/**
 * The keys a file is reached by: an importer of it holds one of them. Undefined where imports do
 * not decide who reaches it (a language without a resolver; a Rust crate's root, which every module
 * of the crate reaches; a PHP file whose `text` is not given): then the graph cannot narrow. A Go or
 * Java file is also reached by the files of its own directory (its package) without an import; the
 * caller search reads those. A PHP file is named by what it declares, so its keys need its text. Pure.
 */
export function moduleKeys(target: string, text?: string): string[] | undefined {
  switch (family(target)) {
    case "js": {
      const keys = [target, jsStem(target)];
      if (/^index\.[jt]s$/.test(basename(target))) keys.push(dirname(target));
      return [...new Set(keys)];
    }
    case "python": {
      const module = basename(target) === "__init__.py" ? dirname(target) : target.slice(0, -3);
      const outer = module.match(/^(?:src|lib)\/(.+)$/)?.[1];
      return outer ? [module, outer] : [module];
    }
    case "go":
      return dirname(target) === "." ? [] : [basename(dirname(target))];
    case "java":
      return [basename(target).replace(/\.java$/, ""), `${basename(dirname(target))}/*`];
    case "rust": {
      const module = rustModule(target);
      return module.length ? [module.at(-1)!] : undefined;
    }
    case "php": {
      if (text === undefined) return undefined;
      // The global namespace's names are every file's (as the crate's root is in Rust).
      const { namespace, names } = phpModule(text);
      return namespace ? [`ns:${namespace}`, `use:${namespace}`, ...names.flatMap((n) => [n, `use:${namespace}\\${n}`])] : undefined;
    }
  }
  return undefined;
}

/** A JS/TS path without its extension: the module `./lib` names. Pure. */
export const jsStem = (path: string) => path.replace(/\.[cm]?[jt]sx?$/, "");

/** Relative specifiers after `from`, `import` or `require(`, anywhere: static, dynamic and CommonJS imports, re-exports. */
function jsSpecifiers(text: string): string[] {
  return Array.from(text.matchAll(/\b(?:from|import|require)\s*\(?\s*(["'])(\.[^"'\n]*)\1/g), (m) => m[2]!);
}

/** A relative specifier as the module it names from `from`: as written and without its extension. */
function jsKeys(from: string, spec: string): string[] {
  const base = normalize(join(dirname(from), spec));
  return [base, jsStem(base)];
}

/**
 * Python's imported modules, as the parser lists them: `import a.b as c, d` names `a.b` and `d`;
 * `from m import x, y` names `m`, `m.x` and `m.y` (either may be a module). A statement is read
 * across parentheses and backslash continuations; several on a line are split at `;`.
 */
function pythonModules(text: string): string[] {
  const out: string[] = [];
  for (const statement of pythonStatements(text)) {
    const plain = /^import\s+(.+)$/s.exec(statement);
    if (plain) for (const part of plain[1]!.split(",")) out.push(part.trim().split(/\s+as\s+/)[0]!);
    const from = /^from\s+([\w.]+)\s+import\s+(.+)$/s.exec(statement);
    if (!from) continue;
    const module = from[1]!;
    out.push(module);
    for (const part of from[2]!.replace(/[()]/g, " ").split(",")) {
      const name = part.trim().split(/\s+as\s+/)[0]!;
      if (/^\w+$/.test(name)) out.push(module.endsWith(".") ? `${module}${name}` : `${module}.${name}`);
    }
  }
  return out.filter((m) => /^[\w.]+$/.test(m));
}

/** The statements of a Python text that start with `import` or `from`, each on one line. */
function pythonStatements(text: string): string[] {
  const out: string[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/#.*/, "").trim();
    if (!/^(?:import|from)\s/.test(line) && !line.includes(";")) continue;
    // A statement continues while a parenthesis is open or the line ends in a backslash.
    while (i + 1 < lines.length && (line.endsWith("\\") || count(line, "(") > count(line, ")")))
      line = `${line.replace(/\\$/, "")} ${lines[++i]!.replace(/#.*/, "").trim()}`;
    for (const s of line.split(";")) if (/^(?:import|from)\s/.test(s.trim())) out.push(s.trim());
  }
  return out;
}

const count = (s: string, c: string) => s.split(c).length - 1;

/** A Python module name as the module path it names: from the importer's directory when relative. */
function pythonKey(from: string, module: string): string {
  const dots = module.match(/^\.*/)![0].length;
  const parts = module.slice(dots).split(".").filter(Boolean);
  if (dots === 0) return parts.join("/");
  let dir = dirname(from);
  for (let i = 1; i < dots; i++) dir = dirname(dir);
  return [dir === "." ? "" : dir, ...parts].filter(Boolean).join("/");
}

/**
 * A Go file's import paths: every double-quoted string from its first `import` to its first
 * top-level declaration (Go puts every import before them), so a comment in an import block hides none.
 */
function goImports(text: string): string[] {
  const start = text.search(/^import\b/m);
  if (start < 0) return [];
  const rest = text.slice(start);
  const end = rest.search(/^(?:func|type|var|const)\b/m);
  return Array.from((end < 0 ? rest : rest.slice(0, end)).matchAll(/"([^"\n]+)"/g), (m) => m[1]!);
}

/** A Java file's imports, without `static`: `com.acme.Keys`, `com.acme.Keys.encode`, `com.acme.*`. */
function javaImports(text: string): string[] {
  return Array.from(text.matchAll(/\bimport\s+(?:static\s+)?([\w$.\s*]+);/g), (m) => m[1]!.replace(/\s+/g, ""));
}

/** A Java import's keys: a package's `name/*`, else the last two names (a class, or a class and its member). */
function javaKeys(imported: string): string[] {
  const parts = imported.split(".");
  if (parts.at(-1) === "*") return parts.length > 1 ? [`${parts.at(-2)}/*`] : [];
  return parts.slice(-2);
}

/**
 * A Rust file's keys: every name in its `use` declarations (and its own module path's names where
 * one goes through `super` or `self`), and every name a path goes through (`token::lex`,
 * `crate::lexer::token::lex`): context/callers.ts reaches a module by a `use` of it or a path through it.
 */
function rustKeys(path: string, text: string): string[] {
  const keys: string[] = [];
  for (const m of text.matchAll(/\buse\s+([^;]+);/g)) {
    keys.push(...(m[1]!.match(/[A-Za-z_]\w*/g) ?? []));
    if (/\b(?:super|self)\b/.test(m[1]!)) keys.push(...rustModule(path));
  }
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)\s*::/g)) keys.push(m[1]!);
  return keys;
}

/**
 * A Rust file's module path in its crate, from where it lies under `src/`: `src/lexer/token.rs` is
 * `lexer::token`, `src/lexer/mod.rs` is `lexer`, `src/lib.rs` and `src/main.rs` the crate's root. Pure.
 */
export function rustModule(path: string): string[] {
  const at = path.lastIndexOf("src/");
  const inCrate = (at >= 0 ? path.slice(at + 4) : path).replace(/\.rs$/, "").split("/");
  if (["mod", "lib", "main"].includes(inCrate.at(-1)!)) inCrate.pop();
  return inCrate.filter(Boolean);
}

/** The namespaces a PHP file declares, in order, lower-cased as PHP compares them. Pure. */
export function phpNamespaces(text: string): string[] {
  return Array.from(text.matchAll(/^\s*namespace\s+([\w\\]+)\s*[;{]/gm), (m) => m[1]!.toLowerCase());
}

/** A PHP file's namespace (its first; "" for the global one) and the names it declares, lower-cased as PHP compares them. Pure. */
export function phpModule(text: string): { namespace: string; names: string[] } {
  const namespace = phpNamespaces(text)[0] ?? "";
  const declared = /^[ \t]*(?:(?:abstract|final|readonly)\s+)*(?:class|interface|trait|enum|function)\s+&?\s*(\w+)/gm;
  return { namespace, names: Array.from(text.matchAll(declared), (m) => m[1]!.toLowerCase()) };
}

/**
 * A PHP file's keys, lower-cased: each namespace it declares (`ns:app\models`: its names reach it
 * without a `use`), each name its `use` clauses import (`use:app\models\user`; a group
 * `use A\{B, C as D}` as `use:a\b` and `use:a\c`), and every word after a backslash (the last
 * names of a qualified name, `\App\Models\User` or `Models\User`).
 */
function phpKeys(text: string): string[] {
  const keys = phpNamespaces(text).map((n) => `ns:${n}`);
  for (const m of text.matchAll(/(?:^|[;{}]|<\?php)\s*use\s+([^;]+);/gm)) keys.push(...phpUses(m[1]!).map((u) => `use:${u}`));
  for (const m of text.matchAll(/\\(\w+)/g)) keys.push(m[1]!);
  return keys.map((k) => k.toLowerCase());
}

/**
 * The names a `use` clause imports, without aliases, comments, spaces or a leading backslash:
 * `function A\{B, C as D}, E` is `A\B`, `A\C`, `E`.
 */
function phpUses(written: string): string[] {
  const clause = written.replace(/\/\*[\s\S]*?\*\/|(?:\/\/|#).*$/gm, "").replace(/^\s*(?:function|const)\s+/i, "");
  const brace = clause.indexOf("{");
  const items = brace < 0 ? clause.split(",") : clause.slice(brace + 1, clause.lastIndexOf("}")).split(",");
  const prefix = brace < 0 ? "" : clause.slice(0, brace).replace(/\s+/g, "").replace(/\\$/, "");
  return items.flatMap((item) => {
    const name = item.trim().split(/\s+as\s+/i)[0]!.replace(/^(?:function|const)\s+/i, "").replace(/\s+/g, "");
    return name ? [`${prefix ? `${prefix}\\` : ""}${name}`.replace(/^\\/, "")] : [];
  });
}
