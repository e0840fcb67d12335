import {
  type Dirent, closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readSync, readdirSync, realpathSync, statSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Access, PathScope } from "./scope.ts";

/** The user's home directory, found one way everywhere: $HOME, %USERPROFILE%, else the OS's answer. */
export function homeDirectory(env: Record<string, string | undefined> = process.env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** Why a path was refused; the message says what to do instead. */
export class PathRefused extends Error {
  constructor(
    message: string,
    /** The guard that refused it, for the model and for the security suite's report. */
    readonly rule: "containment" | "symlink" | "hardlink" | "protected" | "scope" | "special" | "name",
  ) {
    super(message);
    this.name = "PathRefused";
  }
}

export interface ResolvedPath {
  /** Canonical absolute path (symlinks resolved). */
  absolute: string;
  /** Relative to the workspace root, with forward slashes. */
  relative: string;
  exists: boolean;
}

/** Whether `p` is `root` or below it. Windows paths compare case-insensitively, as the filesystem does. */
export function inside(root: string, p: string): boolean {
  if (process.platform === "win32") [root, p] = [root.toLowerCase(), p.toLowerCase()];
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Realpath of the deepest existing ancestor, with the missing tail appended. */
function canonical(p: string): string {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = realpathSync(cur);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
      // A dangling symlink: refuse rather than guess where it would be created.
      try {
        if (lstatSync(cur).isSymbolicLink()) throw new PathRefused(`${cur} is a symlink to a missing target; weir will not follow it`, "symlink");
      } catch (inner) {
        if (inner instanceof PathRefused) throw inner;
      }
      const parent = resolve(cur, "..");
      if (parent === cur) return p;
      missing.push(basename(cur));
      cur = parent;
    }
  }
}

const SECRET_FILE = [
  /^\.env(rc)?([._-].*)?$/i, // .env, .env.local, .env.production, .envrc, .env-prod
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /\.(pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx)$/i,
  /^\.(netrc|pgpass|npmrc|pypirc|git-credentials|htpasswd)$/i,
  /^credentials(\.json)?$/i,
  /^(secrets?|service-account)(\..+)?\.(json|ya?ml|toml)$/i,
];
/** Templates that by convention hold no secrets. */
const SECRET_TEMPLATE = /^\.env\.(example|sample|template|dist|defaults)$/i;
const SECRET_DIRS = new Set([".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gcloud"]);

/**
 * What every name SECRET_FILE takes begins or holds (a dot, `id_`, a credentials word, a key's
 * extension), so the names of a large tree's sources are passed over with one test each.
 */
const MAYBE_SECRET = /^(?:\.|id_|credentials|secret|service-account)|\.(?:pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx)/i;

/** Whether a file's name says it may hold secrets: dotenv files, keys, credentials, and their backups and copies. Pure. */
export function secretName(name: string): boolean {
  if (!MAYBE_SECRET.test(name)) return false;
  // Backups and copies of a secret file are secret too: .env.bak, id_rsa.old, server.key~, credentials.json.orig.
  const stem = name.replace(/(?:[.~_-](?:bak|backup|old|orig|save|swp|tmp|copy|\d+)|~)+$/i, "");
  return !SECRET_TEMPLATE.test(name) && SECRET_FILE.some((r) => r.test(name) || r.test(stem));
}

/**
 * Whether a workspace-relative path is protected: git internals, secret-bearing files, credential
 * directories, and the user's home dot-directories when the workspace contains the home directory.
 * Returns the reason, or undefined.
 */
export function protectedReason(rel: string, absolute: string, home = homeDirectory()): string | undefined {
  const parts = rel.split("/");
  if (parts.includes(".git")) return "git internals (.git/) are off limits; use git commands instead";
  // weir's own configuration in the workspace: the agent must not rewrite its permissions or add MCP servers.
  if (rel === ".weir/config.json" || rel === ".mcp.json") return `${rel} configures weir itself (permissions, MCP servers); only the user edits it`;
  const name = parts[parts.length - 1] ?? "";
  if (secretName(name)) return `${name} may hold secrets (keys, tokens, credentials)`;
  for (let i = 0; i < parts.length - 1; i++) {
    if (SECRET_DIRS.has(parts[i]!) || SECRET_DIRS.has(parts.slice(i, i + 2).join("/"))) return `${parts[i]}/ holds credentials`;
  }
  if (home && inside(home, absolute)) {
    const first = relative(home, absolute).split(sep)[0] ?? "";
    if (first.startsWith(".") && first !== "." && first !== "..") return `~/${first} is one of your home dot-directories`;
  }
  return undefined;
}

/**
 * Paths other programs act on later without asking anyone: editor tasks and settings that run
 * commands, devcontainers, commit-hook managers, package-manager rc files, mise's project config,
 * and the instructions and configuration agents read at their next start (weir's and the other
 * agents' a person may use in the same repository). Root-relative; a directory covers what is below it.
 */
export const AUTORUN_PATHS = [
  ".vscode", // tasks.json runOn folderOpen, settings that name programs
  ".idea", // run configurations, workspace.xml
  ".devcontainer", // postCreateCommand and friends
  ".husky", // commit hooks once core.hooksPath names it
  ".githooks",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  ".lefthook.yml",
  ".yarnrc.yml", // yarnPath runs a program at every yarn call
  ".yarnrc",
  ".npmrc", // node-options and script-shell run code in every npm script
  ".pnpmfile.cjs", // pnpm runs its hooks at every install
  "pnpm-workspace.yaml", // the packages pnpm installs (and runs the scripts of), the builds it allows
  "bunfig.toml", // a preload runs before every bun run and bun test
  ".github/workflows", // run at the next push, with the repository's secrets
  ".github/actions",
  ".gitlab-ci.yml",
  ".circleci",
  ".envrc", // direnv runs it on cd
  ".weir", // rules, commands, skills, config
  ".claude",
  ".mcp.json",
  "AGENTS.md",
  "CLAUDE.md",
  // Other agents' instructions, and their project settings, some of which start MCP servers.
  ".cursorrules",
  ".cursor", // rules/, mcp.json
  ".windsurfrules",
  ".windsurf",
  ".clinerules",
  ".gemini", // settings.json's mcpServers run when Gemini CLI starts here
  ".github/copilot-instructions.md",
  ".github/instructions",
  ".aider.conf.yml", // lint-cmd and test-cmd run after each change
  ".continue",
  ".roo",
  ".roomodes",
  ".amazonq",
  ".junie",
  ".kiro",
  // Editors that start the programs a project's settings name when it is opened.
  ".zed", // language servers' binaries, context servers
  ".helix", // languages.toml's language-server commands
  // mise runs a project config's hooks and env scripts on cd, once the path is trusted.
  "mise.toml",
  ".mise.toml",
  "mise.local.toml",
  ".mise.local.toml",
  ".mise",
  ".config/mise.toml",
  ".config/mise",
  // rustup reads it at every cargo and rustc call; its `path` names the toolchain whose programs run.
  "rust-toolchain",
  "rust-toolchain.toml",
] as const;

/** Other agents' instruction files, read from any directory (Gemini CLI's, as AGENTS.md is read). */
const OTHER_AGENTS_FILES: ReadonlySet<string> = new Set(["GEMINI.md"]);

/** Scripts npm, pnpm and yarn run from a package.json at the next install: the root's and each workspace package's. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare", "prepublish"];

/**
 * What the next install would run from a package.json, as one comparable string: its install scripts
 * and its workspaces (whose packages' install scripts run too). "" when it declares neither, does not
 * exist (undefined) or is not JSON (npm would run nothing). Pure.
 */
export function installScripts(text: string | undefined): string {
  try {
    const manifest = text === undefined ? undefined : (JSON.parse(text) as { scripts?: unknown; workspaces?: unknown } | null);
    const scripts = manifest?.scripts && typeof manifest.scripts === "object" ? (manifest.scripts as Record<string, unknown>) : {};
    const declared = INSTALL_SCRIPTS.filter((k) => k in scripts).map((k) => [k, scripts[k]]);
    const workspaces = manifest?.workspaces;
    return declared.length || workspaces !== undefined ? JSON.stringify([declared, workspaces ?? null]) : "";
  } catch {
    return "";
  }
}

/**
 * The package globs of a workspace's monorepo, from what the root declares: package.json's
 * `workspaces` (npm, yarn, bun; a list or `{ packages }`) and pnpm-workspace.yaml's `packages`.
 * Exclusions (`!glob`) are left out: watching a package too many costs nothing. Pure.
 */
export function workspaceGlobs(manifest: string | undefined, pnpmWorkspace: string | undefined): string[] {
  const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((g): g is string => typeof g === "string") : []);
  const globs: string[] = [];
  try {
    const w = manifest === undefined ? undefined : (JSON.parse(manifest) as { workspaces?: unknown } | null)?.workspaces;
    globs.push(...strings(Array.isArray(w) ? w : (w as { packages?: unknown } | undefined)?.packages));
  } catch {
    // not JSON: npm installs no workspace from it
  }
  try {
    if (pnpmWorkspace !== undefined) globs.push(...strings((Bun.YAML.parse(pnpmWorkspace) as { packages?: unknown } | null)?.packages));
  } catch {
    // not YAML: pnpm installs no workspace from it
  }
  return [
    ...new Set(
      globs.map((g) => g.replace(/^\.\//, "").replace(/\/+$/, "")).filter((g) => g && !g.startsWith("!") && !g.startsWith("/") && !g.split("/").includes("..")),
    ),
  ];
}

/**
 * The package.json files whose install scripts the workspace's next install runs: the root's and
 * those of the packages `globs` match (never under node_modules), at most 1,000 and for at most
 * `budgetMs` (a `**` glob walks installed packages too: every command pays for the scan twice).
 * I/O: globs the tree.
 */
export function installManifests(root: string, globs: readonly string[], budgetMs = 250): string[] {
  const found = new Set([join(root, "package.json")]);
  const deadline = performance.now() + budgetMs;
  for (const g of globs) {
    try {
      for (const rel of new Bun.Glob(`${g}/package.json`).scanSync({ cwd: root, onlyFiles: true, followSymlinks: false })) {
        if (found.size >= 1_000 || performance.now() > deadline) break;
        if (!rel.split("/").includes("node_modules")) found.add(join(root, rel));
      }
    } catch {
      // an unreadable directory holds no package npm would install
    }
  }
  return [...found];
}

/** Agent instructions, read from every directory on the way to a target, not only the root (in this order). */
export const INSTRUCTION_FILES: ReadonlySet<string> = new Set(["AGENTS.md", "CLAUDE.md"]);

/**
 * What makes a path a dependency environment: installed packages whose code the person's next
 * command runs (the project's code loads them, its tools start from them) and git shows little or
 * none of: `node_modules` by its name, Yarn's packages, plugins and release (`.yarn`) and its
 * Plug'n'Play loaders, which every `yarn` command runs; a Python virtualenv by its `pyvenv.cfg`, a
 * conda environment by its `conda-meta`.
 */
export const ENVIRONMENT_DIR = "node_modules";
export const ENVIRONMENT_NAMES: ReadonlySet<string> = new Set([ENVIRONMENT_DIR, ".yarn", ".pnp.cjs", ".pnp.loader.mjs"]);
export const ENVIRONMENT_MARKERS = ["pyvenv.cfg", "conda-meta"] as const;

/**
 * The dependency environment a workspace path lies in (workspace-relative), or undefined: the first
 * directory on its way that is one, or the path itself when it is one (a Plug'n'Play loader). I/O: looks for the markers in each directory on the way.
 */
export function dependencyEnvironment(root: string, rel: string): string | undefined {
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join("/");
    if (ENVIRONMENT_NAMES.has(parts[i - 1]!)) return at;
    if (i < parts.length && ENVIRONMENT_MARKERS.some((m) => existsSync(join(root, at, m)))) return at;
  }
  return undefined;
}

/** Why writing `rel` (workspace-relative) needs the person's yes, or undefined. Pure. */
export function autorunReason(rel: string): string | undefined {
  const name = rel.split("/").pop() ?? "";
  if (INSTRUCTION_FILES.has(name) || OTHER_AGENTS_FILES.has(name)) return `${rel} instructs the next agent session`;
  const hit = AUTORUN_PATHS.find((p) => rel === p || rel.startsWith(`${p}/`));
  return hit ? `${rel} is read and acted on by other tools later (${hit})` : undefined;
}

/**
 * Why `rel` is configuration some tool or agent acts on later, found from any directory down: a path
 * of `AUTORUN_PATHS` or an instruction file below the root (`packages/x/.npmrc` as `.npmrc`,
 * `tools/mise.toml` as `mise.toml`, since those tools read them where they are). Pure.
 */
export function configReason(rel: string): string | undefined {
  const parts = rel.split("/");
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join("/");
    if (autorunReason(tail)) return `${rel} is configuration a tool or agent acts on later (${tail})`;
  }
  return undefined;
}

/**
 * Dotted names no tool loads code or programs from, and that do not change how git shows a change:
 * ignore and editor settings files and the placeholders that keep a directory in git. Not attribute
 * files: `-diff`, `binary`, a diff driver or a filter there make git show a changed file as "Binary
 * files differ", or through a program, so the review would not show the change.
 */
const INERT_DOTFILES: ReadonlySet<string> = new Set([
  ".gitignore", ".gitkeep", ".keep", ".editorconfig",
  ".dockerignore", ".npmignore", ".prettierignore", ".eslintignore", ".ignore", ".rgignore",
]);

/**
 * Why a file action's write to `rel` asks though no tool runs it: a `.gitignore` decides what the
 * person's `git status` shows, so a line in it can hide a new file (a `conftest.py` their pytest
 * loads) from their review. A command's change to one applies, and what it newly ignores is held
 * (`transaction.ts`). Pure.
 */
export function reviewFileReason(rel: string): string | undefined {
  return rel.split("/").pop() === ".gitignore" ? `${rel} decides what git status shows: a line in it can hide a file from the person's review` : undefined;
}

/**
 * Why `rel` may be configuration a tool acts on later because of its name: tools keep theirs under
 * dotted names (`.cargo/config.toml`, `.mvn/jvm.config`, `.bazelrc`, `.tool-versions`), so every
 * dotted name at any depth counts but for an inert one. This is the rule by shape beside
 * `AUTORUN_PATHS`, which then needs to name only what is not dotted. Pure.
 */
export function dottedReason(rel: string): string | undefined {
  const parts = rel.split("/");
  const last = parts.length - 1;
  const at = parts.findIndex((p, i) => p.startsWith(".") && p !== "." && p !== ".." && !(i === last && INERT_DOTFILES.has(p)));
  if (at === -1) return undefined;
  return `${rel} is under a dotted name (${parts.slice(0, at + 1).join("/")}), where tools keep configuration they act on later`;
}

/**
 * The parts of a git directory git reads as its own and runs or follows: its config (a program it
 * names, such as `core.fsmonitor`, runs at `git status`), hooks, and what names other git directories.
 */
export const GIT_DIRECTORY_PARTS = ["hooks", "config", "info", "commondir", "config.worktree", "worktrees", "modules"];

/**
 * Whether git takes a directory with these entries for a repository itself, as it does a bare one:
 * a HEAD file, objects and refs directories, and no `.git`, which git would find first. A person's
 * git in it or below it then reads its config. Pure.
 */
export function looksLikeGitDirectory(entries: { name: string; isFile(): boolean; isDirectory(): boolean }[]): boolean {
  const has = (name: string, dir: boolean) => entries.some((e) => e.name === name && (dir ? e.isDirectory() : e.isFile()));
  return has("HEAD", false) && has("objects", true) && has("refs", true) && !entries.some((e) => e.name === ".git");
}

/**
 * Why writing `rel` (workspace-relative) needs the person's yes because of git: after the write a
 * directory outside any `.git` would be a git directory (`looksLikeGitDirectory`), and `rel` is one of
 * its parts, so the person's next git there reads what the write put in. Undefined otherwise. I/O.
 */
export function gitDirectoryReason(root: string, rel: string): string | undefined {
  const parts = rel.split("/");
  const dotGit = parts.indexOf(".git");
  for (let i = parts.length - 1; i >= 0; i--) {
    if (dotGit !== -1 && dotGit < i) continue; // inside a .git: the repository's own guards apply
    const below = parts[i]!;
    if (![...GIT_DIRECTORY_PARTS, "HEAD", "objects", "refs"].includes(below)) continue;
    const dir = join(root, ...parts.slice(0, i));
    const last = i === parts.length - 1;
    const kind = (name: string) => {
      try {
        const st = statSync(join(dir, name));
        return st.isDirectory() ? "dir" : st.isFile() ? "file" : undefined;
      } catch {
        return undefined;
      }
    };
    // What each entry is once the write is done: the written file, a directory on its way, or what is there.
    const after = (name: string) => (below === name ? (last ? "file" : "dir") : kind(name));
    if (after("HEAD") === "file" && after("objects") === "dir" && after("refs") === "dir" && kind(".git") === undefined) {
      const at = parts.slice(0, i).join("/") || ".";
      return `${rel} is part of a git repository at ${at} (HEAD, objects, refs), whose config and hooks run at the person's next git command there`;
    }
  }
  return undefined;
}

/** What a name's bytes that are not UTF-8 become when it is listed. */
const UNDECODABLE = "\uFFFD";

/**
 * Resolves a path the model sent against the workspace root. Absolute paths are fine when they land
 * inside; `..` escapes, symlinks leading out, files with other hard links, and protected paths are
 * refused; for a worker, so is a path outside its scope for the access asked. `root` must already
 * be canonical.
 */
export function resolveInWorkspace(root: string, requested: string, opts: { home?: string; scope?: PathScope; access?: Access } = {}): ResolvedPath {
  if (requested.includes("\0")) throw new PathRefused("the path contains a NUL byte", "containment");
  const expanded = requested.startsWith("~/") || requested === "~" ? join(opts.home ?? homeDirectory(), requested.slice(1)) : requested;
  const lexical = isAbsolute(expanded) ? resolve(expanded) : resolve(root, expanded);
  if (!inside(root, lexical)) throw new PathRefused(`${requested} is outside the workspace (${root}); only paths inside it can be used`, "containment");
  const real = canonical(lexical);
  if (!inside(root, real))
    throw new PathRefused(`${requested} leads outside the workspace through a symlink (to ${real}); weir only follows links that stay inside`, "symlink");
  const rel = relative(root, real).split(sep).join("/") || ".";
  const reason = protectedReason(rel, real, opts.home);
  if (reason) throw new PathRefused(`${requested} is protected: ${reason}`, "protected");
  let exists = false;
  try {
    const st = statSync(real);
    exists = true;
    // A second name for the same inode may live anywhere on the disk (a hard link to ~/.ssh/id_rsa).
    if (st.isFile() && st.nlink > 1)
      throw new PathRefused(`${requested} has ${st.nlink} hard links; weir cannot tell where the others lead, so it will not use it`, "hardlink");
    // A named pipe would block a read or a write for ever, a device may never end.
    if (!st.isFile() && !st.isDirectory())
      throw new PathRefused(`${requested} is not a regular file (a named pipe, socket or device); weir reads and writes only files`, "special");
  } catch (e) {
    if (e instanceof PathRefused) throw e;
  }
  // A name whose bytes are not UTF-8 is listed with U+FFFD in their place; that spelling names no
  // file, and a write under it would make a second one beside it.
  if (!exists && requested.includes(UNDECODABLE))
    throw new PathRefused(
      `${requested} holds ${UNDECODABLE}, which stands for bytes of a file name that are not UTF-8: no ` +
        `file has this name, and weir's file tools cannot name the one listed so; a command can (a glob in ` +
        `shell, e.g. ls -b or cat with a * where the ${UNDECODABLE} is)`,
      "name",
    );
  // A worker's scope narrows the workspace further: checked on the canonical path, after every guard above.
  if (opts.scope) {
    const access = opts.access ?? "read";
    const dir = exists && access === "read" && statSync(real).isDirectory();
    if (!(dir ? opts.scope.mayHoldReadable(rel) : opts.scope.allows(rel, access)))
      throw new PathRefused(
        `${requested} is outside this worker's scope (${opts.scope.describe()}); the main agent can do it or spawn a worker with a wider scope`,
        "scope",
      );
  }
  return { absolute: real, relative: rel, exists };
}

/**
 * The largest file weir reads whole (read_file, an edit, an edit's proposal): a bigger one is a log
 * or data, searched or read in parts with commands rather than held in memory.
 */
export const MAX_WHOLE_FILE = 16 * 1024 * 1024;

/** A path that is not a regular file: a named pipe, a socket or a device. */
export class NotAFile extends Error {
  readonly code = "ENOTFILE";
  constructor(path: string) {
    super(`${path} is not a regular file (a named pipe, socket or device)`);
    this.name = "NotAFile";
  }
}

/**
 * Reads a file the repository controls only when it is a regular file: it is opened without
 * waiting (a named pipe with no writer would block the read for ever; a device such as /dev/zero,
 * behind a link, never ends) and checked on the open descriptor, so what is checked is what is
 * read. Throws as readFileSync does for a missing file, and NotAFile for anything else.
 */
export function readRegularFile(path: string): Buffer;
export function readRegularFile(path: string, encoding: "utf8"): string;
export function readRegularFile(path: string, encoding?: "utf8"): Buffer | string {
  const { fd } = openRegularFile(path);
  try {
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's text when it is a regular file weir reads whole (at most MAX_WHOLE_FILE); undefined when
 * it is missing, not a regular file, or larger.
 */
export function wholeText(path: string): string | undefined {
  try {
    const { fd, size } = openRegularFile(path);
    try {
      return size <= MAX_WHOLE_FILE ? readFileSync(fd, "utf8") : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * The first `bytes` of a regular file as text (all of it when it is shorter), whatever its size: a
 * check that needs only a file's top (a test's imports) never holds a gigabyte file in memory.
 * Undefined when it is missing or not a regular file.
 */
export function headText(path: string, bytes: number): string | undefined {
  try {
    const { fd, size } = openRegularFile(path);
    try {
      const buf = Buffer.alloc(Math.min(size, bytes));
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, got);
        if (n <= 0) break;
        got += n;
      }
      return buf.subarray(0, got).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** `readRegularFile`'s open: the descriptor and the file's size, or NotAFile (the descriptor closed). */
export function openRegularFile(path: string): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const st = fstatSync(fd);
  if (st.isFile()) return { fd, size: st.size };
  closeSync(fd);
  throw new NotAFile(path);
}

/**
 * Whether weir may read a repository file of its own accord (a skill, a command template): it
 * resolves inside the workspace after every link, is not protected and has one name on the disk.
 */
export function readableInWorkspace(root: string, path: string, home?: string): boolean {
  try {
    return resolveInWorkspace(root, path, home ? { home } : {}).exists;
  } catch {
    return false;
  }
}

/**
 * Key material recognised by its content, whatever the file is called: PEM private keys, OpenSSH
 * and PuTTY keys, PGP private blocks. A file that holds one is treated as protected. Pure.
 */
export function holdsKeyMaterial(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 200_000));
  // A native search for the markers first: the text is decoded only for a file that has one.
  if (head.indexOf("-----BEGIN ") === -1 && head.indexOf("PuTTY-User-Key-File-") === -1) return false;
  return /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d:/.test(head.toString("latin1"));
}
