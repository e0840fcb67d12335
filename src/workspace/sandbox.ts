import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { inside, protectedReason } from "./containment.ts";

/**
 * The OS sandbox every process weir starts runs in (run_command, shell, verify, weir's own git).
 * The kernel is the boundary, not a list of program names: on Linux bubblewrap (mount, pid, ipc, uts
 * and network namespaces), on macOS a sandbox-exec profile with the same intent. Building the
 * sandbox is pure (`bwrapArgv`, `seatbeltProfile`); detecting and spawning are the only I/O.
 *
 * Inside, by mode:
 * - system directories read-only, nothing else of the host visible (a canary outside the workspace
 *   cannot be read);
 * - the workspace read-write (`workspace-write`) or read-only (`read-only`), except `.git/hooks`,
 *   `.git/config` and `.git/info` (always read-only: no planted hooks, fsmonitor or filters) and the
 *   protected files present (bound over /dev/null);
 * - a private /tmp; $HOME an empty directory plus a short read-only allow-list of toolchain caches;
 *   weir's config and data directories are never visible;
 * - its own pid namespace (weir and its environment are not in /proc) and session, killed whole
 *   when weir stops it or exits;
 * - no network unless approved.
 */
export type SandboxMode = "read-only" | "workspace-write" | "off";
export type SandboxKind = "bwrap" | "seatbelt" | "none";

export interface SandboxPolicy {
  mode: SandboxMode;
  /** Canonical workspace root. */
  root: string;
  /** The user's home: replaced by an empty directory inside. */
  home: string;
  network: boolean;
  /** Extra writable directories (`--add-dir`). */
  writable: string[];
  /** Home entries visible read-only (absolute paths). */
  readable: string[];
  /** Files inside the workspace bound over /dev/null (protected files). */
  masked: string[];
  /**
   * A worker whose reads are scoped: only these workspace files (absolute) exist inside, read-only;
   * the rest of the workspace is an empty directory. Absent: the whole workspace, by `mode`.
   */
  visible?: string[];
}

/**
 * Home entries toolchains read (package stores, version managers); read-only, configurable with
 * `sandbox.readable`. `~/.cache` is left out on purpose: build caches (Go's, pip's) must be
 * writable, and a writable shared cache would let one command plant something the next one runs,
 * so each command gets an empty, private one.
 */
export const DEFAULT_HOME_READABLE = [".npm", ".bun", ".cargo", ".rustup", ".pyenv", ".nvm", ".volta", ".deno", ".gradle", ".m2", "go", ".gitconfig"];

/** Read-only system directories; each is bound only where it exists. */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/run/current-system"];

/** Parts of `.git` a command may never change: what git executes or how it reads the tree. */
const GIT_READ_ONLY = [".git/hooks", ".git/config", ".git/info"];

/** The bubblewrap argv that runs `argv` in `cwd` under the policy. Pure. */
export function bwrapArgv(p: SandboxPolicy, argv: string[], cwd: string, bwrap = "bwrap"): string[] {
  const a: string[] = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  if (!p.network) a.push("--unshare-net");
  for (const d of SYSTEM) a.push("--ro-bind-try", d, d);
  a.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp");
  // The home: empty unless the workspace is the home itself (then its dot-directories are protected paths).
  const homeShown = p.home !== "" && !inside(p.root, p.home);
  if (homeShown) {
    a.push("--tmpfs", p.home);
    for (const r of p.readable) if (inside(p.home, r)) a.push("--ro-bind-try", r, r);
  }
  if (p.visible) {
    // A fresh tmpfs at the root holds only the bound files (bubblewrap creates the directories on the
    // way); it is then made read-only, so a write fails loudly instead of vanishing with the sandbox.
    a.push("--tmpfs", p.root);
    for (const f of p.visible) if (inside(p.root, f) && !p.masked.includes(f)) a.push("--ro-bind-try", f, f);
    a.push("--remount-ro", p.root);
  } else {
    a.push(p.mode === "workspace-write" ? "--bind" : "--ro-bind", p.root, p.root);
    for (const g of GIT_READ_ONLY) a.push("--ro-bind-try", join(p.root, g), join(p.root, g));
    for (const m of p.masked) a.push("--ro-bind-try", "/dev/null", m);
  }
  if (p.mode === "workspace-write") for (const w of p.writable) a.push("--bind-try", w, w);
  a.push("--chdir", cwd);
  if (homeShown) a.push("--setenv", "HOME", p.home);
  a.push("--setenv", "TMPDIR", "/tmp", "--", ...argv);
  return a;
}

const q = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

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
    "(allow sysctl-read mach-lookup ipc-posix-shm)",
    '(allow file-read* (subpath "/usr") (subpath "/bin") (subpath "/sbin") (subpath "/System") (subpath "/Library") (subpath "/opt") (subpath "/private/etc") (subpath "/dev") (literal "/"))',
    ...(p.visible ? p.visible.map((f) => `(allow file-read* (literal ${q(f)}))`) : [`(allow file-read* (subpath ${q(p.root)}))`]),
    ...p.readable.map((r) => `(allow file-read* (subpath ${q(r)}))`),
    '(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))',
  ];
  if (p.mode === "workspace-write") {
    lines.push(`(allow file-write* (subpath ${q(p.root)}))`);
    for (const w of p.writable) lines.push(`(allow file-write* (subpath ${q(w)}))`);
  }
  for (const g of GIT_READ_ONLY) lines.push(`(deny file-write* (subpath ${q(join(p.root, g))}))`);
  for (const m of p.masked) lines.push(`(deny file-read* file-write* (literal ${q(m)}))`);
  // Deny is the default; the network is allowed only when approved.
  if (p.network) lines.push("(allow network*)");
  return lines.join("\n");
}

/** How `argv` runs under the policy with the given sandbox. Pure. */
export function wrapArgv(kind: SandboxKind, p: SandboxPolicy, argv: string[], cwd: string, program?: string): string[] {
  if (p.mode === "off" || kind === "none") return argv;
  if (kind === "bwrap") return bwrapArgv(p, argv, cwd, program);
  return [program ?? "/usr/bin/sandbox-exec", "-p", seatbeltProfile(p), "--", ...argv];
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
  if (!p.network && /Network is unreachable|ENETUNREACH|EAI_AGAIN|Could not resolve host|getaddrinfo|Temporary failure in name resolution|Name or service not known|network is unreachable/i.test(output))
    return "blocked by the sandbox: network (ask for it with widen.network, which needs the user's approval or --allow-network)";
  // Outside the workspace the host is not there at all: a missing path outside it is the sandbox's doing.
  if (/No such file or directory|Directory nonexistent|ENOENT|cannot access|can't cd/i.test(output)) {
    const outside = [...output.matchAll(/(?:^|[\s'"`(=:])(\/[^\s'"`):,]+)/g)].map((m) => m[1]!).find((x) => !inside(p.root, x) && !SYSTEM.some((d) => x === d || x.startsWith(`${d}/`)) && !p.writable.some((w) => inside(w, x)));
    if (outside) return `blocked by the sandbox: ${outside} is outside the workspace and not visible to commands; a directory to write needs --add-dir DIR (or widen.dir, which asks the user)`;
  }
  if (/Read-only file system|EROFS/.test(output))
    return p.visible
      ? "blocked by the sandbox: a worker's commands see the workspace read-only; change files with write_file or edit_file inside your write scope"
      : p.mode === "read-only"
      ? "blocked by the sandbox: the workspace is read-only in --sandbox read-only"
      : "blocked by the sandbox: write outside the workspace (or to .git/hooks, .git/config, a protected file); an extra directory needs --add-dir DIR";
  return undefined;
}

/**
 * A directory a command asks to write, canonical; undefined when it is missing, not absolute, or
 * too broad to open (the filesystem root, the home itself). Looked up on disk.
 */
export function widenableDir(dir: string, home: string): string | undefined {
  if (!isAbsolute(dir)) return undefined;
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory() || real === "/" || real === home) return undefined;
    return real;
  } catch {
    return undefined;
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

/**
 * Protected files present in the workspace (dotenv files and their variants, keys, credentials),
 * to bind over /dev/null. Bounded: the top levels of the tree, skipping dependency directories.
 */
export function protectedFilesIn(root: string, home: string, maxDepth = 4, maxEntries = 20_000): string[] {
  const out: string[] = [];
  let seen = 0;
  const visit = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      if (++seen > maxEntries) return;
      if (n === ".git" || n === "node_modules" || n === "target" || n === ".venv" || n === "vendor") continue;
      const abs = join(dir, n);
      let st;
      try {
        st = statSync(abs);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (depth < maxDepth) visit(abs, depth + 1);
      } else if (protectedReason(relative(root, abs), abs, home)) out.push(abs);
    }
  };
  visit(root, 0);
  return out;
}

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
  /** One line saying a failure came from the sandbox, or undefined. */
  explain(output: string, widen?: { network?: boolean }, run?: { program?: string; exitCode?: number | null }): string | undefined;
  /** What the sandbox enforces, in a line, for the start-up notice and `weir doctor`. */
  describe(): string;
}

export interface SandboxOptions {
  mode: SandboxMode;
  root: string;
  home: string;
  /** Extra home entries readable inside (relative to home or absolute). */
  readable?: string[];
  writable?: string[];
  detected?: { kind: SandboxKind; program?: string };
  /** A scoped worker's readable files (absolute), asked again for each command (see SandboxPolicy.visible). */
  visible?: () => string[];
}

export function createSandbox(o: SandboxOptions): CommandSandbox {
  const detected = o.detected ?? detectSandbox();
  const active = o.mode !== "off" && detected.kind !== "none";
  const readable = [...DEFAULT_HOME_READABLE, ...(o.readable ?? [])].map((r) => (r.startsWith("/") ? r : join(o.home, r)));
  // Protected files are found again at most every few seconds: a command may create new ones.
  let masked: string[] = [];
  let maskedAt = -Infinity;
  const policy = (network: boolean, dir?: string): SandboxPolicy => {
    if (performance.now() - maskedAt > 3_000) {
      masked = protectedFilesIn(o.root, o.home);
      maskedAt = performance.now();
    }
    return { mode: o.mode, root: o.root, home: o.home, network, writable: [...(o.writable ?? []), ...(dir ? [dir] : [])], readable, masked, ...(o.visible ? { visible: o.visible() } : {}) };
  };
  return {
    kind: detected.kind,
    mode: o.mode,
    active,
    writable: o.writable ?? [],
    // A widened directory is one the executor already had approved (by --add-dir or a person).
    wrap: (argv, cwd, widen) => (active ? wrapArgv(detected.kind, policy(widen?.network === true, widen?.dir), argv, cwd, detected.program) : argv),
    // Explaining needs no protected-file scan: the policy's masks play no part in the message.
    explain: (output, widen, run) =>
      active ? sandboxBlock(output, { mode: o.mode, root: o.root, home: o.home, network: widen?.network === true, writable: o.writable ?? [], readable, masked: [], ...(o.visible ? { visible: [] } : {}) }, run) : undefined,
    describe: () =>
      o.mode === "off"
        ? "the command sandbox is off (--sandbox off): commands run with your full rights"
        : active
          ? `commands run in ${detected.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"} (${o.mode}): the workspace ${o.mode === "read-only" ? "read-only" : "writable"}, no network, home hidden`
          : "no OS sandbox here (install bubblewrap on Linux): every command asks before it runs",
  };
}
