import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Secrets with no known shape, through the binary with the request bodies as the oracle: the
 * person's variables a command never gets (an allowlist, not a list of bad names; no proxy without
 * the network), and the values weir knows (secret-named variables, URL passwords, what secret files
 * hold at any depth) removed wherever they show: printed by a command, base64-encoded, copied into
 * code, piped to weir, in a removed .env's history, on a config line.
 */
const world = e2eWorld();

const SECRETS = {
  PGPASSWORD: "pgQ7wLx2Vb9Tz",
  MYSQL_PWD: "myZ3kP8sWq1Rn",
  RAILS_MASTER_KEY: "3f9a1c77d2e84b0aa51c",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T01/B02/Xq9LmZ",
  CI_JOB_JWT: "eyJraWQiOi.Jzb21lIjoidGhpbmcifQ.c2lnbmF0dXJl",
};
const DOTENV = "Qm9vb2sh7Yx1Wq";
const UNLISTED = { BUILD_FLAVOUR: "ordinary-value-77" };

/** The flags of a run against the test server in `cwd`. */
const wire = (cwd = world.ws) => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--cwd", cwd];

describe("secrets with no known shape never reach the model", () => {
  test("a command's env has none of the person's other variables, and values printed from files are removed, base64 too", async () => {
    writeFileSync(join(world.ws, ".env"), `PAYMENTS=${DOTENV}\n`);
    writeFileSync(join(world.ws, "compose.yml"), `db:\n  pw_hint: ${SECRETS.PGPASSWORD}\nnotify: ${SECRETS.SLACK_WEBHOOK_URL}\n`);
    writeFileSync(join(world.ws, "blob.txt"), `${Buffer.from(DOTENV).toString("base64")}\n${SECRETS.CI_JOB_JWT}\n`);
    world.server.script({
      turns: [
        { toolCalls: [{ id: "e", name: "run_command", input: { program: "env", args: [] } }] },
        { toolCalls: [{ id: "c", name: "run_command", input: { program: "cat", args: ["compose.yml", "blob.txt"] } }] },
        { text: "done" },
      ],
    });
    const first = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "show the settings"], {
      home: world.home,
      env: { ...SECRETS, ...UNLISTED },
    });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(world.server.requests.slice(first).map((q) => q.body));
    // The plant is real: the files hold the values.
    expect(readFileSync(join(world.ws, "compose.yml"), "utf8")).toContain(SECRETS.PGPASSWORD);
    for (const value of [...Object.values(SECRETS), DOTENV, Buffer.from(DOTENV).toString("base64"), UNLISTED.BUILD_FLAVOUR]) expect(sent).not.toContain(value);
    expect(sent).toContain("[redacted secret]");
    // The env ran: the allowlisted variables are there.
    expect(sent).toContain(`HOME=${world.home}`);
  });
});

describe("secrets one step past the top", () => {
  const NESTED = "Sg4nQ8rTz2Vw6Ky";
  const CLIENT = "cl1Ent-Zx9Pq3Wm";
  const PROXY = "Prx7Qw2Lm9Zt";
  const proxyUrl = `http://corp:${PROXY}@proxy.invalid:3128`;
  const printPassword = "import os, urllib.parse as u; print(u.urlsplit(os.environ['HTTPS_PROXY']).password)";

  test("a secret file's values below the top, and the password of a proxy a command with the network gets, are removed wherever they show", async () => {
    const api = join(world.ws, "services", "api");
    mkdirSync(join(api, "config"), { recursive: true });
    writeFileSync(join(world.ws, ".gitignore"), ".env\n");
    writeFileSync(join(api, ".env"), `SIGNING=${NESTED}\n`);
    writeFileSync(join(api, "config", "credentials.json"), JSON.stringify({ installed: { client_secret: CLIENT } }));
    writeFileSync(join(api, "settings.js"), `export const signing = "${NESTED}";\nexport const client = "${CLIENT}";\n`);
    world.server.script({
      turns: [
        { toolCalls: [{ id: "g", name: "run_command", input: { program: "grep", args: ["-rn", "signing", "services"] } }] },
        { toolCalls: [{ id: "e", name: "run_command", input: { program: "env", args: [] } }] },
        { toolCalls: [{ id: "p", name: "run_command", input: { program: "python3", args: ["-c", printPassword], widen: { network: true } } }] },
        { text: "done" },
      ],
    });
    const first = world.server.requests.length;
    const args = [...wire(), "--yes", "--allow-network"];
    const r = await runWeir([...args, "explain services/api/settings.js"], { home: world.home, env: { HTTPS_PROXY: proxyUrl } });
    expect(r.code).toBe(0);
    const bodies = world.server.requests.slice(first).map((q) => q.body);
    const sent = JSON.stringify(bodies);
    // The plants are real: the file shown holds both values, and the command prints the password on the host.
    expect(sent).toContain("services/api/settings.js");
    const host = Bun.spawnSync(["python3", "-c", printPassword], { env: { PATH: process.env.PATH ?? "", HTTPS_PROXY: proxyUrl } });
    expect(host.stdout.toString().trim()).toBe(PROXY);
    expect([NESTED, CLIENT, PROXY].filter((value) => sent.includes(value))).toEqual([]);
    // Without the network a command gets no proxy; with it, what it printed of one reached the model removed.
    const results = bodies.at(-1).messages.filter((m: { role: string }) => m.role === "tool").map((m: unknown) => JSON.stringify(m));
    expect(results.find((m: string) => m.includes("$ env"))).toContain("HOME=");
    expect(results.find((m: string) => m.includes("$ env"))).not.toContain("HTTPS_PROXY");
    expect(results.at(-1)).toContain("[redacted secret]");
  });
});

describe("secrets in what the person passes along", () => {
  test("input piped to weir is redacted like a tool's output: known values at the top and below it, and secret assignments", async () => {
    const TOP = "Tq3vN8kLx2Pw9Rz";
    const DEEP = "Dp7mW2qZk9Xv4Ls";
    mkdirSync(join(world.ws, "deploy"), { recursive: true });
    writeFileSync(join(world.ws, ".env"), `SIGNING=${TOP}\n`);
    writeFileSync(join(world.ws, "deploy", ".env"), `RELEASE_SIG=${DEEP}\n`);
    world.server.script({ turns: [{ text: "Reviewed." }] });
    const first = world.server.requests.length;
    const diff = `diff --git a/config.txt b/config.txt\n+signing ${TOP}\n+release ${DEEP}\n+DB_PASSWORD=hunt3r-2-Pass\n`;
    const args = wire();
    const r = await runWeir([...args, "review this diff"], { home: world.home, stdin: diff });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(world.server.requests.slice(first).map((q) => q.body));
    // The input arrived, quoted, with what it said around the secrets.
    expect(sent).toContain("input piped to weir");
    expect(sent).toContain("+signing [redacted secret]");
    expect([TOP, DEEP, "hunt3r-2-Pass"].filter((v) => sent.includes(v))).toEqual([]);
  });
});

describe("secrets in what commands print: history and configs", () => {
  test("a removed .env's password that looks like a word, printed by git log -p, is removed", async () => {
    const repo = join(world.ws, "history");
    mkdirSync(repo, { recursive: true });
    const git = (...a: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: world.home } });
    git("init", "-q");
    writeFileSync(join(repo, ".env.production"), "DB_PASSWORD=hunter2hunter2\nexport API_TOKEN=wordlikeToken\n");
    git("add", "-f", ".env.production");
    git("commit", "-qm", "oops");
    git("rm", "-q", ".env.production");
    git("commit", "-qm", "remove");
    world.server.script({ turns: [{ toolCalls: [{ id: "l", name: "run_command", input: { program: "git", args: ["log", "-p"] } }] }, { text: "done" }] });
    const first = world.server.requests.length;
    const args = [...wire(repo), "--yes"];
    const r = await runWeir([...args, "what changed in history?"], { home: world.home });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(world.server.requests.slice(first).map((q) => q.body));
    // The log was shown: its lines are there, their values are not.
    expect(sent).toContain("-DB_PASSWORD=[redacted]");
    expect(["hunter2hunter2", "wordlikeToken"].filter((v) => sent.includes(v))).toEqual([]);
  });

  test("a config's upper-case names with a short secret part (SMTP_PASS, MYSQL_PWD, SENTRY_DSN) keep no value a command prints", async () => {
    const compose = "services:\n  app:\n    environment:\n      - SMTP_PASS=smtpHunter2\n      - MYSQL_PWD=${DB_PWD}\n      SENTRY_DSN: https://k3yAbc@o1.ingest.io/2\n";
    writeFileSync(join(world.ws, "compose.yaml"), compose);
    world.server.script({ turns: [{ toolCalls: [{ id: "c", name: "run_command", input: { program: "cat", args: ["compose.yaml"] } }] }, { text: "done" }] });
    const first = world.server.requests.length;
    const args = [...wire(), "--yes"];
    const r = await runWeir([...args, "what does the app's environment hold?"], { home: world.home });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(world.server.requests.slice(first).map((q) => q.body));
    expect(sent).toContain("SMTP_PASS=[redacted]");
    // A reference to another variable is not a secret: it stays, so the model can follow it.
    expect(sent).toContain("MYSQL_PWD=${DB_PWD}");
    expect(["smtpHunter2", "k3yAbc"].filter((v) => sent.includes(v))).toEqual([]);
  });
});
