import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { applyEdit, applyEdits, EditRefused, inFileConventions } from "../../src/actions/edit-match.ts";

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

  test("runs of whitespace inside a line are tolerated, non-breaking spaces too", () => {
    const r = applyEdit("const   x    =     5;\nnext();\n", { old_string: "const x = 5;", new_string: "const x = 6;" });
    expect(r.how).toBe("whitespace");
    expect(r.text).toBe("const x = 6;\nnext();\n");
    expect(applyEdit("a\u00a0=\u00a01\nb = 2\n", { old_string: "a = 1", new_string: "a = 3" }).text).toBe("a = 3\nb = 2\n");
  });

  test.each([
    ["unescaped", "a newline written as \\n", 'say("a");\nsay("b");\n', 'say("a");\\nsay("b");', 'say("A");\\nsay("B");', 'say("A");\nsay("B");\n'],
    ["unescaped", "a quote written as \\'", "x = 'it';\n", "x = \\'it\\';", "x = \\'its\\';", "x = 'its';\n"],
    ["unescaped", "a dollar written as \\$", "echo $HOME\n", "echo \\$HOME", "echo \\$USER", "echo $USER\n"],
    ["unescaped", "a backslash doubled", "re = /a\\d/;\n", "re = /a\\\\d/;", "re = /b\\\\d/;", "re = /b\\d/;\n"],
    ["punctuation", "curly quotes in the file, straight in the quote", "say(\u201chi\u201d); // it\u2019s\n", 'say("hi"); // it\'s', 'say("hey");', 'say("hey");\n'],
    ["punctuation", "straight quotes in the file, curly in the quote", "const s = 'don\\'t';\n", "const s = \u2018don\\\u2019t\u2019;", "const s = 'do';", "const s = 'do';\n"],
    ["punctuation", "a dash for a hyphen", "Run it \u2013 once.\nDone.\n", "Run it - once.", "Run it twice.", "Run it twice.\nDone.\n"],
  ])("an old_string matched %s: %s", (how, _n, file, old_string, new_string, expected) => {
    const r = applyEdit(file, { old_string, new_string });
    expect(r.how as string).toBe(how);
    expect(r.text).toBe(expected);
  });

  test("the refusals that must stay: middle lines not quoted, two identical occurrences, an empty file", () => {
    expect(refused(() => applyEdit("a()\nb()\nc()\n", { old_string: "a()\nc()", new_string: "x" }))).toContain("not found");
    expect(refused(() => applyEdit("go()\ngo()\n", { old_string: "go()", new_string: "stop()" }))).toContain("matches 2 places");
    expect(refused(() => applyEdit("", { old_string: "anything", new_string: "x" }))).toContain("not found");
    expect(refused(() => applyEdit("a  b\na b\n", { old_string: "a   b", new_string: "c" }))).toContain("ignoring whitespace");
  });

  test("read_file's line numbers copied into the quote (and the new text) are not taken as part of the file", () => {
    const r = applyEdit(py, { old_string: "2\t    if x:\n3\t        return 1", new_string: "2\t    if x:\n3\t        return 2" });
    expect(r.how).toBe("line numbers");
    expect(r.text).toBe("def f(x):\n    if x:\n        return 2\n    return 0\n");
    const plainNew = applyEdit(py, { old_string: "  3\t        return 1\n  4\t    return 0", new_string: "        return 1\n    return -1" });
    expect(plainNew.text).toBe("def f(x):\n    if x:\n        return 1\n    return -1\n");
  });

  test("numbers that do not count up by one, or that the file itself holds, are left as they are", () => {
    expect(refused(() => applyEdit(py, { old_string: "2\t    if x:\n7\t        return 1", new_string: "x" }))).toContain("not found");
    const tsv = "id\tname\n1\tann\n2\tbob\n";
    expect(applyEdit(tsv, { old_string: "1\tann\n2\tbob", new_string: "1\tann\n2\tbo" }).text).toBe("id\tname\n1\tann\n2\tbo\n");
  });

  test("blank lines the quote dropped or added are tolerated; the range between the quote's lines is replaced", () => {
    const file = "import os\n\n\ndef load(p):\n    return p\n";
    const dropped = applyEdit(file, { old_string: "import os\ndef load(p):", new_string: "import os\nimport sys\n\n\ndef load(p):" });
    expect(dropped.how).toBe("blank lines");
    expect(dropped.text).toBe("import os\nimport sys\n\n\ndef load(p):\n    return p\n");
    const added = applyEdit("a = 1\nb = 2\nc = 3\n", { old_string: "a = 1\n\nb = 2", new_string: "a = 1\nb = 4" });
    expect(added.text).toBe("a = 1\nb = 4\nc = 3\n");
    expect(refused(() => applyEdit("a\n\nb\nx\na\n\n\nb\n", { old_string: "a\nb", new_string: "c" }))).toContain("ignoring blank lines");
  });

  /** The edit's outcome, or undefined when it was refused. */
  const unlessRefused = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (e) {
      if (e instanceof EditRefused) return undefined;
      throw e;
    }
  };

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
        const r = unlessRefused(() => applyEdit(file, { old_string: quote, new_string: repl.join("\n") }));
        if (!r) return; // ambiguous or not found: refusing is always allowed
        const out = r.text.split("\n");
        const newCount = repl.length;
        expect(out.slice(0, start)).toEqual(lines.slice(0, start));
        expect(out.slice(start + newCount, start + newCount + (lines.length - start - len))).toEqual(lines.slice(start + len));
      }),
      { numRuns: 300 },
    );
  });

  test("property: a quote that dropped blank lines replaces exactly the range it spans, or is refused", () => {
    const withBlanks = fc.array(fc.oneof(line, fc.constant("")), { minLength: 4, maxLength: 14 });
    fc.assert(
      fc.property(withBlanks, fc.nat(), fc.nat(), fc.array(line, { minLength: 1, maxLength: 3 }), (lines, i, j, repl) => {
        const solid = lines.flatMap((l, k) => (l.trim() ? [k] : []));
        fc.pre(solid.length >= 2);
        const a = solid[i % solid.length]!;
        const b = solid[Math.min(solid.length - 1, solid.indexOf(a) + 1 + (j % 3))]!;
        fc.pre(b > a);
        const quote = lines.slice(a, b + 1).filter((l) => l.trim()).join("\n");
        const file = `${lines.join("\n")}\n`;
        fc.pre(!file.includes(quote));
        const r = unlessRefused(() => applyEdit(file, { old_string: quote, new_string: repl.join("\n") }));
        if (r?.how !== "blank lines") return; // refused, or matched elsewhere by a stricter rule
        const out = r.text.split("\n");
        expect(out.slice(0, a)).toEqual(lines.slice(0, a));
        expect(out.slice(a + repl.length)).toEqual([...lines.slice(b + 1), ""]);
      }),
      { numRuns: 300 },
    );
  });

  test("a quote that starts or ends inside a line keeps the rest of those lines, its continuation re-indented to the file", () => {
    const file = "function f() {\n    return foo(x,\n        y);\n}\n";
    const r = applyEdit(file, { old_string: "foo(x,\n    y);", new_string: "foo(x,\n    y,\n    z);" });
    expect(r.how).toBe("partial lines");
    expect(r.text).toBe("function f() {\n    return foo(x,\n        y,\n        z);\n}\n");
    // Ending inside a line: what follows it on that line stays.
    const go = "\tx := call(a,\n\t\tb) // keep\n";
    expect(applyEdit(go, { old_string: "x := call(a,\n    b)", new_string: "x := call(a,\n    c)" }).text).toBe("\tx := call(a,\n\t\tc) // keep\n");
    // Deleting such a quote joins what was before it and what was after it.
    expect(applyEdit("const s = a +\n      b + c;\n", { old_string: "a +\n  b", new_string: "" }).text).toBe("const s =  + c;\n");
  });

  test("a quote cut inside a line is refused when the cut splits a word, when its first line is not that line's end, or when it fits twice", () => {
    expect(refused(() => applyEdit("let total = max(a,\n  b);\n", { old_string: "x(a,\nb);", new_string: "y(a,\nb);" }))).toContain("not found");
    expect(refused(() => applyEdit("return foo(x, y) + 1;\n  z();\n", { old_string: "foo(x, y)\nz();", new_string: "foo(y, x)\nz();" }))).toContain("not found");
    const twice = "const a = wrap(x,\n  y);\nconst b = wrap(x,\n    y);\n";
    expect(refused(() => applyEdit(twice, { old_string: "wrap(x,\n y);", new_string: "wrap(x, y, z);" }))).toContain("lines 1, 3");
  });

  test("a typographic ellipsis and three dots are read as the same", () => {
    expect(applyEdit('log("Loading...");\n', { old_string: 'log("Loading\u2026");', new_string: 'log("Wait");' }).text).toBe('log("Wait");\n');
  });

  test("property: in a file of mixed line endings only the lines an edit replaces change; new lines take their endings", () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 3, maxLength: 10 }), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), fc.nat(), fc.array(word, { maxLength: 3 }), (words, crlf, k, repl) => {
        const lines = words.map((w, i) => `${i}:${w}`); // each line once, none inside another
        fc.pre(crlf.slice(0, lines.length).some(Boolean) && !crlf.slice(0, lines.length).every(Boolean));
        const end = (i: number) => (crlf[i] ? "\r\n" : "\n");
        const file = lines.map((l, i) => l + end(i)).join("");
        const at = k % lines.length;
        const r = applyEdit(file, { old_string: `${lines[at]}\n`, new_string: repl.map((l) => `${l}\n`).join("") });
        const expected = [...lines.slice(0, at).map((l, i) => l + end(i)), ...repl.map((l) => l + end(at)), ...lines.slice(at + 1).map((l, i) => l + end(at + 1 + i))].join("");
        expect(r.text).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  test("part of a line quoted with other spacing: runs of any length, space around punctuation or not, but words never joined", () => {
    const r = applyEdit("    return w  *  h\n", { old_string: "w * h", new_string: "w * h / 2" });
    expect([r.how, r.text]).toEqual(["spacing", "    return w * h / 2\n"]);
    expect(applyEdit("log( 'a' );\n", { old_string: "log('a')", new_string: "info('a')" }).text).toBe("info('a');\n");
    expect(refused(() => applyEdit("const ab = 1;\n", { old_string: "a b = 1", new_string: "c = 1" }))).toContain("not found");
    expect(refused(() => applyEdit("total_count  =  1\n", { old_string: "count = 1", new_string: "count = 2" }))).toContain("not found");
    expect(refused(() => applyEdit("f(x,  y)\nf(x,   y)\n", { old_string: "f(x, y)", new_string: "g(x, y)" }))).toContain("lines 1, 2");
    expect(applyEdit("f(x,  y)\nf(x,   y)\n", { old_string: "f(x, y)", new_string: "g(x, y)", replace_all: true }).text).toBe("g(x, y)\ng(x, y)\n");
  });

  test("property: a spacing match replaces one span whose text, without its spacing, is the quote's; nothing else changes", () => {
    const token = fc.constantFrom("a", "bb", "x1", "(", ")", ",", "=", "+", "42");
    const gap = fc.constantFrom("", " ", "  ", "\t");
    const line = fc.array(fc.tuple(token, gap), { minLength: 1, maxLength: 8 }).map((ts) => ts.map(([t, g]) => t + g).join(""));
    let applied = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.nat(), fc.nat(), fc.nat(), (lines, k, a, b) => {
        const src = lines[k % lines.length]!.trim();
        const words = src.match(/[\w$]+|\S/g) ?? [];
        fc.pre(words.length >= 2);
        const from = a % words.length;
        const to = from + 1 + (b % (words.length - from));
        const quote = words.slice(from, to).join(" ");
        const file = `${lines.join("\n")}\n`;
        fc.pre(!file.includes(quote) && to - from >= 2);
        const r = unlessRefused(() => applyEdit(file, { old_string: quote, new_string: "NEW" }));
        if (r?.how !== "spacing") return;
        applied++;
        const i = r.text.indexOf("NEW");
        const removed = file.slice(i, file.length - (r.text.length - i - 3));
        expect(r.text.slice(0, i)).toBe(file.slice(0, i));
        expect(r.text.slice(i + 3)).toBe(file.slice(i + removed.length));
        expect(removed.replace(/\s/g, "")).toBe(quote.replace(/\s/g, ""));
        expect(removed.includes("\n")).toBe(false);
      }),
      { numRuns: 300 },
    );
    expect(applied).toBeGreaterThan(10); // the tolerance was exercised, not only skipped
  });
});

describe("a whole file replaced keeps its conventions", () => {
  test("property: only a CR before each LF and a byte order mark are ever added, and only where the old text had them all", () => {
    const line = fc.string({ maxLength: 20 }).filter((l) => !/[\r\n\uFEFF]/.test(l));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 8 }), fc.boolean(), fc.boolean(), (oldLines, newLines, crlf, bom) => {
        const before = `${bom ? "\uFEFF" : ""}${oldLines.map((l) => `${l}${crlf ? "\r\n" : "\n"}`).join("")}`;
        const content = newLines.map((l) => `${l}\n`).join("");
        const out = inFileConventions(before, content);
        expect(out.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n")).toBe(content);
        expect(out.includes("\r\n")).toBe(crlf && oldLines.length > 0 && newLines.length > 0);
        expect(out.startsWith("\uFEFF")).toBe(bom);
      }),
    );
  });

  test("a new file, a mixed one, and new text with its own line ends are left as they are", () => {
    expect(inFileConventions(undefined, "a\n")).toBe("a\n");
    expect(inFileConventions("x\r\ny\n", "a\nb\n")).toBe("a\nb\n");
    expect(inFileConventions("x\r\n", "a\r\nb\n")).toBe("a\r\nb\n");
  });
});
