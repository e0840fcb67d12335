import { statSync } from "node:fs";
import { Language, type Node, Parser } from "web-tree-sitter";
import { sha256 } from "../workspace/ledger.ts";
import { languageOf } from "./language.ts";
import runtimeWasm from "web-tree-sitter/tree-sitter.wasm" with { type: "file" };
import bashWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm" with { type: "file" };
import goWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm" with { type: "file" };
import javaWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm" with { type: "file" };
import jsWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm" with { type: "file" };
import phpWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm" with { type: "file" };
import pyWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm" with { type: "file" };
import rubyWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm" with { type: "file" };
import rustWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm" with { type: "file" };
import tsxWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm" with { type: "file" };
import tsWasm from "@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm" with { type: "file" };

export { languageOf };

/**
 * Symbol outlines and imports from a real parser (tree-sitter grammars compiled to WebAssembly and
 * embedded in the binary), for TypeScript, JavaScript, Python, Go, Rust, Java, Ruby and PHP. Precision is `syntax`:
 * what the parser sees, never claimed as type-checked.
 */
type SymbolKind = "function" | "class" | "method" | "interface" | "type" | "const" | "struct" | "enum" | "trait" | "impl" | "module";

export interface OutlineSymbol {
  name: string;
  kind: SymbolKind;
  /** 1-based lines. */
  line: number;
  endLine: number;
  exported: boolean;
  /** The declaration's first line, trimmed. */
  signature: string;
  /** Enclosing class/impl for methods. */
  parent?: string;
}

export interface Outline {
  language: string;
  symbols: OutlineSymbol[];
  /** Module specifiers this file imports, as written. */
  imports: string[];
}

const GRAMMARS: Record<string, string> = {
  ts: tsWasm,
  tsx: tsxWasm,
  js: jsWasm,
  python: pyWasm,
  go: goWasm,
  rust: rustWasm,
  java: javaWasm,
  ruby: rubyWasm,
  php: phpWasm,
  bash: bashWasm,
};
let init: Promise<void> | undefined;
const parsers = new Map<string, Promise<Parser>>();

/** A parser for one of the embedded grammars (the shell parser uses `bash`). */
export async function parserFor(lang: string): Promise<Parser> {
  init ??= Parser.init({ wasmBinary: await Bun.file(runtimeWasm).bytes() });
  await init;
  let p = parsers.get(lang);
  if (!p) {
    p = (async () => {
      const parser = new Parser();
      parser.setLanguage(await Language.load(await Bun.file(GRAMMARS[lang]!).bytes()));
      return parser;
    })();
    parsers.set(lang, p);
  }
  return p;
}

const firstLine = (n: Node) => {
  const l = n.text.split("\n")[0]!.trim();
  return l.length > 160 ? `${l.slice(0, 157)}...` : l;
};

const nameOf = (n: Node) => n.childForFieldName("name")?.text;

/** The symbol `node` declares: its lines, and its first line as the signature. */
const symbolAt = (node: Node, name: string, kind: SymbolKind, exported: boolean, parent?: string): OutlineSymbol => ({
  name,
  kind,
  line: node.startPosition.row + 1,
  endLine: node.endPosition.row + 1,
  exported,
  signature: firstLine(node),
  ...(parent ? { parent } : {}),
});

function jsSymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const visit = (n: Node, exported: boolean, parent?: string) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      const push = (name: string | undefined, kind: SymbolKind, node: Node = c, p = parent) =>
        name && out.push(symbolAt(node, name, kind, exported, p));
      switch (c.type) {
        case "import_statement": {
          const src = c.childForFieldName("source")?.text;
          if (src) imports.push(src.slice(1, -1));
          break;
        }
        case "export_statement":
          visit(c, true, parent);
          if (c.childForFieldName("source")) imports.push(c.childForFieldName("source")!.text.slice(1, -1));
          break;
        case "function_declaration":
        case "generator_function_declaration":
          push(nameOf(c), "function");
          break;
        case "class_declaration":
        case "abstract_class_declaration": {
          const name = nameOf(c);
          push(name, "class");
          const body = c.childForFieldName("body");
          if (body)
            for (const m of body.namedChildren) if (m && (m.type === "method_definition" || m.type === "method_signature")) push(nameOf(m), "method", m, name);
          break;
        }
        case "interface_declaration":
          push(nameOf(c), "interface");
          break;
        case "type_alias_declaration":
          push(nameOf(c), "type");
          break;
        case "enum_declaration":
          push(nameOf(c), "enum");
          break;
        case "lexical_declaration":
        case "variable_declaration":
          for (const d of c.namedChildren)
            if (d?.type === "variable_declarator")
              push(nameOf(d), /arrow_function|function/.test(d.childForFieldName("value")?.type ?? "") ? "function" : "const", c);
          break;
        case "expression_statement": {
          // CommonJS: require("x")
          const m = c.text.match(/require\(\s*['"]([^'"]+)['"]\s*\)/);
          if (m) imports.push(m[1]!);
          break;
        }
      }
    }
  };
  visit(root, false);
  for (const m of root.text.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) if (!imports.includes(m[1]!)) imports.push(m[1]!);
}

function pySymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const visit = (n: Node, parent?: string) => {
    for (const c0 of n.namedChildren) {
      if (!c0) continue;
      const c = c0.type === "decorated_definition" ? (c0.childForFieldName("definition") ?? c0) : c0;
      const name = nameOf(c);
      if (c.type === "function_definition" && name)
        out.push(symbolAt(c, name, parent ? "method" : "function", !name.startsWith("_"), parent));
      else if (c.type === "class_definition" && name) {
        out.push(symbolAt(c, name, "class", !name.startsWith("_")));
        const body = c.childForFieldName("body");
        if (body) visit(body, name);
      } else if (c.type === "import_statement") for (const d of c.namedChildren) d && imports.push(d.text.split(" as ")[0]!);
      else if (c.type === "import_from_statement") {
        const mod = c.childForFieldName("module_name")?.text;
        if (mod) imports.push(mod);
        // `from pkg import mod` may import a submodule: pkg.mod is listed too (it resolves only if it is one).
        const names = c.childrenForFieldName("name").flatMap((n) => (n ? [n.text.split(" as ")[0]!.trim()] : []));
        if (mod) for (const n of names) imports.push(mod.endsWith(".") ? `${mod}${n}` : `${mod}.${n}`);
      } else if (!parent && c.type === "expression_statement" && c.firstNamedChild?.type === "assignment") {
        const left = c.firstNamedChild.childForFieldName("left")?.text;
        if (left && /^[A-Z_][A-Z0-9_]*$/.test(left)) out.push(symbolAt(c, left, "const", true));
      }
    }
  };
  visit(root);
}

function goSymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const exported = (n: string) => /^[A-Z]/.test(n);
  for (const c of root.namedChildren) {
    if (!c) continue;
    const add = (name: string | undefined, kind: SymbolKind, node: Node, parent?: string) =>
      name && out.push(symbolAt(node, name, kind, exported(name), parent));
    if (c.type === "function_declaration") add(nameOf(c), "function", c);
    else if (c.type === "method_declaration")
      add(nameOf(c), "method", c, c.childForFieldName("receiver")?.text.replace(/[()*]/g, "").trim().split(/\s+/).pop());
    else if (c.type === "type_declaration")
      for (const spec of c.namedChildren)
        spec &&
          add(
            nameOf(spec),
            spec.childForFieldName("type")?.type === "interface_type"
              ? "interface"
              : spec.childForFieldName("type")?.type === "struct_type"
                ? "struct"
                : "type",
            spec,
          );
    else if (c.type === "const_declaration" || c.type === "var_declaration")
      for (const spec of c.namedChildren) spec && add(spec.childForFieldName("name")?.text ?? spec.firstNamedChild?.text, "const", spec);
    else if (c.type === "import_declaration") for (const m of c.text.matchAll(/"([^"]+)"/g)) imports.push(m[1]!);
  }
}

/**
 * Java: types and their members. `exported` means reachable from another file: anything not
 * `private` (public and protected from everywhere, package-private from the files of its package).
 */
function javaSymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const kinds: Record<string, SymbolKind> = {
    class_declaration: "class",
    record_declaration: "class",
    interface_declaration: "interface",
    enum_declaration: "enum",
  };
  const isPrivate = (n: Node) => n.namedChildren.some((c) => c?.type === "modifiers" && /\bprivate\b/.test(c.text));
  const add = (name: string | undefined, kind: SymbolKind, n: Node, parent?: string) =>
    name && out.push(symbolAt(n, name, kind, !isPrivate(n), parent));
  const visit = (n: Node, parent?: string) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      if (c.type === "import_declaration") imports.push(c.text.replace(/^import\s+(?:static\s+)?|;$/g, "").trim());
      else if (kinds[c.type]) {
        const name = nameOf(c);
        add(name, kinds[c.type]!, c, parent);
        const body = c.childForFieldName("body");
        if (body && name) visit(body, name);
      } else if (parent && (c.type === "method_declaration" || c.type === "constructor_declaration")) add(nameOf(c), "method", c, parent);
      else if (parent && c.type === "field_declaration")
        for (const d of c.namedChildren) if (d?.type === "variable_declarator") add(nameOf(d), "const", c, parent);
    }
  };
  visit(root);
}

function rustSymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const visit = (n: Node, parent?: string) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      const pub = c.namedChildren.some((x) => x?.type === "visibility_modifier");
      const add = (kind: SymbolKind, name = nameOf(c)) =>
        name && out.push(symbolAt(c, name, kind, pub, parent));
      if (c.type === "function_item" || c.type === "function_signature_item") add(parent ? "method" : "function");
      else if (c.type === "struct_item") add("struct");
      else if (c.type === "enum_item") add("enum");
      else if (c.type === "trait_item") {
        add("trait");
        const body = c.childForFieldName("body");
        if (body) visit(body, nameOf(c));
      } else if (c.type === "type_item") add("type");
      else if (c.type === "const_item" || c.type === "static_item") add("const");
      else if (c.type === "mod_item") add("module");
      else if (c.type === "impl_item") {
        const name = c.childForFieldName("type")?.text;
        const body = c.childForFieldName("body");
        if (body) visit(body, name);
      } else if (c.type === "use_declaration") imports.push(c.text.replace(/^pub\s+/, "").replace(/^use\s+/, "").replace(/;$/, ""));
    }
  };
  visit(root);
}

/**
 * Ruby: modules, classes and their methods (`def self.x` too), constants, and what `require` and
 * `require_relative` load. A method after a bare `private` or `protected` is not reachable from
 * other files.
 */
function rubySymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const visit = (n: Node, parent?: string) => {
    let hidden = false;
    for (const c of n.namedChildren) {
      if (!c) continue;
      const add = (name: string | undefined, kind: SymbolKind, exported = true) =>
        name && out.push(symbolAt(c, name, kind, exported, parent));
      const body = () => c.namedChildren.find((x) => x?.type === "body_statement");
      if (c.type === "module" || c.type === "class") {
        const name = nameOf(c);
        add(name, c.type === "module" ? "module" : "class");
        const b = body();
        if (b && name) visit(b, name);
      } else if (c.type === "method") add(nameOf(c), parent ? "method" : "function", !hidden);
      else if (c.type === "singleton_method") add(nameOf(c), "method");
      else if (c.type === "assignment" && c.childForFieldName("left")?.type === "constant") add(c.childForFieldName("left")?.text, "const");
      else if (c.type === "identifier" && (c.text === "private" || c.text === "protected")) hidden = true;
      else if (c.type === "identifier" && c.text === "public") hidden = false;
      else if (c.type === "call" && /^(?:require|require_relative|load)$/.test(c.childForFieldName("method")?.text ?? "")) {
        const arg = c.childForFieldName("arguments")?.namedChildren[0];
        if (arg?.type === "string") imports.push(arg.text.slice(1, -1));
      }
    }
  };
  visit(root);
}

/**
 * PHP: classes, interfaces, traits and enums with their methods and constants, functions, and the
 * names `use` imports (a group `use A\{B, C}` as A\B and A\C). Private methods are not reachable
 * from other files.
 */
function phpSymbols(root: Node, out: OutlineSymbol[], imports: string[]) {
  const kinds: Record<string, SymbolKind> = {
    class_declaration: "class",
    interface_declaration: "interface",
    trait_declaration: "trait",
    enum_declaration: "enum",
  };
  const visit = (n: Node, parent?: string) => {
    for (const c of n.namedChildren) {
      if (!c) continue;
      const add = (name: string | undefined, kind: SymbolKind, exported = true) =>
        name && out.push(symbolAt(c, name, kind, exported, parent));
      if (kinds[c.type]) {
        const name = nameOf(c);
        add(name, kinds[c.type]!);
        const body = c.childForFieldName("body");
        if (body && name) visit(body, name);
      } else if (c.type === "method_declaration") {
        const visibility = c.namedChildren.find((x) => x?.type === "visibility_modifier")?.text;
        add(nameOf(c), "method", visibility !== "private");
      } else if (c.type === "function_definition") add(nameOf(c), "function");
      else if (c.type === "const_declaration") {
        for (const e of c.namedChildren) if (e?.type === "const_element") add(e.namedChildren[0]?.text, "const");
      } else if (c.type === "namespace_definition") {
        const body = c.childForFieldName("body");
        if (body) visit(body, parent);
      } else if (c.type === "namespace_use_declaration") {
        const group = c.namedChildren.find((x) => x?.type === "namespace_use_group");
        const prefix = group ? `${c.namedChildren.find((x) => x?.type === "namespace_name")?.text ?? ""}\\` : "";
        for (const u of (group ?? c).namedChildren) if (u?.type === "namespace_use_clause") imports.push(prefix + u.namedChildren[0]!.text);
      }
    }
  };
  visit(root);
}

/** Where parsed outlines are kept between processes (store/outlines.ts); strings in, strings out. */
interface OutlineStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
}

let store: { cache: OutlineStore; build: string } | undefined;

/**
 * Keeps outlines in `cache`, keyed by content, language and `release` (the build's version and
 * commit): a warm run reads them and never loads a parser. From source, the key also holds this
 * file's modification time, so an edited parser never reads an outline of an older one.
 */
export function useOutlineCache(cache: OutlineStore | undefined, release: string): void {
  let build = release;
  if (release.endsWith("+source")) build += `@${statSync(import.meta.path).mtimeMs}`;
  store = cache ? { cache, build } : undefined;
}

/** Parses one file's text (or reads its outline from the cache); undefined for languages without a grammar. */
export async function outline(path: string, text: string): Promise<Outline | undefined> {
  const lang = languageOf(path);
  if (!lang) return undefined;
  const key = store && `${store.build}:${lang}:${sha256(text)}`;
  const hit = key && store!.cache.get(key);
  if (hit) return JSON.parse(hit) as Outline;
  const parsed = await parse(lang, text);
  if (key && parsed) store!.cache.put(key, JSON.stringify(parsed));
  return parsed;
}

async function parse(lang: string, text: string): Promise<Outline | undefined> {
  const parser = await parserFor(lang);
  const tree = parser.parse(text);
  if (!tree) return undefined;
  const symbols: OutlineSymbol[] = [];
  const imports: string[] = [];
  try {
    if (lang === "python") pySymbols(tree.rootNode, symbols, imports);
    else if (lang === "go") goSymbols(tree.rootNode, symbols, imports);
    else if (lang === "rust") rustSymbols(tree.rootNode, symbols, imports);
    else if (lang === "java") javaSymbols(tree.rootNode, symbols, imports);
    else if (lang === "ruby") rubySymbols(tree.rootNode, symbols, imports);
    else if (lang === "php") phpSymbols(tree.rootNode, symbols, imports);
    else jsSymbols(tree.rootNode, symbols, imports);
  } finally {
    tree.delete();
  }
  return { language: lang, symbols, imports };
}

/** The outline as text: one line per symbol with its line number (the `summary` render of a file). */
export function outlineText(o: Outline): string {
  return o.symbols.map(outlineLine).join("\n");
}

/** One symbol as an outline shows it: its line, indented under its parent, `(local)` when not exported. */
export const outlineLine = (s: OutlineSymbol): string => `${String(s.line).padStart(5)}  ${s.parent ? "  " : ""}${s.exported ? "" : "(local) "}${s.signature}`;
