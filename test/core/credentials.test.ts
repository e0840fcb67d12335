import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { redactCredentials } from "../../src/core/credentials.ts";

/**
 * The oracle: secret-named assignments as one global pattern that scans every position (the
 * form redaction is specified by; too slow to run on every file a compile renders).
 */
const NAME = String.raw`[A-Za-z0-9_.-]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY)[A-Za-z0-9_]*`;
const VALUE = String.raw`(["']?)([A-Za-z0-9_\-+/=.~!@#%^&*]{6,})\2(?=\s|[,;]|$)`;
const ORACLE = new RegExp(String.raw`(?<![A-Za-z0-9_])(${NAME}\s*[=:]\s*)${VALUE}`, "gim");
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const oracle = (text: string) =>
  text.replace(ORACLE, (m, lead: string, q: string, value: string) =>
    !/[A-Za-z]/.test(value) || (!q && IDENTIFIER_PATH.test(value)) ? m : `${lead}${q}[redacted]${q}`,
  );

// Texts built from the pieces that decide a match: secret words in any case, overlapping ones,
// name characters, operators, quotes, values and the characters that end them.
const PIECES = [
  "password", "PASSWD", "Secret", "token", "api_key", "ApiKey", "private_key", "ACCESSKEY", "accessecret", "secretoken",
  "DB_", "client_", ".", "-", "_", "x", "9", "=", ":", " ", "\n", "\t", ",", ";", '"', "'",
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
  });
});
