import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { redactCredentials } from "../../src/core/credentials.ts";

/**
 * The oracle: secret-named assignments as one global pattern that scans every position (the
 * form redaction is specified by; too slow to run on every file a compile renders).
 */
const WORDS = "PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|JWT|WEBHOOK|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CONNECTION_?STRING";
const NAME = String.raw`[A-Za-z0-9_.-]*(?:${WORDS})[A-Za-z0-9_]*`;
const VALUE = String.raw`(["']?)([A-Za-z0-9_\-+/=.~!@#%^&*]{6,})\2(?=\s|[,;]|$)`;
const ORACLE = new RegExp(String.raw`(?<![A-Za-z0-9_])(${NAME}\s*[=:]\s*)${VALUE}`, "gim");
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
/** A line that is one dotenv or shell assignment, a diff's + or - before it: there a bare word is the value. */
const wholeLine = (text: string, at: number, m: string, value: string) => {
  const end = at + m.length;
  const line = text.slice(text.lastIndexOf("\n", at - 1) + 1, end);
  return /^[+-]?(?:export )?[A-Za-z0-9_]+=$/.test(line.slice(0, line.length - value.length)) && (end === text.length || text[end] === "\n");
};
/** A config line: one upper-case name's assignment, whose own short part (and no secret word) names a secret. */
const CONFIG = /^(\s*(?:[+-]\s*)?(?:- )?(?:export )?)([A-Z][A-Z0-9_]*)(\s*[=:]\s*)(["']?)([^\s"'$]{6,})\4\s*$/;
const configLine = (line: string) => {
  const m = CONFIG.exec(line);
  if (!m) return line;
  const [, head, name, op, q, value] = m as unknown as string[];
  const part = !new RegExp(WORDS, "i").test(name!) && /(^|_)(KEY|PWD|PASS|AUTH|DSN)(_|$)/.test(name!);
  return part && /[A-Za-z]/.test(value!) ? `${head}${name}${op}${q}[redacted]${q}` : line;
};
const oracle = (text: string) =>
  text
    .replace(ORACLE, (m, lead: string, q: string, value: string, at: number) =>
      !/[A-Za-z]/.test(value) || (!q && IDENTIFIER_PATH.test(value) && !wholeLine(text, at, m, value)) ? m : `${lead}${q}[redacted]${q}`,
    )
    .split("\n")
    .map(configLine)
    .join("\n");

// Texts built from the pieces that decide a match: secret words in any case, overlapping ones,
// name characters, operators, quotes, values and the characters that end them.
const PIECES = [
  "password", "PASSWD", "Secret", "token", "api_key", "ApiKey", "private_key", "ACCESSKEY", "accessecret", "secretoken",
  "DB_", "client_", ".", "-", "+", "export ", "_", "x", "9", "=", ":", " ", "\n", "\t", ",", ";", '"', "'",
  "hunter2abc", "zq8XvB4kLm2Pw9Rt", "16_384", "getToken", "process.env.X", "a.b.c", "+/=~!@#%^&*", "()", "é", "İ",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((xs) => xs.join(""));

describe("redactCredentials: secret-named assignments", () => {
  test("equals the every-position scan on texts made of the deciding pieces", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(redactCredentials(t)).toBe(oracle(t));
      }),
      { numRuns: 3000 },
    );
  });

  test("equals it on lines shaped as assignments: dotenv, shell, diff, code", () => {
    const line = fc
      .tuple(
        fc.constantFrom("", "+", "-", " ", "\t", "  - "),
        fc.constantFrom("", "export "),
        fc.constantFrom("DB_PASSWORD", "api_key", "TOKEN", "x.secret", "my-token", "ACCESSKEY", "SMTP_PASS", "MYSQL_PWD", "cache_key", "KEYBOARD", "CI_JWT"),
        fc.constantFrom("=", " = ", ":", "= ", ": "),
        fc.constantFrom("hunter2abc", "getToken", "a.b.c", '"q1w2e3r4"', "16_384", "abc def", "zq8X-vB4k", "${DB_PASS}"),
        fc.constantFrom("", ";", ",", " x", "()"),
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        const t = lines.join("\n");
        expect(redactCredentials(t)).toBe(oracle(t));
      }),
      { numRuns: 3000 },
    );
  });

  test("equals it on this repository's own source", async () => {
    const files = Bun.spawnSync(["git", "ls-files", "src"], { cwd: `${import.meta.dir}/../..` }).stdout.toString().trim().split("\n");
    for (const f of files.slice(0, 200)) {
      const body = await Bun.file(`${import.meta.dir}/../../${f}`).text();
      expect(redactCredentials(body)).toBe(oracle(body));
    }
  });

  test("a literal is replaced, code that passes a secret along is not", () => {
    expect(redactCredentials('DB_PASSWORD="hunter2abc"')).toBe('DB_PASSWORD="[redacted]"');
    expect(redactCredentials("accessecret = zq8X-vB4k/Pw9Rt")).toBe("accessecret = [redacted]");
    expect(redactCredentials("const token = getToken;")).toBe("const token = getToken;");
    expect(redactCredentials("maxTokens: 16_384,")).toBe("maxTokens: 16_384,");
    // On a dotenv or shell line that is one assignment, a bare word is the value (git log -p of a removed .env).
    expect(redactCredentials("+DB_PASSWORD=hunter2hunter2\n")).toBe("+DB_PASSWORD=[redacted]\n");
    expect(redactCredentials("x\n-DB_PASSWORD=hunter2hunter2")).toBe("x\n-DB_PASSWORD=[redacted]");
    expect(redactCredentials("export API_TOKEN=abcdefgh")).toBe("export API_TOKEN=[redacted]");
    expect(redactCredentials("    password = user_password")).toBe("    password = user_password");
    expect(redactCredentials("connect(password=pw_value)")).toBe("connect(password=pw_value)");
    // A short secret part counts in an upper-case name of a config line, never in code's names.
    expect(redactCredentials("SMTP_PASS=hunter2hunter2")).toBe("SMTP_PASS=[redacted]");
    expect(redactCredentials("  - MYSQL_PWD=s3cret-pw\n  SENTRY_DSN: https://k3y@o1.ingest.io/2")).toBe("  - MYSQL_PWD=[redacted]\n  SENTRY_DSN: [redacted]");
    expect(redactCredentials("MYSQL_PWD=${DB_PASS}")).toBe("MYSQL_PWD=${DB_PASS}");
    expect(redactCredentials('cache_key = "users_list"')).toBe('cache_key = "users_list"');
    expect(redactCredentials("KEYBOARD=us-intl-alt")).toBe("KEYBOARD=us-intl-alt");
  });
});
