import { lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { inside, secretName } from "./containment.ts";

/**
 * What of the person's own toolchains commands see in the sandbox, read-only, and which of their
 * credentials stay hidden. Two sources:
 * - the directories where toolchain managers keep what commands run and what builds read, as each
 *   documents its layout (test/sandbox/toolchains.json holds the layouts with their sources);
 * - each directory on the PATH: the person put it there to run programs from it.
 * Never shown: the home itself or a directory holding it, credential directories (`.ssh`, `.aws` …),
 * weir's own directories; inside what is shown, the files where toolchains keep credentials are
 * masked, and so are secret-named files (`.env`, `*.pem` …) at the top of a PATH directory.
 */

/**
 * Toolchain directories (relative to the home): installs, shims, package caches; of a store that
 * also holds credentials, only the parts that do not (Cargo's registry, not its credentials.toml).
 * `~/.cache` itself is left out on purpose: build caches (Go's, pip's) must be writable, and a
 * writable shared cache would let one command plant something the next one runs, so each command
 * gets an empty, private one; only the installs kept there are shown (Poetry's virtualenvs, the
 * package managers Corepack installed).
 */
const HOME_TOOLCHAINS = [
  ".npm/_cacache",
  ".bun/install/cache",
  ".bun/bin",
  ".yarn/berry/cache",
  ".local/share/pnpm",
  ".cache/node/corepack",
  ".nvm",
  ".volta",
  ".fnm",
  ".local/share/fnm",
  ".deno",
  ".cargo/registry",
  ".cargo/git",
  ".cargo/bin",
  ".rustup",
  "go/pkg/mod",
  "go/bin",
  "sdk",
  ".pyenv",
  ".local/bin",
  ".local/lib",
  ".local/share/pipx",
  ".local/pipx",
  ".local/share/uv/python",
  ".local/share/uv/tools",
  ".local/share/pypoetry",
  ".cache/pypoetry/virtualenvs",
  ".local/share/virtualenvs",
  "miniconda3",
  "anaconda3",
  "miniforge3",
  "mambaforge",
  ".conda/envs",
  ".rbenv",
  ".rvm",
  ".gem/ruby",
  ".local/share/gem/ruby",
  ".sdkman/candidates",
  ".gradle/caches",
  ".gradle/wrapper",
  ".m2/repository",
  ".m2/wrapper",
  ".asdf",
  ".tool-versions",
  ".local/share/mise",
  ".dotnet",
  ".nuget/packages",
  ".mix",
  ".hex/packages",
  ".config/composer/vendor",
  ".composer/vendor",
  ".ghcup",
  ".cabal/bin",
  ".cabal/packages",
  ".opam",
  ".elan",
  ".pub-cache",
];

/**
 * Where toolchains keep credentials (relative to the home): hidden even where a directory above
 * them is shown, such as a `.dotnet` on the PATH (its certificate store) or a whole `.cabal`.
 */
const HOME_CREDENTIALS = [
  ".gem/credentials",
  ".local/share/gem/credentials",
  ".local/share/uv/credentials",
  ".config/pypoetry",
  ".config/mise",
  ".condarc",
  "miniconda3/.condarc",
  "anaconda3/.condarc",
  "miniforge3/.condarc",
  "mambaforge/.condarc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".nuget/NuGet",
  ".dotnet/corefx",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".hex/hex.config",
  ".config/composer/auth.json",
  ".composer/auth.json",
  ".cabal/config",
  ".pub-cache/credentials.json",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
];

/** Home directories that hold credentials: never shown, whatever the PATH says. */
const CREDENTIAL_DIRS = [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config/gcloud", ".config/gh", ".password-store"];

/** The toolchain directories and the person's own additions (`sandbox.readable`: absolute, `~/…` or relative to the home), absolute. Pure. */
export function homeReadable(home: string, extra: readonly string[] = []): string[] {
  return [...HOME_TOOLCHAINS, ...extra].map((r) => (r.startsWith("/") ? r : join(home, r.replace(/^~(?:\/|$)/, ""))));
}

/**
 * What of a Homebrew prefix (https://docs.brew.sh/Homebrew-on-Linux: /home/linuxbrew/.linuxbrew)
 * programs on its bin/ reach: the Cellar their links lead into, opt/'s stable links into it, the
 * libraries, data and headers, and the certificate bundles TLS reads. Not var/ (services' databases
 * and logs) and not the rest of etc/ (services' configuration).
 */
const HOMEBREW_PARTS = ["Cellar", "opt", "lib", "libexec", "share", "include", "etc/openssl@3", "etc/openssl@1.1", "etc/ca-certificates"];

/** A PATH entry that names its directory through a link, and that directory: the same link is made inside. */
export interface PathLink {
  /** The real directory. */
  target: string;
  /** The PATH entry, which names it through a link (fnm's per-shell directories, `~/.nix-profile/bin`). */
  at: string;
}

/** What the file system says of a path; injected so the view is pure. */
export interface PathFacts {
  real(path: string): string | undefined;
  isDir(path: string): boolean;
}

/**
 * The PATH's directories commands should see: each one's real directory, unless it is already
 * visible (`visible`: system directories, the workspace, what is shown already) or refused, with a
 * version manager's root beside its shims and a Homebrew prefix's program parts beside its bin; and,
 * for an entry that names its directory through a link, a link at the same place. Pure.
 */
export function pathView(
  path: string,
  home: string,
  visible: (p: string) => boolean,
  refused: readonly string[],
  fs: PathFacts,
): { readable: string[]; links: PathLink[] } {
  const readable: string[] = [];
  const links: PathLink[] = [];
  const shown = (dir: string) => !inside(dir, home) && !refusedDir(dir, home, refused);
  for (const entry of new Set(path.split(":"))) {
    if (!isAbsolute(entry)) continue;
    const real = fs.real(entry);
    if (!real || !fs.isDir(real) || !shown(real)) continue;
    if (!visible(real) && !readable.includes(real)) readable.push(real);
    // A version manager's shims run the manager from its root (pyenv, rbenv, nodenv: `libexec/`),
    // wherever the root is; inside the home the root is one of the documented directories already.
    const root = dirname(real);
    if (basename(real) === "shims" && fs.isDir(join(root, "libexec")) && shown(root) && !visible(root) && !readable.includes(root)) readable.push(root);
    // A Homebrew prefix's bin/ holds links into its Cellar, and what they run reaches its opt/ and
    // lib/: the prefix's parts that hold programs and their files come with it, never its var/.
    if ((basename(real) === "bin" || basename(real) === "sbin") && fs.isDir(join(root, "Cellar")) && shown(root))
      for (const part of HOMEBREW_PARTS.map((x) => join(root, x))) if (fs.isDir(part) && !visible(part) && !readable.includes(part)) readable.push(part);
    if (real !== entry && !visible(entry) && !links.some((l) => l.at === entry)) links.push({ target: real, at: entry });
  }
  return { readable, links };
}

/** A directory never shown: a credential directory of the home or inside one, or one of weir's own. Pure. */
function refusedDir(dir: string, home: string, refused: readonly string[]): boolean {
  if (refused.some((r) => inside(r, dir))) return true;
  if (!inside(home, dir)) return false;
  const rel = relative(home, dir).split(sep).join("/");
  return CREDENTIAL_DIRS.some((c) => rel === c || rel.startsWith(`${c}/`));
}

/** A credential path that exists inside a shown directory, and whether it is a directory. */
export interface HiddenPath {
  path: string;
  dir: boolean;
}

/**
 * How a secret path is hidden inside: itself; for a link, the file it leads to, when commands see
 * that file (through the link they would read it); nothing when they do not, for the link leads
 * nowhere inside, and a mask at a link to nowhere would stop every command. I/O: looks at the disk.
 */
export function maskable(path: string, visible: (p: string) => boolean): HiddenPath | undefined {
  try {
    const st = lstatSync(path);
    if (!st.isSymbolicLink()) return { path, dir: st.isDirectory() };
    const real = realpathSync(path);
    return visible(real) ? { path: real, dir: statSync(real).isDirectory() } : undefined;
  } catch {
    return undefined; // gone, or a link to nothing: nothing to read
  }
}

/**
 * The credentials to mask inside what is shown: toolchains' credential files under a shown
 * directory, and secret-named files at the top of a shown PATH directory (`maskable`: a link, by
 * what it leads to). I/O: looks at the disk.
 */
export function credentialsIn(shown: readonly string[], pathDirs: readonly string[], home: string, visible: (p: string) => boolean): HiddenPath[] {
  const candidates = HOME_CREDENTIALS.map((c) => join(home, c)).filter((c) => shown.some((s) => inside(s, c) && s !== c));
  for (const dir of pathDirs) {
    try {
      for (const name of readdirSync(dir)) if (secretName(name)) candidates.push(join(dir, name));
    } catch {
      // unreadable: a command cannot read it either
    }
  }
  const found = new Map<string, HiddenPath>();
  for (const path of new Set(candidates)) {
    const hidden = maskable(path, visible);
    if (hidden) found.set(hidden.path, hidden);
  }
  return [...found.values()];
}

/** What commands see of the person's toolchains: read-only directories, credentials masked in them, PATH links. */
export interface ToolchainsShown {
  readable: string[];
  credentials: HiddenPath[];
  links: PathLink[];
  /** Whether commands see a (real) path: what they see anyway, or a shown directory holds it. */
  sees(path: string): boolean;
}

/**
 * What of the home and the PATH commands see: the toolchain directories, the person's own
 * additions and the PATH's directories (`seen`: what commands see anyway, such as the system's and
 * the workspace), with the credentials inside them. I/O: resolves the PATH, looks for credentials.
 */
export function toolchainsShown(o: {
  home: string;
  extra?: readonly string[];
  own?: readonly string[];
  path: string;
  seen: (p: string) => boolean;
}): ToolchainsShown {
  const base = homeReadable(o.home, o.extra);
  const view = pathView(o.path, o.home, (p) => o.seen(p) || base.some((r) => inside(r, p)), o.own ?? [], diskFacts);
  const readable = [...base, ...view.readable];
  // The shown directories' real paths, resolved once: a link's target is where its reader lands.
  const shownReal = readable.map((r) => diskFacts.real(r) ?? r);
  const sees = (p: string) => o.seen(p) || shownReal.some((r) => inside(r, p));
  // Secret-named files at the top of a PATH directory that is shown, through a home entry or on its own.
  const onPath = o.path.split(":").flatMap((e) => diskFacts.real(e) ?? []).filter((d) => readable.some((r) => inside(r, d)));
  return { readable, credentials: credentialsIn(readable, [...new Set(onPath)], o.home, sees), links: view.links, sees };
}

/** The file system as `pathView` reads it. I/O. */
export const diskFacts: PathFacts = {
  real(path) {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  isDir(path) {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  },
};
