import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactCredentials, useKnownSecrets } from "../../src/core/credentials.ts";
import { commandEnv, knownSecretValues } from "../../src/workspace/environment.ts";
import { tempDir } from "../support/temp.ts";

afterEach(() => useKnownSecrets([]));

describe("what of the environment a command gets", () => {
  test("the allowlist and what the person adds, never the rest, whatever a name looks like", () => {
    const env = { PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk", PGPASSWORD: "pg-secret-1", MYSQL_PWD: "my-secret-2", RAILS_MASTER_KEY: "rails-3", SLACK_WEBHOOK_URL: "https://hooks", CI_JOB_JWT: "jwt", MY_THING: "x", GITHUB_TOKEN_FILE_LIKE: "y" };
    expect(commandEnv(env)).toEqual({ PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk" });
    expect(commandEnv(env, ["MY_THING"])).toEqual({ PATH: "/usr/bin", HOME: "/h", LC_ALL: "C", JAVA_HOME: "/jdk", MY_THING: "x" });
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
