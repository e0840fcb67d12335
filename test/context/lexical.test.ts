import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { bm25, fuse, generatedGlobs, isGenerated, stem, termsOf } from "../../src/context/lexical.ts";

describe("content-aware candidates", () => {
  test("identifiers split the way code is written: camelCase, ACRONYMWords, snake_case, stems folded", () => {
    expect(termsOf("ASGITransport HTTPError read_text_file wrappedLines")).toEqual(["asgi", "transport", "http", "error", "read", "text", "wrap", "line"]);
    expect(stem("wrapped")).toBe("wrap");
    expect(stem("parsers")).toBe("parser");
    expect(stem("class")).toBe("class");
  });

  test("generated, vendored, bundled and locked files are recognised; sources are not", () => {
    for (const p of ["dist/index.cjs", "pkg/build/out.js", "a.min.js", "app.bundle.js", "package-lock.json", "Cargo.lock", "vendor/x/y.go", "src/x.js.map"]) expect(isGenerated(p)).toBe(true);
    for (const p of ["src/index.ts", "lib/distance.py", "builder.go", "docs/build.md"]) expect(isGenerated(p)).toBe(false);
    expect(generatedGlobs("gen/*.ts linguist-generated=true\n# c\n*.pb.go linguist-generated\nsrc/*.ts text")).toEqual(["**/gen/*.ts", "**/*.pb.go"]);
  });

  test("BM25 ranks the file that holds the rarer task words first and leaves out files with none", () => {
    const docs = [
      { path: "src/textwrap.py", text: "def wrap(text, width): lines wrapped at width" },
      { path: "src/models.py", text: "class Model: pass" },
      { path: "src/util.py", text: "def text(x): return x" },
    ];
    const r = bm25(termsOf("long lines are not wrapped"), docs);
    expect(r[0]!.path).toBe("src/textwrap.py");
    expect(r.map((x) => x.path)).not.toContain("src/models.py");
  });

  test("fusion is deterministic and a path first in every list is first (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 2, maxLength: 12 }), (paths) => {
        const a = fuse([{ ranking: paths, weight: 1 }, { ranking: [...paths], weight: 0.5 }]);
        expect(a[0]!.path).toBe(paths[0]!);
        expect(a[0]!.score).toBe(1);
        expect(fuse([{ ranking: paths, weight: 1 }])).toEqual(fuse([{ ranking: paths, weight: 1 }]));
      }),
    );
  });
});
