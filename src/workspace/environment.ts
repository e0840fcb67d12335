import { closeSync, type Dirent, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { secretVariable } from "../core/credentials.ts";
import { openRegularFile } from "./containment.ts";

/**
 * What of weir's environment a command (`run_command`, `shell`, `verify`, hooks) gets: an allowlist,
 * never the rest. A variable the list does not name (`PGPASSWORD`, `SLACK_WEBHOOK_URL`, a CI job's
 * token) cannot reach a command whatever its name looks like. The person adds names with
 * `"sandbox": {"env": [...]}` in their user config. Data, kept small: the system's basics, the
 * locale, the terminal, and where toolchains live.
 */
const ALLOWED = new Set([
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR",
  "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "CI",
  // Where toolchains live: locations, not credentials.
  "JAVA_HOME", "GOPATH", "GOROOT", "GOBIN", "GOFLAGS", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN",
  "NVM_DIR", "NVM_BIN", "PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV",
  "PNPM_HOME", "BUN_INSTALL", "DENO_DIR", "SDKMAN_DIR", "ASDF_DIR", "ASDF_DATA_DIR", "RBENV_ROOT",
  "GEM_HOME", "GEM_PATH", "DOTNET_ROOT", "ANDROID_HOME", "MAVEN_HOME", "M2_HOME", "GRADLE_USER_HOME",
  // How the person builds: options their toolchains read, not credentials.
  "MAVEN_OPTS", "GRADLE_OPTS", "JAVA_OPTS", "NODE_OPTIONS", "PYTHONPATH", "RUSTFLAGS", "CGO_ENABLED",
  "CC", "CXX", "CFLAGS", "CXXFLAGS", "LDFLAGS", "PKG_CONFIG_PATH",
  // Certificates a corporate network needs, and its proxies: only with the network (`offline`), and
  // a password in a proxy's URL is removed by value (`knownSecretValues`).
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
]);

/** The proxies: a command gets them only with the network, since their URLs may carry a password. */
const PROXIES = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"];

/**
 * A sandboxed command's environment for one call: without the network, no proxy, so what it has no
 * use for it cannot print (a proxy's password, encoded in a way no redaction knows). Pure.
 */
export function offline(env: Record<string, string>, network: boolean): Record<string, string> {
  if (network) return env;
  const out = { ...env };
  for (const k of PROXIES) delete out[k];
  return out;
}

/** Names whose every variable is allowed: the locale's categories. */
const ALLOWED_PREFIXES = ["LC_"];

/** The environment a command gets: the allowed names and those the person's config adds. Pure. */
export function commandEnv(env: Record<string, string | undefined>, added: readonly string[] = []): Record<string, string> {
  const extra = new Set(added);
  const out: Record<string, string> = {};
  const allowed = (k: string) => ALLOWED.has(k) || extra.has(k) || ALLOWED_PREFIXES.some((p) => k.startsWith(p));
  for (const [k, v] of Object.entries(env)) if (v !== undefined && allowed(k)) out[k] = v;
  return out;
}


/** The shortest value redacted by value: shorter ones would take ordinary words with them. */
const MIN_SECRET = 8;

/** A value the person's files or variables hold that says nothing when removed: a flag, a port, a mode. */
const ORDINARY = /^(?:\d+|true|false|localhost|development|production)$/i;

/**
 * The values weir knows to be secret, to be removed wherever they appear in what reaches the model,
 * whatever shape they have: the values of the person's secret-named environment variables, the
 * password of every URL in it (a proxy's, which a command with the network gets), every value of the `.env` files at
 * the workspace's top and the body lines of the key files there. Files below the top come from the
 * walk (`secretFileValues`). I/O: reads the workspace's top.
 */
export function knownSecretValues(env: Record<string, string | undefined>, root: string): string[] {
  const values = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (secretVariable(k)) values.add(v);
    for (const p of urlPasswords(v)) values.add(p);
  }
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    // no workspace to read
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const dotenv = e.name === ".env" || e.name.startsWith(".env.");
    const text = readSmall(join(root, e.name));
    if (text !== undefined) for (const v of dotenv ? valuesIn(text) : keyBody(text)) values.add(v);
  }
  return secretValues(values);
}

/**
 * The values of files whose names say they hold secrets, at any depth (the walk's `secrets`: a
 * `.env` in a package, a `credentials.json`, a key): each is protected from the model and from
 * commands, and what it holds is removed wherever else it shows up (a copy in a config, history).
 * Regular files of at most 64 KB. I/O.
 */
export function secretFileValues(root: string, files: readonly string[]): string[] {
  const values = new Set<string>();
  for (const f of files) {
    const text = readSmall(join(root, f));
    if (text !== undefined) for (const v of valuesIn(text)) values.add(v);
  }
  return secretValues(values);
}

/**
 * What a secret file holds, never its keys: each line's value (`NAME=value`, `name: value`, a JSON
 * member, an rc file's `//host/:_authToken=value`), every string of a JSON document, the password
 * of every URL in it, and the body lines of a private key. Pure.
 */
export function valuesIn(text: string): string[] {
  const out: string[] = [...urlPasswords(text)];
  let json: string[] | undefined;
  try {
    json = jsonStrings(JSON.parse(text));
  } catch {
    // not JSON: its lines say what it holds
  }
  if (json) return [...out, ...json, ...json.flatMap(keyBody)];
  const body = new Set(keyBody(text));
  for (const line of text.split("\n")) if (!body.has(line) && !line.startsWith("-----")) out.push(...lineValues(line));
  return [...out, ...body];
}

/** The body lines of the private keys in a text (between `-----BEGIN … PRIVATE KEY-----` and its end). Pure. */
export function keyBody(text: string): string[] {
  const out: string[] = [];
  let key = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("-----")) key = line.includes("BEGIN") && line.includes("PRIVATE KEY");
    else if (key) out.push(line);
  }
  return out;
}

/** A line's value: after its first `=` or `:`, whichever comes first, and an rc file's `key=value` inside that. Pure. */
function lineValues(line: string): string[] {
  const eq = line.indexOf("=");
  const colon = line.indexOf(":");
  const at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
  // A key is one word, maybe quoted or exported: a comment or a sentence with a colon holds no value.
  if (at < 0 || !/^\s*(?:export\s+)?(["']?)(?!#|;|\/\/\s|\/\*)\S+\1\s*$/.test(line.slice(0, at))) return [];
  const value = unquoted(line.slice(at + 1));
  // An rc file's key may hold a colon (`//host/:_authToken=value`): its value follows the `=`.
  const inner = at === colon ? /^[A-Za-z_][\w.-]*=(.+)$/.exec(value)?.[1] : undefined;
  return inner ? [value, unquoted(inner)] : [value];
}

/** A value without its quotes and the comma or semicolon that ends a JSON member or a statement. Pure. */
const unquoted = (v: string): string => v.trim().replace(/[,;]$/, "").trim().replace(/^(['"])(.*)\1$/, "$2");

/** Every string in a JSON value. Pure. */
function jsonStrings(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (v === null || typeof v !== "object") return [];
  return Object.values(v).flatMap(jsonStrings);
}

/** The passwords of the URLs in a text (`scheme://user:password@host`), decoded as given and as they are. Pure. */
function urlPasswords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:([^\s@/]+)@/gi)) {
    out.push(m[1]!);
    try {
      out.push(decodeURIComponent(m[1]!));
    } catch {
      // not percent-encoded as a URL would be: as it is
    }
  }
  return out;
}

/** Of candidate values, those long and unusual enough to remove by value. Pure. */
function secretValues(candidates: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const c of candidates) {
    const t = c.trim().replace(/^(['"])(.*)\1$/, "$2");
    if (t.length >= MIN_SECRET && !ORDINARY.test(t)) out.add(t);
  }
  return [...out];
}
/** A regular file's text when it is small enough to be a config or a key (64 KB), else undefined. I/O. */
function readSmall(path: string): string | undefined {
  try {
    const { fd, size } = openRegularFile(path);
    try {
      return size <= 65_536 ? readFileSync(fd, "utf8") : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
