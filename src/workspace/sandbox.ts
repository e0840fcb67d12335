import { closeSync, type Dirent, existsSync, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { linkOnTheWay, removeInside, writeFileInside } from "./atomic.ts";
import { AUTORUN_PATHS, ENVIRONMENT_DIR, ENVIRONMENT_MARKERS, ENVIRONMENT_NAMES, GIT_DIRECTORY_PARTS, inside, installManifests, installScripts, looksLikeGitDirectory, protectedReason, readRegularFile, wholeText, workspaceGlobs } from "./containment.ts";
import { gitConfigured, personalGitConfigured, runsPrograms } from "./gitconfig.ts";
import { homeReads, programsOnPath, shadowingPrograms } from "./home-reads.ts";
import { diskFloor, diskSpace, inodeFloor, type ProgramOptions, type ProgramRun, runProgram } from "./process.ts";
import { diskFacts, type HiddenPath, maskable, type PathLink, type ToolchainsShown, toolchainsShown } from "./toolchains.ts";
import { unixSocketFilter } from "./seccomp.ts";
import { enclosingRepository, gitFileTarget } from "./walker.ts";
import type { Settled, Transactions } from "./transaction.ts";
import { viewArgv, viewTools } from "./view.ts";
import { inCgroup, processCgroup, releaseCgroup } from "./limits.ts";

/**
 * The OS sandbox every process weir starts runs in (run_command, shell, verify, weir's own git).
 * The kernel is the boundary, not a list of program names: on Linux bubblewrap (mount, pid, ipc, uts
 * and network namespaces), on macOS a sandbox-exec profile with the same intent. Building the
 * sandbox is pure (`bwrapArgv`, `seatbeltProfile`); detecting and spawning are the only I/O.
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
type SandboxMode = "read-only" | "workspace-write" | "off";
type SandboxKind = "bwrap" | "seatbelt" | "none";

interface SandboxPolicy {
  mode: SandboxMode;
  /** The root is a linked git worktree: its `.git` is a file naming the repository, kept read-only. */
  gitFile?: boolean;
  /** For a linked worktree, its repository's git directory (`linkedGitDir`): visible read-only, so git works. */
  gitDir?: string;
  /**
   * The top of the repository the workspace lies inside (`enclosingRepository`: a monorepo's
   * package): visible read-only, its protected files masked, so git and the rest of the repository
   * read as they do outside while only the workspace is written.
   */
  repository?: string;
  /**
   * The repository above is a linked worktree (a goal graph's node in a package): its `.git` is a
   * file, read-only with the rest of the repository, with no hooks or config of its own to guard.
   */
  repositoryGitFile?: boolean;
  /** Canonical workspace root. */
  root: string;
  /** The user's home: replaced by an empty directory inside. */
  home: string;
  network: boolean;
  /** Extra writable directories (`--add-dir`). */
  writable: string[];
  /** Home entries, PATH directories (and, for a user's hook, its script wherever it lives) visible read-only; absolute. */
  readable: string[];
  /** Credentials inside what `readable` shows: hidden (a file bound over /dev/null, a directory emptied). */
  credentials?: HiddenPath[];
  /** PATH entries that name their directory through a link: the same link inside. */
  links?: PathLink[];
  /** Files inside the workspace bound over /dev/null (protected files). */
  masked: string[];
  /** Directories the protected-file scan could not finish in time: hidden (their secrets unknown). */
  unscanned?: string[];
  /** Workspace paths commands may read but never change (git metadata, `AUTORUN_PATHS`), absolute. */
  guarded?: string[];
  /** The workspace's dependency environments (`node_modules`, virtualenvs), absolute: read-only without the network. */
  environments?: string[];
  /**
   * Guarded paths that are links leading out of the workspace, or nowhere (an `AGENTS.md` linked from
   * the person's dotfiles): bubblewrap cannot bind onto them, so they are not bound, and the link is
   * put back after the command if it changed (`relink`).
   */
  linked?: string[];
  /** Repositories kept inside the workspace (a clone in `vendor/`), absolute: their git metadata is guarded as the workspace's. */
  nested?: string[];
  /** Python's bytecode directories (`__pycache__`), absolute: read-only, since python loads them in place of the source. */
  caches?: string[];
  /** A file bound read-only at `~/.gitconfig`: the person's identity and nothing else. */
  gitconfig?: string;
  /** Maven user settings that say it is offline, shown as `~/.m2/settings.xml` when there is no network. */
  mavenSettings?: string;
  /** $HOME inside when it is not the emptied home itself (an MCP server's private directory). */
  envHome?: string;
  /** Resource limits, applied by prlimit inside the sandbox. */
  limits?: SandboxLimits;
  /**
   * The size of each writable in-memory directory (`/tmp`, `/var/tmp`, the emptied home, `/dev/shm`): files
   * there are memory no process limit counts, and the kernel's default is half the machine each.
   */
  tmpBytes?: number;
  /**
   * With the network: the file holding the seccomp filter that keeps the command from making Unix
   * sockets (`unixSocketFilter`), which bubblewrap reads from descriptor 4.
   */
  seccomp?: string;
  /**
   * Under sandbox-exec, which cannot give a command a /tmp of its own: the person's temporary
   * directory (`$TMPDIR`, under /private/var/folders), where their tools keep caches they load
   * again (Jest's transformed modules), not writable; `command` is the command's own, given as its
   * `$TMPDIR` and removed after it.
   */
  temp?: { person: string; command: string };
  /** False for a bubblewrap older than 0.8, which cannot forbid user namespaces inside. */
  disableUserns?: boolean;
  /**
   * Started inside the namespace of a copy-on-write view (`view.ts`), where the person is root: the
   * ids the command runs as, so it is the person inside as without a view.
   */
  ids?: { uid: number; gid: number };
  /**
   * A worker whose reads are scoped: only these workspace files (absolute) exist inside, read-only;
   * the rest of the workspace is an empty directory. Absent: the whole workspace, by `mode`.
   */
  visible?: string[];
}

interface SandboxLimits {
  prlimit: string;
  processes: number;
  memoryBytes: number;
}

/** Read-only system directories; each is bound only where it exists. */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/run/current-system"];

/** Whether a path lies in one of the system directories every sandboxed process sees. Pure. */
export const systemPath = (p: string): boolean => SYSTEM.some((d) => inside(d, p));

/**
 * Parts of `.git` a command may never change: what git executes, where it reads its config, and
 * other git directories (submodules, worktrees) whose config would run the same way. Git's ordinary
 * writes (objects, refs, logs, the index, HEAD) stay possible.
 */
const GIT_GUARDED = [".git/hooks", ".git/config", ".git/info", ".git/commondir", ".git/config.worktree", ".git/worktrees", ".git/modules"];

/**
 * The binds that keep a workspace's guards over whatever was bound before them: git's metadata in
 * each of `repositories`, the other guarded paths and Python's bytecode directories read-only,
 * installed dependencies read-only without the network, protected files hidden, unscanned
 * directories emptied. Pure.
 */
export function guardBinds(p: Pick<SandboxPolicy, "guarded" | "environments" | "caches" | "masked" | "unscanned" | "network" | "linked">, repositories: string[]): string[] {
  const a: string[] = [];
  for (const g of [...repositories.flatMap((r) => GIT_GUARDED.map((x) => join(r, x))), ...(p.guarded ?? []), ...(p.caches ?? [])]) if (!p.linked?.includes(g)) a.push("--ro-bind-try", g, g);
  // Installed dependencies change only with an install, and an install needs the network.
  if (!p.network) for (const e of p.environments ?? []) a.push("--ro-bind-try", e, e);
  for (const m of p.masked) a.push("--ro-bind-try", "/dev/null", m);
  for (const d of p.unscanned ?? []) a.push("--tmpfs", d, "--remount-ro", d);
  return a;
}

/** The bubblewrap options (everything before `--`) that run a command in `cwd` under the policy. Pure. */
function bwrapOptions(p: SandboxPolicy, cwd: string): string[] {
  const a: string[] = ["--die-with-parent", "--new-session", "--unshare-user", ...(p.disableUserns === false ? [] : ["--disable-userns"]), "--cap-drop", "ALL"];
  // The view is a file system of its own: git in a package of a larger repository looks past it.
  if (p.ids) a.push("--uid", String(p.ids.uid), "--gid", String(p.ids.gid), "--setenv", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "1");
  a.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!p.network) a.push("--unshare-net");
  else if (p.seccomp) a.push("--seccomp", String(SECCOMP_FD));
  for (const d of SYSTEM) a.push("--ro-bind-try", d, d);
  const size = p.tmpBytes ? ["--size", String(p.tmpBytes)] : [];
  // /dev is bubblewrap's own tmpfs, of the kernel's default size: it is made read-only, and shared
  // memory (/dev/shm) gets a capped tmpfs of its own, as /tmp does.
  a.push("--proc", "/proc", "--dev", "/dev", ...size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev");
  a.push(...size, "--tmpfs", "/tmp", ...size, "--tmpfs", "/var/tmp");
  // The home: empty unless the workspace is the home itself (then its dot-directories are protected paths).
  const homeShown = p.home !== "" && !inside(p.root, p.home);
  if (homeShown) {
    a.push(...size, "--tmpfs", p.home);
    for (const r of p.readable) a.push("--ro-bind-try", r, r);
    for (const c of p.credentials ?? []) a.push(...(c.dir ? ["--tmpfs", c.path, "--remount-ro", c.path] : ["--ro-bind", "/dev/null", c.path]));
    for (const l of p.links ?? []) a.push("--symlink", l.target, l.at);
    if (p.gitconfig) a.push("--ro-bind", p.gitconfig, join(p.home, ".gitconfig"));
  }
  const added = p.mode === "workspace-write" ? p.writable : [];
  if (p.visible) {
    // A fresh tmpfs at the root holds only the bound files (bubblewrap creates the directories on the
    // way); it is then made read-only, so a write fails loudly instead of vanishing with the sandbox.
    a.push("--tmpfs", p.root);
    for (const f of p.visible) if (inside(p.root, f) && !p.masked.includes(f)) a.push("--ro-bind-try", f, f);
    a.push("--remount-ro", p.root);
    for (const w of added) a.push("--bind-try", w, w);
  } else {
    if (p.repository) a.push("--ro-bind", p.repository, p.repository);
    // Directories the person added go in before the workspace and its guards: one that holds the
    // workspace (or its repository) cannot undo a guard or a mask.
    for (const w of added) a.push("--bind-try", w, w);
    a.push(p.mode === "workspace-write" ? "--bind" : "--ro-bind", p.root, p.root);
    // A mount point cannot be renamed or removed: `.git` stays the repository the person's git reads.
    if (p.gitFile) a.push("--ro-bind", join(p.root, ".git"), join(p.root, ".git"));
    else if (p.mode === "workspace-write") a.push("--bind-try", join(p.root, ".git"), join(p.root, ".git"));
    // git's own files stay as they are in the workspace, its repository and any repository added.
    const above = p.repository && !p.repositoryGitFile ? [p.repository] : [];
    a.push(...guardBinds(p, [...(p.gitFile ? [] : [p.root]), ...above, ...added, ...(p.nested ?? [])]));
  }
  if (p.gitDir && !inside(p.root, p.gitDir)) a.push("--ro-bind-try", p.gitDir, p.gitDir);
  a.push("--chdir", cwd);
  // Maven takes "offline" only from its settings or its command line: without a network it reads
  // these settings, so it builds from the local repository instead of failing at its first lookup.
  if (homeShown && !p.envHome && !p.network && p.mavenSettings) a.push("--ro-bind", p.mavenSettings, join(p.home, ".m2", "settings.xml"));
  if (homeShown) a.push("--setenv", "HOME", p.envHome ?? p.home);
  a.push("--setenv", "TMPDIR", "/tmp");
  // Bytecode runs in place of its source at the person's next python: none is written inside.
  a.push("--setenv", "PYTHONDONTWRITEBYTECODE", "1");
  // Without a network, package managers are told so, and fail at once instead of retrying for a minute.
  if (!p.network) for (const [k, v] of OFFLINE_ENV) a.push("--setenv", k, v);
  return a;
}

/** Each package manager's own switch for "there is no network": npm, Cargo, Go modules, pip. */
const OFFLINE_ENV: [string, string][] = [
  ["npm_config_offline", "true"],
  ["CARGO_NET_OFFLINE", "true"],
  ["GOPROXY", "off"],
  ["PIP_NO_INDEX", "1"],
];

/** What runs inside: the command, under prlimit when limits are set. Pure. */
function limited(p: SandboxPolicy, argv: string[]): string[] {
  if (!p.limits) return argv;
  const { prlimit, processes, memoryBytes } = p.limits;
  return [prlimit, `--nproc=${processes}`, `--data=${memoryBytes}`, "--", ...argv];
}

/** The descriptor bubblewrap reads the seccomp filter from (after the options' 3). */
const SECCOMP_FD = 4;

/**
 * The bubblewrap argv that runs `argv` in `cwd` under the policy. With a seccomp filter, the shell
 * opens its file on the descriptor bubblewrap reads, for callers that spawn with no descriptors of
 * their own (an MCP server). Pure.
 */
export function bwrapArgv(p: SandboxPolicy, argv: string[], cwd: string, bwrap = "bwrap"): string[] {
  const run = [bwrap, ...bwrapOptions(p, cwd), "--", ...limited(p, argv)];
  return p.network && p.seccomp ? ["/bin/sh", "-c", `exec "$@" ${SECCOMP_FD}<"$0"`, p.seccomp, ...run] : run;
}

const q = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * Where package managers under the system's directories keep what their services write (Homebrew on
 * Apple silicon and on Intel, MacPorts): a local PostgreSQL's, MySQL's or Redis's data, logs. Only
 * Homebrew's own records (`var/homebrew`, which `brew` reads) stay readable.
 */
const SERVICE_STATE = ["/opt/homebrew/var", "/usr/local/var", "/opt/local/var"];

/**
 * The Mach services a command may reach: the user and group lookups behind `getpwuid` and
 * `getgroups`, the system log, notifications (time zone changes), the per-user temp directory that
 * `confstr` names, and power assertions. Each other service is a process outside the sandbox that
 * acts for whoever asks: launchd runs a job a command submits (`launchctl submit`), the pasteboard
 * hands over what the person copied, the keychain its items, Apple Events drive other applications.
 */
const MACH_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.opendirectoryd.membership",
  "com.apple.logd",
  "com.apple.system.logger",
  "com.apple.system.notification_center",
  "com.apple.bsd.dirhelper",
  "com.apple.PowerManagement.control",
];

/** With the network approved, also: name resolution, certificate trust (Go's and Swift's TLS), the network's configuration. */
const NETWORK_MACH_SERVICES = ["com.apple.dnssd.service", "com.apple.trustd", "com.apple.trustd.agent", "com.apple.SystemConfiguration.configd"];

/** The resolver's socket, the one Unix socket outside the workspace a command with the network may connect to. */
const RESOLVER_SOCKET = "/private/var/run/mDNSResponder";

const machLookup = (names: string[]) => `(allow mach-lookup ${names.map((n) => `(global-name ${q(n)})`).join(" ")})`;

/**
 * The macOS sandbox-exec (Seatbelt) profile with the same intent: reads of the system and the
 * workspace, writes only to the workspace, the temp directories and approved directories, never to
 * git's executable config or protected files, and no network unless approved. Pure; run by users
 * on macOS (`sandbox-exec -p PROFILE -- argv`).
 */
export function seatbeltProfile(p: SandboxPolicy): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork signal (target same-sandbox))",
    // Host statistics (libuv's os.cpus()), POSIX shared memory and semaphores (Python's multiprocessing).
    "(allow sysctl-read mach-host* ipc-posix-shm ipc-posix-sem)",
    machLookup(MACH_SERVICES),
    '(allow file-read* (subpath "/usr") (subpath "/bin") (subpath "/sbin") (subpath "/System") (subpath "/Library") (subpath "/opt") (subpath "/private/etc") (subpath "/dev") (literal "/"))',
    // Under those, package managers keep their services' state: databases and logs, never programs.
    `(deny file-read* ${SERVICE_STATE.map((d) => `(subpath ${q(d)})`).join(" ")})`,
    `(allow file-read* ${SERVICE_STATE.map((d) => `(subpath ${q(join(d, "homebrew"))})`).join(" ")})`,
    ...(p.visible ? p.visible.map((f) => `(allow file-read* (literal ${q(f)}))`) : [`(allow file-read* (subpath ${q(p.repository ?? p.root)}))`]),
    ...p.readable.map((r) => `(allow file-read* (subpath ${q(r)}))`),
    ...(p.credentials ?? []).map((c) => `(deny file-read* (subpath ${q(c.path)}))`),
    '(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))',
  ];
  if (p.temp) lines.push(`(deny file-write* (subpath ${q(p.temp.person)}))`, `(allow file-write* (subpath ${q(p.temp.command)}))`);
  if (p.mode === "workspace-write") {
    lines.push(`(allow file-write* (subpath ${q(p.root)}))`);
    for (const w of p.writable) lines.push(`(allow file-write* (subpath ${q(w)}))`);
  }
  // The same repositories as bubblewrap guards (guardBinds): the workspace's, those kept inside it, and any in a directory the person added.
  const repos = [p.root, ...(p.mode === "workspace-write" ? p.writable : []), ...(p.nested ?? [])];
  for (const g of [...repos.flatMap((r) => GIT_GUARDED.map((x) => join(r, x))), ...(p.guarded ?? []), ...(p.caches ?? []), ...(p.network ? [] : (p.environments ?? []))]) lines.push(`(deny file-write* (subpath ${q(g)}))`);
  lines.push(`(deny file-write-unlink (literal ${q(join(p.root, ".git"))}))`);
  for (const m of p.masked) lines.push(`(deny file-read* file-write* (literal ${q(m)}))`);
  // A directory the protected-file scan did not finish is hidden whole, as bubblewrap empties it: its secrets are unknown.
  for (const d of p.unscanned ?? []) lines.push(`(deny file-read* file-write* (subpath ${q(d)}))`);
  // Deny is the default; the network is allowed only when approved, and then not the Unix sockets
  // of the person's own services (an ssh-agent, Docker's socket), only the resolver's and the workspace's.
  if (p.network) {
    lines.push("(allow network*)", machLookup(NETWORK_MACH_SERVICES));
    lines.push('(deny network-outbound (remote unix-socket (path-regex #"^/")))');
    lines.push(`(allow network-outbound (remote unix-socket (path-literal ${q(RESOLVER_SOCKET)})) (remote unix-socket (subpath ${q(p.root)})))`);
  }
  return lines.join("\n");
}

/** How `argv` runs under the policy with the given sandbox. Pure. */
function wrapArgv(kind: SandboxKind, p: SandboxPolicy, argv: string[], cwd: string, program?: string): string[] {
  if (p.mode === "off" || kind === "none") return argv;
  if (kind === "bwrap") return bwrapArgv(p, argv, cwd, program);
  return [program ?? "/usr/bin/sandbox-exec", "-p", seatbeltProfile(p), "--", ...argv];
}

const NO_NETWORK = /Network is unreachable|ENETUNREACH|EAI_AGAIN|Could not resolve host|getaddrinfo|Temporary failure in name resolution|Name or service not known/i;
/** What the package managers say when OFFLINE_ENV told them there is no network. */
const OFFLINE = /ENOTCACHED|only-if-cached|--offline|can't (?:update|fetch).*offline|GOPROXY=off|module lookup disabled|No matching distribution found|(?:in|for) offline mode/i;

/** How a person shows commands a directory to read. */
const SHOW_IT = 'the user can show one to read with "sandbox": {"readable": ["DIR"]} in the user config';

/** How shells, launchers and `env` say a program was not found: each captures its name. */
const NOT_FOUND = [/([^\s:'"]+): (?:command )?not found/g, /command not found: (\S+)/g, /(?:failed to execute|execvp) ([^\s:]+):/g, /env: '?([^\s':]+)'?: No such file/g];

/**
 * A program the command could not start because it lives where the sandbox shows nothing, with
 * the line that says how to show it; undefined when no such program is named. Pure: `locate` finds
 * a name as the host's PATH does (and resolves links), `visible` says what commands see.
 */
export function hiddenProgram(output: string, program: string | undefined, locate: (name: string) => string | undefined, visible: (path: string) => boolean): string | undefined {
  const names = new Set([program, ...NOT_FOUND.flatMap((r) => [...output.matchAll(r)].map((m) => m[1]))]);
  for (const name of names) {
    const at = name ? locate(name) : undefined;
    if (at && !visible(at)) return `blocked by the sandbox: ${name} is ${at}, which commands cannot see; ${SHOW_IT.replace("DIR", dirname(at))}`;
  }
  return undefined;
}

/** The absolute paths a command's output names. Pure. */
const absolutePaths = (output: string): string[] => [...output.matchAll(/(?:^|[\s'"`(=:])(\/[^\s'"`):,]+)/g)].map((m) => m[1]!);

/** Whether a line names `path` or something under it as a path of its own, not as the tail of a longer one. Pure. */
function namesPath(line: string, path: string): boolean {
  for (let at = line.indexOf(path); at !== -1; at = line.indexOf(path, at + 1)) {
    const before = line[at - 1];
    const after = line[at + path.length];
    if ((before === undefined || /[\s'"`(:=]/.test(before)) && (after === undefined || !/[\w.-]/.test(after))) return true;
  }
  return false;
}

/**
 * Says in one line when a failure came from the sandbox, so the model can ask for a named widening
 * instead of retrying blindly. Pure.
 */
export function sandboxBlock(output: string, p: SandboxPolicy, run?: { program?: string; exitCode?: number | null }): string | undefined {
  if (p.mode === "off") return undefined;
  // Quiet network clients say it only by their exit code (curl 6/7, wget 4).
  const prog = run?.program?.split("/").pop();
  const quietNetwork = (prog === "curl" && (run?.exitCode === 6 || run?.exitCode === 7)) || (prog === "wget" && run?.exitCode === 4);
  if (!p.network && quietNetwork) return "blocked by the sandbox: network (ask for it with widen.network, which needs the user's approval or --allow-network)";
  if (!p.network && (NO_NETWORK.test(output) || OFFLINE.test(output)))
    return "blocked by the sandbox: network (ask for it with widen.network, which needs the user's approval or --allow-network)";
  // With the network a command makes no Unix socket (unixSocketFilter): the refusal names a socket.
  if (p.network && /socket/i.test(output) && /EACCES|Permission denied/i.test(output))
    return "blocked by the sandbox: a command with the network makes no Unix sockets (they would reach the user's own services); run what needs them without widen.network";
  // Outside the workspace the host is not there at all: a missing path outside it is the sandbox's doing.
  if (/No such file or directory|Directory nonexistent|ENOENT|cannot access|can't cd/i.test(output)) {
    const outside = absolutePaths(output).find((x) => !inside(p.root, x) && !SYSTEM.some((d) => x === d || x.startsWith(`${d}/`)) && !p.writable.some((w) => inside(w, x)));
    if (outside) return `blocked by the sandbox: ${outside} is outside the workspace and not visible to commands; ${SHOW_IT}; a directory to write needs --add-dir DIR (or widen.dir, which asks the user)`;
  }
  if (p.limits && /Resource temporarily unavailable|fork: retry|EAGAIN/.test(output))
    return `blocked by the sandbox: a command may run at most ${p.limits.processes} processes at once`;
  if (p.limits && /Cannot allocate memory|MemoryError|out of memory|ENOMEM|bad_alloc/i.test(output))
    return `blocked by the sandbox: a command may use at most ${Math.round(p.limits.memoryBytes / 2 ** 30)} GiB of memory`;
  if (/Read-only file system|EROFS/.test(output)) {
    // Installed dependencies, read-only without the network: a line that refused a write names one.
    const refusals = output.split("\n").filter((l) => /Read-only file system|EROFS/.test(l));
    const env = p.network ? undefined : p.environments?.find((e) => refusals.some((l) => namesPath(l, e) || namesPath(l, relative(p.root, e))));
    if (env) return `blocked by the sandbox: ${relative(p.root, env)} holds installed dependencies, which a command changes only with the network (their code runs at the user's next command, and git does not show it); to install, ask for widen.network, which the user approves`;
    // A build that writes at the top of the repository the workspace lies in (a Cargo or Gradle workspace's lock and output).
    const above = p.repository ? absolutePaths(output).find((x) => inside(p.repository!, x) && !inside(p.root, x)) : undefined;
    if (above) return `blocked by the sandbox: ${above} is in the repository above the workspace, which commands see read-only; to build there, start weir at ${p.repository} or allow it with --add-dir ${p.repository}`;
    // A tool that writes its cache in the home (Maven's local repository, with the network allowed): shown read-only.
    const cache = p.home ? absolutePaths(output).find((x) => inside(p.home, x) && !inside(p.root, x)) : undefined;
    if (cache) return `blocked by the sandbox: ${cache} is in your home, whose toolchain directories commands see read-only; to let a build write there, the user can allow its directory with --add-dir DIR`;
    return p.visible
      ? "blocked by the sandbox: a worker's commands see the workspace read-only; change files with write_file or edit_file inside your write scope"
      : p.mode === "read-only"
      ? "blocked by the sandbox: the workspace is read-only in --sandbox read-only"
      : "blocked by the sandbox: write outside the workspace, to git's metadata (.git/hooks, config, info, modules), " +
        "to a file other tools run later (.vscode, .husky, AGENTS.md, a dotfile your home links to …: write it with write_file, which asks the user) " +
        "or to a protected file; an extra directory needs --add-dir DIR";
  }
  return undefined;
}

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

/** Whether this bubblewrap knows `--disable-userns` (0.8 and later). I/O: asks it its version, once. */
const userNsFlag = new Map<string, boolean>();
const knowsUsernsFlag = (version: string): boolean => {
  const v = /(\d+)\.(\d+)/.exec(version);
  return v ? Number(v[1]) > 0 || Number(v[2]) >= 8 : false;
};
export function bwrapDisablesUserns(program: string): boolean {
  let known = userNsFlag.get(program);
  if (known === undefined) {
    known = knowsUsernsFlag(Bun.spawnSync([program, "--version"], { stdout: "pipe", stderr: "ignore" }).stdout.toString());
    userNsFlag.set(program, known);
  }
  return known;
}

/** Asks bubblewrap its version in the background, so the first sandboxed command need not wait for it. */
function askBwrapVersion(program: string): void {
  if (userNsFlag.has(program)) return;
  try {
    const p = Bun.spawn([program, "--version"], { stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    void new Response(p.stdout).text().then((out) => {
      if (!userNsFlag.has(program)) userNsFlag.set(program, knowsUsernsFlag(out));
    }, () => undefined);
  } catch {
    // asked again, synchronously, when a command needs it
  }
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

interface ProtectedScan {
  /** Protected files found (absolute). */
  files: string[];
  /** Dependency environments found (absolute), the outermost of each nest. */
  environments: string[];
  /** Directories not read before the time ran out (absolute): treated as protected whole. */
  unscanned: string[];
  /** The directories read outside any environment (absolute), and when the scan began (ms since the epoch). */
  dirs: string[];
  at: number;
  /** Repositories of their own inside the workspace (a clone kept in it): the directories holding a `.git`. */
  repositories: string[];
  /**
   * Directories outside any `.git` that git takes for repositories themselves (`looksLikeGitDirectory`:
   * a bare clone kept in the workspace): their git parts are guarded as a `.git`'s are.
   */
  gitDirectories: string[];
  /** Python's bytecode directories (`__pycache__`) outside the environments. */
  caches: string[];
}

/**
 * Protected files present in the workspace (dotenv files and their variants, keys, credentials),
 * to bind over /dev/null: every depth, vendored directories included, only `.git` skipped (commands
 * see it through git's own guards). Bounded by time, not by count; whatever was not read in time is
 * returned as unscanned, so the caller can hide it. The same walk finds the dependency environments.
 * I/O: reads directories, never follows links.
 */
function protectedFilesIn(root: string, home: string, budgetMs = 3_000): ProtectedScan {
  const at = Date.now();
  const files: string[] = [];
  const environments: string[] = [];
  const dirs: string[] = [];
  const repositories: string[] = [];
  const gitDirectories: string[] = [];
  const caches: string[] = [];
  // Each directory with whether it lies in an environment already found (only the outermost is kept).
  const queue: { dir: string; within: boolean }[] = [{ dir: root, within: false }];
  const deadline = performance.now() + budgetMs;
  while (queue.length > 0) {
    if (performance.now() > deadline) return { files, environments, unscanned: queue.map((q) => q.dir), dirs, at, repositories, gitDirectories, caches };
    const { dir, within: above } = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing of it can be read by a command either
    }
    const found = above ? undefined : environmentsAmong(dir, entries, dir === root);
    // A virtualenv is guarded in its parts that run; its top stays writable for the lock and
    // temporary files uv keeps there at every `uv run`.
    const marked = found?.dirs[0] === dir;
    const venv = marked && entries.some((e) => e.name === "pyvenv.cfg");
    if (found) environments.push(...(venv ? entries.filter((e) => VENV_PARTS.includes(e.name)).map((e) => join(dir, e.name)) : found.dirs));
    // A node_modules that links to a directory of the workspace makes that directory the environment.
    for (const link of found?.links ?? []) {
      const target = resolvedInside(root, link);
      if (target && !environments.includes(target)) environments.push(target);
    }
    const within = above || marked;
    if (!within) dirs.push(dir);
    if (!within && dir.endsWith(`/${PYTHON_CACHE}`)) caches.push(dir);
    // git's own files of a repository kept inside the workspace run at the person's git there, as the workspace's do.
    if (dir !== root && entries.some((e) => e.name === ".git")) repositories.push(dir);
    // Installed dependencies are their own (an install rewrites them whole); what git takes for a repository elsewhere is guarded.
    if (!within && !relative(root, dir).split(sep).includes(".git") && looksLikeGitDirectory(entries)) gitDirectories.push(dir);
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (!(dir === root && e.name === ".git")) queue.push({ dir: abs, within: within || found?.dirs.includes(abs) === true });
      } else if (protectedReason(relative(root, abs), abs, home)) files.push(abs);
    }
  }
  return { files, environments, unscanned: [], dirs, at, repositories, gitDirectories, caches };
}

/** Where a link leads when that is a directory inside `root` (links resolved), else undefined. I/O. */
function resolvedInside(root: string, link: string): string | undefined {
  try {
    const real = realpathSync(link);
    return real !== root && inside(root, real) && statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dependency environments a directory's entries make: the directory itself when it holds a
 * marker (`pyvenv.cfg`, `conda-meta`; never the workspace root), else the entries named as one
 * (`ENVIRONMENT_NAMES`: `node_modules`, Yarn's); and the `node_modules` links. Pure.
 */
function environmentsAmong(dir: string, entries: Dirent[], top: boolean): { dirs: string[]; links: string[] } {
  const links = entries.filter((e) => e.isSymbolicLink() && e.name === ENVIRONMENT_DIR).map((e) => join(dir, e.name));
  if (!top && entries.some((e) => (ENVIRONMENT_MARKERS as readonly string[]).includes(e.name))) return { dirs: [dir], links };
  return { dirs: entries.filter((e) => !e.isSymbolicLink() && ENVIRONMENT_NAMES.has(e.name)).map((e) => join(dir, e.name)), links };
}

/**
 * What a command made in the workspace since `since` that runs at the person's next command, by
 * birth time: dependency environments (and `node_modules` links), and `.git` directories and files
 * below the root (a repository of its own whose hooks or config would run at the person's git
 * there). Only what changed since `scan` is read: a directory whose modification time is the
 * scan's or later (an entry came or went), and whatever directory is new below it; the known
 * environments (read-only to the command) and the root's `.git` are not entered. Gives up after
 * `budgetMs`. I/O: a stat of each directory the scan read, and the reads of those that changed.
 */
function madeSince(root: string, scan: ProtectedScan, since: number, budgetMs = 3_000): { environments: string[]; gits: string[]; bytecode: string[]; madeRepository: string[] } {
  const known = new Set(scan.dirs);
  const skip = new Set([join(root, ".git"), ...scan.environments]);
  const environments: string[] = [];
  const gits: string[] = [];
  const bytecode: string[] = [];
  const madeRepository: string[] = [];
  const queue = scan.dirs.filter((d) => inside(root, d) && stampedSince(d, "mtimeMs", scan.at));
  const deadline = performance.now() + budgetMs;
  while (queue.length > 0 && performance.now() < deadline) {
    const dir = queue.shift()!;
    // A directory the command replaced by a link (to the person's home, say) is not the workspace's to read or clean.
    if (linkOnTheWay(root, dir, true)) continue;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const found = environmentsAmong(dir, entries, dir === root);
    environments.push(...[...found.dirs, ...found.links].filter((e) => !skip.has(e) && !environments.includes(e) && bornSince(e, since)));
    if (dir !== root) gits.push(...entries.filter((e) => e.name === ".git" && bornSince(join(dir, e.name), since)).map((e) => join(dir, e.name)));
    // A directory git now takes for a repository itself: one the command made is its repository, a
    // directory of the person's made into one loses what made it so.
    if (!relative(root, dir).split(sep).includes(".git") && looksLikeGitDirectory(entries)) {
      if (bornSince(dir, since)) gits.push(dir);
      else madeRepository.push(...["HEAD", "objects", "refs"].map((n) => join(dir, n)).filter((p) => bornSince(p, since)));
    }
    // Python loads bytecode in place of its source only from a __pycache__ beside it.
    if (basename(dir) === PYTHON_CACHE) bytecode.push(...entries.filter((e) => e.isFile() && e.name.endsWith(".pyc") && stampedSince(join(dir, e.name), "ctimeMs", since)).map((e) => join(dir, e.name)));
    if (found.dirs[0] === dir) continue; // an environment: what is below it is its own
    // A directory the scan did not know is new: read it whole.
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory() && e.name !== ".git" && !skip.has(abs) && !known.has(abs) && !environments.includes(abs)) {
        known.add(abs);
        queue.push(abs);
      }
    }
  }
  return { environments, gits, bytecode, madeRepository };
}

/** What of a `.git` a command made below the root must go: a file naming a git directory whole, a new repository's risks (`newRepositoryRisks`). I/O. */
function madeGitRisks(git: string): string[] {
  try {
    return lstatSync(git).isDirectory() ? newRepositoryRisks(git) : [git];
  } catch {
    return [];
  }
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

/**
 * A sandboxed command's result: `undone` names what weir removed after it (created where commands
 * may not write), `installed` the dependency environments it removed because the command made them
 * without the network, `restored` the package.json files it put back because the command changed what the
 * next install runs (install scripts, workspaces, a new workspace package with install scripts).
 */
type SandboxRun = ProgramRun & { undone: string[]; restored?: string[]; installed?: string[]; relinked?: string[]; held?: Settled };

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
function floorAt(path: string, given: { bytes?: number; inodes?: number } = {}): { diskFloor: { path: string; bytes: number; inodes?: number } } | Record<string, never> {
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

/**
 * How protected files are hidden: each over /dev/null, a protected link by what it leads to when
 * `sees` shows that (`maskable`), a directory by emptying it. Pure.
 */
function hiddenPaths(files: string[], sees: (p: string) => boolean): { masked: string[]; emptied: string[] } {
  const hidden = files.flatMap((f) => maskable(f, sees) ?? []);
  return { masked: hidden.filter((h) => !h.dir).map((h) => h.path), emptied: hidden.filter((h) => h.dir).map((h) => h.path) };
}

/**
 * The guards of a workspace shown to a process that is not a command (an MCP server given it), as
 * commands have them: what other tools run later and the hooks directory read-only, installed
 * dependencies read-only without the network, protected files hidden. For `guardBinds`. I/O: scans
 * the workspace.
 */
export function workspaceGuards(root: string, home: string, sees: (p: string) => boolean): WorkspaceGuards {
  const scan = protectedFilesIn(root, home);
  const hidden = hiddenPaths(scan.files, sees);
  const guarded = guardedOutsideGit(root, home, scan);
  const onPath = programsOnPath(root);
  return {
    guarded,
    linked: [...GIT_GUARDED.map((g) => join(root, g)), ...guarded].filter((g) => linkOut(root, g)),
    environments: scan.environments,
    caches: scan.caches,
    masked: hidden.masked,
    unscanned: [...scan.unscanned, ...hidden.emptied],
    sweep: (since, network) => sweepWorkspace(root, home, since, scan, network, onPath),
  };
}

/** A workspace's guards for a process that is not a command (`workspaceGuards`). */
interface WorkspaceGuards extends Pick<SandboxPolicy, "guarded" | "linked" | "environments" | "caches" | "masked" | "unscanned"> {
  /** Removes what the process made since `since` (ms) that no command may leave behind (`sweepWorkspace`); returns it. */
  sweep(since: number, network: boolean): string[];
}

/**
 * What a process shown the workspace for longer than a command (an MCP server) made since `since`
 * that no command may leave behind: files other tools run later (`AUTORUN_PATHS`, the hooks
 * directory), a repository of its own's risks, programs that shadow the person's on their PATH
 * and were not there when it started (`shadowingPrograms` against `onPath`) and, without the
 * network, dependency environments, told by birth time. They are removed; returns them,
 * workspace-relative. I/O.
 */
function sweepWorkspace(root: string, home: string, since: number, scan: ProtectedScan, network: boolean, onPath: Set<string>): string[] {
  const below = madeSince(root, scan, since);
  const guarded = guardedOutsideGit(root, home, scan);
  const made = [...guarded.filter((g) => bornSince(g, since)), ...(network ? [] : below.environments), ...below.gits.flatMap(madeGitRisks), ...below.bytecode, ...below.madeRepository, ...shadowingPrograms(root, onPath)];
  return removeAll(root, made, since).map((m) => relative(root, m));
}

/**
 * Guarded workspace paths beyond `.git` (bound by `bwrapOptions` itself): what the git config names
 * (`gitConfigured`) of the workspace's repository (a linked worktree's too), of each repository kept
 * inside it, and of the repository it is a directory of (a monorepo's package), the git parts
 * (`GIT_DIRECTORY_PARTS`) of the git directories outside `.git` the scan found, `AUTORUN_PATHS`, and
 * what the person's own git config names and their home links to or their startup files read
 * (`personalGitConfigured`, `homeReads`: shared hooks, dotfiles kept in the workspace or sourced,
 * included by a startup file), and the programs in the workspace's PATH directories that run
 * instead of others of the person's (`shadowingPrograms` of all there: a `bin/git` wrapper of theirs).
 */
function guardedOutsideGit(root: string, home: string, scan: ProtectedScan): string[] {
  const repositories = [root, ...scan.repositories.filter((r) => inside(root, r))];
  const above = enclosingRepository(root, home);
  const configured = [...[...repositories, ...(above ? [above] : [])].flatMap((r) => gitConfigured(r, home)), ...personalGitConfigured(home)];
  const named = configured.filter((p) => inside(root, p) && p !== root);
  const gitDirectories = scan.gitDirectories.filter((d) => inside(root, d));
  return [...named, ...gitDirectories.flatMap((d) => GIT_DIRECTORY_PARTS.map((x) => join(d, x))), ...AUTORUN_PATHS.map((a) => join(root, a)), ...homeReads(root, home).keys(), ...shadowingPrograms(root, new Set())];
}

/** What is at `path` itself (links not followed), or undefined when nothing is or a file stands on the way. I/O. */
function entryAt(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Removes what a command left that must go, never through a link (`removeInside` of atomic.ts): a
 * path with a link on the way is removed where the link leads inside the workspace, and otherwise
 * the link goes, when the command made it, while what it leads to stays. Returns what was removed. I/O.
 */
function removeAll(root: string, paths: string[], since: number): string[] {
  const removed = new Set<string>();
  const rel = (p: string) => relative(root, p).split(sep).join("/");
  for (const p of paths) {
    if (removed.has(p)) continue;
    const { link } = removeInside(root, rel(p));
    if (!link) {
      removed.add(p);
      continue;
    }
    const real = resolvedInside(root, dirname(p));
    const target = real ? join(real, basename(p)) : bornSince(link, since) ? link : undefined;
    if (!target || removed.has(target) || removeInside(root, rel(target)).link) continue;
    removed.add(target);
  }
  return [...removed];
}

/** Whether `path` is a link leading out of `root`, or nowhere: bubblewrap cannot bind onto it. I/O. */
function linkOut(root: string, path: string): boolean {
  if (!entryAt(path)?.isSymbolicLink()) return false;
  try {
    return !inside(root, realpathSync(path));
  } catch {
    return true;
  }
}

/** Puts the link `path` back, naming `target`, when a command replaced or changed it; whether it did. I/O. */
function relink(root: string, path: string, target: string): boolean {
  if (entryAt(path)?.isSymbolicLink() && readlinkSync(path) === target) return false;
  if (linkOnTheWay(root, path) || removeInside(root, relative(root, path).split(sep).join("/")).link) return false;
  symlinkSync(target, path);
  return true;
}

/**
 * Puts a package.json back as it was (`text` undefined: it was not there), inside the workspace only:
 * where its directory became a link, the link goes if the command made it. Whether that worked.
 */
function putBack(root: string, path: string, text: string | undefined, since: number): boolean {
  if (linkOnTheWay(root, path)) return removeAll(root, [path], since).length > 0;
  const rel = relative(root, path).split(sep).join("/");
  try {
    // What stands there now that is not a file (a directory, a link to the person's other project's) goes first.
    if (text === undefined || !entryAt(path)?.isFile()) removeInside(root, rel);
    if (text !== undefined) writeFileInside(root, rel, text);
    return true;
  } catch {
    return false;
  }
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

/**
 * What of a Python virtualenv runs: its programs and activation scripts, its packages (where a
 * `.pth` file runs at every start of its python) and its configuration. Windows names them too.
 */
const VENV_PARTS = ["bin", "Scripts", "lib", "lib64", "Lib", "include", "Include", "pyvenv.cfg"];

/** The name of Python's bytecode directories. */
const PYTHON_CACHE = "__pycache__";

/**
 * Whether a path's `stamp` is `since` (ms since the epoch) or later: made (birth time), changed in
 * any way, set-back times included (status-change time), or its entries changed (modification
 * time, for a directory). The kernel stamps with a clock up to a tick (10 ms at most) behind the
 * process's, hence the slack; a file system that keeps no such time says no. I/O: one lstat.
 */
function stampedSince(path: string, stamp: "birthtimeMs" | "ctimeMs" | "mtimeMs", since: number): boolean {
  try {
    const at = lstatSync(path)[stamp];
    return at > 0 && at >= since - 15;
  } catch {
    return false;
  }
}

const bornSince = (path: string, since: number) => stampedSince(path, "birthtimeMs", since);

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
      const repos = [o.root, ...scan.repositories.filter((r) => inside(o.root, r))];
      const watched = writes ? [...repos.flatMap((r) => GIT_GUARDED.map((g) => join(r, g))), ...guarded] : [];
      const before = new Set(watched.filter((w) => existsSync(w)));
      const onPath = writes ? programsOnPath(o.root) : new Set<string>();
      const links = new Map(watched.filter((w) => linkOut(o.root, w)).map((w) => [w, readlinkSync(w)]));
      // The package.json files the next install runs scripts from, as they were: the root's and its workspace packages'.
      const globs = writes ? workspaceGlobs(wholeText(join(o.root, "package.json")), wholeText(join(o.root, "pnpm-workspace.yaml"))) : [];
      const manifests = new Map(writes ? installManifests(o.root, globs).map((m) => [m, wholeText(m)] as const) : []);
      const gitDir = join(o.root, ".git");
      const hadGit = existsSync(gitDir);
      let spawned: { program: string; args: string[]; fds?: number[] };
      let optionsFile: string | undefined;
      let commandTemp: string | undefined;
      // The command as a transaction: it writes a view, whose change set is settled after it.
      const tools = writes && detected.kind === "bwrap" && o.transactions ? viewTools(o.transactions.dir, o.root) : null;
      const view = tools ? o.transactions!.open() : undefined;
      if (detected.kind === "bwrap") {
        const ids = view ? { ids: { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 } } : {};
        const p = { ...policy(widen?.network === true, widen?.dir, guarded), linked: [...links.keys()], ...ids };
        if (extra?.length) p.readable = [...p.readable, ...extra];
        optionsFile = join(mkdtempSync(join(tmpdir(), "weir-bwrap-")), "options");
        writeFileSync(optionsFile, `${bwrapOptions(p, rest.cwd).join("\0")}\0`, { mode: 0o600 });
        const filter = p.network && p.seccomp ? [openSync(p.seccomp, "r")] : [];
        const inner = [detected.program ?? "bwrap", "--args", "3", "--", ...limited(p, argv)];
        const [program, ...args] = view && tools ? viewArgv(tools, o.root, view, o.transactions!.lowerNames(), inner, o.transactions!.dir) : inner;
        spawned = { program: program!, args, fds: [openSync(optionsFile, "r"), ...filter] };
      } else {
        // sandbox-exec: the command gets a temporary directory of its own (SandboxPolicy.temp).
        const person = realpathSync(tmpdir());
        commandTemp = mkdtempSync(join(person, "weir-command-"));
        const p = { ...policy(widen?.network === true, widen?.dir, guarded), temp: { person, command: commandTemp } };
        const [program, ...args] = wrapArgv(detected.kind, p, argv, rest.cwd, detected.program);
        spawned = { program: program!, args };
      }
      // A pids cgroup holds the process limit for root too, which prlimit cannot; the command joins it before it starts.
      const cgroup = detected.kind === "bwrap" ? processCgroup(o.processes ?? limits?.processes ?? 4_096) : undefined;
      if (cgroup) {
        const [program, ...args] = inCgroup(cgroup, [spawned.program, ...spawned.args]);
        spawned = { ...spawned, program: program!, args };
      }
      let result: ProgramRun;
      const started = Date.now();
      try {
        // Under either sandbox python writes no bytecode (what a command writes anyway is removed after it).
        const env = { ...rest.env, PYTHONDONTWRITEBYTECODE: "1", ...(commandTemp ? { TMPDIR: commandTemp } : {}) };
        result = await runProgram({ ...rest, env, ...spawned, ...floorAt(view?.upper ?? o.root, { bytes: o.diskFloorBytes, inodes: o.diskFloorInodes }) });
      } finally {
        for (const fd of spawned.fds ?? []) closeSync(fd);
        if (optionsFile) rmSync(resolve(optionsFile, ".."), { recursive: true, force: true });
        if (commandTemp) rmSync(commandTemp, { recursive: true, force: true });
        if (cgroup) releaseCgroup(cgroup);
      }
      // Every process of the command is gone: its view's upper layer is the exact change set.
      if (view) {
        const settled = await o.transactions!.settle(view, { network: widen?.network === true, command: argv.join(" ") });
        return { ...result, undone: [], ...(settled.held.length ? { held: settled } : {}) };
      }
      // Whatever the command created among the guarded paths goes: it would run or instruct later. A
      // repository the command made (git init) is its own, less what would run at the person's next git.
      const undone = watched.filter((w) => !before.has(w) && existsSync(w) && (hadGit || !inside(gitDir, w)));
      if (!hadGit && writes) undone.push(...newRepositoryRisks(gitDir));
      // What the command made below the root: a repository of its own, a dependency environment.
      const made = writes ? madeSince(o.root, scan, started) : { environments: [], gits: [], bytecode: [], madeRepository: [] };
      // A program it put in a directory of the person's PATH that shadows one of theirs (a bin/git) goes too.
      undone.push(...made.gits.flatMap(madeGitRisks), ...made.bytecode, ...made.madeRepository, ...(writes ? shadowingPrograms(o.root, onPath) : []));
      const removed = removeAll(o.root, undone, started);
      // A package.json whose install scripts or workspaces the command changed (or a new package with
      // install scripts) is put back as it was: the next npm install would run them outside any sandbox.
      const now = writes ? installManifests(o.root, globs) : [];
      const restored = [...new Set([...manifests.keys(), ...now])].filter((m) => installScripts(wholeText(m)) !== installScripts(manifests.get(m)) && putBack(o.root, m, manifests.get(m), started));
      // A dependency environment the command made without the network goes too (an install from a
      // cache, a node_modules planted beside the code to shadow the installed one): git would not
      // show it, and the person's next command would run it.
      const installed = widen?.network !== true ? removeAll(o.root, made.environments, started) : [];
      // A guarded link the command replaced or changed (not bound: SandboxPolicy.linked) is put back.
      const relinked = [...links].filter(([w, target]) => relink(o.root, w, target)).map(([w]) => w);
      return {
        ...result,
        undone: removed.map((w) => relative(o.root, w)),
        ...(restored.length ? { restored: restored.map((m) => relative(o.root, m)) } : {}),
        ...(installed.length ? { installed: installed.map((e) => relative(o.root, e)) } : {}),
        ...(relinked.length ? { relinked: relinked.map((w) => relative(o.root, w)) } : {}),
      };
    },
    hides: (program) => (active ? explainHidden("", program) : undefined),
    // sandboxBlock needs no new protected-file scan or toolchain list: only the last scan's environments play a part in its lines.
    explain(output, widen, run) {
      if (!active) return undefined;
      const environments = scan.environments.filter((e) => inside(o.root, e));
      const p: SandboxPolicy = { mode: o.mode, root: o.root, home: o.home, network: widen?.network === true, writable: o.writable ?? [], readable: [], masked: [], environments };
      const more = { ...(limits ? { limits } : {}), ...(o.visible ? { visible: [] } : {}), ...(repository ? { repository } : {}) };
      return explainHidden(output, run?.program) ?? sandboxBlock(output, { ...p, ...more }, run);
    },
    describe: () =>
      o.mode === "off"
        ? "the command sandbox is off (--sandbox off): commands run with your full rights"
        : active
          ? `commands run in ${detected.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"} (${o.mode}): the workspace ${o.mode === "read-only" ? "read-only" : "writable"}, no network, the home hidden but for your toolchains (read-only)`
          : "no OS sandbox here (install bubblewrap on Linux): every command asks before it runs",
  };
}

/**
 * In a repository a command just created: hooks that are not git's samples, a commondir, and the
 * whole repository when its config names a program to run or is a link, or when the `.git` is a file
 * or a link. I/O: reads the new `.git`, never through a link.
 */
function newRepositoryRisks(gitDir: string): string[] {
  const entry = entryAt;
  const dir = entry(gitDir);
  if (!dir) return [];
  // A .git that is a file or a link names another git directory, whose config git then reads.
  if (!dir.isDirectory()) return [gitDir];
  const config = entry(join(gitDir, "config"));
  // git follows a linked config; weir does not read through it.
  if (config && !config.isFile()) return [gitDir];
  try {
    if (config && runsPrograms(readRegularFile(join(gitDir, "config"), "utf8"))) return [gitDir];
  } catch {
    // unreadable: nothing in it git could read either
  }
  const hooks = join(gitDir, "hooks");
  const hooksEntry = entry(hooks);
  // A linked hooks directory goes whole; weir never lists, let alone removes, what it leads to.
  const planted = !hooksEntry ? [] : hooksEntry.isDirectory() ? readdirSync(hooks).filter((h) => !h.endsWith(".sample")).map((h) => join(hooks, h)) : [hooks];
  return [...planted, ...[join(gitDir, "commondir")].filter((c) => entry(c) !== undefined)];
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
