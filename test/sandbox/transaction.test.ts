import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSandbox, detectSandbox } from "../../src/workspace/sandbox.ts";
import { changesDir, Transactions } from "../../src/workspace/transaction.ts";
import { MAX_HELD_LAYERS, viewTools } from "../../src/workspace/view.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The change set of a command applied as the kernel recorded it, with the workspace as the oracle:
 * removals, a directory replaced whole, a directory renamed, and a run's held layers stacked past
 * what fits in one mount's options.
 */
const probe = tempDir("weir-view-probe-");
const viewed = detectSandbox().kind === "bwrap" && viewTools(probe.path) !== null;
probe.cleanup();

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

function setup(files: Record<string, string>, name = "ws") {
  tmp = tempDir("weir-view-");
  const base = realpathSync(tmp.path);
  const root = join(base, name);
  const home = join(base, "home");
  mkdirSync(home);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  const transactions = new Transactions(root, changesDir(join(base, "data"), root));
  const sandbox = createSandbox({ mode: "workspace-write", root, home, transactions });
  const run = (line: string) => sandbox.run({ argv: ["sh", "-c", line], cwd: root, timeoutMs: 20_000, outputCap: 100_000, env: { PATH: process.env.PATH ?? "", HOME: home } });
  return { root, run, transactions };
}

describe.skipIf(!viewed)("a command's change set, applied", () => {
  test("a removal, a directory replaced whole and a directory renamed reach the workspace as the command left them", async () => {
    const w = setup({ ".gitignore": "cache/\n", "README.md": "# r\n", "src/old.ts": "old\n", "src/keep.ts": "keep\n", "docs/a.md": "a\n" });
    const r = await w.run("rm README.md && rm -rf src && mkdir src && echo new > src/new.ts && mv docs guide");
    expect(r.exitCode).toBe(0);
    expect(r.held).toBeUndefined();
    expect(existsSync(join(w.root, "README.md"))).toBe(false);
    expect(readdirSync(join(w.root, "src"))).toEqual(["new.ts"]);
    expect(existsSync(join(w.root, "docs"))).toBe(false);
    expect(readFileSync(join(w.root, "guide", "a.md"), "utf8")).toBe("a\n");
  });

  test(`held changes of ${MAX_HELD_LAYERS + 6} commands stack into the next views, past what one mount's options would name by full path`, async () => {
    const w = setup({ ".gitignore": "cache/\n" });
    for (let i = 0; i < MAX_HELD_LAYERS + 6; i++) {
      const r = await w.run(`mkdir -p cache && echo ${i} > cache/${i}`);
      expect([r.exitCode, r.held?.held[0]?.rel]).toEqual([0, "cache"]);
    }
    const seen = await w.run("ls cache | wc -l");
    // The newest layers are in view; older ones stay held (weir changes), out of the view.
    expect(Number(seen.output.trim())).toBe(MAX_HELD_LAYERS);
    expect(existsSync(join(w.root, "cache"))).toBe(false);
  });

  test("a workspace the overlay cannot take as its layer (a comma in its path ends the mount's option) runs its commands as before, writing directly", async () => {
    const w = setup({ "a.txt": "a\n" }, "my,project");
    expect(viewTools(join(w.root, "..", "probe"), w.root)).toBeNull();
    const r = await w.run("echo b > b.txt && mkdir -p dist && echo x > dist/x");
    expect(r.exitCode).toBe(0);
    expect(r.held).toBeUndefined();
    expect(readFileSync(join(w.root, "b.txt"), "utf8")).toBe("b\n");
  });
});
