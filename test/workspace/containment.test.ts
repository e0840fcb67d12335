import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import fc from "fast-check";
import { autorunReason, headText, dependencyEnvironment, gitDirectoryReason, holdsKeyMaterial, installManifests, installScripts, NotAFile, PathRefused, protectedReason, readRegularFile, resolveInWorkspace, workspaceGlobs } from "../../src/workspace/containment.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
let root: string;
let outside: string;
let home: string;

beforeAll(() => {
  tmp = tempDir();
  const base = realpathSync(tmp.path);
  root = join(base, "ws");
  outside = join(base, "outside");
  home = join(base, "home");
  mkdirSync(join(root, "src", "deep"), { recursive: true });
  mkdirSync(outside);
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(root, "src", "a.ts"), "a");
  writeFileSync(join(outside, "secret.txt"), "s");
  writeFileSync(join(home, ".ssh", "id_rsa"), "key");
  symlinkSync(outside, join(root, "link-out"));
  symlinkSync(join(root, "src"), join(root, "link-in"));
  symlinkSync(join(outside, "nope"), join(root, "dangling"));
  linkSync(join(outside, "secret.txt"), join(root, "hard.txt"));
});
afterAll(() => tmp.cleanup());

function refusal(path: string): PathRefused {
  try {
    resolveInWorkspace(root, path, { home });
  } catch (e) {
    if (e instanceof PathRefused) return e;
    throw e;
  }
  throw new Error(`${path} was not refused`);
}

describe("resolveInWorkspace", () => {
  test("relative and absolute paths inside the root resolve; symlinks inside are followed", () => {
    expect(resolveInWorkspace(root, "src/a.ts", { home })).toEqual({ absolute: join(root, "src", "a.ts"), relative: "src/a.ts", exists: true });
    expect(resolveInWorkspace(root, join(root, "src", "a.ts"), { home }).relative).toBe("src/a.ts");
    expect(resolveInWorkspace(root, "link-in/a.ts", { home }).relative).toBe("src/a.ts");
    expect(resolveInWorkspace(root, "src/new/file.ts", { home })).toMatchObject({ relative: "src/new/file.ts", exists: false });
  });

  test("escapes are refused by the guard that caught them", () => {
    expect(refusal("../outside/secret.txt").rule).toBe("containment");
    expect(refusal(join(outside, "secret.txt")).rule).toBe("containment");
    expect(refusal("src/../../outside").rule).toBe("containment");
    expect(refusal("link-out/secret.txt").rule).toBe("symlink");
    expect(refusal("link-out/new-file").rule).toBe("symlink");
    expect(refusal("dangling").rule).toBe("symlink");
    expect(refusal("hard.txt").rule).toBe("hardlink");
    expect(refusal("~/.ssh/id_rsa").rule).toBe("containment");
  });

  test("protected paths inside the root are refused", () => {
    for (const p of [".git/config", ".env", ".env.local", "config/id_rsa", "certs/server.pem", ".npmrc", "deploy/.aws/credentials", "sub/.git/HEAD"])
      expect(refusal(p).rule).toBe("protected");
    expect(resolveInWorkspace(root, ".env.example", { home }).relative).toBe(".env.example");
    expect(resolveInWorkspace(root, ".github/workflows/ci.yml", { home }).relative).toBe(".github/workflows/ci.yml");
  });

  test("a workspace that contains the home directory still protects home dot-directories", () => {
    expect(protectedReason("home/.bashrc", join(home, ".bashrc"), home)).toContain("home dot-directories");
    expect(protectedReason("home/projects/a.ts", join(home, "projects", "a.ts"), home)).toBeUndefined();
  });

  test("property: whatever path is asked for, the result is refused or lies inside the root", () => {
    const segment = fc.constantFrom("..", ".", "src", "deep", "a.ts", "link-out", "link-in", "dangling", "new", "~", "", "secret.txt", "...", "..\\..");
    const path = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 8 })).map(([abs, parts]) => (abs ? sep : "") + parts.join("/"));
    fc.assert(
      fc.property(fc.oneof(path, fc.string()), (p) => {
        try {
          const r = resolveInWorkspace(root, p, { home });
          expect(r.absolute === root || r.absolute.startsWith(root + sep)).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(PathRefused);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("named pipes and devices", () => {
  test("a named pipe is refused by name, and a regular file beside it is not", () => {
    expect(Bun.spawnSync(["mkfifo", join(root, "pipe")]).exitCode).toBe(0);
    expect(refusal("pipe").rule).toBe("special");
    expect(resolveInWorkspace(root, "src/a.ts", { home }).exists).toBe(true);
  });

  test("readRegularFile reads a file, refuses a pipe and a device without waiting, and reports a missing file as readFileSync does", () => {
    expect(readRegularFile(join(root, "src", "a.ts"), "utf8")).toBe("a");
    expect(Bun.spawnSync(["mkfifo", join(outside, "pipe")]).exitCode).toBe(0);
    expect(() => readRegularFile(join(outside, "pipe"))).toThrow(NotAFile);
    expect(() => readRegularFile("/dev/zero")).toThrow(NotAFile);
    expect(() => readRegularFile(join(root, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("dependencyEnvironment", () => {
  test("a path in installed dependencies names where they begin; Yarn's loader is one itself", () => {
    const root = mkdtempSync(join(tmpdir(), "weir-env-"));
    try {
      mkdirSync(join(root, "py", ".venv", "lib"), { recursive: true });
      writeFileSync(join(root, "py", ".venv", "pyvenv.cfg"), "home = /usr/bin\n");
      expect(dependencyEnvironment(root, "web/node_modules/dep/index.js")).toBe("web/node_modules");
      expect(dependencyEnvironment(root, "py/.venv/lib/site.pth")).toBe("py/.venv");
      expect(dependencyEnvironment(root, ".pnp.cjs")).toBe(".pnp.cjs");
      expect(dependencyEnvironment(root, ".yarn/releases/yarn-4.cjs")).toBe(".yarn");
      for (const rel of ["src/app.js", "py/main.py", "node_modules.md", "docs/pnp.cjs.md"]) expect(dependencyEnvironment(root, rel)).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("gitDirectoryReason", () => {
  test("the write that would make a directory a git directory (HEAD, objects, refs) needs a yes, as does one into such a directory's git parts; the rest does not", () => {
    const t = tempDir();
    try {
      const ws = realpathSync(t.path);
      mkdirSync(join(ws, "a", "objects"), { recursive: true });
      mkdirSync(join(ws, "a", "refs"));
      // a/ lacks only its HEAD: that write, and no other, makes it one.
      expect(gitDirectoryReason(ws, "a/HEAD")).toContain("git repository at a");
      expect(gitDirectoryReason(ws, "a/config")).toBeUndefined();
      expect(gitDirectoryReason(ws, "a/objects/x")).toBeUndefined();
      writeFileSync(join(ws, "a", "HEAD"), "ref: refs/heads/main\n");
      for (const rel of ["a/config", "a/hooks/pre-commit", "a/refs/heads/main", "a/commondir"]) expect(gitDirectoryReason(ws, rel)).toBeDefined();
      for (const rel of ["a/main.js", "a/objects.js", "b/config"]) expect(gitDirectoryReason(ws, rel)).toBeUndefined();
      // A directory that holds a .git is not taken for one: git finds the .git first.
      mkdirSync(join(ws, "a", ".git"));
      expect(gitDirectoryReason(ws, "a/config")).toBeUndefined();
      // Inside a .git the repository's own guards apply, not this one.
      mkdirSync(join(ws, "c", ".git", "objects"), { recursive: true });
      mkdirSync(join(ws, "c", ".git", "refs"));
      expect(gitDirectoryReason(ws, "c/.git/HEAD")).toBeUndefined();
    } finally {
      t.cleanup();
    }
  });
});

describe("autorunReason", () => {
  test("files other tools run later, or agents read, need a yes; the same names elsewhere do not", () => {
    for (const rel of [".npmrc", ".pnpmfile.cjs", "bunfig.toml", ".github/workflows/ci.yml", ".github/actions/setup/action.yml", ".gitlab-ci.yml", ".circleci/config.yml", ".vscode/tasks.json", "docs/AGENTS.md"])
      expect(autorunReason(rel)).toBeDefined();
    for (const rel of ["src/npmrc", "docs/bunfig.toml.md", ".github/CODEOWNERS", ".github/dependabot.yml", "app.js"]) expect(autorunReason(rel)).toBeUndefined();
  });

  test("other agents' instructions and configuration, editors that start programs a project names, and mise's hooks need a yes too", () => {
    const later = [
      ".cursorrules", ".cursor/rules/style.mdc", ".cursor/mcp.json", ".windsurfrules", ".windsurf/rules/a.md", ".clinerules", ".clinerules/a.md",
      "GEMINI.md", "docs/GEMINI.md", ".gemini/settings.json", ".github/copilot-instructions.md", ".github/instructions/ts.instructions.md",
      ".aider.conf.yml", ".continue/config.yaml", ".roo/rules/a.md", ".roomodes", ".amazonq/rules/a.md", ".junie/guidelines.md", ".kiro/steering/a.md",
      ".zed/settings.json", ".helix/languages.toml", "mise.toml", ".mise.toml", "mise.local.toml", ".mise/config.toml", ".config/mise.toml", ".config/mise/config.toml",
    ];
    for (const rel of later) expect({ rel, reason: autorunReason(rel) !== undefined }).toEqual({ rel, reason: true });
    for (const rel of ["src/cursorrules.ts", "docs/gemini.md", ".config/app.json", "mise.md", "tools/mise.toml"]) expect({ rel, reason: autorunReason(rel) !== undefined }).toEqual({ rel, reason: false });
  });
});

describe("installScripts", () => {
  test("names what the next install runs, and only that", () => {
    const pkg = (scripts: object) => JSON.stringify({ name: "a", scripts });
    expect(installScripts(pkg({ test: "x", build: "y" }))).toBe("");
    expect(installScripts(pkg({ postinstall: "x" }))).not.toBe(installScripts(pkg({ postinstall: "y" })));
    expect(installScripts(pkg({ prepare: "husky" }))).not.toBe("");
    expect(installScripts(pkg({ test: "x", postinstall: "p" }))).toBe(installScripts(pkg({ test: "changed", postinstall: "p" })));
    for (const none of [undefined, "", "not json", "null", "[]", '{"scripts": 3}']) expect(installScripts(none)).toBe("");
  });

  test("a change of workspaces changes what the next install runs", () => {
    const root = (workspaces: unknown) => JSON.stringify({ name: "r", workspaces, scripts: { test: "x" } });
    expect(installScripts(root(["packages/*"]))).not.toBe("");
    expect(installScripts(root(["packages/*"]))).not.toBe(installScripts(root(["packages/*", "tools/*"])));
    expect(installScripts(root({ packages: ["a"] }))).not.toBe(installScripts(root({ packages: ["b"] })));
  });
});

describe("workspace packages", () => {
  test("globs come from package.json (a list or { packages }) and pnpm-workspace.yaml; exclusions and escapes are left out", () => {
    expect(workspaceGlobs(JSON.stringify({ workspaces: ["packages/*", "./apps/*/", "!packages/skip", "../up", "/abs"] }), undefined)).toEqual(["packages/*", "apps/*"]);
    expect(workspaceGlobs(JSON.stringify({ workspaces: { packages: ["libs/*"] } }), "packages:\n  - 'tools/*'\n  - \"libs/*\"\n")).toEqual(["libs/*", "tools/*"]);
    for (const [m, y] of [[undefined, undefined], ["not json", "packages: [unclosed"], ['{"workspaces": 3}', "packages: 4"]] as const) expect(workspaceGlobs(m, y)).toEqual([]);
  });

  test("their manifests are the root's and the matched packages', never under node_modules", () => {
    const mono = join(root, "mono");
    for (const d of ["packages/a", "packages/b/node_modules/x", "packages/node_modules/y", "tools/t"]) mkdirSync(join(mono, d), { recursive: true });
    for (const f of ["package.json", "packages/a/package.json", "packages/b/node_modules/x/package.json", "packages/node_modules/y/package.json", "tools/t/package.json"]) writeFileSync(join(mono, f), "{}");
    expect(installManifests(mono, ["packages/*"]).map((m) => m.slice(mono.length + 1)).sort()).toEqual(["package.json", "packages/a/package.json"]);
    expect(installManifests(mono, ["packages/**"]).map((m) => m.slice(mono.length + 1)).sort()).toEqual(["package.json", "packages/a/package.json"]);
    // The scan is bounded in time: with none left, only the root's is watched.
    expect(installManifests(mono, ["packages/*"], 0)).toEqual([join(mono, "package.json")]);
  });
});

describe("holdsKeyMaterial", () => {
  const pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
  test("finds a private key anywhere in the first 200 KB, in a view of a larger buffer too", () => {
    expect(holdsKeyMaterial(Buffer.from(`config = 1\n${pem}`))).toBe(true);
    expect(holdsKeyMaterial(Buffer.from("PuTTY-User-Key-File-3: ssh-ed25519\n"))).toBe(true);
    expect(holdsKeyMaterial(Buffer.from("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))).toBe(false);
    const big = Buffer.from(`${"x".repeat(10)}${pem}`);
    expect(holdsKeyMaterial(big.subarray(10))).toBe(true);
    expect(holdsKeyMaterial(big.subarray(0, 20))).toBe(false);
    expect(holdsKeyMaterial(Buffer.from(`${"a".repeat(200_000)}${pem}`))).toBe(false);
  });

  test("property: the same answer as the marker regex over the text", () => {
    const re = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d:/;
    const piece = fc.constantFrom("-----BEGIN ", "RSA ", "PRIVATE KEY", "-----", " BLOCK", "PuTTY-User-Key-File-", "2:", "é", "\n", "x");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const bytes = Buffer.from(parts.join(""), "latin1");
        expect(holdsKeyMaterial(bytes)).toBe(re.test(bytes.toString("latin1")));
      }),
      { numRuns: 500 },
    );
  });
});

describe("a file's head", () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  test("is at most the bytes asked for, the whole of a shorter file, and nothing for what is not a regular file", () => {
    dir = tempDir();
    writeFileSync(join(dir.path, "big.txt"), "x".repeat(10_000));
    writeFileSync(join(dir.path, "small.txt"), "short\n");
    expect(headText(join(dir.path, "big.txt"), 100)).toBe("x".repeat(100));
    expect(headText(join(dir.path, "small.txt"), 100)).toBe("short\n");
    expect(headText(join(dir.path, "missing.txt"), 100)).toBeUndefined();
    expect(headText(dir.path, 100)).toBeUndefined();
  });
});
