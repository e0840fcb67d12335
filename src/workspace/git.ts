import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { homeDirectory } from "./containment.ts";
import { bwrapArgv, bwrapDisablesUserns } from "./bwrap.ts";
import { detectSandbox, linkedGitDir } from "./sandbox.ts";
import { enclosingRepository } from "./walker.ts";

/**
 * Options that keep a planted repository config from running code when weir itself asks git
 * something: no hooks, no fsmonitor, no pager, no external diff or textconv, and no system or global
 * config (a later session's `git status` must not fire what a command planted). Paths come out as
 * they are ("café.py", not "caf\303\251.py").
 */
const SAFE_GIT = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.pager=cat",
  "-c",
  "diff.external=",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "core.quotePath=false",
  "--no-pager",
];
const SAFE_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  GIT_EXTERNAL_DIFF: "",
};

let sandbox: { kind: string; program?: string } | undefined;

/**
 * Read-only git queries for context gathering: Bun.spawn (cheaper to start than node's
 * child_process, which matters when a compile runs git three times), a timeout, no credentials
 * in the environment, the hardening above, and where bubblewrap exists inside a read-only sandbox
 * with no network (a filter or hook that still slipped through can change nothing). Undefined when
 * git fails or the directory is not a repository.
 */
export async function gitOutput(root: string, args: string[], timeoutMs = 10_000): Promise<string | undefined> {
  try {
    sandbox ??= detectSandbox();
    const argv = ["git", ...SAFE_GIT, ...args];
    // In a subdirectory of a repository git reads the whole repository; in a linked worktree, its git directory.
    const repository = enclosingRepository(root);
    const gitDir = linkedGitDir(repository ?? root);
    const policy = {
      mode: "read-only" as const,
      root,
      home: homeDirectory(),
      network: false,
      writable: [],
      readable: [],
      masked: [],
      ...(repository ? { repository } : {}),
      ...(gitDir ? { gitFile: !repository, gitDir } : {}),
    };
    const cmd =
      sandbox.kind === "bwrap" ? bwrapArgv({ ...policy, disableUserns: bwrapDisablesUserns(sandbox.program ?? "bwrap") }, argv, root, sandbox.program) : argv;
    return await run(cmd, root, {}, timeoutMs);
  } catch {
    return undefined;
  }
}

/**
 * The workspace's path inside the repository it lies in, with a trailing slash ("packages/calc/"),
 * or "" when the workspace is a repository's top or in none: git names files from the top, so a
 * caller strips this from what git prints (or asks git for paths relative to the workspace).
 */
export function repositoryPrefix(root: string): string {
  const top = enclosingRepository(root);
  return top ? `${relative(top, root).split("\\").join("/")}/` : "";
}

/**
 * A git command that changes the repository (a worktree, a commit, a merge), for goal graphs: the
 * same hardening as `gitOutput` (no hooks, no fsmonitor, no global or system config), outside the
 * sandbox because it writes git's own metadata; commits are authored by weir unless the
 * environment names an author. Its output when git exited 0, else undefined.
 */
export async function gitWrite(root: string, args: string[], timeoutMs = 60_000, env: Record<string, string> = {}): Promise<string | undefined> {
  const who = { GIT_AUTHOR_NAME: "weir", GIT_AUTHOR_EMAIL: "weir@localhost", GIT_COMMITTER_NAME: "weir", GIT_COMMITTER_EMAIL: "weir@localhost" };
  const named = Object.fromEntries(Object.keys(who).flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));
  return run(["git", ...SAFE_GIT, ...args], root, { ...who, ...named, ...env }, timeoutMs);
}

/**
 * The working tree of the repository at `top` as a commit whose parent is HEAD: tracked and
 * untracked files as they are, ignored ones left out. It is built in an index of its own, so the
 * person's index, branch and files are untouched. Its id, or undefined when git failed.
 */
export async function worktreeSnapshot(top: string, message: string): Promise<string | undefined> {
  const index = join(mkdtempSync(join(tmpdir(), "weir-snapshot-")), "index");
  const env = { GIT_INDEX_FILE: index };
  try {
    if ((await gitWrite(top, ["read-tree", "HEAD"], 60_000, env)) === undefined) return undefined;
    if ((await gitWrite(top, ["add", "-A"], 120_000, env)) === undefined) return undefined;
    const tree = (await gitWrite(top, ["write-tree"], 60_000, env))?.trim();
    if (!tree) return undefined;
    return (await gitWrite(top, ["commit-tree", tree, "-p", "HEAD", "-m", message], 60_000, env))?.trim() || undefined;
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

/**
 * A read-only git query outside the sandbox, with the same hardening (no hooks, no fsmonitor, no
 * global or system config), for what weir must ask of files the sandbox hides from git (an index a
 * command wrote, named by GIT_INDEX_FILE) or of many paths at once (`stdin`). Its output when git
 * exited 0, else undefined.
 */
export async function gitQuery(
  root: string,
  args: string[],
  o: { env?: Record<string, string>; stdin?: string } = {},
  timeoutMs = 30_000,
): Promise<string | undefined> {
  return run(["git", ...SAFE_GIT, ...args], root, o.env ?? {}, timeoutMs, o.stdin);
}

/** Runs a git command line with the hardened environment; its output when it exited 0. */
async function run(cmd: string[], root: string, env: Record<string, string>, timeoutMs: number, stdin?: string): Promise<string | undefined> {
  const p = Bun.spawn(cmd, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: homeDirectory(), ...SAFE_ENV, ...env },
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "ignore",
    timeout: timeoutMs,
  });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return code === 0 ? out : undefined;
}
