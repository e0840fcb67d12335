import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { MockServer } from "../support/mock-server.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Review findings as derived state, through the binary: `weir index --review` asks the review model
 * (models.review, a second vendor here) about a file and its tests, stores what it found bound to the
 * SHAs it read, and a run's compile shows the findings on a target until a file the review read
 * changes; a run that changed files leaves their review to a background process.
 */
const world = e2eWorld();
let reviewer: MockServer;
beforeAll(async () => {
  reviewer = await new MockServer().start();
});
afterAll(() => reviewer.stop());

const FINDING = "REVIEW-FINDING-5151: the token is compared with ==, which leaks its length through timing";

function configure(withReview = true) {
  const config = {
    provider: "openai-compatible",
    baseUrl: `${world.server.url}/v1`,
    model: "main-model",
    ...(withReview ? { models: { review: { provider: "openai-compatible", baseUrl: `${reviewer.url}/v1`, model: "review-model" } } } : {}),
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  };
  writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify(config));
}

function git(...args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
}

function repository() {
  const files: Record<string, string> = {
    "src/auth.js": "export function allowed(given, token) {\n  return given == token;\n}\n",
    "test/auth.test.js": 'import { allowed } from "../src/auth.js";\nif (!allowed("a", "a")) throw new Error("AUTH-TEST-7373");\n',
    "package.json": JSON.stringify({ name: "p", type: "module", scripts: { test: "node test/auth.test.js" } }),
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, p, ".."), { recursive: true });
    writeFileSync(join(world.ws, p), text);
  }
  for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) git(...a);
}

const reports = (findings: unknown[]) => ({ turns: [{ toolCalls: [{ id: "r1", name: "report_findings", input: { findings } }] }] });
const weir = (args: string[]) => runWeir(args, { home: world.home, cwd: world.ws });

/** The review entries of the compiled working set for a task. */
async function reviewEntries(task: string): Promise<string[]> {
  const r = await weir(["context", "--json", task]);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as { entries: { kind: string; level: string; rendered?: string; source: string }[] };
  return out.entries.filter((e) => e.kind === "review" && e.level !== "omit").map((e) => e.source);
}

async function status(): Promise<{ files: number; fresh: number; stale: number; findings: number } | null> {
  const r = await weir(["index", "--status", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).reviews;
}

describe("weir index --review", () => {
  test("the review model reads the file and its test as quoted data; its finding reaches a run's context until the file changes", async () => {
    configure();
    repository();
    // A finding at a line the file does not have is dropped.
    reviewer.script(reports([{ line: 2, kind: "security", text: FINDING }, { line: 99, kind: "test_gap", text: "BEYOND-THE-FILE" }]));
    const before = reviewer.requests.length;
    const r = await weir(["index", "--review", "src/auth.js"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`src/auth.js:2 [security] ${FINDING}`);
    expect(r.stdout).toContain("reviewed 1 file with review-model: 1 finding");
    expect(r.stdout).not.toContain("BEYOND-THE-FILE");
    // One request to the review vendor, with the file numbered and its test, both quoted as data.
    expect(reviewer.requests.length).toBe(before + 1);
    const sent = JSON.stringify(reviewer.requests.at(-1)!.body);
    expect(sent).toContain("return given == token;");
    expect(sent).toContain("AUTH-TEST-7373");
    expect(sent).toContain("UNTRUSTED-DATA");
    expect(reviewer.requests.at(-1)!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["report_findings"]);

    const task = "change how src/auth.js compares tokens";
    expect(await reviewEntries(task)).toEqual(["src/auth.js"]);
    // What the main model receives: the finding, in the first request.
    world.server.script({ turns: [{ text: "ok" }] });
    const sentBefore = world.server.requests.length;
    expect((await weir(["--verify-floor", "off", task])).code).toBe(0);
    expect(JSON.stringify(world.server.requests[sentBefore]!.body.messages)).toContain("REVIEW-FINDING-5151");
    expect(await status()).toEqual({ files: 1, fresh: 1, stale: 0, findings: 1 });

    // The test it read changes: the review no longer holds.
    writeFileSync(join(world.ws, "test/auth.test.js"), 'import { allowed } from "../src/auth.js";\nif (allowed("a", "b")) throw new Error("x");\n');
    expect(await reviewEntries(task)).toEqual([]);
    expect(await status()).toEqual({ files: 1, fresh: 0, stale: 1, findings: 0 });
    expect((await weir(["index", "--status"])).stdout).toContain("1 stale (a file the review read changed since");
  });

  test("without models.review it says what to set; a report that is not one fails in one line and stores nothing", async () => {
    configure(false);
    repository();
    const none = await weir(["index", "--review", "src/auth.js"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("needs a review model: set models.review");
    configure();
    reviewer.script(reports([{ line: 2, kind: "style", text: "use ===" }]));
    const bad = await weir(["index", "--review", "src/auth.js"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("the review of src/auth.js failed: the review model's report is not valid");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(await status()).toBeNull();
    const outside = await weir(["index", "--review", "../elsewhere.js"]);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("outside the workspace");
  });

  test("a run that changed a file leaves its review to a background process; a run that changed nothing asks for none", async () => {
    configure();
    repository();
    world.server.script({ turns: [{ text: "Nothing to change." }] });
    const quiet = reviewer.requests.length;
    expect((await weir(["--verify-floor", "off", "what does src/auth.js do?"])).code).toBe(0);
    await Bun.sleep(500);
    expect(reviewer.requests.length).toBe(quiet);

    reviewer.script(reports([{ line: 2, kind: "security", text: FINDING }]));
    world.server.script({
      turns: [
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/auth.js", old_string: "given == token", new_string: "given === token" } }] },
        { text: "Done." },
      ],
    });
    expect((await weir(["--yes", "--verify-floor", "off", "compare tokens strictly in src/auth.js"])).code).toBe(0);
    let held = await status();
    for (let waited = 0; !held && waited < 20_000; waited += 200) {
      await Bun.sleep(200);
      held = await status();
    }
    expect(held).toEqual({ files: 1, fresh: 1, stale: 0, findings: 1 });
    expect(JSON.stringify(reviewer.requests.at(-1)!.body)).toContain("given === token");
  });

  test("the REPL has a changed file reviewed between tasks, while it is still open", async () => {
    configure();
    repository();
    reviewer.script(reports([{ line: 2, kind: "security", text: FINDING }]));
    world.server.script({
      turns: [
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/auth.js", old_string: "given == token", new_string: "given === token" } }] },
        { text: "STRICT-NOW" },
      ],
    });
    const t = weirInPty(["--yes", "--verify-floor", "off"], { home: world.home, cwd: world.ws });
    try {
      await t.waitFor("/help for commands");
      t.write("compare tokens strictly in src/auth.js\r");
      await t.waitFor("STRICT-NOW");
      let held = await status();
      for (let waited = 0; !held && waited < 20_000; waited += 200) {
        await Bun.sleep(200);
        held = await status();
      }
      // Reviewed while the REPL is open: no exit has run its close yet.
      expect(t.proc.exitCode).toBeNull();
      expect(held).toEqual({ files: 1, fresh: 1, stale: 0, findings: 1 });
    } finally {
      t.write("\x04");
      await t.proc.exited;
    }
  });

  test("a security finding that still holds makes a neutral change security-sensitive before any edit; a stale one does not", async () => {
    configure();
    repository();
    writeFileSync(join(world.ws, "src/compare.js"), "export function same(a, b) {\n  return a == b;\n}\n");
    git("add", "-A");
    git("commit", "-qm", "compare");
    const task = "Make same in src/compare.js ignore case";
    /** The first decision's security fact of a run of the task (no edit made). */
    const sensitive = async () => {
      world.server.script({ turns: [{ text: "done" }] });
      expect((await weir(["--verify-floor", "off", task])).code).toBe(0);
      const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
      const row = db.query("SELECT record FROM decisions ORDER BY id DESC LIMIT 1").get() as { record: string };
      db.close();
      return (JSON.parse(row.record) as { request: { change: { security_sensitive: boolean } } }).request.change.security_sensitive;
    };
    expect(await sensitive()).toBe(false);
    reviewer.script(reports([{ line: 2, kind: "security", text: "loose equality lets a number match its string" }]));
    expect((await weir(["index", "--review", "src/compare.js"])).code).toBe(0);
    expect(await sensitive()).toBe(true);
    writeFileSync(join(world.ws, "src/compare.js"), "export function same(a, b) {\n  return a === b;\n}\n");
    expect(await sensitive()).toBe(false);
  });
});
