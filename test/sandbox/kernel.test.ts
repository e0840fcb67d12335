import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { bwrapArgv } from "../../src/workspace/bwrap.ts";
import { createSandbox, detectSandbox, linkedGitDir, widenableDir } from "../../src/workspace/sandbox.ts";
import { sandboxBlock } from "../../src/workspace/sandbox-explain.ts";
import { seatbeltProfile } from "../../src/workspace/seatbelt.ts";
import { diskFloor, diskSpace, inodeFloor } from "../../src/workspace/process.ts";
import { tempDir } from "../support/temp.ts";

/**
 * The kernel is the oracle: each generated command really runs inside the sandbox against canary
 * files outside the workspace, a fake home with keys in it, weir's own environment and a loopback
 * listener, and the test asserts that nothing outside was read, written or contacted. Commands are
 * generated from a grammar of wrappers × programs × option and path spellings, so no list of names
 * could pass it by luck.
 */
const available = detectSandbox().kind === "bwrap";
const d = describe.skipIf(!available);

let tmp: ReturnType<typeof tempDir>;
let root: string;
let home: string;
let outside: string;
let connections = 0;
let listener: net.Server;
let port = 0;
const CANARY = "CANARY-OUTSIDE-8181";
const KEY = "CANARY-KEY-2323";
const ENV_SECRET = "CANARY-ENV-5757";

beforeAll(async () => {
  tmp = tempDir();
  const base = realpathSync(tmp.path);
  root = join(base, "ws");
  home = join(base, "home");
  outside = join(base, "outside");
  for (const dir of [root, home, outside, join(home, ".ssh"), join(home, ".config", "weir"), join(root, ".git", "hooks")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(outside, "canary.txt"), CANARY);
  writeFileSync(join(home, ".ssh", "id_rsa"), KEY);
  writeFileSync(join(home, ".config", "weir", "config.json"), "{}\n");
  writeFileSync(join(root, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
  writeFileSync(join(root, ".env"), `TOKEN=${KEY}\n`);
  writeFileSync(join(root, ".env.bak"), `TOKEN=${KEY}\n`);
  writeFileSync(join(root, "ok.txt"), "inside\n");
  listener = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()));
  port = (listener.address() as net.AddressInfo).port;
});
afterAll(() => {
  listener?.close();
  tmp?.cleanup();
});

function sandbox(mode: "workspace-write" | "read-only" = "workspace-write") {
  return createSandbox({ mode, root, home, readable: [] });
}

/** Runs argv in the sandbox from a parent that holds a secret in its environment, as weir does. */
async function inside(argv: string[], mode: "workspace-write" | "read-only" = "workspace-write", tmpBytes?: number): Promise<{ exitCode: number | null; output: string }> {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "parent.ts"), JSON.stringify({ root, home, mode, argv, tmpBytes })], {
    env: { PATH: process.env.PATH ?? "", HOME: home, WEIR_PARENT_API_TOKEN: ENV_SECRET },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  if (code !== 0) throw new Error(`parent failed: ${await new Response(p.stderr).text()}`);
  return JSON.parse(out);
}

// The grammar. Paths to what must stay out of reach, in several spellings.
const readTargets = () => [join(outside, "canary.txt"), `${root}/../outside/canary.txt`, "../outside/canary.txt", join(home, ".ssh", "id_rsa"), "~/.ssh/id_rsa", ".env", ".env.bak", "/proc/1/environ", "/proc/self/environ"];
const writeTargets = () => [join(outside, "planted.txt"), "../outside/planted.txt", join(home, ".config", "weir", "config.json"), ".git/config", ".git/hooks/pre-commit", "/etc/planted"];
const wrappers: string[][] = [[], ["env"], ["timeout", "10"], ["nice"], ["nohup"], ["setsid"], ["env", "-i", "PATH=/usr/bin:/bin"]];
const readers = (p: string): string[][] => [
  ["cat", p],
  ["head", "-c", "100", p],
  ["sh", "-c", `cat ${p}`],
  ["bash", "-c", `cat ${p}`],
  ["awk", "{print}", p],
  ["sed", "-n", "p", p],
  ["perl", "-ne", "print", p],
  [process.execPath, "-e", `console.log(require("fs").readFileSync(${JSON.stringify(p.replace(/^~/, home))}, "utf8"))`],
  ["find", p, "-exec", "cat", "{}", ";"],
  ["tar", "-cf", "-", p],
  ["sh", "-c", `ln -sf ${p} link && cat link`],
  ["sh", "-c", `grep -r . ${p}`],
];
const writers = (p: string): string[][] => [
  ["sh", "-c", `echo planted > ${p}`],
  ["touch", p],
  ["cp", "ok.txt", p],
  ["bash", "-c", `printf planted >> ${p}`],
  [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(p.replace(/^~/, home))}, "planted")`],
  ["sh", "-c", `ln -sf ${p} w && echo planted > w`],
];
const networkers = (): string[][] => [
  ["curl", "-s", "-m", "3", `http://127.0.0.1:${port}/`],
  ["bash", "-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`],
  [process.execPath, "-e", `fetch("http://127.0.0.1:${port}/").catch(() => process.exit(3))`],
  ["sh", "-c", `curl -s -m 3 http://127.0.0.1:${port}/ || true`],
  ["git", "-c", "http.proxy=", "ls-remote", `http://127.0.0.1:${port}/repo.git`],
];

const leaked = (out: string) => out.includes(CANARY) || out.includes(KEY) || out.includes(ENV_SECRET);

/** Runs argv on the host, with no sandbox, where the kernel tests' commands would run without weir. */
async function bare(argv: string[], cwd: string): Promise<string> {
  const p = Bun.spawn(argv, { cwd, env: { PATH: process.env.PATH ?? "", HOME: home, WEIR_PARENT_API_TOKEN: ENV_SECRET }, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return out + err;
}

/**
 * The other side of the grammar: each wrapper, reader, writer and network spelling, run without the
 * sandbox, reads, writes or connects. A spelling that does nothing anywhere would pass the tests below
 * by luck; this one fails for it.
 */
d("the grammar without the sandbox: each spelling does what it spells", () => {
  test("every wrapper and every reader reads the canary, every writer writes, every network spelling connects", async () => {
    const canary = join(outside, "canary.txt");
    for (const wrap of wrappers) expect(await bare([...wrap, "cat", canary], root)).toContain(CANARY);
    for (const argv of readers(canary)) expect(await bare(argv, root)).toContain(CANARY);
    const scratch = join(outside, "scratch");
    mkdirSync(scratch);
    try {
      writeFileSync(join(scratch, "ok.txt"), "inside\n");
      for (const [k, argv] of writers(join(scratch, "target")).entries()) {
        rmSync(join(scratch, "target"), { force: true });
        await bare(argv, scratch);
        expect([k, existsSync(join(scratch, "target"))]).toEqual([k, true]);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    for (const [k, argv] of networkers().entries()) {
      const before = connections;
      await bare(argv, root);
      await Bun.sleep(50);
      expect([k, connections > before]).toEqual([k, true]);
    }
  }, 60_000);
});

d("generated commands under bubblewrap, the kernel as oracle", () => {
  test("no wrapper, program or path spelling reads what lies outside the workspace, a key, a protected file or weir's environment", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...wrappers), fc.constantFrom(...readTargets()), fc.nat(11), async (wrap, target, k) => {
        const argv = [...wrap, ...readers(target)[k]!];
        const r = await inside(argv);
        expect(leaked(r.output)).toBe(false);
      }),
      { numRuns: 60, seed: 4242 },
    );
  }, 120_000);

  test("no spelling writes outside the workspace, plants git config or hooks, or plants the user config", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...wrappers), fc.constantFrom(...writeTargets()), fc.nat(5), async (wrap, target, k) => {
        await inside([...wrap, ...writers(target)[k]!]);
        expect(existsSync(join(outside, "planted.txt"))).toBe(false);
        expect(readFileSync(join(home, ".config", "weir", "config.json"), "utf8")).toBe("{}\n");
        expect(readFileSync(join(root, ".git", "config"), "utf8")).not.toContain("planted");
        expect(existsSync(join(root, ".git", "hooks", "pre-commit"))).toBe(false);
        expect(existsSync("/etc/planted")).toBe(false);
      }),
      { numRuns: 40, seed: 1717 },
    );
  }, 120_000);

  test("nothing reaches a listener on the host's loopback", async () => {
    const before = connections;
    for (const wrap of wrappers) for (const argv of networkers()) await inside([...wrap, ...argv]);
    // Every /proc entry the sandbox can see, read at once: weir's environment is not among them.
    expect(leaked((await inside(["sh", "-c", "cat /proc/*/environ | tr '\\0' '\\n'"])).output)).toBe(false);
    expect(connections).toBe(before);
  }, 120_000);

  test("the workspace itself stays writable and readable, and a process that escapes with setsid ends with the sandbox", async () => {
    const r = await inside(["sh", "-c", "echo made > made.txt && cat ok.txt && (setsid sleep 30.917 &) ; echo started"]);
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain("inside");
    expect(readFileSync(join(root, "made.txt"), "utf8")).toBe("made\n");
    // The pid namespace died with its init: no sleep from the sandbox survives on the host (its
    // duration is this test's own, so another test's sleep running beside it is not counted).
    const ps = Bun.spawnSync(["sh", "-c", "ps -eo args | grep -c '^sleep 30.917$' || true"]);
    expect(Number(ps.stdout.toString().trim())).toBe(0);
  });

  test("the in-memory directories are capped: /tmp, /var/tmp, the home and shared memory fill up instead of the machine's memory, and /dev takes no files", async () => {
    const fill = (dir: string) => `dd if=/dev/zero of=${dir}/fill bs=1M count=16 2>&1; echo "${dir} rc=$?"`;
    const r = await inside(["sh", "-c", ["/tmp", "/var/tmp", "$HOME", "/dev/shm", "/dev"].map(fill).join("; ")], "workspace-write", 8 * 2 ** 20);
    expect(r.output.split("No space left on device").length - 1).toBeGreaterThanOrEqual(4);
    expect(r.output).toContain("Read-only file system");
    expect(r.output).not.toMatch(/rc=0/);
    // What runs on shared memory still does: Python's semaphores live in /dev/shm.
    const sem = await inside(["python3", "-c", "import multiprocessing as m; l = m.Lock(); l.acquire(); l.release(); print('locked')"]);
    expect(sem.output).toContain("locked");
    expect((await inside(["sh", "-c", "echo x > /dev/null && head -c 4 /dev/urandom | wc -c"])).output).toContain("4");
  });

  test("a command that writes the workspace's disk full is ended at the floor weir keeps free", async () => {
    const free = diskSpace(root)!.free;
    const s = createSandbox({ mode: "workspace-write", root, home, readable: [], diskFloorBytes: free - 24 * 2 ** 20 });
    const writer = "for i in $(seq 200); do head -c 1048576 /dev/zero >> fill.bin; sleep 0.02; done; echo finished";
    try {
      const r = await s.run({ argv: ["sh", "-c", writer], cwd: root, timeoutMs: 60_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
      expect(r.diskFull).toBe(true);
      expect(r.output).not.toContain("finished");
      expect(statSync(join(root, "fill.bin")).size).toBeLessThan(200 * 2 ** 20);
    } finally {
      rmSync(join(root, "fill.bin"), { force: true });
    }
  });

  test("a command that makes files until the file system's inodes run low is ended at the floor weir keeps, though they take no space", async () => {
    const files = diskSpace(root)!.files!;
    const s = createSandbox({ mode: "workspace-write", root, home, readable: [], diskFloorInodes: files.free - 2_000 });
    const maker = "mkdir many && cd many && for i in $(seq 200); do mkdir d$i && (cd d$i && touch $(seq 100)); sleep 0.02; done; echo finished";
    try {
      const r = await s.run({ argv: ["sh", "-c", maker], cwd: root, timeoutMs: 60_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
      expect(r.diskFull).toBe(true);
      expect(r.output).not.toContain("finished");
    } finally {
      rmSync(join(root, "many"), { recursive: true, force: true });
    }
  });

  test("in read-only mode even the workspace cannot be written, and the failure says why", async () => {
    const r = await inside(["sh", "-c", "echo x > ro.txt"], "read-only");
    expect(r.exitCode).not.toBe(0);
    expect(existsSync(join(root, "ro.txt"))).toBe(false);
    expect(sandboxBlock(r.output, { mode: "read-only", root, home, network: false, writable: [], readable: [], masked: [] })).toContain("read-only");
  });

  test("a quiet network client (curl -s) is explained by its exit code", async () => {
    const r = await inside(["curl", "-s", "-m", "3", `http://127.0.0.1:${port}/`]);
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toBe("");
    expect(sandbox().explain(r.output, {}, { program: "curl", exitCode: r.exitCode })).toContain("blocked by the sandbox: network");
  });

  test("a blocked network call is explained as the sandbox's doing", async () => {
    const r = await inside(["curl", "-sS", "-m", "3", "http://example.com/"]);
    expect(r.exitCode).not.toBe(0);
    expect(sandbox().explain(r.output)).toContain("blocked by the sandbox: network");
  });

  test.skipIf(!Bun.which("npm"))("a package manager is told there is no network: npm answers from its cache only, and the failure is explained", async () => {
    const r = await inside(["npm", "view", "left-pad", "version"]);
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/ENOTCACHED|only-if-cached/);
    expect(sandbox().explain(r.output)).toContain("blocked by the sandbox: network");
  });
});

d("what weir removes or puts back after a command, it never reaches through a link", () => {
  test("a hooks directory, a guarded directory's parent and a workspace package replaced by links to the person's files: the links go, the files stay", async () => {
    const t = tempDir();
    try {
      const base = realpathSync(t.path);
      const ws = join(base, "ws");
      const keys = join(base, "outside", "keys");
      const other = join(base, "outside", "other");
      for (const dir of [join(ws, "packages", "a"), join(base, "home"), keys, join(other, ".github", "workflows"), join(other, "pkg")]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(keys, "id_rsa"), KEY);
      writeFileSync(join(other, ".github", "workflows", "ci.yml"), "on: push\n");
      const theirs = JSON.stringify({ name: "theirs", scripts: { postinstall: "node setup.js" } });
      writeFileSync(join(other, "pkg", "package.json"), theirs);
      writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "app", private: true, workspaces: ["packages/*"] }));
      writeFileSync(join(ws, "packages", "a", "package.json"), JSON.stringify({ name: "a" }));
      Bun.spawnSync(["git", "init", "-q"], { cwd: ws });
      const box = createSandbox({ mode: "workspace-write", root: ws, home: join(base, "home"), readable: [] });
      const plant = [
        `mkdir sub && cd sub && git init -q && rm -rf .git/hooks && ln -s ${keys} .git/hooks && cd ..`,
        `ln -s ${join(other, ".github")} .github`,
        `rm -rf packages/a && ln -s ${join(other, "pkg")} packages/a`,
        `mv package.json package.json.old && ln -s ${join(other, "pkg", "package.json")} package.json`,
      ].join(" && ");
      const r = await box.run({ argv: ["sh", "-c", plant], cwd: ws, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(keys, "id_rsa"), "utf8")).toBe(KEY);
      expect(existsSync(join(other, ".github", "workflows", "ci.yml"))).toBe(true);
      expect(readFileSync(join(other, "pkg", "package.json"), "utf8")).toBe(theirs);
      for (const link of ["sub/.git/hooks", ".github", "packages/a"]) expect(existsSync(join(ws, link))).toBe(false);
      // The root's package.json, replaced by a link to theirs, is a file again with what it held.
      expect(lstatSync(join(ws, "package.json")).isFile()).toBe(true);
      expect(readFileSync(join(ws, "package.json"), "utf8")).toContain('"workspaces"');
    } finally {
      t.cleanup();
    }
  });
});

d("guarded paths that are links out of the workspace (an AGENTS.md from the person's dotfiles)", () => {
  test("commands still run, the links' targets stay unseen, and a link a command replaces is put back", async () => {
    const t = tempDir();
    try {
      const base = realpathSync(t.path);
      const ws = join(base, "ws");
      const dotfiles = join(base, "dotfiles");
      for (const dir of [ws, join(base, "home"), join(dotfiles, "vscode"), join(dotfiles, "hooks")]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dotfiles, "AGENTS.md"), `${KEY}-instructions\n`);
      Bun.spawnSync(["git", "init", "-q"], { cwd: ws });
      rmSync(join(ws, ".git", "hooks"), { recursive: true, force: true });
      symlinkSync(join(dotfiles, "AGENTS.md"), join(ws, "AGENTS.md"));
      symlinkSync(join(dotfiles, "vscode"), join(ws, ".vscode"));
      symlinkSync(join(dotfiles, "hooks"), join(ws, ".git", "hooks"));
      const box = createSandbox({ mode: "workspace-write", root: ws, home: join(base, "home"), readable: [] });
      const run = (command: string) => box.run({ argv: ["sh", "-c", command], cwd: ws, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
      const read = await run("echo RAN; cat AGENTS.md");
      expect(read.output).toContain("RAN");
      expect(read.output).not.toContain(KEY);
      const replaced = await run("rm AGENTS.md .git/hooks && echo planted > AGENTS.md && mkdir .git/hooks && echo planted > .git/hooks/pre-commit");
      expect(replaced.exitCode).toBe(0);
      expect(replaced.relinked?.sort()).toEqual([".git/hooks", "AGENTS.md"]);
      expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe(`${KEY}-instructions\n`);
      expect(lstatSync(join(ws, ".git", "hooks")).isSymbolicLink()).toBe(true);
      expect(readdirSync(join(dotfiles, "hooks"))).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});

d("a directory the person adds that holds the workspace", () => {
  test("keeps the workspace's protections: protected files stay hidden, git's config and hooks stay as they are", async () => {
    const t = tempDir();
    try {
      const base = realpathSync(t.path);
      const ws = join(base, "outer", "ws");
      mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
      mkdirSync(join(base, "h"));
      writeFileSync(join(ws, ".git", "config"), "[core]\n");
      writeFileSync(join(ws, ".env"), `TOKEN=${KEY}\n`);
      const box = createSandbox({ mode: "workspace-write", root: ws, home: join(base, "h"), readable: [], writable: [join(base, "outer")] });
      const script = "cat .env; echo '#!/bin/sh' > .git/hooks/pre-commit; echo planted >> .git/config; echo ok > ../beside.txt; echo done";
      const r = await box.run({ argv: ["sh", "-c", script], cwd: ws, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" } });
      expect(r.output).toContain("done");
      expect(r.output).not.toContain(KEY);
      expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
      expect(readFileSync(join(ws, ".git", "config"), "utf8")).toBe("[core]\n");
      // What was added is written.
      expect(readFileSync(join(base, "outer", "beside.txt"), "utf8")).toBe("ok\n");
    } finally {
      t.cleanup();
    }
  });

  test("a directory that holds the home is never one to add", () => {
    expect(widenableDir(realpathSync(tmp.path), home)).toBeUndefined();
    expect(widenableDir(outside, home)).toBe(outside);
  });
});

d("a workspace inside a repository", () => {
  test.skipIf(!Bun.which("cargo"))("a Cargo workspace's member: cargo's write at the top is explained; with the top added it builds, and the top's git hooks stay as they are", async () => {
    const t = tempDir();
    try {
      const top = realpathSync(t.path);
      const member = join(top, "calc");
      mkdirSync(join(member, "src"), { recursive: true });
      mkdirSync(join(top, ".git", "hooks"), { recursive: true });
      writeFileSync(join(top, "Cargo.toml"), '[workspace]\nmembers = ["calc"]\nresolver = "2"\n');
      writeFileSync(join(member, "Cargo.toml"), '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n');
      writeFileSync(join(member, "src", "lib.rs"), "#[test]\nfn adds() { assert_eq!(2 + 2, 4); }\n");
      const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
      const cargo = (writable: string[]) => {
        const box = createSandbox({ mode: "workspace-write", root: member, home: process.env.HOME ?? home, readable: [], writable });
        return box.run({ argv: ["sh", "-c", "cargo test --offline 2>&1; echo planted > ../.git/hooks/pre-commit"], cwd: member, timeoutMs: 120_000, outputCap: 100_000, env }).then((r) => ({ r, box }));
      };
      const first = await cargo([]);
      expect(first.box.explain(first.r.output)).toContain(`is in the repository above the workspace, which commands see read-only; to build there, start weir at ${top} or allow it with --add-dir ${top}`);
      const added = await cargo([top]);
      expect(added.r.output).toContain("test adds ... ok");
      expect(existsSync(join(top, ".git", "hooks", "pre-commit"))).toBe(false);
    } finally {
      t.cleanup();
    }
  }, 180_000);
});

d("installed dependencies change only with the network", () => {
  /** A workspace of its own with node_modules/dep (and a fixture repository in it), a package's nested node_modules, and a virtualenv. */
  function project() {
    const base = realpathSync(tmp.path);
    const ws = join(base, `deps-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(ws, "node_modules", "dep"), { recursive: true });
    writeFileSync(join(ws, "node_modules", "dep", "index.js"), "module.exports = 42;\n");
    // The package ships a bare repository as a test fixture.
    for (const d of ["objects", "refs"]) mkdirSync(join(ws, "node_modules", "dep", "fixtures", "r.git", d), { recursive: true });
    writeFileSync(join(ws, "node_modules", "dep", "fixtures", "r.git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(ws, "node_modules", "dep", "fixtures", "r.git", "config"), "[core]\n\tbare = true\n");
    mkdirSync(join(ws, "packages", "a", "node_modules"), { recursive: true });
    mkdirSync(join(ws, "env", "lib"), { recursive: true });
    writeFileSync(join(ws, "env", "pyvenv.cfg"), "home = /usr/bin\n");
    mkdirSync(join(ws, "env", "bin"));
    writeFileSync(join(ws, "env", "bin", "python"), "#!/bin/sh\n");
    mkdirSync(join(ws, "lib", "util"), { recursive: true });
    // A node_modules that is a link to a directory of the workspace: that directory is the environment.
    mkdirSync(join(ws, ".cache", "nm", "dep"), { recursive: true });
    writeFileSync(join(ws, ".cache", "nm", "dep", "index.js"), "module.exports = 7;\n");
    mkdirSync(join(ws, "web"));
    symlinkSync("../.cache/nm", join(ws, "web", "node_modules"));
    // Yarn's Plug'n'Play: the loader every yarn command runs, and the release .yarnrc.yml names.
    writeFileSync(join(ws, ".pnp.cjs"), "module.exports = {};\n");
    mkdirSync(join(ws, ".yarn", "releases"), { recursive: true });
    writeFileSync(join(ws, ".yarn", "releases", "yarn-4.cjs"), "// yarn\n");
    const box = createSandbox({ mode: "workspace-write", root: ws, home, readable: [] });
    // What was made before a command is told from what it made by birth time: let the clock move on.
    Bun.sleepSync(50);
    const run = (command: string, widen?: { network?: boolean }) =>
      box.run({ argv: ["sh", "-c", command], cwd: ws, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" }, ...(widen ? { widen } : {}) });
    return { ws, box, run };
  }

  test("without it they are read and run but not written, and the failure names them and the way to install", async () => {
    const { ws, box, run } = project();
    const used = await run(`${process.execPath} -e 'console.log(require("./node_modules/dep"))'`);
    expect(used.output).toContain("42");
    for (const target of ["node_modules/dep/index.js", "packages/a/node_modules/x.js", "env/lib/zz.pth", ".cache/nm/dep/index.js"]) {
      const r = await run(`echo planted >> ${target}`);
      expect(r.exitCode).not.toBe(0);
      const top = target.startsWith("packages") ? "packages/a/node_modules" : target.startsWith(".cache") ? ".cache/nm" : target.startsWith("env") ? "env/lib" : target.split("/")[0];
      expect(box.explain(r.output)).toBe(`blocked by the sandbox: ${top} holds installed dependencies, which a command changes only with the network (their code runs at the user's next command, and git does not show it); to install, ask for widen.network, which the user approves`);
    }
    expect(readFileSync(join(ws, "node_modules", "dep", "index.js"), "utf8")).toBe("module.exports = 42;\n");
    // The rest of the workspace stays writable, and so does a virtualenv's top, where uv keeps its lock at every `uv run`.
    expect((await run("echo fine > src.txt")).exitCode).toBe(0);
    expect((await run("touch env/.lock env/.tmpA1b2 && echo locked")).output).toContain("locked");
    for (const part of ["env/bin/python", "env/pyvenv.cfg", ".pnp.cjs", ".yarn/releases/yarn-4.cjs"]) expect((await run(`echo planted >> ${part}`)).exitCode).not.toBe(0);
  });

  test("python imports a module and writes no bytecode; bytecode a command writes anyway is removed; an existing __pycache__ is read-only", async () => {
    const { ws, run } = project();
    writeFileSync(join(ws, "lib", "calc.py"), "VALUE = 41 + 1\n");
    mkdirSync(join(ws, "lib", "old", "__pycache__"), { recursive: true });
    const imported = await run("/usr/bin/python3 -c 'import sys; sys.path.insert(0, \"lib\"); import calc; print(calc.VALUE)'");
    expect(imported.output).toContain("42");
    expect(existsSync(join(ws, "lib", "__pycache__"))).toBe(false);
    const forced = await run("/usr/bin/python3 -c 'import py_compile; py_compile.compile(\"lib/calc.py\")'");
    expect(forced.exitCode).toBe(0);
    expect(forced.undone).toEqual([expect.stringMatching(/^lib\/__pycache__\/calc\.cpython-\d+\.pyc$/)]);
    expect((await run("touch lib/old/__pycache__/x.pyc")).exitCode).not.toBe(0);
  });

  test("a new one made without it is removed after the command and named; with the network, an install writes and makes them", async () => {
    const { ws, run } = project();
    const made = await run(
      "mkdir -p src/node_modules/dep && echo planted > src/node_modules/dep/index.js && ln -s ../src lib-node_modules && ln -s src node_modules-link && mkdir -p tools && ln -s ../src tools/node_modules && mkdir -p deep/a/b/node_modules/x lib/util/node_modules/q",
    );
    expect(made.exitCode).toBe(0);
    expect(made.installed?.sort()).toEqual(["deep/a/b/node_modules", "lib/util/node_modules", "src/node_modules", "tools/node_modules"]);
    expect(existsSync(join(ws, "src", "node_modules"))).toBe(false);
    expect(existsSync(join(ws, "tools", "node_modules"))).toBe(false);
    expect(existsSync(join(ws, "src"))).toBe(true);
    const install = await run("echo installed >> node_modules/dep/index.js && mkdir -p packages/b/node_modules/x", { network: true });
    expect(install.exitCode).toBe(0);
    expect(install.installed).toBeUndefined();
    expect(readFileSync(join(ws, "node_modules", "dep", "index.js"), "utf8")).toContain("installed");
    expect(existsSync(join(ws, "packages", "b", "node_modules", "x"))).toBe(true);
    // A package that ships a repository as a fixture is the install's to rewrite, as the rest of it is.
    expect((await run("echo '# reinstalled' >> node_modules/dep/fixtures/r.git/config", { network: true })).exitCode).toBe(0);
    // Made before the command, by someone else: never removed.
    mkdirSync(join(ws, "web", "node_modules"), { recursive: true });
    Bun.sleepSync(50);
    expect((await run("true")).installed).toBeUndefined();
    expect(existsSync(join(ws, "web", "node_modules"))).toBe(true);
  });
});

describe("Maven is told there is no network", () => {
  test("without the network the home's ~/.m2/settings.xml says offline; with it approved, there is no such file", async () => {
    const box = sandbox();
    const read = async (widen?: { network?: boolean }) => (await box.run({ argv: ["sh", "-c", "cat \"$HOME/.m2/settings.xml\" || echo NO-SETTINGS"], cwd: root, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" }, ...(widen ? { widen } : {}) })).output;
    expect(await read()).toContain("<offline>true</offline>");
    expect(await read({ network: true })).toContain("NO-SETTINGS");
  });

  test("with the network allowed, a write to the local repository is explained with the way to allow it", async () => {
    mkdirSync(join(home, ".m2", "repository"), { recursive: true });
    const box = createSandbox({ mode: "workspace-write", root, home, readable: [] });
    const target = join(home, ".m2", "repository", "junit.pom.lastUpdated");
    const r = await box.run({ argv: ["sh", "-c", `echo x > ${target}`], cwd: root, timeoutMs: 20_000, outputCap: 10_000, env: { PATH: process.env.PATH ?? "" }, widen: { network: true } });
    expect(r.exitCode).not.toBe(0);
    expect(box.explain(r.output, { network: true })).toContain(`${target} is in your home, whose toolchain directories commands see read-only; to let a build write there, the user can allow its directory with --add-dir DIR`);
  });

  test("what Maven and Gradle say of a missing artifact offline is explained as the sandbox's doing", () => {
    const maven = "Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact junit:junit:jar:4.13.2 has not been downloaded from it before.";
    const gradle = "No cached version of org.junit:junit-bom:5.10.2 available for offline mode.";
    for (const output of [maven, gradle]) expect(sandbox().explain(output)).toContain("blocked by the sandbox: network");
  });
});

describe("the inode floor (pure)", () => {
  test("5% of the inodes, or half of those free when fewer are left", () => {
    expect(inodeFloor({ free: 10_000_000, total: 16_000_000 })).toBe(800_000);
    expect(inodeFloor({ free: 600_000, total: 16_000_000 })).toBe(300_000);
  });
});

describe("the disk floor (pure)", () => {
  test("5% of the disk or 1 GiB, whichever is more; half of what is free when less is left", () => {
    const GiB = 2 ** 30;
    expect(diskFloor({ free: 100 * GiB, total: 250 * GiB })).toBe(12.5 * GiB);
    expect(diskFloor({ free: 8 * GiB, total: 10 * GiB })).toBe(GiB);
    expect(diskFloor({ free: 0.5 * GiB, total: 250 * GiB })).toBe(0.25 * GiB);
    fc.assert(fc.property(fc.double({ min: 0, max: 1e13, noNaN: true }), fc.double({ min: 0, max: 1e13, noNaN: true }), (a, b) => {
      const space = { free: Math.min(a, b), total: Math.max(a, b) };
      expect(diskFloor(space)).toBeLessThanOrEqual(space.free / 2);
    }));
  });
});

describe("sandbox profiles (pure)", () => {
  const policy = { mode: "workspace-write" as const, root: "/w", home: "/h", network: false, writable: ["/extra"], readable: ["/h/.npm"], masked: ["/w/.env"] };
  test("bubblewrap: system read-only, home emptied, workspace writable, git internals and protected files read-only, no network", () => {
    const a = bwrapArgv(policy, ["npm", "test"], "/w");
    const pairs = (flag: string) => a.flatMap((x, i) => (x === flag ? [`${a[i + 1]} ${a[i + 2] ?? ""}`.trim()] : []));
    expect(a).toContain("--unshare-net");
    expect(a).toContain("--unshare-pid");
    expect(a).toContain("--die-with-parent");
    expect(pairs("--ro-bind-try")).toContain("/usr /usr");
    expect(pairs("--bind")).toContain("/w /w");
    expect(pairs("--ro-bind-try")).toContain("/w/.git/config /w/.git/config");
    expect(pairs("--ro-bind-try")).toContain("/dev/null /w/.env");
    expect(a.indexOf("--tmpfs", a.indexOf("/var/tmp"))).toBeLessThan(a.indexOf("/h/.npm"));
    expect(a.slice(-3)).toEqual(["--", "npm", "test"]);
    expect(bwrapArgv({ ...policy, network: true }, ["x"], "/w")).not.toContain("--unshare-net");
    expect(bwrapArgv({ ...policy, mode: "read-only" }, ["x"], "/w").join(" ")).toContain("--ro-bind /w /w");
  });

  test("bubblewrap: a user namespace with no capabilities, .git a mount point, git's other configs read-only, limits by prlimit", () => {
    const limits = { prlimit: "/usr/bin/prlimit", processes: 64, memoryBytes: 2 ** 30 };
    const a = bwrapArgv({ ...policy, guarded: ["/w/.husky"], limits }, ["npm", "test"], "/w");
    const pairs = (flag: string) => a.flatMap((x, i) => (x === flag ? [`${a[i + 1]} ${a[i + 2] ?? ""}`.trim()] : []));
    expect(a.join(" ")).toContain("--unshare-user --disable-userns --cap-drop ALL");
    expect(pairs("--bind-try")).toContain("/w/.git /w/.git");
    for (const g of ["commondir", "modules", "worktrees", "hooks", "info"]) expect(pairs("--ro-bind-try")).toContain(`/w/.git/${g} /w/.git/${g}`);
    expect(pairs("--ro-bind-try")).toContain("/w/.husky /w/.husky");
    expect(a.slice(a.indexOf("--"))).toEqual(["--", "/usr/bin/prlimit", "--nproc=64", `--data=${2 ** 30}`, "--", "npm", "test"]);
    const sized = bwrapArgv({ ...policy, tmpBytes: 2 ** 24 }, ["x"], "/w").join(" ");
    for (const d of ["/tmp", "/var/tmp"]) expect(sized).toContain(`--size ${2 ** 24} --tmpfs ${d}`);
    // An older bubblewrap without --disable-userns still drops every capability.
    const old = bwrapArgv({ ...policy, disableUserns: false }, ["x"], "/w");
    expect(old).not.toContain("--disable-userns");
    expect(old.join(" ")).toContain("--unshare-user --cap-drop ALL");
  });

  test("a repository kept inside the workspace has its git metadata read-only, as the workspace's, under both sandboxes", () => {
    const p = { ...policy, nested: ["/w/vendor/lib"] };
    const a = bwrapArgv(p, ["git", "status"], "/w");
    const ro = a.flatMap((x, i) => (x === "--ro-bind-try" ? [a[i + 1]] : []));
    expect(ro).toEqual(expect.arrayContaining(["/w/vendor/lib/.git/hooks", "/w/vendor/lib/.git/config", "/w/.git/hooks"]));
    expect(seatbeltProfile(p)).toContain('(deny file-write* (subpath "/w/vendor/lib/.git/hooks"))');
  });

  test("one table of paths, rendered by both sandboxes alike: each path the policy guards, hides or empties is so under bubblewrap and sandbox-exec", () => {
    const p = { ...policy, writable: ["/added"], nested: ["/w/vendor/lib"], guarded: ["/w/.vscode"], caches: ["/w/__pycache__"], environments: ["/w/node_modules"], masked: ["/w/.env"], unscanned: ["/w/huge"] };
    const table: { path: string; is: "read-only" | "hidden" | "emptied" }[] = [
      ...["/w", "/added", "/w/vendor/lib"].flatMap((r) => [".git/hooks", ".git/config"].map((g) => ({ path: `${r}/${g}`, is: "read-only" as const }))),
      { path: "/w/.vscode", is: "read-only" },
      { path: "/w/__pycache__", is: "read-only" },
      { path: "/w/node_modules", is: "read-only" },
      { path: "/w/.env", is: "hidden" },
      { path: "/w/huge", is: "emptied" },
    ];
    const a = bwrapArgv(p, ["true"], "/w");
    const after = (flag: string) => a.flatMap((x, i) => (x === flag ? [a[i + 1], a[i + 2]] : []));
    const profile = seatbeltProfile(p);
    for (const row of table) {
      if (row.is === "read-only") {
        expect(after("--ro-bind-try")).toContain(row.path);
        expect(profile).toContain(`(deny file-write* (subpath "${row.path}"))`);
      } else if (row.is === "hidden") {
        expect(a.join(" ")).toContain(`--ro-bind-try /dev/null ${row.path}`);
        expect(profile).toContain(`(deny file-read* file-write* (literal "${row.path}"))`);
      } else {
        expect(a.join(" ")).toContain(`--tmpfs ${row.path} --remount-ro ${row.path}`);
        expect(profile).toContain(`(deny file-read* file-write* (subpath "${row.path}"))`);
      }
    }
  });

  test("with the network, bubblewrap loads the seccomp filter from descriptor 4, which a shell opens for a caller that passes none; without it, neither", () => {
    const networked = bwrapArgv({ ...policy, network: true, seccomp: "/t/unix-sockets.bpf" }, ["npm", "install"], "/w");
    expect(networked.slice(0, 5)).toEqual(["/bin/sh", "-c", 'exec "$@" 4<"$0"', "/t/unix-sockets.bpf", "bwrap"]);
    expect(networked.join(" ")).toContain("--seccomp 4");
    const offline = bwrapArgv({ ...policy, seccomp: "/t/unix-sockets.bpf" }, ["npm", "test"], "/w");
    expect(offline[0]).toBe("bwrap");
    expect(offline).not.toContain("--seccomp");
  });

  test("installed dependencies are bound read-only, under both sandboxes, only where the command has no network", () => {
    const deps = { ...policy, environments: ["/w/node_modules", "/w/.venv"] };
    const bound = (network: boolean) => {
      const a = bwrapArgv({ ...deps, network }, ["npm", "test"], "/w");
      return a.flatMap((x, i) => (x === "--ro-bind-try" ? [a[i + 1]] : []));
    };
    expect(bound(false)).toEqual(expect.arrayContaining(["/w/node_modules", "/w/.venv"]));
    expect(bound(true)).not.toContain("/w/node_modules");
    expect(seatbeltProfile(deps)).toContain('(deny file-write* (subpath "/w/node_modules"))');
    expect(seatbeltProfile({ ...deps, network: true })).not.toContain('(deny file-write* (subpath "/w/node_modules"))');
  });

  test("sandbox-exec: Homebrew's and MacPorts' service data under /opt and /usr/local is not readable, brew's own records are (the last matching rule wins)", () => {
    const lines = seatbeltProfile(policy).split("\n");
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    const system = at('(subpath "/opt")');
    const state = at('(deny file-read* (subpath "/opt/homebrew/var") (subpath "/usr/local/var") (subpath "/opt/local/var"))');
    const brew = at('(allow file-read* (subpath "/opt/homebrew/var/homebrew")');
    expect(system).toBeGreaterThanOrEqual(0);
    expect(state).toBeGreaterThan(system);
    expect(brew).toBeGreaterThan(state);
    // A directory the person shows on purpose comes after, and so wins.
    const shown = seatbeltProfile({ ...policy, readable: ["/opt/homebrew/var/postgresql@16"] }).split("\n");
    expect(shown.findIndex((l) => l.includes('(allow file-read* (subpath "/opt/homebrew/var/postgresql@16"))'))).toBeGreaterThan(state);
  });

  test("sandbox-exec: the person's temporary directory, where their tools keep caches they load again, is not writable; the command's own is (the last matching rule wins)", () => {
    const temp = { person: "/private/var/folders/ab/xyz/T", command: "/private/var/folders/ab/xyz/T/weir-command-1" };
    const lines = seatbeltProfile({ ...policy, temp }).split("\n");
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    const folders = at('(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders")');
    const person = at(`(deny file-write* (subpath "${temp.person}"))`);
    const own = at(`(allow file-write* (subpath "${temp.command}"))`);
    expect(folders).toBeGreaterThanOrEqual(0);
    expect(person).toBeGreaterThan(folders);
    expect(own).toBeGreaterThan(person);
    expect(lines.slice(own + 1).some((l) => l.includes(temp.person) && l.startsWith("(allow"))).toBe(false);
  });

  test("sandbox-exec: deny by default, writes only to the workspace and temp, git config denied, network only when approved", () => {
    const p = seatbeltProfile(policy);
    expect(p).toContain("(deny default)");
    expect(p).toContain('(allow file-read* file-write* (subpath "/w"))');
    expect(p).toContain('(deny file-write* (subpath "/w/.git/config"))');
    expect(p).toContain('(deny file-read* file-write* (literal "/w/.env"))');
    expect(p).not.toContain("(allow network*)");
    expect(seatbeltProfile({ ...policy, network: true })).toContain("(allow network*)");
    expect(seatbeltProfile({ ...policy, mode: "read-only" })).not.toContain('(allow file-read* file-write* (subpath "/w"))');
    expect(seatbeltProfile({ ...policy, mode: "read-only" })).toContain('(allow file-read* (subpath "/w"))\n(deny file-write* (subpath "/w"))');
  });

  test("sandbox-exec: a command reaches only the Mach services it runs on, never one that acts for it outside (launchd, the pasteboard, the keychain, Apple Events)", () => {
    const lookups = (profile: string) => profile.split("\n").filter((l) => l.includes("mach-lookup"));
    const names = (profile: string) => lookups(profile).flatMap((l) => [...l.matchAll(/\(global-name "([^"]+)"\)/g)].map((m) => m[1]));
    const closed = seatbeltProfile(policy);
    // Every rule that allows a lookup names its services: none allows them all.
    for (const l of lookups(closed)) expect(l).toMatch(/^\(allow mach-lookup( \(global-name "[^"]+"\))+\)$/);
    expect(names(closed)).toContain("com.apple.system.opendirectoryd.libinfo");
    const outside = ["com.apple.xpc.launchd.domain.user", "com.apple.pasteboard.1", "com.apple.securityd.xpc", "com.apple.SecurityServer", "com.apple.coreservices.appleevents", "com.apple.coreservices.launchservicesd"];
    for (const p of [closed, seatbeltProfile({ ...policy, network: true })]) for (const n of outside) expect(names(p)).not.toContain(n);
    // Resolving names is the network's: only an approved command may.
    expect(names(closed)).not.toContain("com.apple.dnssd.service");
    expect(names(seatbeltProfile({ ...policy, network: true }))).toContain("com.apple.dnssd.service");
  });

  test("sandbox-exec: with the network approved, no Unix socket of the person's is reachable (an ssh-agent, Docker), only the resolver's and the workspace's (the last matching rule wins)", () => {
    const lines = seatbeltProfile({ ...policy, network: true }).split("\n");
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    const network = at("(allow network*)");
    const sockets = at('(deny network-outbound (remote unix-socket (path-regex #"^/")))');
    const allowed = at('(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")) (remote unix-socket (subpath "/w")))');
    expect(network).toBeGreaterThanOrEqual(0);
    expect(sockets).toBeGreaterThan(network);
    expect(allowed).toBeGreaterThan(sockets);
    expect(lines.slice(allowed + 1).some((l) => l.includes("allow") && l.includes("network"))).toBe(false);
  });

  test("where no sandbox exists the sandbox says commands will ask, and wraps nothing", () => {
    const s = createSandbox({ mode: "workspace-write", root: "/w", home: "/h", detected: { kind: "none" } });
    expect(s.active).toBe(false);
    expect(s.wrap(["ls"], "/w")).toEqual(["ls"]);
    expect(s.describe()).toContain("every command asks");
  });
});


d("a scoped worker's sandbox: only the files it may read exist, and nothing in the workspace is writable", () => {
  const HIDDEN = "CANARY-OUT-OF-SCOPE-4141";
  test("every reader of a file outside the scope fails; the file inside is there; every writer fails", () => {
    mkdirSync(join(root, "scoped"), { recursive: true });
    mkdirSync(join(root, "other"), { recursive: true });
    writeFileSync(join(root, "scoped", "in.txt"), "IN-SCOPE\n");
    writeFileSync(join(root, "other", "hidden.txt"), `${HIDDEN}\n`);
    const box = createSandbox({ mode: "read-only", root, home, readable: [], visible: () => [join(root, "scoped", "in.txt")] });
    const run = (argv: string[]) => {
      const [bin, ...rest] = box.wrap(argv, root);
      const r = Bun.spawnSync([bin!, ...rest], { cwd: root, env: { PATH: process.env.PATH ?? "" }, stdout: "pipe", stderr: "pipe" });
      return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
    };
    expect(run(["cat", "scoped/in.txt"]).out).toContain("IN-SCOPE");
    for (const p of ["other/hidden.txt", join(root, "other", "hidden.txt"), "scoped/../other/hidden.txt"])
      for (const argv of readers(p)) {
        const r = run(argv);
        expect(r.out).not.toContain(HIDDEN);
      }
    expect(run(["sh", "-c", "grep -r CANARY . ; ls -R"]).out).not.toContain(HIDDEN);
    for (const p of ["scoped/in.txt", "scoped/new.txt", "new.txt", "other/hidden.txt"])
      for (const argv of writers(p)) run(argv);
    // A write fails loudly (the workspace inside is read-only), and the failure is explained as the sandbox's.
    const touched = run(["touch", "new.txt"]);
    expect(touched.code).not.toBe(0);
    expect(box.explain(touched.out, undefined, { program: "touch", exitCode: touched.code })).toContain("a worker's commands see the workspace read-only");
    expect(readFileSync(join(root, "scoped", "in.txt"), "utf8")).toBe("IN-SCOPE\n");
    expect(existsSync(join(root, "scoped", "new.txt"))).toBe(false);
    expect(existsSync(join(root, "new.txt"))).toBe(false);
    expect(readFileSync(join(root, "other", "hidden.txt"), "utf8")).toBe(`${HIDDEN}\n`);
  });
});

describe("a workspace whose .git is a file", () => {
  test("names a git directory only when it names the workspace back: a linked worktree's repository, never any directory", () => {
    const t = tempDir();
    try {
      const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
      const main = join(t.path, "main");
      mkdirSync(main);
      writeFileSync(join(main, "a.txt"), "a\n");
      for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "a"], ["worktree", "add", "-q", join(t.path, "linked")]]) expect(Bun.spawnSync(["git", ...a], { cwd: main, env }).exitCode).toBe(0);
      expect(linkedGitDir(join(t.path, "linked"))).toBe(join(realpathSync(main), ".git"));
      expect(linkedGitDir(main)).toBeUndefined();
      // A .git file planted to name another directory (the home's keys, another checkout's git) is not followed.
      const planted = join(t.path, "planted");
      mkdirSync(join(t.path, "keys"), { recursive: true });
      mkdirSync(planted);
      writeFileSync(join(planted, ".git"), `gitdir: ${join(t.path, "keys")}\n`);
      expect(linkedGitDir(planted)).toBeUndefined();
      writeFileSync(join(planted, ".git"), `gitdir: ${join(realpathSync(main), ".git", "worktrees", "linked")}\n`);
      expect(linkedGitDir(planted)).toBeUndefined();
    } finally {
      t.cleanup();
    }
  });
});
