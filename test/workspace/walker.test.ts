import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { enclosingRepository, gitInfoDir, looksBinary, walk, WalkCache, walkFiles } from "../../src/workspace/walker.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
afterEach(() => tmp.cleanup());

function tree(files: Record<string, string>): string {
  tmp = tempDir();
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tmp.path, p)), { recursive: true });
    writeFileSync(join(tmp.path, p), text);
  }
  return tmp.path;
}

const paths = (root: string) => Array.from(walk(root), (e) => e.path).sort();

describe("walk", () => {
  test("honours nested .gitignore, negation, .ignore and git's exclude file, and skips .git", () => {
    const root = tree({
      ".gitignore": "*.log\nbuild/\n!keep.log\n",
      "a.ts": "",
      "debug.log": "",
      "keep.log": "",
      "build/out.js": "",
      "src/.gitignore": "generated.ts\n",
      "src/generated.ts": "",
      "src/main.ts": "",
      "vendor/.ignore": "*\n!.ignore\n",
      "vendor/lib.js": "",
      ".git/info/exclude": "secret-notes.md\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      "secret-notes.md": "",
    });
    expect(paths(root)).toEqual([".gitignore", "a.ts", "keep.log", "src/.gitignore", "src/main.ts", "vendor/.ignore"]);
  });

  test("a rule in a subdirectory is anchored there", () => {
    const root = tree({ "pkg/.gitignore": "/dist\n", "pkg/dist/x.js": "", "dist/y.js": "" });
    expect(paths(root)).toEqual(["dist/y.js", "pkg/.gitignore"]);
  });

  test("the limit stops the walk early", () => {
    const root = tree(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, ""])));
    expect(Array.from(walk(root, { limit: 7 }))).toHaveLength(7);
  });

  test("binary detection looks for NUL in the first 8 KiB", () => {
    expect(looksBinary(new Uint8Array([104, 105, 0, 1]))).toBe(true);
    expect(looksBinary(new TextEncoder().encode("plain text ✓"))).toBe(false);
  });
});

describe("walkFiles with a cache", () => {
  test("gives what walk gives, and notices added files and changed ignore rules", async () => {
    const { WalkCache, walkFiles } = await import("../../src/workspace/walker.ts");
    const root = tree({ ".gitignore": "*.log\n", "a.ts": "", "b.log": "", "src/c.ts": "", "src/deep/d.ts": "" });
    const cache = new WalkCache();
    expect(walkFiles(root, cache)).toEqual(Array.from(walk(root), (e) => e.path));
    writeFileSync(join(root, "src", "deep", "e.ts"), "");
    expect(walkFiles(root, cache)).toContain("src/deep/e.ts");
    await Bun.sleep(5);
    writeFileSync(join(root, ".gitignore"), "*.log\nsrc/\n");
    expect(walkFiles(root, cache)).toEqual([".gitignore", "a.ts"]);
    expect(walkFiles(root, cache)).toEqual(Array.from(walk(root), (e) => e.path).sort());
  });

  test("names the secret files of every walked directory, ignored or not, cold and from the cache", () => {
    const root = tree({
      ".gitignore": ".env\nbuild/\n",
      ".env": "",
      "a.ts": "",
      "services/api/.env": "",
      "services/api/config/credentials.json": "",
      "services/api/keys/server.pem": "",
      "services/api/.env.example": "",
      "build/.env": "",
    });
    const expected = [".env", "services/api/.env", "services/api/config/credentials.json", "services/api/keys/server.pem"];
    const cache = new WalkCache();
    for (let i = 0; i < 2; i++) {
      const secrets: string[] = [];
      const files = walkFiles(root, cache, secrets);
      expect(secrets.sort()).toEqual(expected);
      // Ignored ones are named, never walked; an ignored directory is not read (its .env neither).
      expect(files).not.toContain("services/api/.env");
    }
  });

  test("property: after any edits to files and ignore files, the cached walk is the fresh walk", () => {
    const root = tree({ "a.ts": "", "src/b.ts": "", "src/deep/c.log": "", "src/deep/d.ts": "", "lib/e.log": "" });
    const cache = new WalkCache();
    walkFiles(root, cache);
    const dirs = ["", "src", "src/deep", "lib"];
    const edit = fc.record({
      dir: fc.constantFrom(...dirs),
      op: fc.constantFrom("gitignore", "ignore", "unignore", "file", "remove-file"),
      rule: fc.constantFrom("*.log", "deep/", "d.ts", "!c.log", "*.ts"),
    });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
        for (const e of edits) {
          const at = (name: string) => join(root, e.dir, name);
          if (e.op === "gitignore") writeFileSync(at(".gitignore"), `${e.rule}\n`);
          else if (e.op === "ignore") writeFileSync(at(".ignore"), `${e.rule}\n`);
          else if (e.op === "unignore") rmSync(at(".gitignore"), { force: true });
          else if (e.op === "file") writeFileSync(at("new.log"), "");
          else rmSync(at("new.log"), { force: true });
          expect(walkFiles(root, cache)).toEqual(Array.from(walk(root), (x) => x.path));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("a linked worktree", () => {
  test("its .git file is not a file of the project, and the repository's info/exclude applies; the cached walk agrees", () => {
    const root = join(tree({ "main/src/a.ts": "x\n", "main/secret.txt": "s\n" }), "main");
    const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
    const git = (cwd: string, ...a: string[]) => expect(Bun.spawnSync(["git", ...a], { cwd, env }).exitCode).toBe(0);
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "init");
    writeFileSync(join(root, ".git", "info", "exclude"), "local.txt\n");
    const linked = join(tmp.path, "linked");
    git(root, "worktree", "add", "-q", linked);
    writeFileSync(join(linked, "local.txt"), "mine\n");
    expect(gitInfoDir(linked)).toBe(join(realpathSync(root), ".git", "info"));
    const files = [...walk(linked)].map((e) => e.path);
    expect(files).toEqual(["secret.txt", "src/a.ts"]);
    expect(walkFiles(linked, new WalkCache())).toEqual(files);
  });
});

describe("a workspace inside a repository (a monorepo's package)", () => {
  const mono = () =>
    tree({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/info/exclude": "packages/calc/notes.md\n",
      ".gitignore": "dist/\n*.log\n/packages/calc/gen/\n",
      "packages/.gitignore": "tmp/\n",
      "packages/calc/src/calc.js": "",
      "packages/calc/dist/calc.js": "",
      "packages/calc/gen/out.js": "",
      "packages/calc/tmp/scratch.js": "",
      "packages/calc/debug.log": "",
      "packages/calc/notes.md": "",
      "packages/calc/keep/.gitignore": "!*.log\n",
      "packages/calc/keep/kept.log": "",
    });

  test("the repository's top is found above it; none for a repository's top, a directory in none, or a repository holding the home", () => {
    const top = realpathSync(mono());
    const pkg = join(top, "packages", "calc");
    expect(enclosingRepository(pkg, "/nonexistent-home")).toBe(top);
    expect(enclosingRepository(top, "/nonexistent-home")).toBeUndefined();
    expect(enclosingRepository(pkg, join(top, "packages"))).toBeUndefined();
    mkdirSync(join(pkg, ".git"));
    expect(enclosingRepository(pkg, "/nonexistent-home")).toBeUndefined();
  });

  test("the ignore files and git's exclude from the top down to it apply, anchored where they are; the walk and its cached form agree", () => {
    const pkg = join(realpathSync(mono()), "packages", "calc");
    expect(paths(pkg)).toEqual(["keep/.gitignore", "keep/kept.log", "src/calc.js"]);
    expect(walkFiles(pkg, new WalkCache()).sort()).toEqual(paths(pkg));
  });
});
