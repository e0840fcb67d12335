import type { Change } from "./changeset.ts";
import { configReason, dottedReason, ENVIRONMENT_NAMES } from "./containment.ts";

/**
 * What is known of a changed path besides the change itself, gathered by the transaction's shell:
 * how git's review sees it, what stood there before, and what the command was allowed.
 */
export interface ChangeFacts {
  /** git's view of the path before the command: tracked, untracked but shown, ignored; `none` outside a repository. */
  git: "tracked" | "shown" | "ignored" | "none";
  /** The permission bits of the file that was there before, if a file was. */
  modeBefore?: number;
  /** The dependency environment the path lies in (`node_modules`, a virtualenv), workspace-relative. */
  environment?: string;
  /** The command had the network: an install the person approved. */
  network: boolean;
  /** The directory on the path's way (or the path) that is a git directory after the command (a bare repository, HEAD, objects and refs). */
  gitDirectory?: string;
  /** The workspace had no `.git` before the command (a `git init` is the command's own repository). */
  freshRepository: boolean;
  /** For a git config: the new text names a program git runs (`core.fsmonitor`, an alias with `!`). */
  runsPrograms?: boolean;
  /**
   * For `.git/index`: entries gained flags that hide their changes from `git status` and `git diff`.
   * For `.git/packed-refs`: it gained a replace ref (see `REPLACES`).
   */
  hidesChanges?: boolean;
  /** For a `package.json`: what the next install runs (its install scripts or workspaces) changed. */
  installChanged?: boolean;
}

export type Verdict = { apply: true } | { apply: false; reason: string };

/**
 * What of `.git` a command's git writes and the person's review shows: objects, refs, their logs,
 * the index, the heads of merges and rebases, messages. Everything else there (config, hooks, info,
 * worktrees, modules) is read or run by the person's own git, and is held.
 */
const GIT_CONTENT: ReadonlySet<string> = new Set([
  "objects", "refs", "logs", "index", "HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE",
  "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD", "COMMIT_EDITMSG", "SQUASH_MSG", "packed-refs", "description",
  "rebase-merge", "rebase-apply", "sequencer", "branches", "shallow",
]);

/** Compiled code that runs in place of its source (Python, the JVM, Erlang, Emacs Lisp, Lua). */
const BYTECODE = [".pyc", ".pyo", ".class", ".beam", ".elc", ".luac"];

/**
 * Native code a language's loader takes by its name: a Python extension module is imported before
 * the `.py` beside it, a `.node` addon by `require`, a shared library by the dynamic loader, a jar
 * from a classpath (the Gradle wrapper's at every `./gradlew`). Review shows none of it readably.
 */
const NATIVE = /\.(so(\.\d+)*|pyd|node|dylib|dll|jar)$/;

const hold = (reason: string): Verdict => ({ apply: false, reason });

/**
 * Why a replace ref is held: git reads the object it names in place of another, everywhere, so a
 * changed file with its blob (or HEAD's tree) replaced is clean to `git status`, `git diff` and
 * `git log -p`. With the index's flags, the ways git's own files make git show one thing for
 * another; the third, grafts, lives in `info/`, which is held whole.
 */
const REPLACES = "a replace ref: git would show other objects in place of these, so git status, git diff and git log hide the change";

/** Why an ignored path is held: the project's own ignore rules say it is made, not written (a build's output). */
export const IGNORED = "ignored by git, so review would not show it";

/** The reason a path under a git directory is held, or undefined when it is content the review shows. */
function gitReason(rel: string, parts: string[], f: ChangeFacts): string | undefined {
  const at = parts.indexOf(".git");
  if (at === -1) return undefined;
  if (at > 0) return `a repository inside the workspace (${parts.slice(0, at).join("/")}): its config and hooks run at the person's git there`;
  const part = parts[1];
  if (part === undefined || GIT_CONTENT.has(part)) {
    if (part === "index" && f.hidesChanges) return "git's index flags entries so that git status and git diff no longer show their changes";
    if ((part === "refs" && parts[2] === "replace") || (part === "packed-refs" && f.hidesChanges)) return `${rel} holds ${REPLACES}`;
    return undefined;
  }
  // A repository the command made is its own: its config applies when it names no program, a hook sample never runs.
  if (f.freshRepository && part === "config" && parts.length === 2 && !f.runsPrograms) return undefined;
  if (f.freshRepository && part === "hooks" && (parts.length === 2 || rel.endsWith(".sample"))) return undefined;
  if (f.freshRepository && part === "info" && (parts.length === 2 || parts[2] === "exclude")) return undefined;
  return `${rel} is read or run by the person's own git`;
}

/**
 * Whether one change of a command applies to the workspace or is held, decided from what the change
 * is: a change the person's review shows applies; one it cannot show, that can be loaded or run
 * later, is held (git's own files, nested repositories, links out, bytecode, new executable bits,
 * tool and agent configuration (`AUTORUN_PATHS` at any depth, and any dotted name but an inert one),
 * install scripts, dependencies without an approved install, ignored paths). Removals apply but
 * inside git's own files. Pure.
 */
export function classifyChange(c: Change, f: ChangeFacts): Verdict {
  const parts = c.rel.split("/");
  if (c.kind === "special") return hold("a pipe, socket or device");
  const git = gitReason(c.rel, parts, f);
  if (git) return hold(git);
  if (f.gitDirectory) return hold(`${f.gitDirectory} is a git directory: the person's git there reads its config and runs its hooks`);
  if (parts[0] === ".git") return { apply: true };
  if (c.kind === "deleted") return { apply: true };
  const config = configReason(c.rel);
  if (config) return hold(config);
  if (c.kind === "link") {
    // How far the link leads above the workspace's top: below zero, it leads out.
    const step = (depth: number, p: string) => (depth < 0 ? depth : p === ".." ? depth - 1 : p === "." || p === "" ? depth : depth + 1);
    const up = [...parts.slice(0, -1), ...c.target.split("/")].reduce(step, 0);
    if (c.target.startsWith("/") || up < 0) return hold(`a link to ${c.target}, outside the workspace`);
  }
  if (c.kind === "file" && BYTECODE.some((e) => c.rel.endsWith(e))) return hold("bytecode, which runs in place of its source");
  if (parts.includes("__pycache__")) return hold("Python's bytecode directory");
  const environment = f.environment ?? parts.find((p) => ENVIRONMENT_NAMES.has(p));
  if (environment && !f.network) return hold(`installed dependencies (${environment}) change only with an install the person approved`);
  if (c.kind === "file" && (c.mode & 0o111) !== 0 && ((f.modeBefore ?? 0) & 0o111) === 0 && !(environment && f.network)) return hold("made executable");
  if (f.installChanged) return hold("changes what the next install runs (install scripts or workspaces)");
  if (f.git === "ignored" && !(environment && f.network)) return hold(IGNORED);
  if (c.kind === "file" && NATIVE.test(c.rel) && !environment) return hold("native code, which a loader runs in place of source (by its name)");
  // An installed dependency's own dotted files (`.yarn/`, a package's `.bin`) are the install's; a
  // directory alone runs nothing, and what it holds is judged entry by entry (a `.pytest_cache/`
  // whose own ignore file hides its entries stays a build's output, kept in view).
  const dotted = environment || c.kind === "dir" ? undefined : dottedReason(c.rel);
  if (dotted) return hold(dotted);
  return { apply: true };
}
