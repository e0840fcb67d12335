import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

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
  // Certificates a corporate network needs, and its proxies (a password in a proxy URL is redacted by value).
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
]);

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

/**
 * A variable name that says it holds a secret: a long word anywhere in it (`PGPASSWORD`,
 * `CI_JOB_JWT`, `SLACK_WEBHOOK_URL`), a short one only as a part of its own (`RAILS_MASTER_KEY`,
 * `MYSQL_PWD`, not `KEYBOARD` or `PWD` itself).
 */
const SECRET_WORD = /PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|JWT|WEBHOOK|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CONNECTION_?STRING/i;
const SECRET_PART = /(^|_)(KEY|PWD|PASS|AUTH|DSN)(_|$)/i;
const secretName = (name: string) => name !== "PWD" && name !== "OLDPWD" && (SECRET_WORD.test(name) || SECRET_PART.test(name));

/** A dotenv line's value: `NAME=value`, `export NAME=value`, `NAME: value`. */
const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*[=:]\s*(.*)$/;

/** The shortest value redacted by value: shorter ones would take ordinary words with them. */
const MIN_SECRET = 8;

/**
 * The values weir knows to be secret (from the values of the person's secret-named environment
 * variables, every value in the workspace's `.env` files, and the body lines of the key files among
 * its protected files), to be removed wherever they appear in what reaches the model, whatever shape
 * they have. I/O: reads the `.env*` files and key files at the workspace's top.
 */
export function knownSecretValues(env: Record<string, string | undefined>, root: string): string[] {
  const values = new Set<string>();
  const add = (v: string | undefined) => {
    const t = v?.trim().replace(/^(['"])(.*)\1$/, "$2");
    if (t && t.length >= MIN_SECRET && !/^\d+$/.test(t) && !/^(true|false|localhost|development|production)$/i.test(t)) values.add(t);
  };
  for (const [k, v] of Object.entries(env)) if (secretName(k)) add(v);
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    // no workspace to read
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const text = readSmall(join(root, e.name));
    if (text === undefined) continue;
    if (e.name === ".env" || e.name.startsWith(".env.")) for (const line of text.split("\n")) add(ASSIGNMENT.exec(line)?.[1]);
    else if (text.includes("PRIVATE KEY-----")) for (const line of text.split("\n")) if (!line.startsWith("-----") && line.trim().length >= 16) add(line);
  }
  return [...values];
}

/** A file's text when it is small enough to be a config or a key (64 KB), else undefined. */
function readSmall(path: string): string | undefined {
  try {
    return statSync(path).size <= 65_536 ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
