import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { aboutChecks, activeFiles, bm25, countQuery, fuse, generatedGlobs, isGenerated, stem, termsOf } from "../../src/context/lexical.ts";

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
    // Lock files and generators' output beyond JavaScript: Elixir, Swift, CocoaPods, Dart, .NET, Nix, protobuf.
    for (const p of ["mix.lock", "App/Package.resolved", "ios/Podfile.lock", "pubspec.lock", "src/Web/packages.lock.json", "flake.lock", "api/user.pb.go", "api/user_pb2.py", "lib/model.g.dart", "Forms/Main.Designer.cs", "src/schema.generated.ts"])
      expect([p, isGenerated(p)]).toEqual([p, true]);
    for (const p of ["lib/lock.ex", "Sources/Package.swift", "api/pb.go", "src/generated.ts", "docs/designer.md"]) expect([p, isGenerated(p)]).toEqual([p, false]);
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

  test("a query term counts where a word or a camelCase part begins, as code writes it", () => {
    const text = "const maxTokens = TOKEN_LIMIT; // tokens, Token\nretoken(parseResponse); readLine(inline)";
    const c = countQuery("src/a.ts", Buffer.from(text), ["token", "parser", "line"]);
    expect(c.tf.get("token")).toBe(4); // maxTokens, TOKEN_LIMIT, tokens, Token: not retoken
    expect(c.tf.has("parser")).toBe(false); // parseResponse is parse + Response
    expect(c.tf.get("line")).toBe(1); // readLine, not inline
    // Path words count twice; the length is estimated from the size.
    expect(countQuery("src/line.ts", Buffer.from("x"), ["line"]).tf.get("line")).toBe(2);
    expect(c.len).toBe(Math.round(text.length / 6));
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

describe("activeFiles", () => {
  const log = (...commits: string[][]) => commits.map((c) => `\n\n${c.join("\n")}\n`).join("\0");
  test("files changed in two or more recent commits, busiest and newest first; a sweeping commit says nothing", () => {
    const sweep = Array.from({ length: 40 }, (_, i) => `gen/f${i}.ts`);
    const out = activeFiles(log(["src/a.ts", "README.md"], ["src/b.ts"], ["src/a.ts", "src/b.ts"], sweep, ["src/c.ts"], sweep, ["src/b.ts"]));
    expect(out.map((x) => x.path)).toEqual(["src/b.ts", "src/a.ts"]);
    expect(out[0]).toMatchObject({ path: "src/b.ts", commits: 3 });
    expect(activeFiles("")).toEqual([]);
  });

  test("property: every file listed was in at least two commits of at most 30 files, and the order is by weight", () => {
    const file = fc.constantFrom("a.ts", "b.ts", "c.ts", "d/e.ts", "f.md");
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(file, { maxLength: 5 }), { maxLength: 30 }), (commits) => {
        const out = activeFiles(log(...commits));
        for (const x of out) expect(commits.filter((c) => (c as string[]).includes(x.path)).length).toBe(x.commits);
        for (const x of out) expect(x.commits).toBeGreaterThanOrEqual(2);
        for (let i = 1; i < out.length; i++) expect(out[i - 1]!.weight).toBeGreaterThanOrEqual(out[i]!.weight);
      }),
      { numRuns: 300 },
    );
  });
});

describe("aboutChecks", () => {
  test("a task about tests, specs, a failure, the build or the checks; not one that only mentions a word inside another", () => {
    for (const t of ["fix the failing test", "make the specs pass", "the build is broken", "CI is red on main", "lint errors in src"]) expect([t, aboutChecks(t)]).toEqual([t, true]);
    for (const t of ["explain the README", "rename the speculative flag", "add a contest page", "what fields does a CronJob spec take?"]) expect([t, aboutChecks(t)]).toEqual([t, false]);
  });
});
