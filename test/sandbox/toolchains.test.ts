import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { detectSandbox } from "../../src/workspace/sandbox.ts";
import { hiddenProgram } from "../../src/workspace/sandbox-explain.ts";
import { homeReadable, pathView } from "../../src/workspace/toolchains.ts";
import { tempDir } from "../support/temp.ts";

/**
 * A person's own toolchains run inside the sandbox, and their credentials stay hidden. The layouts
 * are each tool's documented one (toolchains.json, with its sources); the kernel is the oracle:
 * every program a tool puts on the PATH runs in a real sandbox, every file a build reads is there,
 * and no credential file of any tool, nor any other secret of the home, can be read.
 */
interface Tool {
  tool: string;
  layout: Record<string, string>;
  path: string[];
  runs: string[];
  reads: string[];
  secrets: string[];
}
const corpus = JSON.parse(readFileSync(join(import.meta.dir, "toolchains.json"), "utf8")) as { tools: Tool[]; always_hidden: string[] };
const d = describe.skipIf(detectSandbox().kind !== "bwrap");

let tmp: ReturnType<typeof tempDir>;
let home: string;
let root: string;
let outsideBin: string;
/** A version manager installed outside the home (PYENV_ROOT=/opt/… or a home other than the run's): its shims exec its libexec. */
let managerShims: string;
/** A Homebrew prefix outside the home: its bin/ is on the PATH. */
let brew: string;
const secret = (path: string) => `SECRET-${path.replace(/\W/g, "-")}`;

beforeAll(() => {
  tmp = tempDir();
  const base = realpathSync(tmp.path);
  home = join(base, "home");
  root = join(base, "ws");
  outsideBin = join(base, "tools", "bin");
  mkdirSync(root, { recursive: true });
  const write = (rel: string, kind: string) => {
    const at = join(home, rel);
    mkdirSync(dirname(at), { recursive: true });
    if (kind.startsWith("-> ")) symlinkSync(kind.slice(3), at);
    else if (kind === "program") {
      writeFileSync(at, `#!/bin/sh\necho "ran ${rel.split("/").pop()}"\n`);
      chmodSync(at, 0o755);
    } else writeFileSync(at, kind === "secret" ? secret(rel) : `read ${rel}\n`);
  };
  for (const t of corpus.tools) for (const [rel, kind] of Object.entries(t.layout)) if (!kind.startsWith("-> ")) write(rel, kind);
  // Links last: a link's directory may be another entry's.
  for (const t of corpus.tools) for (const [rel, kind] of Object.entries(t.layout)) if (kind.startsWith("-> ")) write(rel, kind);
  for (const rel of corpus.always_hidden) write(rel, "secret");
  mkdirSync(outsideBin, { recursive: true });
  writeFileSync(join(outsideBin, "outside-tool"), '#!/bin/sh\necho "ran outside-tool"\n');
  chmodSync(join(outsideBin, "outside-tool"), 0o755);
  // pyenv's layout (https://github.com/pyenv/pyenv#how-it-works): a shim runs `pyenv exec`, which lives in $PYENV_ROOT/libexec.
  const manager = join(base, "srv", "pyenv");
  managerShims = join(manager, "shims");
  mkdirSync(managerShims, { recursive: true });
  mkdirSync(join(manager, "libexec"));
  writeFileSync(join(manager, "libexec", "pyenv"), '#!/bin/sh\necho "ran the manager for $1"\n');
  chmodSync(join(manager, "libexec", "pyenv"), 0o755);
  writeFileSync(join(managerShims, "managed-tool"), `#!/bin/sh\nexec "${join(manager, "libexec", "pyenv")}" managed-tool "$@"\n`);
  chmodSync(join(managerShims, "managed-tool"), 0o755);
  // Homebrew on Linux (https://docs.brew.sh/Homebrew-on-Linux), under another user's home: bin/ links
  // into the Cellar, opt/ links to the installed version, a library in lib/, a service's data in var/.
  brew = join(base, "linuxbrew", ".linuxbrew");
  const keg = join(brew, "Cellar", "brewed", "1.0");
  for (const dir of [join(keg, "bin"), join(brew, "bin"), join(brew, "opt"), join(brew, "lib"), join(brew, "var", "db"), join(brew, "etc", "openssl@3")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(brew, "lib", "libbrewed.txt"), "brewed library\n");
  writeFileSync(join(keg, "bin", "brewed-tool"), `#!/bin/sh\necho "ran brewed-tool"; cat "${join(brew, "opt", "brewed", "share.txt")}" "${join(brew, "lib", "libbrewed.txt")}"\n`);
  chmodSync(join(keg, "bin", "brewed-tool"), 0o755);
  writeFileSync(join(keg, "share.txt"), "brewed data\n");
  symlinkSync("../Cellar/brewed/1.0/bin/brewed-tool", join(brew, "bin", "brewed-tool"));
  symlinkSync("../Cellar/brewed/1.0", join(brew, "opt", "brewed"));
  writeFileSync(join(brew, "var", "db", "service.db"), secret("brew-var"));
  writeFileSync(join(brew, "etc", "service.conf"), secret("brew-etc"));
  writeFileSync(join(brew, "etc", "openssl@3", "cert.pem"), "brewed certificates\n");
});
afterAll(() => tmp?.cleanup());

/** The PATH a person with every tool set up has: each tool's entries, a directory outside the home, then the system's. */
const personPath = () => [...new Set(corpus.tools.flatMap((t) => t.path.map((p) => join(home, p))))].concat(outsideBin, managerShims, join(brew, "bin"), "/usr/local/bin", "/usr/bin", "/bin").join(":");

/** Runs a shell script in the sandbox from a parent playing weir with the person's PATH and home. */
async function inside(script: string): Promise<string> {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "parent.ts"), JSON.stringify({ root, home, mode: "workspace-write", argv: ["sh", "-c", script] })], {
    env: { PATH: personPath(), HOME: home },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  if (code !== 0) throw new Error(`parent failed: ${await new Response(p.stderr).text()}`);
  return (JSON.parse(out) as { output: string }).output;
}

/** Where the host finds what a command runs: a ~/ path, or the first PATH directory holding the name. */
const onHost = (r: string) => (r.startsWith("~/") ? join(home, r.slice(2)) : personPath().split(":").map((d) => join(d, r)).find((f) => existsSync(f))!);
const run = (r: string) => (r.startsWith("~/") ? `"$HOME/${r.slice(2)}"` : r);

d("a person's toolchains, as each documents its layout", () => {
  test.each(corpus.tools.map((t) => [t.tool, t] as const))("%s: what it puts on the PATH runs, and what a build reads is there", async (_name, t) => {
    const script = [...t.runs.map((r) => `${run(r)} || echo "FAILED ${r}"`), ...t.reads.map((r) => `cat "$HOME/${r}" || echo "FAILED ${r}"`)].join("; ");
    if (!script) return;
    const out = await inside(script);
    expect(out).not.toContain("FAILED");
    // What the host runs and reads for the same names: a program prints its own file's name.
    for (const r of t.runs) expect(out).toContain(`ran ${basename(realpathSync(onHost(r)))}`);
    for (const r of t.reads) expect(out).toContain(readFileSync(join(home, r), "utf8"));
  });

  test("no tool's credentials, and no other secret of the home, can be read", async () => {
    const secrets = [...corpus.tools.flatMap((t) => t.secrets), ...corpus.always_hidden];
    const out = await inside(secrets.map((s) => `cat "$HOME/${s}" 2>/dev/null`).join("; ") + "; echo DONE");
    expect(out).toContain("DONE");
    for (const s of secrets) expect(out).not.toContain(secret(s));
  });

  test("a directory on the PATH outside the home and the system's runs too", async () => {
    expect(await inside("outside-tool")).toContain("ran outside-tool");
  });

  test("a version manager's shims on the PATH, its root outside the home, run through the manager", async () => {
    expect(await inside("managed-tool")).toContain("ran the manager for managed-tool");
  });

  test("a Homebrew program runs through its Cellar link and reads its opt/ and lib/; the prefix's var/ and etc/ stay hidden", async () => {
    const out = await inside(`brewed-tool; cat "${join(brew, "etc", "openssl@3", "cert.pem")}"; cat "${join(brew, "var", "db", "service.db")}" "${join(brew, "etc", "service.conf")}" 2>/dev/null; echo DONE`);
    expect(out).toContain("ran brewed-tool\nbrewed data\nbrewed library\nbrewed certificates\n");
    expect(out).toContain("DONE");
    expect(out).not.toContain(secret("brew-var"));
    expect(out).not.toContain(secret("brew-etc"));
  });
});

describe("the PATH's directories (pure)", () => {
  const home = "/home/ann";
  const own = ["/home/ann/.config/weir"];
  const links: Record<string, string> = { "/home/ann/.nix-profile/bin": "/nix/store/abc-profile/bin", "/run/user/1000/fnm_multishells/7_1/bin": "/home/ann/.local/share/fnm/node-versions/v20/installation/bin" };
  // Every other path is a directory, but no prefix here is Homebrew's (none has a Cellar).
  const facts = { real: (p: string) => links[p] ?? (p.includes("missing") ? undefined : p), isDir: (p: string) => !p.endsWith(".txt") && !p.endsWith("/Cellar") };
  const system = (p: string) => ["/usr", "/bin", "/nix"].some((d) => p === d || p.startsWith(`${d}/`));
  const view = (path: string, visible = system) => pathView(path, home, visible, own, facts);

  test("a directory of the person's is shown; system ones, relative, missing and file entries are not", () => {
    expect(view("/usr/bin:/home/ann/bin:bin:.:/home/ann/missing/bin:/home/ann/notes.txt:/opt/tools/bin").readable).toEqual(["/home/ann/bin", "/opt/tools/bin"]);
  });

  test("a version manager's shims bring its root, where its libexec is; never a home, and not a shims directory alone", () => {
    const managed = { real: (p: string) => p, isDir: (p: string) => !p.endsWith(".txt") && p !== "/srv/tools/libexec" };
    const v = (path: string) => pathView(path, home, system, own, managed).readable;
    expect(v("/srv/pyenv/shims")).toEqual(["/srv/pyenv/shims", "/srv/pyenv"]);
    expect(v("/home/ann/shims")).toEqual(["/home/ann/shims"]);
    expect(v("/srv/tools/shims")).toEqual(["/srv/tools/shims"]);
  });

  test("a Homebrew prefix's bin brings the parts its programs reach, never var/ or the rest of etc/; a bin without a Cellar brings nothing", () => {
    const brew = "/home/linuxbrew/.linuxbrew";
    const dirs = new Set(["bin", "sbin", "Cellar", "opt", "lib", "share", "etc/openssl@3", "var", "etc"].map((x) => `${brew}/${x}`).concat("/srv/app/bin", "/srv/app/lib"));
    const layout = { real: (p: string) => p, isDir: (p: string) => dirs.has(p) };
    const v = (path: string) => pathView(path, home, system, own, layout).readable;
    expect(v(`${brew}/bin:${brew}/sbin`)).toEqual([`${brew}/bin`, ...["Cellar", "opt", "lib", "share", "etc/openssl@3"].map((x) => `${brew}/${x}`), `${brew}/sbin`]);
    expect(v("/srv/app/bin")).toEqual(["/srv/app/bin"]);
  });

  test("the home, the root, credential directories and weir's own are never shown", () => {
    expect(view("/:/home:/home/ann:/home/ann/.ssh:/home/ann/.aws/bin:/home/ann/.config/gcloud/bin:/home/ann/.config/weir/bin").readable).toEqual([]);
  });

  test("an entry that names its directory through a link gets the link, and the directory when it is not visible", () => {
    const v = view("/home/ann/.nix-profile/bin:/run/user/1000/fnm_multishells/7_1/bin");
    expect(v.readable).toEqual(["/home/ann/.local/share/fnm/node-versions/v20/installation/bin"]);
    expect(v.links).toEqual([
      { target: "/nix/store/abc-profile/bin", at: "/home/ann/.nix-profile/bin" },
      { target: "/home/ann/.local/share/fnm/node-versions/v20/installation/bin", at: "/run/user/1000/fnm_multishells/7_1/bin" },
    ]);
    // Already visible through a shown directory: neither bound again nor linked over.
    const shown = (p: string) => system(p) || p.startsWith("/home/ann/.local/share/fnm/") || p.startsWith("/run/user/");
    expect(view("/run/user/1000/fnm_multishells/7_1/bin", shown)).toEqual({ readable: [], links: [] });
  });

  test("whatever the PATH, nothing shown holds the home or lies in a credential directory or weir's own", () => {
    const segment = fc.constantFrom("home", "ann", ".ssh", ".aws", ".config", "weir", "gcloud", ".local", "bin", "tools", "..", ".");
    const entry = fc.array(segment, { maxLength: 5 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const norm = (p: string) => join("/", p);
        const v = pathView(entries.join(":"), home, system, own, { real: norm, isDir: () => true });
        for (const r of v.readable) {
          expect(`${home}/`.startsWith(r.endsWith("/") ? r : `${r}/`)).toBe(false);
          expect(/^\/home\/ann\/(\.ssh|\.aws|\.config\/gcloud|\.config\/weir)(\/|$)/.test(r)).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a program commands cannot see (pure)", () => {
  const where: Record<string, string> = { jest: "/home/ann/code/jest/bin/jest.js", node: "/home/ann/.nvm/versions/node/v20/bin/node", git: "/usr/bin/git" };
  const locate = (name: string) => where[name];
  const visible = (p: string) => p.startsWith("/usr/") || p.startsWith("/home/ann/.nvm/");
  test("each shell's, launcher's and env's way of saying so names the program, its place and the setting", () => {
    for (const output of ["sh: 1: jest: not found", "bash: line 1: jest: command not found", "zsh: command not found: jest", "prlimit: failed to execute jest: No such file or directory", "/usr/bin/env: 'jest': No such file or directory"]) {
      expect(hiddenProgram(output, undefined, locate, visible)).toBe('blocked by the sandbox: jest is /home/ann/code/jest/bin/jest.js, which commands cannot see; the user can show one to read with "sandbox": {"readable": ["/home/ann/code/jest/bin"]} in the user config');
    }
  });
  test("a program that is visible, unknown to the host, or not named says nothing", () => {
    expect(hiddenProgram("sh: 1: node: not found", "node", locate, visible)).toBeUndefined();
    expect(hiddenProgram("sh: 1: git: not found", undefined, locate, visible)).toBeUndefined();
    expect(hiddenProgram("sh: 1: nosuch: not found", "nosuch", locate, visible)).toBeUndefined();
    expect(hiddenProgram("1 test failed", "npm", locate, visible)).toBeUndefined();
  });
});

d("Corepack, for real", () => {
  test.skipIf(!Bun.which("corepack"))("the real corepack runs the pnpm a project pins from what it installed in the home, with no network", async () => {
    const version = join(home, ".cache", "node", "corepack", "v1", "pnpm", "9.1.0");
    mkdirSync(join(version, "bin"), { recursive: true });
    writeFileSync(join(version, "package.json"), JSON.stringify({ name: "pnpm", version: "9.1.0", bin: { pnpm: "bin/pnpm.cjs" } }));
    writeFileSync(join(version, "bin", "pnpm.cjs"), 'console.log("COREPACK-PNPM-RAN", process.argv.slice(2).join(" "))\n');
    writeFileSync(join(version, ".corepack"), JSON.stringify({ locator: { name: "pnpm", reference: "9.1.0" }, bin: { pnpm: "./bin/pnpm.cjs" }, hash: "sha512.0" }));
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "app", packageManager: "pnpm@9.1.0" }));
    expect(await inside("corepack pnpm --version")).toContain("COREPACK-PNPM-RAN --version");
  });
});

describe("the person's own additions (pure)", () => {
  test("sandbox.readable takes absolute paths, ~/ paths and paths relative to the home", () => {
    const extra = homeReadable("/home/ann", ["/opt/sdk", "~/code/tool", "code/other", "~"]).slice(-4);
    expect(extra).toEqual(["/opt/sdk", "/home/ann/code/tool", "/home/ann/code/other", "/home/ann"]);
  });
});
