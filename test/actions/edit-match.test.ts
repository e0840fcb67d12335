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
        // Unique counting overlaps too ("aa" in "aaa" is there twice): split alone misses that.
        const once = (hay: string, n: string) => hay.indexOf(n) !== -1 && hay.indexOf(n) === hay.lastIndexOf(n);
        fc.pre(once(file, needle) && needle !== replacement);
        const edited = applyEdit(file, { old_string: needle, new_string: replacement }).text;
        fc.pre(once(edited, replacement));
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

describe("tolerances for the ways models misquote", () => {
  const py = "def f(x):\n    if x:\n        return 1\n    return 0\n";

  test("a quote with its indentation flattened keeps the file's nesting (each line at its own depth)", () => {
    const r = applyEdit(py, { old_string: "if x:\nreturn 1", new_string: "if x:\nreturn 2" });
    expect(r.how).toBe("indentation");
    expect(r.text).toBe("def f(x):\n    if x:\n        return 2\n    return 0\n");
  });

  test("an added line nested in the model's quote is nested in the file too", () => {
    const r = applyEdit(py, { old_string: "if x:\n    return 1", new_string: "if x:\n    log(x)\n    return 1" });
    expect(r.text).toBe("def f(x):\n    if x:\n        log(x)\n        return 1\n    return 0\n");
  });

  test("runs of whitespace inside a line are tolerated", () => {
    const r = applyEdit("const   x    =     5;\nnext();\n", { old_string: "const x = 5;", new_string: "const x = 6;" });
    expect(r.how).toBe("whitespace");
    expect(r.text).toBe("const x = 6;\nnext();\n");
  });

  test.each([
    ["a newline written as \\n", 'say("a");\nsay("b");\n', 'say("a");\\nsay("b");', 'say("A");\\nsay("B");', 'say("A");\nsay("B");\n'],
    ["a quote written as \\'", "x = 'it';\n", "x = \\'it\\';", "x = \\'its\\';", "x = 'its';\n"],
    ["a dollar written as \\$", "echo $HOME\n", "echo \\$HOME", "echo \\$USER", "echo $USER\n"],
    ["a backslash doubled", "re = /a\\d/;\n", "re = /a\\\\d/;", "re = /b\\\\d/;", "re = /b\\d/;\n"],
  ])("an over-escaped old_string (%s) is matched once unescaped", (_n, file, old_string, new_string, expected) => {
    const r = applyEdit(file, { old_string, new_string });
    expect(r.how).toBe("unescaped");
    expect(r.text).toBe(expected);
  });

  test("the refusals that must stay: middle lines not quoted, two identical occurrences, an empty file", () => {
    expect(refused(() => applyEdit("a()\nb()\nc()\n", { old_string: "a()\nc()", new_string: "x" }))).toContain("not found");
    expect(refused(() => applyEdit("go()\ngo()\n", { old_string: "go()", new_string: "stop()" }))).toContain("matches 2 places");
    expect(refused(() => applyEdit("", { old_string: "anything", new_string: "x" }))).toContain("not found");
    expect(refused(() => applyEdit("a  b\na b\n", { old_string: "a   b", new_string: "c" }))).toContain("ignoring whitespace");
  });

  const line = fc.stringMatching(/^[ ]{0,8}[a-z(){};=]{1,12}( [a-z]{1,5})?$/);
  test("property: an exact unique match is never altered by a tolerance", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 3, maxLength: 12 }), fc.nat(), fc.string({ minLength: 1, maxLength: 10 }), (lines, k, replacement) => {
        const file = `${lines.join("\n")}\n`;
        const needle = lines[k % lines.length]!;
        fc.pre(needle.trim() !== "" && file.split(needle).length === 2 && replacement !== needle);
        const r = applyEdit(file, { old_string: needle, new_string: replacement });
        expect(r.how).toBe("exact");
        expect(r.text).toBe(file.replace(needle, () => replacement));
      }),
      { numRuns: 300 },
    );
  });

  test("property: a tolerant match never touches a line outside the matched range", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 4, maxLength: 12 }), fc.nat(), fc.integer({ min: 1, max: 3 }), fc.array(line, { minLength: 1, maxLength: 3 }), (lines, k, len, repl) => {
        const start = k % (lines.length - len);
        const block = lines.slice(start, start + len);
        // The model's quote: the block flattened and with doubled inner spaces, so exact matching fails.
        const quote = block.map((l) => l.trim().replace(/ /g, "  ")).join("\n");
        const file = `${lines.join("\n")}\n`;
        fc.pre(!file.includes(quote));
        let r;
        try {
          r = applyEdit(file, { old_string: quote, new_string: repl.join("\n") });
        } catch (e) {
          if (e instanceof EditRefused) return; // ambiguous or not found: refusing is always allowed
          throw e;
        }
        const out = r.text.split("\n");
        const newCount = repl.length;
        expect(out.slice(0, start)).toEqual(lines.slice(0, start));
        expect(out.slice(start + newCount, start + newCount + (lines.length - start - len))).toEqual(lines.slice(start + len));
      }),
      { numRuns: 300 },
    );
  });
});
