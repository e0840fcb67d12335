import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { homeDirectory, inside, protectedReason } from "../workspace/containment.ts";
import { userConfigDir, userDataDir } from "../config/paths.ts";
import { bwrapArgv, bwrapDisablesUserns, guardBinds } from "../workspace/bwrap.ts";
import { defaultLimits, defaultTmpBytes, detectSandbox, networkFilter } from "../workspace/sandbox.ts";
import { systemPath } from "../workspace/sandbox-policy.ts";
import { workspaceGuards } from "../workspace/sweep.ts";
import { toolchainsShown } from "../workspace/toolchains.ts";
import type { ServerEntry } from "./config.ts";

/**
 * How a stdio MCP server starts: never from the workspace, and where bubblewrap exists never outside
 * a sandbox of its own. A cloned repository must not get code run by naming a program the person's
 * configuration starts (`npx` resolves `node_modules/.bin` of its directory first), and a server
 * must not read the person's keys or weir's environment through /proc.
 *
 * - its directory and $HOME: a private directory per server under weir's data directory (npx and
 *   friends keep their caches there), never the workspace;
 * - PATH without relative entries or entries inside the workspace;
 * - inside bubblewrap: the system and your toolchain caches read-only (as for commands), its private
 *   home read-write, the paths its
 *   configuration names (directories read-write, a file's package read-only; for a project server
 *   writable only inside the workspace, and never a protected path), no network unless its entry says `"network": true` (and
 *   then no Unix sockets: `unixSocketFilter`), its own pid namespace, no capabilities;
 * - where those paths show the workspace, the workspace's guards as commands have them (`guardBinds`),
 *   and a sweep of what it made that a command may not leave (`Launch.sweep`, run by the hub).
 */
interface Launch {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * For a sandboxed server shown the workspace: removes what it made there since `since` (ms) that
   * a command may not leave (files other tools run later, dependency environments); returns them.
   */
  sweep?: (since: number) => string[];
}

/** A path the entry names: absolute, or for a project server relative to the workspace. Undefined when absent. */
function named(entry: ServerEntry, workspace: string, arg: string): string | undefined {
  if (!isAbsolute(arg) && entry.origin !== "project") return undefined;
  if (!isAbsolute(arg) && !/^[\w.@-][\w.@/-]*$/.test(arg)) return undefined;
  const p = resolve(workspace, arg);
  if (!existsSync(p)) return undefined;
  const real = realpathSync(p);
  // A repository's server reaches no secret through its configuration: no protected file or home dot-directory.
  if (entry.origin === "project" && !inside(workspace, real) && protectedReason(real.slice(1), real, homeDirectory())) return undefined;
  return real;
}

/**
 * The directory a script needs to run: the project whose node_modules holds it (its dependencies are
 * hoisted beside it), else its package (nearest package.json or node_modules), else its folder.
 */
function packageOf(file: string): string {
  const at = file.indexOf("/node_modules/");
  if (at > 0) return file.slice(0, at);
  for (let d = dirname(file); d !== dirname(d); d = dirname(d)) if (existsSync(join(d, "package.json")) || existsSync(join(d, "node_modules"))) return d;
  return dirname(file);
}

/** PATH without entries a repository controls. Pure. */
function neutralPath(path: string, workspace: string): string {
  return path
    .split(delimiter)
    .filter((p) => p !== "" && isAbsolute(p) && !inside(workspace, resolve(p)))
    .join(delimiter);
}

/** The most workspace files, and bytes, an approval covers; a server that can load more is not started. */
export const MAX_COVERED = { files: 50_000, bytes: 1024 * 2 ** 20 };

/** What a project server's approval covers: every workspace file it can load, hashed (`runFilesHash`). */
export interface Coverage {
  hash: string;
  files: number;
  /** It can load more than `MAX_COVERED`: no approval covers it, so it does not start. */
  tooMany?: boolean;
}

/**
 * What a stdio server's entry shows it of the paths it names: the directories (its to change; a
 * project's only inside the workspace) and, read-only, the package of each file. I/O: stats.
 */
function shownPaths(entry: ServerEntry, workspace: string, paths: string[]): { writable: string[]; readable: string[] } {
  const mayWrite = (p: string) => statSync(p).isDirectory() && (entry.origin === "user" || inside(workspace, p));
  const readable = paths.filter((p) => !mayWrite(p)).map((p) => (statSync(p).isDirectory() ? p : packageOf(p)));
  return { writable: paths.filter(mayWrite), readable };
}

/**
 * The workspace directories a project server can load files from: under bubblewrap, what its
 * sandbox shows of the workspace (`shownPaths`); where it has no sandbox, the whole workspace. I/O.
 */
function loadableRoots(entry: ServerEntry, argv: string[], workspace: string): string[] {
  if (detectSandbox().kind !== "bwrap") return [workspace];
  const paths = argv.flatMap((a) => named(entry, workspace, a) ?? []);
  const { writable, readable } = shownPaths(entry, workspace, paths);
  const roots = [...writable, ...readable].flatMap((p) => (inside(workspace, p) ? [p] : inside(p, workspace) ? [workspace] : []));
  return [...new Set(roots)].filter((r, _, all) => !all.some((o) => o !== r && inside(o, r))).sort();
}

/**
 * The hash of every workspace file a project stdio server can load (`loadableRoots`), by path, kind
 * and bytes: its approval covers these, so a file it `require`s that changed since, whoever changed
 * it, asks again. `.git` and protected files (hidden from it) are not among them. I/O: reads them.
 */
export function runFilesHash(entry: ServerEntry, workspace: string): Coverage {
  if (!("command" in entry.config) || entry.origin !== "project") return { hash: "", files: 0 };
  const h = createHash("sha256");
  const home = homeDirectory();
  let files = 0;
  let bytes = 0;
  const visit = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return true;
    }
    for (const e of entries) {
      const abs = join(dir, e.name);
      const rel = relative(workspace, abs);
      if (e.isDirectory()) {
        if (e.name !== ".git" && !visit(abs)) return false;
      } else if (!protectedReason(rel, abs, home)) {
        // The size is known before the bytes are read: a file too large to cover is never read.
        bytes += e.isFile() ? lstatSync(abs).size : 0;
        if (++files > MAX_COVERED.files || bytes > MAX_COVERED.bytes) return false;
        const body = e.isSymbolicLink() ? Buffer.from(readlinkSync(abs)) : e.isFile() ? readFileSync(abs) : Buffer.alloc(0);
        h.update(`${e.isSymbolicLink() ? "link" : "file"}\0${rel}\0${body.length}\0`).update(body);
      }
    }
    return true;
  };
  for (const root of loadableRoots(entry, [entry.config.command, ...entry.config.args], workspace)) {
    if (!statSync(root).isDirectory()) continue;
    if (!visit(root)) return { hash: "", files, tooMany: true };
  }
  return { hash: h.digest("hex").slice(0, 16), files };
}

export function stdioLaunch(entry: ServerEntry, o: { workspace: string; serverHomes: string; env: Record<string, string> }): Launch {
  const c = entry.config;
  if (!("command" in c)) throw new Error("stdio launch of a remote server");
  const home = join(o.serverHomes, `${entry.origin}-${entry.name}`);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const PATH = neutralPath(o.env.PATH ?? "", o.workspace);
  // Relative paths of a project server are the repository's files; the server itself starts elsewhere.
  const inRepo = (a: string) => (entry.origin === "project" && !isAbsolute(a) ? (named(entry, o.workspace, a) ?? a) : a);
  const args = c.args.map(inRepo);
  const command = inRepo(c.command);
  const env = { ...o.env, PATH, HOME: home, ...c.env };
  const sandbox = detectSandbox();
  if (sandbox.kind !== "bwrap") return { command, args, cwd: home, env };
  const found = isAbsolute(command) ? command : Bun.which(command, { PATH });
  const paths = [found, ...args].flatMap((a) => (a ? [named(entry, o.workspace, a)] : [])).filter((p): p is string => p !== undefined);
  // Directories it names are its to change (a project's only inside the workspace); files are read.
  const { writable, readable } = shownPaths(entry, o.workspace, paths);
  const limits = defaultLimits();
  // Your home is emptied as for commands, with the same toolchains and PATH directories (node under ~/.nvm, uvx under ~/.local/bin …).
  const seen = (p: string) => systemPath(p) || inside(home, p) || paths.some((x) => inside(x, p));
  const { readable: shown, credentials, links, sees } = toolchainsShown({ home: homeDirectory(), own: [userConfigDir(), userDataDir()], path: PATH, seen });
  const network = "network" in c && c.network === true;
  const seccomp = network ? networkFilter() : undefined;
  const argv = bwrapArgv(
    {
      mode: "workspace-write",
      root: home,
      home: homeDirectory(),
      envHome: home,
      network,
      ...(seccomp ? { seccomp } : {}),
      writable,
      readable: shown,
      credentials,
      links,
      masked: [],
      disableUserns: bwrapDisablesUserns(sandbox.program ?? "bwrap"),
      ...(limits ? { limits } : {}),
      tmpBytes: defaultTmpBytes(),
    },
    [command, ...args],
    home,
    sandbox.program,
  );
  // Read-only package directories go in after the home; bubblewrap applies binds in order. Where
  // they or the writable ones show the workspace, its guards go in last, as a command has them.
  const showsWorkspace = paths.some((p) => inside(o.workspace, p) || inside(p, o.workspace));
  const guarded = showsWorkspace ? workspaceGuards(o.workspace, homeDirectory(), sees) : undefined;
  const at = argv.indexOf("--chdir");
  argv.splice(at, 0, ...readable.flatMap((r) => ["--ro-bind-try", r, r]), ...(guarded ? guardBinds({ ...guarded, network }, [o.workspace]) : []));
  const sweep = guarded ? (since: number) => guarded.sweep(since, network) : undefined;
  return { command: argv[0]!, args: argv.slice(1), cwd: home, env, ...(sweep ? { sweep } : {}) };
}
