/**
 * What names a secret, one definition for a variable of the person's environment and a name in any
 * text: a long word anywhere in the name (`PGPASSWORD`, `CI_JOB_JWT`, `client_secret`, `apiKey`),
 * or a short one as a part of its own (`RAILS_MASTER_KEY`, `MYSQL_PWD`, `SMTP_PASS`, `SENTRY_DSN`;
 * not `KEYBOARD`). In text a short part counts on a config line only, whose names are upper-case
 * (`configLines`): in code, `cache_key` names no secret.
 */
const SECRET_WORDS = "PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|JWT|WEBHOOK|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CONNECTION_?STRING";
const SECRET_WORD = new RegExp(SECRET_WORDS, "i");
const SECRET_PART = /(^|_)(KEY|PWD|PASS|AUTH|DSN)(_|$)/i;

/** Whether a variable's name says it holds a secret (`PWD` and `OLDPWD`, the shell's, do not). Pure. */
export function secretVariable(name: string): boolean {
  return name !== "PWD" && name !== "OLDPWD" && (SECRET_WORD.test(name) || SECRET_PART.test(name));
}

/**
 * A name with a secret word (`DB_PASSWORD`, `apiKey`, `GITHUB_TOKEN`, `client_secret`) assigned (`=`
 * or `:`, quoted or not) to a literal: a value that is not an identifier or a member access. The
 * pattern starts at the name's secret word, since whatever precedes it in the name is kept as it
 * is; it is tried only where one of SECRET_STARTS begins (`secretAssignments`), which is what makes
 * it cheap on a file with no secrets. A name with a short part only is a config line's (`configLines`).
 */
const SECRET_ASSIGNMENT = new RegExp(
  String.raw`((?:${SECRET_WORDS})[A-Za-z0-9_]*\s*[=:]\s*)` + String.raw`(["']?)([A-Za-z0-9_\-+/=.~!@#%^&*]{6,})\2(?=\s|[,;]|$)`,
  "iym",
);
/** Where a secret word of SECRET_ASSIGNMENT may begin: a native scan for a few literals. */
const SECRET_STARTS = /pass|secret|token|api|private|access|credential|jwt|webhook|connection/gi;

/**
 * A line of configuration that is one upper-case name's assignment: dotenv and shell (`SMTP_PASS=x`,
 * `export MYSQL_PWD=x`), YAML and Compose (`  SENTRY_DSN: x`, `- REDIS_PASS=x`), a diff's `+` or `-`
 * before any of them. There a short part of the name is enough (`SECRET_PART`).
 */
const CONFIG_LINE = /^([ \t]*(?:[+-][ \t]*)?(?:- )?(?:export )?)([A-Z][A-Z0-9_]*)([ \t]*[=:][ \t]*)(["']?)([^\s"'$]{6,})\4[ \t]*$/gm;
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
/**
 * What may precede a secret word on a dotenv or shell line that is one assignment (`DB_PASSWORD=x`,
 * `export API_TOKEN=x`, and a diff's `+` or `-` before either): there a bare word is the value itself,
 * never a name of code's (code spaces its `=`, or ends the statement, or sits inside a call).
 */
const DOTENV_HEAD = /^[+-]?(?:export )?[A-Za-z0-9_]*$/;
/** Tokens known by their shape: GitHub, OpenAI and Anthropic, AWS access keys, Slack, GitLab. */
const TOKEN_SHAPES = new RegExp(
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}` +
    String.raw`|AKIA[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,})\b`,
  "g",
);
const PRIVATE_KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;

/**
 * Credentials never reach the model from a tool's output, whichever way they were printed (`git
 * config --get remote.origin.url`, `git log -p` of a removed .env, an env dump, a template holding a
 * real key): URL user-info passwords, the token shapes vendors publish, private key blocks, and the
 * literal value of any secret-named variable's assignment are replaced (a value with a letter in it:
 * `maxTokens: 16_384` is a number). Code that passes a secret
 * along (`token = getToken()`, `password: process.env.DB_PASSWORD`) is left as it is. Pure.
 */
export function redactCredentials(text: string): string {
  const known = redactKnown(text);
  // A native search first: a URL's password needs "://", and most texts have none.
  const unurled = known.includes("://") ? known.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s@/]+@/gi, "$1[redacted]@") : known;
  return configLines(secretAssignments(unurled.replace(TOKEN_SHAPES, "[redacted token]").replace(PRIVATE_KEY_BLOCK, "[redacted private key]")));
}

/**
 * Each secret-named assignment's literal value replaced, left to right as a global replace would:
 * SECRET_ASSIGNMENT is tried at each place a secret word may start (overlapping ones included,
 * "accessecret"), and a match's end is where the search goes on. A value with no letter (a number,
 * `maxTokens: 16_384`) or an unquoted identifier path (`token = getToken`) is left as it is, but on
 * a line that is one dotenv or shell assignment (`DB_PASSWORD=hunter2`), where it is the value.
 */
function secretAssignments(text: string): string {
  let out = "";
  let last = 0;
  SECRET_STARTS.lastIndex = 0;
  for (let start = SECRET_STARTS.exec(text); start; start = SECRET_STARTS.exec(text)) {
    SECRET_ASSIGNMENT.lastIndex = start.index;
    const m = SECRET_ASSIGNMENT.exec(text);
    if (!m) {
      SECRET_STARTS.lastIndex = start.index + 1;
      continue;
    }
    const [whole, lead, q, value] = m as unknown as [string, string, string, string];
    const end = m.index + whole.length;
    const lineStart = text.lastIndexOf("\n", m.index - 1) + 1;
    const wholeLine = DOTENV_HEAD.test(text.slice(lineStart, m.index)) && /^[A-Za-z0-9_]*=$/.test(lead) && (end === text.length || text[end] === "\n");
    const kept = !/[A-Za-z]/.test(value) || (!q && IDENTIFIER_PATH.test(value) && !wholeLine);
    out += text.slice(last, m.index) + (kept ? whole : `${lead}${q}[redacted]${q}`);
    last = SECRET_STARTS.lastIndex = m.index + whole.length;
  }
  return out + text.slice(last);
}

/**
 * Each config line's literal value replaced where a short part of its name names a secret (a name
 * with a secret word is `secretAssignments`'); a number or a `$` reference is kept. Pure.
 */
function configLines(text: string): string {
  if (!/KEY|PWD|PASS|AUTH|DSN/.test(text)) return text;
  return text.replace(CONFIG_LINE, (line, head: string, name: string, op: string, q: string, value: string) =>
    SECRET_PART.test(name) && !SECRET_WORD.test(name) && /[A-Za-z]/.test(value) ? `${head}${name}${op}${q}[redacted]${q}` : line,
  );
}

/** The forms a known secret value is removed in: as it is, base64 (padded or not, and URL-safe) and URL-encoded. */
function encodings(value: string): string[] {
  const b64 = Buffer.from(value, "utf8").toString("base64");
  const forms = [value, b64, b64.replace(/=+$/, ""), Buffer.from(value, "utf8").toString("base64url"), encodeURIComponent(value)];
  return [...new Set(forms)].filter((f) => f.length >= 8).sort((a, b) => b.length - a.length);
}

let knownValues = new Set<string>();
let knownForms: string[] = [];

/**
 * The secret values weir knows this run (`knownSecretValues` of workspace/environment.ts: the
 * person's secret-named variables, the passwords in their URLs, the workspace's `.env` values, key
 * bodies): from then on each is removed wherever it appears, whatever its shape. Tests set and
 * clear them; a run adds to them (`addKnownSecrets`).
 */
export function useKnownSecrets(values: readonly string[]): void {
  knownValues = new Set(values);
  knownForms = [...new Set(values.flatMap(encodings))].sort((a, b) => b.length - a.length);
}

/**
 * More secret values: the runtime's at its start, and what it learns as the run goes (the secret
 * files a compile's walk finds below the top). A process never forgets one: its runs (a graph's
 * nodes, a server's sessions) share what they remove.
 */
export function addKnownSecrets(values: readonly string[]): void {
  if (values.some((v) => !knownValues.has(v))) useKnownSecrets([...knownValues, ...values]);
}

function redactKnown(text: string): string {
  let out = text;
  for (const form of knownForms) if (out.includes(form)) out = out.split(form).join("[redacted secret]");
  return out;
}
