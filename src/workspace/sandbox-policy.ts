import { join } from "node:path";
import { inside } from "./containment.ts";
import type { HiddenPath, PathLink } from "./toolchains.ts";

/**
 * The sandbox's policy, computed once per command: what each path is inside (writable, read-only,
 * hidden, emptied). `pathRules` is the one statement of it; bubblewrap's arguments (`bwrap.ts`)
 * and the macOS profile (`seatbelt.ts`) are pure renderings of the same rules, so the two
 * platforms cannot drift apart on what a command may read or change. Pure.
 */
export type SandboxMode = "read-only" | "workspace-write" | "off";
export type SandboxKind = "bwrap" | "seatbelt" | "none";

export interface SandboxPolicy {
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

export interface SandboxLimits {
  prlimit: string;
  processes: number;
  memoryBytes: number;
}

/**
 * Read-only system directories; each is bound only where it exists. Of Nix, only the store and the
 * profiles that name into it: `/nix/var` also holds the daemon's socket, through which a command
 * would have builds made for it, with the network, outside the sandbox.
 */
export const SYSTEM = [
  ...["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"],
  ...["/nix/store", "/nix/var/nix/profiles", "/run/current-system"],
];

/** Whether a path lies in one of the system directories every sandboxed process sees. Pure. */
export const systemPath = (p: string): boolean => SYSTEM.some((d) => inside(d, p));

/**
 * Parts of `.git` a command may never change: what git executes, where it reads its config, and
 * other git directories (submodules, worktrees) whose config would run the same way. Git's ordinary
 * writes (objects, refs, logs, the index, HEAD) stay possible.
 */
export const GIT_GUARDED = [".git/hooks", ".git/config", ".git/info", ".git/commondir", ".git/config.worktree", ".git/worktrees", ".git/modules"];

/** What a path is inside the sandbox. */
export type Access = "writable" | "read-only" | "hidden" | "emptied";

/**
 * One rule of the policy. Rules are ordered, and for any path the last rule naming it or a directory
 * above it decides: bubblewrap's mounts stack in order, and Seatbelt's last matching rule wins.
 * - `writable`, `read-only`: the host's path as it is, changeable or not;
 * - `hidden`: a file read as empty and never written (a protected file);
 * - `emptied`: a directory shown empty and read-only (what the protected-file scan did not finish).
 */
export interface PathRule {
  path: string;
  access: Access;
  /** The path must be there: the rule is never skipped (the workspace root, a linked worktree's `.git` file, a credential). */
  required?: boolean;
  /** A single file, matched as itself; otherwise the path and everything below it. */
  file?: boolean;
  /** The path cannot be renamed or removed (`.git`, which the person's git reads): a mount point, or an unlink denied. */
  pinned?: boolean;
  /** A link leading out of the workspace or nowhere (`SandboxPolicy.linked`): no mount can be made on it, and it is put back after the command. */
  link?: boolean;
}

/** The rules of the person's home, when it is shown (replaced by an empty directory): toolchains read-only, credentials among them hidden. Pure. */
export function homeRules(p: SandboxPolicy): PathRule[] {
  if (!homeShown(p)) return [];
  const credentials = (p.credentials ?? []).map(
    (c): PathRule => (c.dir ? { path: c.path, access: "emptied", required: true } : { path: c.path, access: "hidden", file: true, required: true }),
  );
  return [...p.readable.map((r): PathRule => ({ path: r, access: "read-only" })), ...credentials];
}

/** Whether the home is replaced by an empty directory: always, unless the workspace is the home itself (or holds it). Pure. */
export const homeShown = (p: Pick<SandboxPolicy, "home" | "root">): boolean => p.home !== "" && !inside(p.root, p.home);

/** The directories the person added that commands may write (`--add-dir`): none in read-only mode. Pure. */
export const addedDirs = (p: Pick<SandboxPolicy, "mode" | "writable">): string[] => (p.mode === "workspace-write" ? p.writable : []);

/**
 * The rules of the workspace, in order: the repository it lies in read-only; the directories the
 * person added (before the workspace, so one holding it cannot undo a guard or a mask); the workspace
 * writable or read-only, `.git` pinned; then the guards (`guardRules`) of each repository there; a
 * linked worktree's git directory read-only. A scoped worker sees an emptied workspace holding only
 * its files, read-only. Pure.
 */
export function workspaceRules(p: SandboxPolicy): PathRule[] {
  const added = addedDirs(p).map((w): PathRule => ({ path: w, access: "writable" }));
  const rules: PathRule[] = [];
  if (p.visible) {
    rules.push({ path: p.root, access: "emptied", required: true });
    for (const f of p.visible) if (inside(p.root, f) && !p.masked.includes(f)) rules.push({ path: f, access: "read-only", file: true });
    rules.push(...added);
  } else {
    if (p.repository) rules.push({ path: p.repository, access: "read-only", required: true });
    rules.push(...added, { path: p.root, access: p.mode === "workspace-write" ? "writable" : "read-only", required: true });
    const git = join(p.root, ".git");
    // A mount point cannot be renamed or removed: `.git` stays the repository the person's git reads.
    if (p.gitFile) rules.push({ path: git, access: "read-only", required: true, file: true, pinned: true });
    else if (p.mode === "workspace-write") rules.push({ path: git, access: "writable", pinned: true });
    // git's own files stay as they are in the workspace, its repository and any repository added.
    const above = p.repository && !p.repositoryGitFile ? [p.repository] : [];
    rules.push(...guardRules(p, [...(p.gitFile ? [] : [p.root]), ...above, ...addedDirs(p), ...(p.nested ?? [])]));
  }
  if (p.gitDir && !inside(p.root, p.gitDir)) rules.push({ path: p.gitDir, access: "read-only" });
  return rules;
}

/**
 * The guards over a workspace, for commands and for an MCP server shown it: git's metadata in each
 * of `repositories`, the other guarded paths and Python's bytecode directories read-only,
 * installed dependencies read-only without the network, protected files hidden, unscanned
 * directories emptied. Pure.
 */
export function guardRules(p: GuardedParts, repositories: string[]): PathRule[] {
  const fixed = [...repositories.flatMap((r) => GIT_GUARDED.map((x) => join(r, x))), ...(p.guarded ?? []), ...(p.caches ?? [])];
  const rules = fixed.map((g): PathRule => ({ path: g, access: "read-only", ...(p.linked?.includes(g) ? { link: true } : {}) }));
  // Installed dependencies change only with an install, and an install needs the network.
  if (!p.network) rules.push(...(p.environments ?? []).map((e): PathRule => ({ path: e, access: "read-only" })));
  rules.push(...p.masked.map((m): PathRule => ({ path: m, access: "hidden", file: true })));
  rules.push(...(p.unscanned ?? []).map((d): PathRule => ({ path: d, access: "emptied" })));
  return rules;
}

/** The parts of a policy its guards are made of. */
export type GuardedParts = Pick<SandboxPolicy, "guarded" | "environments" | "caches" | "masked" | "unscanned" | "network" | "linked">;

/** The whole policy's path rules, the home's then the workspace's. Pure. */
export const pathRules = (p: SandboxPolicy): PathRule[] => [...homeRules(p), ...workspaceRules(p)];
