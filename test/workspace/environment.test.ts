import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactCredentials, useKnownSecrets } from "../../src/core/credentials.ts";
import { commandEnv, knownSecretValues, offline, secretFileValues, valuesIn } from "../../src/workspace/environment.ts";
import { tempDir } from "../support/temp.ts";

afterEach(() => useKnownSecrets([]));

describe("what of the environment a command gets", () => {
  test("the allowlist and what the person adds, never the rest, whatever a name looks like", () => {
    const env = { PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk", PGPASSWORD: "pg-secret-1", MYSQL_PWD: "my-secret-2", RAILS_MASTER_KEY: "rails-3", SLACK_WEBHOOK_URL: "https://hooks", CI_JOB_JWT: "jwt", MY_THING: "x", GITHUB_TOKEN_FILE_LIKE: "y" };
    expect(commandEnv(env)).toEqual({ PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk" });
    expect(commandEnv(env, ["MY_THING"])).toEqual({ PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk", MY_THING: "x" });
  });
});

describe("a command without the network", () => {
  test("gets no proxy, and keeps the rest; with the network, the proxies too", () => {
    const env = { PATH: "/usr/bin", HTTPS_PROXY: "http://u:p@proxy:3128", http_proxy: "http://proxy:3128", NO_PROXY: "localhost" };
    expect(offline(env, false)).toEqual({ PATH: "/usr/bin", NO_PROXY: "localhost" });
    expect(offline(env, true)).toEqual(env);
  });
});

describe("secrets known by value", () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  test("come from secret-named variables, every value of the workspace's .env files, and key bodies", () => {
    dir = tempDir();
    writeFileSync(join(dir.path, ".env"), "STRIPE=sk_live_51Habcdefgh\nexport DEBUG=true\nPORT=8080\nNAME='quoted-value-9'\n");
    writeFileSync(join(dir.path, ".env.local"), "OTHER=zq8XvB4kLm2Pw9Rt\n");
    writeFileSync(join(dir.path, "deploy_key"), "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n");
    const values = knownSecretValues({ MYSQL_PWD: "my-secret-2", PWD: "/work/dir", SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/XYZ", CI_JOB_JWT: "eyJhbGciOi.payload.sig", HOME: "/home/person" }, dir.path);
    expect(values.sort()).toEqual(["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", "eyJhbGciOi.payload.sig", "https://hooks.slack.com/services/T0/B0/XYZ", "my-secret-2", "quoted-value-9", "sk_live_51Habcdefgh", "zq8XvB4kLm2Pw9Rt"]);
  });

  test("are removed as they are, base64-encoded and URL-encoded, wherever they appear", () => {
    useKnownSecrets(["zq8XvB4kLm2Pw9Rt", "p@ss word/42!"]);
    const b64 = Buffer.from("zq8XvB4kLm2Pw9Rt").toString("base64");
    const out = redactCredentials(`raw zq8XvB4kLm2Pw9Rt, b64 ${b64}, url ${encodeURIComponent("p@ss word/42!")}, plain p@ss word/42!`);
    expect(out).toBe("raw [redacted secret], b64 [redacted secret], url [redacted secret], plain [redacted secret]");
    // Without known values nothing of an ordinary text changes.
    useKnownSecrets([]);
    expect(redactCredentials("raw zq8XvB4kLm2Pw9Rt")).toBe("raw zq8XvB4kLm2Pw9Rt");
  });
});

describe("what a secret file holds", () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  test("its values in every format weir protects, never its keys, comments or prose", () => {
    const text = [
      "# deploy: staging-cluster-01",
      "export SIGNING=Sg4nQ8rTz2Vw6Ky",
      "PADDED=YWJjZGVmZ2g=",
      "//registry.npmjs.org/:_authToken=npm_Tok3nValue9",
      "password: hunter2hunter2",
      '  "client_secret": "cs-Zx9Pq3Wm",',
      "Visit the dashboard at: https://example.org/dashboard",
      "DATABASE_URL=postgres://app:p%40ss-w0rd9@db:5432/app",
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEAxyz0123456789",
      "-----END RSA PRIVATE KEY-----",
    ].join("\n");
    const values = valuesIn(text);
    for (const v of ["Sg4nQ8rTz2Vw6Ky", "YWJjZGVmZ2g=", "npm_Tok3nValue9", "hunter2hunter2", "cs-Zx9Pq3Wm", "p%40ss-w0rd9", "p@ss-w0rd9", "MIIEowIBAAKCAQEAxyz0123456789"])
      expect(values).toContain(v);
    for (const v of ["staging-cluster-01", "https://example.org/dashboard", "SIGNING", "client_secret", "password"]) expect(values).not.toContain(v);
    // A JSON document: every string in it, and the body of a key it holds.
    const json = valuesIn(JSON.stringify({ type: "service_account", private_key: "-----BEGIN PRIVATE KEY-----\nMIIBVgIBADANBgkqhkiG9w0\n-----END PRIVATE KEY-----\n" }));
    expect(json).toContain("MIIBVgIBADANBgkqhkiG9w0");
  });

  test("property: of any dotenv file, every value long enough is known and no key is", () => {
    const key = fc.stringMatching(/^[A-Z][A-Z0-9_]{2,12}$/);
    const value = fc.stringMatching(/^[A-Za-z0-9_+/-]{8,24}$/).filter((v) => !/^\d+$/.test(v));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, value), { minLength: 1, maxLength: 6, selector: ([k]) => k }), (pairs) => {
        dir = tempDir();
        mkdirSync(join(dir.path, "pkg", "a"), { recursive: true });
        writeFileSync(join(dir.path, "pkg", "a", ".env"), pairs.map(([k, v]) => `${k}=${v}`).join("\n"));
        const known = secretFileValues(dir.path, ["pkg/a/.env"]);
        for (const [k, v] of pairs) {
          expect(known).toContain(v);
          if (!pairs.some(([, other]) => other === k)) expect(known).not.toContain(k);
        }
        dir.cleanup();
        dir = undefined;
      }),
      { numRuns: 50 },
    );
  });

  test("the password of every URL in the person's environment, whatever the variable's name", () => {
    const values = knownSecretValues({ HTTPS_PROXY: "http://corp:Prx7Qw2Lm9Zt@proxy:3128", NO_PROXY: "localhost,.internal", HOME: "/h" }, "/nonexistent");
    expect(values).toEqual(["Prx7Qw2Lm9Zt"]);
  });

  test("a secret file that is a pipe or a link to a device is not read", () => {
    dir = tempDir();
    Bun.spawnSync(["mkfifo", join(dir.path, ".env")]);
    symlinkSync("/dev/zero", join(dir.path, "credentials.json"));
    expect(secretFileValues(dir.path, [".env", "credentials.json"])).toEqual([]);
  });
});
