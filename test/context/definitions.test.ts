import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { blobSha, definedNames, gitVouched, indexedNamers, mayName, refreshSymbols, wordFilter } from "../../src/context/definitions.ts";
import { statusEntries } from "../../src/context/sources.ts";
import { SymbolIndex } from "../../src/store/symbol-index.ts";
import { tempDir } from "../support/temp.ts";

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

describe("what git vouches for (a file's facts fresh without a stat)", () => {
  const git = (cwd: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", ...IDENTITY } });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    return r.stdout.toString();
  };
  const IDENTITY = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

  test("the staged files git status does not report, with git's own blob SHA; not a flagged, changed, deleted or untracked one", () => {
    const tmp = tempDir();
    try {
      const root = tmp.path;
      for (const f of ["clean.ts", "assumed.ts", "skipped.ts", "changed.ts", "deleted.ts", "sub/touched.ts"]) {
        mkdirSync(dirname(join(root, f)), { recursive: true });
        writeFileSync(join(root, f), `export const ${f.replace(/\W/g, "_")} = 1;\n`);
      }
      git(root, "init", "-q");
      git(root, "add", "-A");
      git(root, "commit", "-qm", "x");
      git(root, "update-index", "--assume-unchanged", "assumed.ts");
      git(root, "update-index", "--skip-worktree", "skipped.ts");
      for (const f of ["assumed.ts", "skipped.ts", "changed.ts"]) writeFileSync(join(root, f), "export const callsIt = encodeKey();\n");
      rmSync(join(root, "deleted.ts"));
      writeFileSync(join(root, "untracked.ts"), "export const u = 1;\n");
      // A stat that moved with the content as it was: git hashes it again and still vouches.
      utimesSync(join(root, "sub/touched.ts"), new Date(2001, 1, 1), new Date(2001, 1, 1));
      const status = git(root, "status", "--porcelain=v1", "-z", "--untracked-files=normal");
      const dirty = statusEntries(status).map((e) => e.path);
      // The flags hide two changes from git status: that is what the vouch must not trust.
      expect(dirty.sort()).toEqual(["changed.ts", "deleted.ts", "untracked.ts"]);
      const vouched = gitVouched(git(root, "ls-files", "-s", "-v", "-z"), dirty);
      expect([...vouched.keys()].sort()).toEqual(["clean.ts", "sub/touched.ts"]);
      for (const [path, sha] of vouched) {
        expect(sha).toBe(blobSha(readFileSync(join(root, path))));
        expect(sha).toBe(git(root, "hash-object", path).trim());
      }
    } finally {
      tmp.cleanup();
    }
  });

  test("of any index listing, exactly the untagged stage-0 entries not reported dirty, whatever their paths hold", () => {
    const entry = fc.record({
      tag: fc.constantFrom("H", "h", "S", "s"),
      mode: fc.constantFrom("100644", "100755", "120000", "160000"),
      sha: fc.oneof(fc.stringMatching(/^[0-9a-f]{40}$/), fc.stringMatching(/^[0-9a-f]{64}$/)),
      stage: fc.constantFrom(0, 0, 0, 1, 2, 3),
      path: fc.string({ minLength: 1, maxLength: 12 }).filter((p) => !p.includes("\0")),
      dirty: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e.path, maxLength: 30 }), (entries) => {
        const listing = entries.map((e) => `${e.tag} ${e.mode} ${e.sha} ${e.stage}\t${e.path}`).join("\0");
        const got = gitVouched(listing, entries.filter((e) => e.dirty).map((e) => e.path));
        const want = new Map(entries.filter((e) => e.tag === "H" && e.stage === 0 && !e.dirty).map((e) => [e.path, e.sha]));
        expect(got).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  test("the word filters of files git vouches for are used though their stat moved; without the vouch such a file may name anything", () => {
    const tmp = tempDir();
    try {
      const root = join(tmp.path, "ws");
      mkdirSync(root);
      writeFileSync(join(root, "a.ts"), "export const a = helper();\n");
      writeFileSync(join(root, "b.ts"), "export const b = encodeKey();\n");
      const index = SymbolIndex.open(join(tmp.path, "symbols.db"));
      refreshSymbols(root, index);
      utimesSync(join(root, "a.ts"), new Date(2001, 1, 1), new Date(2001, 1, 1));
      const shas = new Map(index.filters(root).map((f) => [f.path, f.sha!]));
      expect(shas.get("a.ts")).toBe(blobSha(readFileSync(join(root, "a.ts"))));
      expect([...indexedNamers(root, index, ["encodeKey"], ["a.ts", "b.ts"])].sort()).toEqual(["a.ts", "b.ts"]);
      expect([...indexedNamers(root, index, ["encodeKey"], ["a.ts", "b.ts"], shas)]).toEqual(["b.ts"]);
      // A vouch for another blob is no vouch: the stat decides, and it moved.
      const other = new Map([...shas].map(([p]) => [p, "0".repeat(40)]));
      expect([...indexedNamers(root, index, ["encodeKey"], ["a.ts", "b.ts"], other)].sort()).toEqual(["a.ts", "b.ts"]);
      index.close();
    } finally {
      tmp.cleanup();
    }
  });
});
