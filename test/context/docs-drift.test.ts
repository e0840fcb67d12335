import { describe, expect, test } from "bun:test";
import { codeSpans, codeWords, docsDrift } from "../../src/context/docs-drift.ts";

const facts = (code: string, paths: string[] = []) => {
  const words = new Set<string>();
  codeWords(code, words);
  return { paths: new Set(paths), words };
};

describe("docs drift", () => {
  test("a flag is found as parsers declare it: kebab-case, clap's snake_case field, commander's camelCase", () => {
    const doc = [{ path: "README.md", text: "Use `--dry-run`, `--out-dir x` and `--max-depth`.\n" }];
    expect(docsDrift(doc, facts('#[arg(long)] dry_run: bool,\n.option("--out-dir <d>")\nopts.maxDepth'))).toEqual([]);
    expect(docsDrift(doc, facts("nothing here")).map((d) => d.name)).toEqual(["--dry-run", "--out-dir", "--max-depth"]);
  });

  test("fenced examples are not read; spans are found with their lines", () => {
    expect(codeSpans("a `one`\n```\n`two`\n```\nb `three`\n")).toEqual([
      { span: "one", line: 1 },
      { span: "three", line: 5 },
    ]);
  });

  test("a path is drift only under a directory the repository has, and is found beside its doc too", () => {
    const f = facts("", ["src/", "src/a.ts", "guide/", "docs/", "docs/guide/", "docs/guide/b.md"]);
    const doc = (text: string, path = "README.md") => docsDrift([{ path, text }], f).map((d) => d.name);
    expect(doc("`src/a.ts` `src/gone.ts` `.tool/config.json`")).toEqual(["src/gone.ts"]);
    expect(doc("`guide/b.md`", "docs/index.md")).toEqual([]);
    expect(doc("`guide/b.md`")).toEqual(["guide/b.md"]);
  });
});
