import { join } from "node:path";
import { type PathRule, type SandboxPolicy, pathRules } from "./sandbox-policy.ts";

/** The macOS rendering of the sandbox's policy: a sandbox-exec profile. Pure. */

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
 * The macOS sandbox-exec (Seatbelt) profile with the same intent: deny by default; reads of the
 * system; the temp directories writable; then the policy's path rules (`sandbox-policy.ts`) in
 * order, since the last matching rule wins; the network only when approved. Pure; run by users on
 * macOS (`sandbox-exec -p PROFILE -- argv`).
 */
export function seatbeltProfile(p: SandboxPolicy): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork signal (target same-sandbox))",
    // Host statistics (libuv's os.cpus()), POSIX shared memory and semaphores (Python's multiprocessing).
    "(allow sysctl-read mach-host* ipc-posix-shm ipc-posix-sem)",
    machLookup(MACH_SERVICES),
    '(allow file-read* (subpath "/usr") (subpath "/bin") (subpath "/sbin") (subpath "/System") (subpath ' +
      '"/Library") (subpath "/opt") (subpath "/private/etc") (subpath "/dev") (literal "/"))',
    // Under those, package managers keep their services' state: databases and logs, never programs.
    `(deny file-read* ${SERVICE_STATE.map((d) => `(subpath ${q(d)})`).join(" ")})`,
    `(allow file-read* ${SERVICE_STATE.map((d) => `(subpath ${q(join(d, "homebrew"))})`).join(" ")})`,
    '(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (literal "/dev/tty"))',
  ];
  if (p.temp) lines.push(`(deny file-write* (subpath ${q(p.temp.person)}))`, `(allow file-write* (subpath ${q(p.temp.command)}))`);
  lines.push(...profileRules(pathRules(p)));
  // The network is allowed only when approved, and then not the Unix sockets of the person's own
  // services (an ssh-agent, Docker's socket), only the resolver's and the workspace's.
  if (p.network) {
    lines.push("(allow network*)", machLookup(NETWORK_MACH_SERVICES));
    lines.push('(deny network-outbound (remote unix-socket (path-regex #"^/")))');
    lines.push(`(allow network-outbound (remote unix-socket (path-literal ${q(RESOLVER_SOCKET)})) (remote unix-socket (subpath ${q(p.root)})))`);
  }
  return lines.join("\n");
}

/** The profile's lines for path rules, in their order: a file is matched as itself, a directory with all below it. Pure. */
export function profileRules(rules: PathRule[]): string[] {
  const lines: string[] = [];
  for (const r of rules) {
    const at = r.file ? `(literal ${q(r.path)})` : `(subpath ${q(r.path)})`;
    if (r.access === "writable") lines.push(`(allow file-read* file-write* ${at})`);
    else if (r.access === "read-only") lines.push(`(allow file-read* ${at})`, `(deny file-write* ${at})`);
    else lines.push(`(deny file-read* file-write* ${at})`);
    if (r.pinned) lines.push(`(deny file-write-unlink (literal ${q(r.path)}))`);
  }
  return lines;
}
