import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { definedNames, mayName, wordFilter } from "../../src/context/definitions.ts";

describe("the names a source text defines", () => {
  test("in each language the compiler outlines, by the words that open a definition and by signatures", () => {
    expect(definedNames("export async function parseConfig(a) {}\nconst maxSize = 3;\nclass Loader {}\ninterface Shape {}\ntype Alias = string;")).toEqual(
      expect.arrayContaining(["parseConfig", "maxSize", "Loader", "Shape", "Alias"]),
    );
    expect(definedNames("def load_config(path):\n    pass\nclass Reader:\n    pass\n")).toEqual(expect.arrayContaining(["load_config", "Reader"]));
    expect(definedNames("func (s *Server) HandleRequest(w http.ResponseWriter) {}\ntype Server struct {}\nfunc NewServer() *Server {}")).toEqual(
      expect.arrayContaining(["HandleRequest", "Server", "NewServer"]),
    );
    expect(definedNames("pub fn compute_total(items: &[u32]) -> u32 {}\npub struct Cart;\nimpl Cart {}\ntrait Priced {}")).toEqual(expect.arrayContaining(["compute_total", "Cart", "Priced"]));
    expect(definedNames("public class Parser {\n  public static int parseValue(String raw) throws IOException {\n    return 1;\n  }\n}")).toEqual(expect.arrayContaining(["Parser", "parseValue"]));
  });

  test("a call or a control statement is no definition", () => {
    const names = definedNames("if (ready) {\n  run();\n}\nwhile (x) {}\nfor (const item of items) {}\nhelper(1);\n");
    expect(names).not.toContain("run");
    expect(names).not.toContain("helper");
    expect(names).not.toContain("while");
  });
});

describe("a file's word filter (where a symbol may be called)", () => {
  const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{2,14}$/);

  test("every word a file names tests present: a filter never rules a caller out", () => {
    fc.assert(
      fc.property(fc.array(identifier, { maxLength: 400 }), (words) => {
        const filter = wordFilter(words.map((w) => `call(${w});`).join("\n"));
        return words.every((w) => mayName(filter, w));
      }),
      { numRuns: 200 },
    );
  });

  test("a word a file of 300 words does not name tests absent nearly always", () => {
    const names = Array.from({ length: 300 }, (_, i) => `name${i}x`);
    const filter = wordFilter(names.join(" "));
    const absent = Array.from({ length: 2_000 }, (_, i) => `other${i}y`);
    const falsePositives = absent.filter((w) => mayName(filter, w)).length / absent.length;
    expect(falsePositives).toBeLessThan(0.1);
    expect(mayName(wordFilter("const a = 1;"), "encodeKey")).toBe(false);
    // A word no filter holds is never ruled out: a two-letter name, a file name with a hyphen.
    expect(mayName(wordFilter("const a = 1;"), "fn")).toBe(true);
    expect(mayName(wordFilter('import x from "./my-module";'), "my-module")).toBe(true);
  });
});
