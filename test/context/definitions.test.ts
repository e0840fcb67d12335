import { describe, expect, test } from "bun:test";
import { definedNames } from "../../src/context/definitions.ts";

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
