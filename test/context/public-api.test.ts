import { describe, expect, test } from "bun:test";
import { documentedName, documentedValue, isPublicApi, isSurfaceFile, namesLiteral, givenNames } from "../../src/context/public-api.ts";

/** A package of files held in memory. */
const pkg = (files: Record<string, string>) => ({ files: new Set(Object.keys(files)), read: (p: string) => files[p] });

describe("public API: reachable from the package's entry points", () => {
  test("TypeScript: an exports map's entry, through a named re-export chain; a name the chain does not pass on is not", () => {
    const p = pkg({
      "package.json": JSON.stringify({ exports: { ".": { import: "./dist/index.mjs", types: "./dist/index.d.ts" } } }),
      "src/index.ts": 'export { encodeKey } from "./codec/index.ts";\n',
      "src/codec/index.ts": 'export * from "./keys.ts";\n',
      "src/codec/keys.ts": "export function encodeKey() {}\nexport function decodeKey() {}\n",
    });
    expect(isPublicApi("src/codec/keys.ts", "encodeKey", p.files, p.read)).toBe(true);
    expect(isPublicApi("src/codec/keys.ts", "decodeKey", p.files, p.read)).toBe(false);
  });

  test("a package with no entry fields, or a module nothing re-exports, has no public API by reachability", () => {
    const p = pkg({ "package.json": '{"name":"app","private":true}', "src/keys.ts": "export function encodeKey() {}\n" });
    expect(isPublicApi("src/keys.ts", "encodeKey", p.files, p.read)).toBe(false);
  });

  test("Rust: a pub use of the item's module with a glob; a private mod in the chain hides it", () => {
    const glob = pkg({ "src/lib.rs": "mod codec;\npub use codec::*;\n", "src/codec.rs": "pub fn encode() {}\n" });
    expect(isPublicApi("src/codec.rs", "encode", glob.files, glob.read)).toBe(true);
    const hidden = pkg({ "src/lib.rs": "mod codec;\n", "src/codec.rs": "pub fn encode() {}\n" });
    expect(isPublicApi("src/codec.rs", "encode", hidden.files, hidden.read)).toBe(false);
  });

  test("Python: an __init__.py any level up importing it by its dotted module; a namespace package on the way is passed over", () => {
    const top = pkg({ "app/__init__.py": "from .lib.round import round_price\n", "app/lib/round.py": "def round_price(n):\n    return n\n\ndef other(n):\n    return n\n" });
    expect(isPublicApi("app/lib/round.py", "round_price", top.files, top.read)).toBe(true);
    expect(isPublicApi("app/lib/round.py", "other", top.files, top.read)).toBe(false);
    const none = pkg({ "app/__init__.py": "", "app/lib/round.py": "def round_price(n):\n    return n\n" });
    expect(isPublicApi("app/lib/round.py", "round_price", none.files, none.read)).toBe(false);
  });

  test("Java: public in a package module-info exports; not without the export", () => {
    const java = (info: string) => pkg({ "src/main/java/module-info.java": info, "src/main/java/com/acme/Keys.java": "package com.acme;\npublic class Keys {\n  public static String encode(String k) { return k; }\n}\n" });
    const on = java("module acme { exports com.acme; }\n");
    expect(isPublicApi("src/main/java/com/acme/Keys.java", "encode", on.files, on.read)).toBe(true);
    const off = java("module acme { }\n");
    expect(isPublicApi("src/main/java/com/acme/Keys.java", "encode", off.files, off.read)).toBe(false);
  });
});

describe("a name the documentation names as code", () => {
  test("in backticks or a fence, called, or shaped as no prose word is; a plain word in prose is not", () => {
    expect(documentedName("total", "Call `total(items)` for the sum.")).toBe(true);
    expect(documentedName("total", "```py\nprint(total)\n```")).toBe(true);
    expect(documentedName("total", "Use total(items).")).toBe(true);
    expect(documentedName("total", "The total is shown; subtotal(x) too.")).toBe(false);
    expect(documentedName("PAGE_SIZE", "Pages hold PAGE_SIZE items.")).toBe(true);
    expect(documentedName("PAGE_SIZE", "Pages hold MAX_PAGE_SIZE items.")).toBe(false);
  });
});

describe("a name the task quotes that a planned file holds as a string", () => {
  test("flags, fields and keys the task quotes are found as string literals, never as identifiers", () => {
    expect(givenNames('Rename the --limit flag and the "total" field, and \'retries\' and `max_retries`')).toEqual(["--limit", "total", "retries", "max_retries"]);
    expect(namesLiteral("Rename the --limit flag to --max", 'const flags = ["--limit"];')).toBe(true);
    expect(namesLiteral('Rename the "total" field to "count"', "return `{\"total\": ${n}}`;")).toBe(true);
    expect(namesLiteral('Rename the "total" variable', "const total = 1;")).toBe(false);
    expect(namesLiteral("Rename total to count", 'x = {"total": 1}')).toBe(false);
  });

  test("a name given bare in a shape no prose word has (an environment variable's) counts as given; plain words do not", () => {
    expect(givenNames("Rename the APP_PORT environment variable to APP_LISTEN_PORT")).toEqual(["APP_PORT", "APP_LISTEN_PORT"]);
    expect(givenNames("Rename the max-retries option")).toEqual(["max-retries"]);
    expect(givenNames("Rename total to count in the report")).toEqual([]);
    expect(namesLiteral("Rename the APP_PORT environment variable", 'return Number(process.env["APP_PORT"] ?? "8080");')).toBe(true);
    expect(namesLiteral("Rename the APP_PORT environment variable", 'os.environ.get("APP_PORT", "8080")')).toBe(true);
    // The code's own identifier is not a name others read.
    expect(namesLiteral("Rename the APP_PORT constant", "const APP_PORT = 8080;")).toBe(false);
  });
});

describe("a value the task names that the code holds and the docs state", () => {
  test("a port or a size the README states is documented behaviour; a one-digit number or a value only one side holds is not", () => {
    const docs = "The server listens on port 8080 unless told otherwise. Version 1.80.2.";
    expect(documentedValue("Change the default PORT from 8080 to 3000", "export const PORT = 8080;", docs)).toBe(true);
    expect(documentedValue("Change the default PORT from 8080 to 3000", "export const PORT = 80800;", docs)).toBe(false);
    expect(documentedValue("Pad by 4 instead of 2", "return n + 2;", "pads by 2")).toBe(false);
    expect(documentedValue("Change the limit from 80 to 100", "const LIMIT = 80;", docs)).toBe(false);
  });
});

describe("a file that is itself its package's surface", () => {
  test("an index module counts as its package's entry only where package.json or Node's default makes it one", () => {
    const app = pkg({ "package.json": '{"name":"shop","scripts":{"test":"node -e 0"}}', "src/orders/index.js": "module.exports = {};\n", "src/orders/total.js": "" });
    expect(isSurfaceFile("src/orders/index.js", app.files, app.read)).toBe(false);
    // Node's default entry: index.js beside a package.json that declares none.
    const bare = pkg({ "package.json": '{"name":"shop"}', "index.js": "module.exports = {};\n" });
    expect(isSurfaceFile("index.js", bare.files, bare.read)).toBe(true);
    // A declared entry, mapped back to its source, and a module it re-exports, by path or by folder.
    const lib = pkg({
      "package.json": '{"name":"keys","main":"dist/index.js"}',
      "src/index.ts": 'export * from "./codec";\n',
      "src/codec/index.ts": 'export { encodeKey } from "./keys.ts";\n',
      "src/codec/keys.ts": "export function encodeKey() {}\n",
      "src/util/index.ts": "export const x = 1;\n",
    });
    expect(isSurfaceFile("src/index.ts", lib.files, lib.read)).toBe(true);
    expect(isSurfaceFile("src/codec/index.ts", lib.files, lib.read)).toBe(true);
    expect(isSurfaceFile("src/codec/keys.ts", lib.files, lib.read)).toBe(true);
    expect(isSurfaceFile("src/util/index.ts", lib.files, lib.read)).toBe(false);
  });

  test("declarations, a crate's lib.rs, a package's __init__.py and api/ or public/ files are surfaces by what they are", () => {
    const none = pkg({});
    for (const f of ["types/shop.d.ts", "crates/kv/src/lib.rs", "shop/__init__.py", "api/orders.js", "public/app.js"]) expect(isSurfaceFile(f, none.files, none.read)).toBe(true);
    for (const f of ["src/orders.rs", "shop/pricing.py", "src/orders.js"]) expect(isSurfaceFile(f, none.files, none.read)).toBe(false);
  });
});
