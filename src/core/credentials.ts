/** A variable whose name says it holds a secret: `DB_PASSWORD`, `apiKey`, `GITHUB_TOKEN`, `client_secret`. */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY)[A-Za-z0-9_]*`;
/** Its assignment (`=` or `:`, quoted or not) to a literal: a value that is not an identifier or a member access. */
const SECRET_ASSIGNMENT = new RegExp(String.raw`(?<![A-Za-z0-9_])(${SECRET_NAME}\s*[=:]\s*)(["']?)([A-Za-z0-9_\-+/=.~!@#%^&*]{6,})\2(?=\s|[,;]|$)`, "gim");
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
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
  return unurled
    .replace(TOKEN_SHAPES, "[redacted token]")
    .replace(PRIVATE_KEY_BLOCK, "[redacted private key]")
    .replace(SECRET_ASSIGNMENT, (m, lead: string, q: string, value: string) =>
      !/[A-Za-z]/.test(value) || (!q && IDENTIFIER_PATH.test(value)) ? m : `${lead}${q}[redacted]${q}`,
    );
}

/** The forms a known secret value is removed in: as it is, base64 (padded or not, and URL-safe) and URL-encoded. */
function encodings(value: string): string[] {
  const b64 = Buffer.from(value, "utf8").toString("base64");
  const forms = [value, b64, b64.replace(/=+$/, ""), Buffer.from(value, "utf8").toString("base64url"), encodeURIComponent(value)];
  return [...new Set(forms)].filter((f) => f.length >= 8).sort((a, b) => b.length - a.length);
}

let knownForms: string[] = [];

/**
 * The secret values weir knows this run (`knownSecretValues` of workspace/environment.ts: the
 * person's secret-named variables, the workspace's `.env` values, key bodies): from then on each is
 * removed wherever it appears, whatever its shape. Set once by the runtime; empty in tests.
 */
export function useKnownSecrets(values: readonly string[]): void {
  knownForms = [...new Set(values.flatMap(encodings))].sort((a, b) => b.length - a.length);
}

function redactKnown(text: string): string {
  let out = text;
  for (const form of knownForms) if (out.includes(form)) out = out.split(form).join("[redacted secret]");
  return out;
}
