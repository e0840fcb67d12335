import { join } from "node:path";
import { type GuardedParts, type PathRule, type SandboxPolicy, SYSTEM, guardRules, homeRules, homeShown, workspaceRules } from "./sandbox-policy.ts";

/**
 * Bubblewrap's arguments for a policy: the system read-only, a private /proc, /dev, /tmp and home,
 * then the policy's path rules (`sandbox-policy.ts`) rendered as mounts in order, so a later one
 * stacks over an earlier one as a later rule wins. Pure, but for asking bubblewrap its version.
 */

/**
 * The mounts that render path rules, in their order. A directory is emptied by a tmpfs made read-only
 * after every other mount, so the mount points of later rules inside it can still be made. A link
 * cannot carry a mount: it is put back after the command instead (`relink`). Pure.
 */
export function mounts(rules: PathRule[]): string[] {
  const a: string[] = [];
  const remount: string[] = [];
  for (const r of rules) {
    if (r.link) continue;
    if (r.access === "writable") a.push(r.required ? "--bind" : "--bind-try", r.path, r.path);
    else if (r.access === "read-only") a.push(r.required ? "--ro-bind" : "--ro-bind-try", r.path, r.path);
    else if (r.access === "hidden") a.push(r.required ? "--ro-bind" : "--ro-bind-try", "/dev/null", r.path);
    else {
      a.push("--tmpfs", r.path);
      remount.push("--remount-ro", r.path);
    }
  }
  return [...a, ...remount];
}

/** The mounts that keep a workspace's guards over whatever was mounted before them (`guardRules`). Pure. */
export const guardBinds = (p: GuardedParts, repositories: string[]): string[] => mounts(guardRules(p, repositories));

/** The bubblewrap options (everything before `--`) that run a command in `cwd` under the policy. Pure. */
export function bwrapOptions(p: SandboxPolicy, cwd: string): string[] {
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
  // The home: an empty directory holding the toolchains, unless the workspace is the home itself.
  const home = homeShown(p);
  if (home) {
    a.push(...size, "--tmpfs", p.home, ...mounts(homeRules(p)));
    for (const l of p.links ?? []) a.push("--symlink", l.target, l.at);
    if (p.gitconfig) a.push("--ro-bind", p.gitconfig, join(p.home, ".gitconfig"));
  }
  a.push(...mounts(workspaceRules(p)), "--chdir", cwd);
  // Maven takes "offline" only from its settings or its command line: without a network it reads
  // these settings, so it builds from the local repository instead of failing at its first lookup.
  if (home && !p.envHome && !p.network && p.mavenSettings) a.push("--ro-bind", p.mavenSettings, join(p.home, ".m2", "settings.xml"));
  if (home) a.push("--setenv", "HOME", p.envHome ?? p.home);
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
export function limited(p: SandboxPolicy, argv: string[]): string[] {
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
export function askBwrapVersion(program: string): void {
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

