import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { askBwrapVersion, bwrapArgv, bwrapDisablesUserns, bwrapOptions, limited } from "./bwrap.ts";
import { inside, readRegularFile } from "./containment.ts";
import { offline } from "./environment.ts";
import { diskFloor, diskSpace, inodeFloor, type ProgramOptions, type ProgramRun, runProgram } from "./process.ts";
import { guardedOutsideGit, hiddenPaths, type ProtectedScan, protectedFilesIn } from "./protected-scan.ts";
import { hiddenProgram, sandboxBlock } from "./sandbox-explain.ts";
import { type SandboxKind, type SandboxLimits, type SandboxMode, type SandboxPolicy, systemPath } from "./sandbox-policy.ts";
import { seatbeltProfile } from "./seatbelt.ts";
import { unixSocketFilter } from "./seccomp.ts";
import { sweepCommand, type Swept, watchCommand } from "./sweep.ts";
import { diskFacts, type ToolchainsShown, toolchainsShown } from "./toolchains.ts";
import { enclosingRepository, gitFileTarget } from "./walker.ts";
import type { Settled, Transactions } from "./transaction.ts";
import { viewArgv, viewTools } from "./view.ts";
import { inCgroup, processCgroup, releaseCgroup } from "./limits.ts";

/**
 * The OS sandbox every process weir starts runs in (run_command, shell, verify, weir's own git).
 * The kernel is the boundary, not a list of program names: on Linux bubblewrap (mount, pid, ipc, uts
 * and network namespaces), on macOS a sandbox-exec profile with the same intent. The policy is
 * computed once per command (`sandbox-policy.ts`) and rendered for bubblewrap (`bwrap.ts`) or
 * sandbox-exec (`seatbelt.ts`); detecting, scanning and spawning are the I/O here.
 *
 * Inside, by mode:
 * - system directories read-only, nothing else of the host visible (a canary outside the workspace
 *   cannot be read);
 * - the workspace read-write (`workspace-write`) or read-only (`read-only`), except git's metadata
 *   (`.git` is a mount point, so it cannot be moved or replaced; its hooks, config, info, commondir,
 *   worktrees and submodules are read-only, and so is the hooks directory `core.hooksPath` names),
 *   files other tools run later (`AUTORUN_PATHS`: read-only when present, removed after the
 *   command when it created them), installed dependencies (`node_modules`, Python and conda
 *   environments: read-only without the network, and one a command made without it removed after)
 *   and the protected files present (bound over /dev/null);
 * - a private /tmp; $HOME an empty directory plus the person's toolchains read-only, and the
 *   directories on their PATH (`toolchains.ts`: never their credential files), and a git config
 *   holding only the person's identity; weir's config and data directories are never visible;
 * - its own user namespace with every capability dropped and no further user namespaces, so root
 *   outside is nobody special inside (no mounts to undo, no file handles to open by number);
 * - its own pid namespace (weir and its environment are not in /proc) and session, killed whole
 *   when weir stops it or exits; limits on processes and memory;
 * - no network unless approved.
 */
/**
 * A directory a command asks to write, canonical; undefined when it is missing, not absolute, or
 * too broad to open (the filesystem root, the home or a directory holding it). Looked up on disk.
 */
export function widenableDir(dir: string, home: string): string | undefined {
  if (!isAbsolute(dir)) return undefined;
  try {
    const real = realpathSync(dir);
    // A directory holding the home would show every key in it.
    if (!statSync(real).isDirectory() || real === "/" || inside(real, home)) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

/** How `argv` runs under the policy with the given sandbox. Pure. */
function wrapArgv(kind: SandboxKind, p: SandboxPolicy, argv: string[], cwd: string, program?: string): string[] {
  if (p.mode === "off" || kind === "none") return argv;
  if (kind === "bwrap") return bwrapArgv(p, argv, cwd, program);
  return [program ?? "/usr/bin/sandbox-exec", "-p", seatbeltProfile(p), "--", ...argv];
}

/** Finds the sandbox this machine offers. I/O: looks for the programs. */
export function detectSandbox(platform = process.platform): { kind: SandboxKind; program?: string } {
  if (platform === "linux") {
    for (const p of ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"]) if (existsSync(p)) return { kind: "bwrap", program: p };
    const which = Bun.which("bwrap");
    return which ? { kind: "bwrap", program: which } : { kind: "none" };
  }
  if (platform === "darwin" && existsSync("/usr/bin/sandbox-exec")) return { kind: "seatbelt", program: "/usr/bin/sandbox-exec" };
  return { kind: "none" };
}

/**
 * A git config holding only the person's identity (user.name, user.email), read from their global
 * config, so a commit inside the sandbox works while tokens, credential helpers and aliases stay out.
 * Written once to a private temp file removed at exit; undefined when there is no identity.
 */
function identityGitconfig(home: string, env: Record<string, string | undefined> = process.env): string | undefined {
  const found: Record<string, string> = {};
  for (const f of [join(home, ".gitconfig"), join(env.XDG_CONFIG_HOME || join(home, ".config"), "git", "config")]) {
    let section = "";
    let text = "";
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      const head = /^\s*\[\s*([A-Za-z]+)\s*\]/.exec(line);
      if (head) section = head[1]!.toLowerCase();
      const kv = /^\s*(name|email)\s*=\s*(.*?)\s*$/i.exec(line);
      if (section === "user" && kv) found[kv[1]!.toLowerCase()] ??= kv[2]!.replace(/^"(.*)"$/, "$1");
    }
  }
  if (!found.name && !found.email) return undefined;
  const quote = (v: string) => `"${v.replace(/[\\"]/g, "\\$&").replace(/[\r\n]/g, " ")}"`;
  const dir = mkdtempSync(join(tmpdir(), "weir-git-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "gitconfig");
  writeFileSync(path, `[user]\n${Object.entries(found).map(([k, v]) => `\t${k} = ${quote(v)}\n`).join("")}`, { mode: 0o600 });
  return path;
}

/** A command to run in the sandbox: `runProgram`'s options, with the argv and the call's widening. */
type SandboxedRun = Omit<ProgramOptions, "program" | "args" | "fds"> & {
  argv: string[];
  widen?: { network?: boolean; dir?: string };
  /** Files of the home shown read-only for this command only (a user's own hook script). */
  readable?: string[];
};

/** A sandboxed command's result: what a sweep removed or put back (`Swept`), or the change set it held (`Settled`). */
type SandboxRun = ProgramRun & Swept & { held?: Settled };

/** The sandbox the actions use: wraps each command and explains its failures. */
export interface CommandSandbox {
  readonly kind: SandboxKind;
  readonly mode: SandboxMode;
  /** Whether commands really run inside an OS sandbox here. */
  readonly active: boolean;
  /** Directories writable for every command (`--add-dir`). */
  readonly writable: readonly string[];
  /** The argv to spawn for `argv` in `cwd`; the network only when approved for this call. */
  wrap(argv: string[], cwd: string, widen?: { network?: boolean; dir?: string }): string[];
  /**
   * Runs a command inside (or as it is, where there is no sandbox): the options reach bubblewrap
   * through a file descriptor, so no number of masks can make the command line too long; afterwards
   * guarded paths the command created (a new `.git/commondir`, `.vscode/tasks.json`) are removed.
   */
  run(o: SandboxedRun): Promise<SandboxRun>;
  /** One line saying a program the host's PATH finds lives where commands cannot see, with how to show it; or undefined. */
  hides(program: string): string | undefined;
  /** One line saying a failure came from the sandbox, or undefined. */
  explain(output: string, widen?: { network?: boolean }, run?: { program?: string; exitCode?: number | null }): string | undefined;
  /** What the sandbox enforces, in a line, for the start-up notice and `weir doctor`. */
  describe(): string;
}

interface SandboxOptions {
  mode: SandboxMode;
  root: string;
  home: string;
  /** Extra home entries readable inside (relative to home or absolute). */
  readable?: string[];
  /** weir's own directories (config, data): never shown, whatever the PATH says. */
  own?: string[];
  writable?: string[];
  detected?: { kind: SandboxKind; program?: string };
  /** A scoped worker's readable files (absolute), asked again for each command (see SandboxPolicy.visible). */
  visible?: () => string[];
  /** Each in-memory directory's size (SandboxPolicy.tmpBytes); `defaultTmpBytes()` when absent. */
  tmpBytes?: number;
  /** The free space on the workspace's disk below which a command is ended; `diskFloor` of it when absent. */
  diskFloorBytes?: number;
  /** The free inodes on the workspace's file system below which a command is ended; `inodeFloor` of them when absent. */
  diskFloorInodes?: number;
  /**
   * The workspace's transactions: where the kernel gives an unprivileged overlay (`viewTools`), each
   * command that may write runs on a copy-on-write view, and its change set is settled there.
   */
  transactions?: Transactions;
  /** The most processes a command has at once, held by a pids cgroup where weir can make one (`limits.ts`); `defaultLimits` when absent. */
  processes?: number;
}

/** The disk floor of a command that writes under `path` (`diskFloor` and `inodeFloor`, or `given`); none when the disk cannot be read. I/O. */
function floorAt(
  path: string,
  given: { bytes?: number; inodes?: number } = {},
): { diskFloor: { path: string; bytes: number; inodes?: number } } | Record<string, never> {
  const space = diskSpace(path);
  const bytes = given.bytes ?? (space ? diskFloor(space) : undefined);
  const inodes = given.inodes ?? (space?.files ? inodeFloor(space.files) : undefined);
  return bytes === undefined ? {} : { diskFloor: { path, bytes, ...(inodes !== undefined ? { inodes } : {}) } };
}

/** An eighth of the machine's memory for each of a command's in-memory directories, three in all. */
export const defaultTmpBytes = () => Math.floor(totalmem() / 8);

/** Limits for every command: processes at once and memory, where prlimit exists. I/O: looks for it. */
export function defaultLimits(): SandboxLimits | undefined {
  const prlimit = ["/usr/bin/prlimit", "/bin/prlimit"].find((p) => existsSync(p));
  return prlimit ? { prlimit, processes: 4_096, memoryBytes: Math.floor(totalmem() / 2) } : undefined;
}











/** A command run where there is no sandbox: as it is, nothing undone. */
async function runUnsandboxed(r: SandboxedRun): Promise<SandboxRun> {
  const { argv, widen: _w, readable: _r, ...rest } = r;
  const [program, ...args] = argv;
  return { ...(await runProgram({ ...rest, program: program!, args, ...floorAt(rest.cwd) })), undone: [] };
}

/**
 * The git directory a workspace whose `.git` is a file reads from, when that file checks out both
 * ways (it could name any directory):
 * - a linked worktree (`git worktree add`): the file names a directory in the repository's
 *   `worktrees/`, whose `gitdir` names this `.git` back: the repository's git directory (its
 *   `commondir`);
 * - a submodule: the file names the superproject's `.git/modules/NAME`, whose config's
 *   `core.worktree` names this workspace back: that directory.
 * Undefined for anything else.
 */
export function linkedGitDir(root: string): string | undefined {
  const target = gitFileTarget(root);
  if (!target) return undefined;
  try {
    const own = realpathSync(target.own);
    if (target.linked) {
      const common = realpathSync(target.common);
      const back = realpathSync(resolve(own, readRegularFile(join(own, "gitdir"), "utf8").trim()));
      return dirname(own) === join(common, "worktrees") && back === realpathSync(join(root, ".git")) ? common : undefined;
    }
    const worktree = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(readRegularFile(join(own, "config"), "utf8"))?.[1];
    return worktree && realpathSync(resolve(own, worktree)) === realpathSync(root) ? own : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the repository borrows its objects from another (`git clone --shared` or `--reference`):
 * git inside the sandbox cannot read them, and they are not bound in, since the alternates file is
 * one a command may write (binding what it names would let a later command read any repository on
 * the machine). I/O: looks for the file.
 */
export function borrowsObjects(root: string): boolean {
  return existsSync(join(linkedGitDir(root) ?? join(root, ".git"), "objects", "info", "alternates"));
}





/** How one command is started: its argv, descriptors and environment, and what to undo once it ended. */
interface Spawn {
  program: string;
  args: string[];
  fds?: number[];
  env?: Record<string, string>;
  /** Closes its descriptors and removes its files once every process of it is gone. */
  release(): void;
}

/**
 * A command under bubblewrap: its options reach bubblewrap through descriptor 3, from a private
 * file, so no number of masks can make the command line too long; with the network, the seccomp
 * filter through descriptor 4; started inside its copy-on-write view when it has one. I/O.
 */
function bwrapSpawn(bwrap: string, p: SandboxPolicy, argv: string[], cwd: string, inView?: (inner: string[]) => string[]): Spawn {
  const optionsFile = join(mkdtempSync(join(tmpdir(), "weir-bwrap-")), "options");
  writeFileSync(optionsFile, `${bwrapOptions(p, cwd).join("\0")}\0`, { mode: 0o600 });
  const filter = p.network && p.seccomp ? [openSync(p.seccomp, "r")] : [];
  const inner = [bwrap, "--args", "3", "--", ...limited(p, argv)];
  const [program, ...args] = inView ? inView(inner) : inner;
  const fds = [openSync(optionsFile, "r"), ...filter];
  return {
    program: program!,
    args,
    fds,
    release() {
      for (const fd of fds) closeSync(fd);
      rmSync(resolve(optionsFile, ".."), { recursive: true, force: true });
    },
  };
}

/** A command under sandbox-exec, with a temporary directory of its own as its `$TMPDIR` (SandboxPolicy.temp). I/O. */
function seatbeltSpawn(sandboxExec: string | undefined, base: SandboxPolicy, argv: string[], cwd: string): Spawn {
  const person = realpathSync(tmpdir());
  const command = mkdtempSync(join(person, "weir-command-"));
  const [program, ...args] = wrapArgv("seatbelt", { ...base, temp: { person, command } }, argv, cwd, sandboxExec);
  return { program: program!, args, env: { TMPDIR: command }, release: () => rmSync(command, { recursive: true, force: true }) };
}

/** The spawn joined to a pids cgroup of its own before it starts, where weir can make one. I/O. */
function inProcessCgroup(s: Spawn, processes: number): Spawn {
  const cgroup = processCgroup(processes);
  if (!cgroup) return s;
  const [program, ...args] = inCgroup(cgroup, [s.program, ...s.args]);
  return {
    ...s,
    program: program!,
    args,
    release() {
      s.release();
      releaseCgroup(cgroup);
    },
  };
}

export function createSandbox(o: SandboxOptions): CommandSandbox {
  const detected = o.detected ?? detectSandbox();
  const active = o.mode !== "off" && detected.kind !== "none";
  let shown: ToolchainsShown | undefined;
  const showToolchains = () => toolchainsShown({ home: o.home, extra: o.readable, own: o.own, path: process.env.PATH ?? "", seen });
  const limits = detected.kind === "bwrap" ? defaultLimits() : undefined;
  if (detected.kind === "bwrap") askBwrapVersion(detected.program ?? "bwrap");
  let disableUserns: boolean | undefined;
  let gitconfig: string | undefined | null = null;
  let mavenSettings: string | undefined;
  // Protected files are found again at most every few seconds: a command may create new ones.
  let scan: ProtectedScan = { files: [], environments: [], unscanned: [], dirs: [], at: 0, repositories: [], gitDirectories: [], caches: [] };
  let scannedAt = -Infinity;
  let gitFile = false;
  try {
    gitFile = statSync(join(o.root, ".git")).isFile();
  } catch {
    gitFile = false; // no repository: nothing of git's to guard
  }
  // A workspace inside a repository sees the repository read-only (a scoped worker sees only its files).
  const repository = o.visible ? undefined : enclosingRepository(o.root, o.home);
  const gitDir = gitFile ? linkedGitDir(o.root) : repository ? linkedGitDir(repository) : undefined;
  let repositoryGitFile = false;
  try {
    repositoryGitFile = repository !== undefined && statSync(join(repository, ".git")).isFile();
  } catch {
    repositoryGitFile = false;
  }
  const gitFiles = [join(o.root, ".git"), ...(repository ? [join(repository, ".git")] : [])];
  /** What commands see whatever the toolchains: the system's directories, the workspace, its repository. */
  const seen = (p: string) => systemPath(p) || inside(o.root, p) || (repository !== undefined && inside(repository, p));
  /** The protected-file scan, read again when it is older than 3 s. */
  const scanned = (): ProtectedScan => {
    if (performance.now() - scannedAt > 3_000) {
      scan = protectedFilesIn(repository ?? o.root, o.home);
      scannedAt = performance.now();
    }
    return scan;
  };
  /** What commands may read but never change beyond `.git` (`guardedOutsideGit`), by the latest scan. */
  const guardedNow = () => guardedOutsideGit(o.root, o.home, scanned());
  const policy = (network: boolean, dir?: string, guarded = guardedNow()): SandboxPolicy => {
    scanned();
    if (gitconfig === null) gitconfig = identityGitconfig(o.home);
    if (!network) mavenSettings ??= offlineMavenSettings();
    const seccomp = network && detected.kind === "bwrap" ? networkFilter() : undefined;
    shown ??= showToolchains();
    if (detected.kind === "bwrap") disableUserns ??= bwrapDisablesUserns(detected.program ?? "bwrap");
    // A linked worktree's `.git` file only names its git directory, and git must read it.
    const hidden = hiddenPaths(scan.files.filter((f) => !gitDir || !gitFiles.includes(f)), shown.sees);
    return {
      mode: o.mode,
      root: o.root,
      home: o.home,
      network,
      writable: [...(o.writable ?? []), ...(dir ? [dir] : [])],
      readable: shown.readable,
      ...(shown.credentials.length ? { credentials: shown.credentials } : {}),
      ...(shown.links.length ? { links: shown.links } : {}),
      masked: hidden.masked,
      unscanned: [...scan.unscanned, ...hidden.emptied],
      guarded,
      environments: o.visible ? [] : scan.environments.filter((e) => inside(o.root, e)),
      nested: o.visible ? [] : scan.repositories.filter((r) => inside(o.root, r)),
      caches: o.visible ? [] : scan.caches.filter((c) => inside(o.root, c)),
      ...(repository ? { repository } : {}),
      ...(repositoryGitFile ? { repositoryGitFile } : {}),
      ...(gitFile ? { gitFile } : {}),
      ...(gitDir ? { gitDir } : {}),
      ...(gitconfig ? { gitconfig } : {}),
      ...(!network && mavenSettings ? { mavenSettings } : {}),
      ...(seccomp ? { seccomp } : {}),
      ...(limits ? { limits } : {}),
      tmpBytes: o.tmpBytes ?? defaultTmpBytes(),
      ...(disableUserns === false ? { disableUserns } : {}),
      // A scoped worker's files are bound one by one: a protected one, link or not, is never among them.
      ...(o.visible ? { visible: o.visible().filter((f) => !scan.files.includes(f)) } : {}),
    };
  };
  // A program the host finds on its PATH but commands cannot see: where it is, and how to show it.
  const explainHidden = (output: string, program?: string) => {
    shown ??= showToolchains();
    return hiddenProgram(output, program, locateOnPath, shown.sees);
  };
  const wrap = (argv: string[], cwd: string, widen?: { network?: boolean; dir?: string }) =>
    active ? wrapArgv(detected.kind, policy(widen?.network === true, widen?.dir), argv, cwd, detected.program) : argv;
  return {
    kind: detected.kind,
    mode: o.mode,
    active,
    writable: o.writable ?? [],
    // A widened directory is one the executor already had approved (by --add-dir or a person).
    wrap,
    async run(r) {
      if (!active) return runUnsandboxed(r);
      const { argv, widen, readable: extra, ...rest } = r;
      // The config is read once per command: the same paths are bound read-only and watched.
      const guarded = guardedNow();
      // Only where commands may write the whole workspace is there anything of theirs to undo.
      const writes = o.mode === "workspace-write" && !o.visible;
      const watch = watchCommand(o.root, scan, guarded, writes);
      // The command as a transaction: it writes a view, whose change set is settled after it.
      const tools = writes && detected.kind === "bwrap" && o.transactions ? viewTools(o.transactions.dir, o.root) : null;
      const view = tools ? o.transactions!.open() : undefined;
      const base = policy(widen?.network === true, widen?.dir, guarded);
      let spawn: Spawn;
      if (detected.kind === "bwrap") {
        const ids = view ? { ids: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 } } : {};
        const p = { ...base, linked: [...watch.links.keys()], ...ids, readable: [...base.readable, ...(extra ?? [])] };
        const inView = view && tools ? (inner: string[]) => viewArgv(tools, o.root, view, o.transactions!.lowerNames(), inner, o.transactions!.dir) : undefined;
        // A pids cgroup holds the process limit for root too, which prlimit cannot.
        spawn = inProcessCgroup(bwrapSpawn(detected.program ?? "bwrap", p, argv, rest.cwd, inView), o.processes ?? limits?.processes ?? 4_096);
      } else spawn = seatbeltSpawn(detected.program, base, argv, rest.cwd);
      let result: ProgramRun;
      const started = Date.now();
      try {
        // Under either sandbox python writes no bytecode (what a command writes anyway is removed after it).
        // Without the network it gets no proxy either (environment.ts `offline`).
        const env = { ...offline(rest.env, widen?.network === true), PYTHONDONTWRITEBYTECODE: "1", ...spawn.env };
        const floor = floorAt(view?.upper ?? o.root, { bytes: o.diskFloorBytes, inodes: o.diskFloorInodes });
        result = await runProgram({ ...rest, env, program: spawn.program, args: spawn.args, ...(spawn.fds ? { fds: spawn.fds } : {}), ...floor });
      } finally {
        spawn.release();
      }
      // Every process of the command is gone: its view's upper layer is the exact change set.
      if (view) {
        const settled = await o.transactions!.settle(view, { network: widen?.network === true, command: argv.join(" ") });
        return { ...result, undone: [], ...(settled.held.length ? { held: settled } : {}) };
      }
      // No view: what the command made that must not stay is found by its times and removed.
      return { ...result, ...sweepCommand(o.root, scan, watch, started, { writes, network: widen?.network === true }) };
    },
    hides: (program) => (active ? explainHidden("", program) : undefined),
    // sandboxBlock needs no new protected-file scan or toolchain list: only the last scan's environments play a part in its lines.
    explain(output, widen, run) {
      if (!active) return undefined;
      const environments = scan.environments.filter((e) => inside(o.root, e));
      const p: SandboxPolicy = {
        mode: o.mode,
        root: o.root,
        home: o.home,
        network: widen?.network === true,
        writable: o.writable ?? [],
        readable: [],
        masked: [],
        environments,
      };
      const more = { ...(limits ? { limits } : {}), ...(o.visible ? { visible: [] } : {}), ...(repository ? { repository } : {}) };
      return explainHidden(output, run?.program) ?? sandboxBlock(output, { ...p, ...more }, run);
    },
    describe: () =>
      o.mode === "off"
        ? "the command sandbox is off (--sandbox off): commands run with your full rights"
        : active
          ? `commands run in ${detected.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"} (${o.mode}): the ` +
            `workspace ${o.mode === "read-only" ? "read-only" : "writable"}, no network, the home hidden but for ` +
            `your toolchains (read-only)`
          : "no OS sandbox here (install bubblewrap on Linux): every command asks before it runs",
  };
}


/** Where the host's PATH finds a program (a path is taken as it is), links resolved. I/O. */
function locateOnPath(name: string): string | undefined {
  const found = name.includes("/") ? (isAbsolute(name) ? name : undefined) : (Bun.which(name) ?? undefined);
  return found ? diskFacts.real(found) : undefined;
}

let filterFile: string | undefined;

/**
 * The seccomp filter of commands and servers with the network (`unixSocketFilter`), written once
 * per process to a private temp file removed at exit; undefined on an architecture weir is not built for.
 */
export function networkFilter(): string | undefined {
  if (filterFile) return filterFile;
  const program = unixSocketFilter();
  if (!program) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "weir-seccomp-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  filterFile = join(dir, "unix-sockets.bpf");
  writeFileSync(filterFile, program, { mode: 0o600 });
  return filterFile;
}

/** Maven settings that say only that there is no network, in a file of this process's, removed when it exits. I/O. */
function offlineMavenSettings(): string {
  const dir = mkdtempSync(join(tmpdir(), "weir-maven-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "settings.xml");
  writeFileSync(path, "<settings>\n  <offline>true</offline>\n</settings>\n", { mode: 0o600 });
  return path;
}

/** Runs a command through the sandbox when there is one, else as it is. */
export async function runCommandIn(sandbox: CommandSandbox | undefined, r: SandboxedRun): Promise<SandboxRun> {
  return sandbox ? sandbox.run(r) : runUnsandboxed(r);
}
