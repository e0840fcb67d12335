import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { textAfter } from "../../src/actions/edit-match.ts";
import { changedRange, codeLines, declarationOf, readProposal } from "../../src/agent/proposal.ts";

describe("a proposed edit, read before it is applied", () => {
  const ts = "// keys\nexport function encodeKey(k: string, upper: boolean): string {\n  return upper ? k.toUpperCase() : k;\n}\n\nexport const other = 1;\n";

  test("a changed declaration is a signature change of that symbol only", async () => {
    const p = await readProposal("src/keys.ts", ts, ts.replace("upper: boolean)", "o: { upper: boolean })"));
    expect(p).toEqual({ path: "src/keys.ts", touched: ["encodeKey"], signatures: ["encodeKey"], behaviour: true });
  });

  test("a body change touches the symbol and changes behaviour, not its signature", async () => {
    const p = await readProposal("src/keys.ts", ts, ts.replace("k.toUpperCase()", "k.toLocaleUpperCase()"));
    expect(p).toMatchObject({ touched: ["encodeKey"], signatures: [], behaviour: true });
  });

  test("comments and blank lines change no behaviour, in either comment style", async () => {
    expect((await readProposal("src/keys.ts", ts, ts.replace("  return", "  // upper or not\n\n  return"))).behaviour).toBe(false);
    const py = 'def f(x):\n    """Doubles."""\n    return x * 2  # twice\n';
    expect((await readProposal("m.py", py, py.replace('"""Doubles."""', '"""Doubles x.\n\n    Any number.\n    """').replace("# twice", "# two times"))).behaviour).toBe(false);
    expect((await readProposal("m.py", py, py.replace("x * 2", "x // 2"))).behaviour).toBe(true);
  });

  test("a removed or renamed symbol counts as a changed declaration", async () => {
    const p = await readProposal("src/keys.ts", ts, ts.replace("encodeKey", "encodeKeys"));
    expect(p.signatures).toEqual(["encodeKey"]);
  });

  test("a declaration is its line without the body or value: a one-line body or a constant's value is not a signature", async () => {
    expect(declarationOf("export const add = (a, b) => a - b;")).toBe("export const add = (a, b) =>");
    expect(declarationOf("export const LIMIT = 10;")).toBe("export const LIMIT");
    expect(declarationOf("export function f(o: { a: number }) {")).toBe("export function f(o: { a: number })");
    expect(declarationOf("const f = async (a: number = 1) => {")).toBe("const f = async (a: number = 1) =>");
    expect(declarationOf("func  EncodeKey(k string)   string {")).toBe("func EncodeKey(k string) string");
    const one = "export const add = (a, b) => a - b;\n";
    expect(await readProposal("m.js", one, one.replace("a - b", "a + b"))).toMatchObject({ touched: ["add"], signatures: [], behaviour: true });
    expect((await readProposal("m.js", one, one.replace("(a, b)", "(a, b, c)"))).signatures).toEqual(["add"]);
  });

  test("# starts a comment only where the language says so", () => {
    expect(codeLines("a.ts", "class A {\n  #count = 0;\n}\n")).toContain("#count = 0;");
    expect(codeLines("a.py", "# note\nx = 1\n")).toEqual(["x = 1"]);
    expect(codeLines("a.c", "*p = 1;\n/* c */\n * more\n")).toEqual(["*p = 1;"]);
  });

  test("the text after an edit: edit_file as the tool applies it, write_file whole, a failing edit nothing", () => {
    expect(textAfter({ name: "edit_file", input: { path: "a", old_string: "b", new_string: "c" } }, "abc")).toBe("acc");
    expect(textAfter({ name: "edit_file", input: { path: "a", edits: [{ old_string: "a", new_string: "x" }, { old_string: "c", new_string: "y" }] } }, "abc")).toBe("xby");
    expect(textAfter({ name: "write_file", input: { path: "a", content: "new" } }, "old")).toBe("new");
    expect(textAfter({ name: "edit_file", input: { path: "a", old_string: "zz", new_string: "c" } }, "abc")).toBeUndefined();
    expect(textAfter({ name: "read_file", input: { path: "a" } }, "abc")).toBeUndefined();
  });

  test("property: the changed range covers every line that differs, and is undefined for no change", () => {
    const lines = fc.array(fc.constantFrom("a", "b", "c", ""), { maxLength: 12 });
    fc.assert(
      fc.property(lines, lines, fc.nat(12), fc.nat(12), (body, insert, at, cut) => {
        const start = Math.min(at, body.length);
        const end = Math.min(body.length, start + (cut % 4));
        const after = [...body.slice(0, start), ...insert, ...body.slice(end)];
        const r = changedRange(body.join("\n"), after.join("\n"));
        if (after.join("\n") === body.join("\n")) return r === undefined;
        if (!r) return false;
        // Outside the range, both texts agree line by line from either end.
        const [from, to] = r;
        const a = body.join("\n").split("\n");
        const b = after.join("\n").split("\n");
        const tail = a.length - to;
        return a.slice(0, from - 1).every((l, i) => l === b[i]) && a.slice(a.length - tail).every((l, i) => l === b[b.length - tail + i]);
      }),
    );
  });
});
