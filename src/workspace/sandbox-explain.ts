import { dirname, relative } from "node:path";
import { inside } from "./containment.ts";
import { type SandboxPolicy, SYSTEM } from "./sandbox-policy.ts";

/**
 * Why a command failed, when the sandbox is the reason: one line naming what it could not reach and
 * how the model or the person can widen it, so a blocked command is asked about instead of retried
 * blindly. Pure.
 */

/** A pattern matching any of `parts` (each a pattern of its own), case aside. */
const anyOf = (parts: string[]) => new RegExp(parts.join("|"), "i");

/** What resolvers and clients say when there is no network. */
const NO_NETWORK = anyOf([
  "Network is unreachable",
  "ENETUNREACH",
  "EAI_AGAIN",
  "Could not resolve host",
  "getaddrinfo",
  "Temporary failure in name resolution",
  "Name or service not known",
]);
/** What the package managers say when OFFLINE_ENV told them there is no network. */
const OFFLINE = anyOf([
  "ENOTCACHED",
  "only-if-cached",
  "--offline",
  "can't (?:update|fetch).*offline",
  "GOPROXY=off",
  "module lookup disabled",
  "No matching distribution found",
  "(?:in|for) offline mode",
]);

/** How a person shows commands a directory to read. */
const SHOW_IT = 'the user can show one to read with "sandbox": {"readable": ["DIR"]} in the user config';

/** How shells, launchers and `env` say a program was not found: each captures its name. */
const NOT_FOUND = [
  /([^\s:'"]+): (?:command )?not found/g,
  /command not found: (\S+)/g,
  /(?:failed to execute|execvp) ([^\s:]+):/g,
  /env: '?([^\s':]+)'?: No such file/g,
];

/**
 * A program the command could not start because it lives where the sandbox shows nothing, with
 * the line that says how to show it; undefined when no such program is named. Pure: `locate` finds
 * a name as the host's PATH does (and resolves links), `visible` says what commands see.
 */
export function hiddenProgram(
  output: string,
  program: string | undefined,
  locate: (name: string) => string | undefined, visible: (path: string) => boolean,
): string | undefined {
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
    return (
      "blocked by the sandbox: a command with the network makes no Unix sockets (they would reach the " +
      "user's own services); run what needs them without widen.network"
    );
  // Outside the workspace the host is not there at all: a missing path outside it is the sandbox's doing.
  if (/No such file or directory|Directory nonexistent|ENOENT|cannot access|can't cd/i.test(output)) {
    const outside = absolutePaths(output).find(
      (x) => !inside(p.root, x) && !SYSTEM.some((d) => x === d || x.startsWith(`${d}/`)) && !p.writable.some((w) => inside(w, x)),
    );
    if (outside)
      return (
        `blocked by the sandbox: ${outside} is outside the workspace and not visible to commands; ` +
        `${SHOW_IT}; a directory to write needs --add-dir DIR (or widen.dir, which asks the user)`
      );
  }
  if (p.limits && /Resource temporarily unavailable|fork: retry|EAGAIN/.test(output))
    return `blocked by the sandbox: a command may run at most ${p.limits.processes} processes at once`;
  if (p.limits && /Cannot allocate memory|MemoryError|out of memory|ENOMEM|bad_alloc/i.test(output))
    return `blocked by the sandbox: a command may use at most ${Math.round(p.limits.memoryBytes / 2 ** 30)} GiB of memory`;
  if (/Read-only file system|EROFS/.test(output)) {
    // Installed dependencies, read-only without the network: a line that refused a write names one.
    const refusals = output.split("\n").filter((l) => /Read-only file system|EROFS/.test(l));
    const env = p.network ? undefined : p.environments?.find((e) => refusals.some((l) => namesPath(l, e) || namesPath(l, relative(p.root, e))));
    if (env)
      return (
        `blocked by the sandbox: ${relative(p.root, env)} holds installed dependencies, which a command ` +
        `changes only with the network (their code runs at the user's next command, and git does not show ` +
        `it); to install, ask for widen.network, which the user approves`
      );
    // A build that writes at the top of the repository the workspace lies in (a Cargo or Gradle workspace's lock and output).
    const above = p.repository ? absolutePaths(output).find((x) => inside(p.repository!, x) && !inside(p.root, x)) : undefined;
    if (above)
      return (
        `blocked by the sandbox: ${above} is in the repository above the workspace, which commands see ` +
        `read-only; to build there, start weir at ${p.repository} or allow it with --add-dir ${p.repository}`
      );
    // A tool that writes its cache in the home (Maven's local repository, with the network allowed): shown read-only.
    const cache = p.home ? absolutePaths(output).find((x) => inside(p.home, x) && !inside(p.root, x)) : undefined;
    if (cache)
      return (
        `blocked by the sandbox: ${cache} is in your home, whose toolchain directories commands see ` +
        `read-only; to let a build write there, the user can allow its directory with --add-dir DIR`
      );
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
