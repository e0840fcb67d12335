import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { applyEdit, applyEdits, EditRefused } from "../../src/actions/edit-match.ts";

function refused(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof EditRefused) return e.message;
    throw e;
  }
  throw new Error("expected a refusal");
}

const FILE = ["function a() {", "  return 1;", "}", "", "function b() {", "  return 1;", "}", ""].join("\n");

describe("applyEdit", () => {
  test("an exact unique match is replaced", () => {
    expect(applyEdit(FILE, { old_string: "function a() {\n  return 1;", new_string: "function a() {\n  return 2;" })).toEqual({
      text: FILE.replace("return 1;", "return 2;"),
      replaced: 1,
      how: "exact",
    });
  });

  test("an ambiguous match is refused with the line of every occurrence and both ways out", () => {
    const msg = refused(() => applyEdit(FILE, { old_string: "  return 1;", new_string: "  return 2;" }));
    expect(msg).toContain("matches 2 places");
    expect(msg).toContain("lines 2, 6");
    expect(msg).toContain("replace_all");
    expect(msg).toContain("surrounding lines");
  });

  test("replace_all changes every occurrence", () => {
    const r = applyEdit(FILE, { old_string: "return 1;", new_string: "return 0;", replace_all: true });
    expect(r.replaced).toBe(2);
    expect(r.text).not.toContain("return 1;");
  });

  test("a match that differs only in indentation is found and the new text re-indented to the file's", () => {
    const file = "class A {\n    run() {\n        go();\n    }\n}\n";
    const r = applyEdit(file, { old_string: "run() {\n    go();\n}", new_string: "run() {\n    stop();\n    go();\n}" });
    expect(r.how).toBe("indentation");
    expect(r.text).toBe("class A {\n    run() {\n        stop();\n        go();\n    }\n}\n");
  });

  test("an indentation-insensitive match that is ambiguous is refused with line numbers", () => {
    const file = "if (x) {\n  go();\n}\nif (x) {\n    go();\n}\n";
    expect(refused(() => applyEdit(file, { old_string: "if (x) {\ngo();\n}", new_string: "z" }))).toContain("lines 1, 4");
  });

  test("a miss says where the first line appears", () => {
    const msg = refused(() => applyEdit(FILE, { old_string: "function b() {\n  return 9;", new_string: "x" }));
    expect(msg).toContain("not found");
    expect(msg).toContain("line 5");
  });

  test("CRLF files keep their line endings", () => {
    const file = "one\r\ntwo\r\nthree\r\n";
    expect(applyEdit(file, { old_string: "two\nthree", new_string: "2\n3" }).text).toBe("one\r\n2\r\n3\r\n");
  });

  test("empty and no-op edits are refused", () => {
    expect(refused(() => applyEdit(FILE, { old_string: "", new_string: "x" }))).toContain("write_file");
    expect(refused(() => applyEdit(FILE, { old_string: "}", new_string: "}" }))).toContain("identical");
  });

  test("property: a unique exact edit followed by its inverse restores the file", () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), fc.string({ minLength: 1 }), (pre, needle, post, replacement) => {
        const file = pre + needle + post;
        fc.pre(file.split(needle).length === 2 && needle !== replacement);
        const edited = applyEdit(file, { old_string: needle, new_string: replacement }).text;
        fc.pre(edited.split(replacement).length === 2);
        expect(applyEdit(edited, { old_string: replacement, new_string: needle }).text).toBe(file);
      }),
    );
  });
});

describe("applyEdits", () => {
  test("edits apply in order to one buffer", () => {
    const r = applyEdits("a b c", [
      { old_string: "a", new_string: "x" },
      { old_string: "x b", new_string: "y" },
    ]);
    expect(r.text).toBe("y c");
  });

  test("one failing edit refuses them all and names it", () => {
    const msg = refused(() =>
      applyEdits("a b c", [
        { old_string: "a", new_string: "x" },
        { old_string: "zzz", new_string: "y" },
      ]),
    );
    expect(msg).toStartWith("edit 2 of 2:");
    expect(msg).toContain("no edit was applied");
  });
});
