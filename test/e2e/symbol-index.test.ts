import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The symbol index through the binary: a name defined in one file of 20,001, on a path that shares no
 * word with it, is past what the content search reads; the index finds it, never from a stale fact.
 * The oracles are `weir context --json` (what the first request holds) and the index's own status.
 */
const world = e2eWorld();
const NAME = "parseConfigValue";
const DEFINER = "pkg050/mod3/file10001b.ts";

/** `files` generated files and the definer; each generated file ends with `tail`. */
function bigRepository(files: number, tail = "") {
  for (let i = 0; i < files; i++) {
    const dir = join(world.ws, `pkg${String(Math.floor(i / 200)).padStart(3, "0")}`, `mod${Math.floor(i / 20) % 10}`);
    if (i % 20 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `export function helper${i}(x: number) {\n  return x + ${i};\n}\n${tail}`);
  }
  mkdirSync(join(world.ws, "pkg050", "mod3"), { recursive: true });
  writeFileSync(join(world.ws, DEFINER), `export function ${NAME}(raw: string): number {\n  return Number(raw) + 1;\n}\n`);
}

const weir = (args: string[], env: Record<string, string> = {}) => runWeir(["--cwd", world.ws, ...args], { home: world.home, env });
const sources = async (task: string) => {
  const r = await weir(["context", "--json", task]);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout).entries as { source: string }[]).map((e) => e.source);
};
const dataDir = () => join(world.home, ".local", "share", "weir");

/** A target defining encodeKey and one caller of it, in src/. */
function encodeKeyFiles() {
  mkdirSync(join(world.ws, "src", "deep"), { recursive: true });
  writeFileSync(join(world.ws, "src", "keys.ts"), "export function encodeKey(s: string, upper: boolean): string {\n  return upper ? s.toUpperCase() : s;\n}\n");
  writeFileSync(join(world.ws, "src", "deep", "use.ts"), 'import { encodeKey } from "../keys.ts";\n\nexport const k = encodeKey("a", true);\n');
}

/** Until no refresher a run started for this workspace is running. */
async function settled() {
  for (let i = 0; i < 600 && Bun.spawnSync(["pgrep", "-f", `index --cwd ${world.ws}`]).exitCode === 0; i++) await Bun.sleep(100);
}

/**
 * A run that changes encodeKey's signature: the model reads the target and its one caller, then
 * stops. The last decision says whether the callers are known (each found, and each read).
 */
async function callersKnown(): Promise<boolean | undefined> {
  const task = "Change encodeKey in src/keys.ts to take an options object instead of the upper flag";
  const wire = ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock", "--yes", "--verify-floor", "off"];
  const read = (id: string, path: string) => ({ toolCalls: [{ id, name: "read_file", input: { path } }] });
  world.server.script({ turns: [read("r1", "src/keys.ts"), read("r2", "src/deep/use.ts"), { text: "read" }] });
  expect((await weir([...wire, task])).code).toBe(0);
  await settled();
  const db = new Database(join(dataDir(), "weir.db"), { readonly: true });
  const last = db.query("SELECT record FROM decisions ORDER BY id DESC LIMIT 1").get() as { record: string };
  db.close();
  const symbols = (JSON.parse(last.record) as { request: { symbols: { name: string; callers_known: boolean }[] } }).request.symbols;
  return symbols.find((x) => x.name === "encodeKey")?.callers_known;
}

describe("the symbol index", () => {
  test("finds a named symbol in a 20,001-file repository; a changed file's fact is not used; a refresh reads only what changed", async () => {
    bigRepository(20_000);
    const task = `${NAME} returns the wrong value`;
    expect(await sources(task)).not.toContain(DEFINER);
    // find_references reads every file it walks, and 20,001 is past what it reads.
    const references = async () => {
      world.server.script({ turns: [{ toolCalls: [{ id: "f1", name: "find_references", input: { symbol: NAME } }] }, { text: "found" }] });
      const wire = ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock", "--verify-floor", "off"];
      expect((await weir([...wire, `where is ${NAME} defined?`])).code).toBe(0);
      await settled();
      return JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    };
    expect(await references()).toContain("could not search: more than 20000 files");
    const built = await weir(["index"]);
    // The run before refreshed the index after it ended (past 2,000 files), so this may read nothing new.
    expect(built.stdout).toContain("indexed 20001 source files");
    expect((await weir(["index", "--status"])).stdout).toMatch(/fresh 20001, changed since 0, not indexed 0, gone 0/);
    expect(await sources(task)).toContain(DEFINER);
    // With the index, the files its word filters rule out are not read: the definition is found.
    const found = await references();
    expect(found).toContain(`${DEFINER}:1: function ${NAME}(raw: string): number {`);
    expect(found).toContain("1 file searched (20,000 more files the symbol index rules out)");
    // The definition moves to another file: the old fact is stale and not used, the new file not yet indexed.
    writeFileSync(join(world.ws, DEFINER), "export const other = 1;\n");
    writeFileSync(join(world.ws, "pkg099", "mod9", "moved.ts"), `export function ${NAME}(raw: string) {\n  return Number(raw);\n}\n`);
    expect(await sources(task)).not.toContain(DEFINER);
    const status = await weir(["index", "--status"]);
    expect(status.stdout).toMatch(/fresh 20000, changed since 1, not indexed 1, gone 0/);
    const again = await weir(["index"]);
    expect(again.stdout).toContain("2 read, 0 gone");
    expect(await sources(task)).toContain("pkg099/mod9/moved.ts");
  }, 120_000);

  test("callers in a 6,000-file repository are resolved through the index; a caller added since it was built is still found", async () => {
    bigRepository(6_000);
    encodeKeyFiles();
    // Past 5,000 files, without the index, no file is ruled out: the callers cannot be resolved.
    expect(await callersKnown()).toBe(false);
    // The run before left a refresh of its own running (past 2,000 files): it ended before the index is built here.
    expect((await weir(["index"])).code).toBe(0);
    expect((await weir(["index", "--status"])).stdout).toContain("changed since 0, not indexed 0");
    expect(await callersKnown()).toBe(true);
    // A caller written after the index was built is not in it, so it is read, found and unread.
    mkdirSync(join(world.ws, "src", "late"), { recursive: true });
    writeFileSync(join(world.ws, "src", "late", "more.ts"), 'import { encodeKey } from "../keys.ts";\n\nexport const m = encodeKey("b", false);\n');
    expect(await callersKnown()).toBe(false);
  }, 120_000);

  test("callers among 6,000 files that all name the symbol are resolved through the index's import graph; an import added since is read", async () => {
    // Each file names encodeKey (a local function of its own), so the word filters rule none out: only imports tell callers apart.
    bigRepository(6_000, "function encodeKey(s: string) {\n  return s;\n}\nexport const local = encodeKey;\n");
    encodeKeyFiles();
    expect((await weir(["index"])).code).toBe(0);
    expect(await callersKnown()).toBe(true);
    // One of the 6,000 now imports the target: its stat moved, so what the index holds of it is not used; it is read, a caller unread.
    writeFileSync(join(world.ws, "pkg010", "mod0", "file2000.ts"), 'import { encodeKey } from "../../src/keys.ts";\n\nexport const late = encodeKey("b", false);\n');
    expect(await callersKnown()).toBe(false);
  }, 180_000);

  test("in a git repository of 6,000 files, git vouches for what it has staged unchanged; a caller an index flag hides from git is still read", async () => {
    bigRepository(6_000);
    encodeKeyFiles();
    // Past the files the content ranking reads (the shallowest 2,000), so only the caller search finds it.
    mkdirSync(join(world.ws, "src", "late"), { recursive: true });
    writeFileSync(join(world.ws, "src", "late", "quiet.ts"), "export const quiet = 1;\n");
    const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_CONFIG_NOSYSTEM: "1" };
    const ident = ["-c", "user.name=t", "-c", "user.email=t@t"];
    const git = (...a: string[]) => Bun.spawnSync(["git", ...ident, ...a], { cwd: world.ws, env }).stdout.toString();
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "six thousand files");
    expect((await weir(["index"])).code).toBe(0);
    expect(await callersKnown()).toBe(true);
    // A committed file made a caller, its change hidden from git status by an index flag (a change git
    // shows is in the working set): git lists the file as staged, but flagged, so it vouches for nothing.
    git("update-index", "--assume-unchanged", "src/late/quiet.ts");
    writeFileSync(join(world.ws, "src", "late", "quiet.ts"), 'import { encodeKey } from "../keys.ts";\n\nexport const quiet = encodeKey("b", false);\n');
    expect(git("status", "--porcelain")).toBe("");
    expect(await callersKnown()).toBe(false);
  }, 180_000);

  test("a test that imports the target past the first 400 test files is mapped through the index; without it, it is not", async () => {
    mkdirSync(join(world.ws, "src"), { recursive: true });
    mkdirSync(join(world.ws, "test", "deep", "er"), { recursive: true });
    writeFileSync(join(world.ws, "src", "keys.ts"), "export function encodeKey(s: string): string {\n  return s;\n}\n");
    for (let i = 0; i < 450; i++) writeFileSync(join(world.ws, "test", `t${i}.test.ts`), `import { x${i} } from "./x${i}.ts";\n\nx${i}();\n`);
    const deep = "test/deep/er/behaviour.test.ts";
    writeFileSync(join(world.ws, deep), 'import { encodeKey } from "../../../src/keys.ts";\n\nencodeKey("a");\n');
    const task = "Change encodeKey in src/keys.ts to trim its input";
    expect(await sources(task)).not.toContain(deep);
    expect((await weir(["index"])).code).toBe(0);
    expect(await sources(task)).toContain(deep);
  });

  test("a kill in the middle of a refresh leaves the previous index whole; a corrupt index is moved aside with one line", async () => {
    mkdirSync(join(world.ws, "src"), { recursive: true });
    writeFileSync(join(world.ws, "src", "a.ts"), `export function ${NAME}() {}\n`);
    expect((await weir(["index"])).code).toBe(0);
    writeFileSync(join(world.ws, "src", "b.ts"), `import { ${NAME} } from "./a";\nexport function secondName() {}\n`);
    const killed = await weir(["index"], { WEIR_FAULT_AT: "index-apply" });
    expect(killed.code).not.toBe(0);
    const status = await weir(["index", "--status"]);
    expect(status.stdout).toMatch(/1 files, 1 names defined, 0 import edges/);
    expect(status.stdout).toMatch(/fresh 1, changed since 0, not indexed 1/);
    writeFileSync(join(dataDir(), "symbols.db"), "this is not a database");
    for (const f of readdirSync(dataDir())) if (f.startsWith("symbols.db-")) writeFileSync(join(dataDir(), f), "");
    const rebuilt = await weir(["index"]);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr.trim().split("\n")).toHaveLength(1);
    expect(rebuilt.stderr).toMatch(/symbols\.db was not a database; moved it to .*symbols\.db\.corrupt-\d+ and started a new one/);
    expect(rebuilt.stdout).toContain("2 read");
    expect((await weir(["index", "--status"])).stdout).toMatch(/2 files, 2 names defined, 1 import edges/);
  });

  test("a run in a workspace past 2,000 files refreshes the index after it ends, in a process of its own", async () => {
    bigRepository(2_100);
    world.server.script({ turns: [{ text: "done" }] });
    const r = await weir(["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "say done"]);
    expect(r.code).toBe(0);
    let status = "";
    for (let i = 0; i < 100 && !/fresh 2101,/.test(status); i++) {
      await Bun.sleep(200);
      status = existsSync(join(dataDir(), "symbols.db")) ? (await weir(["index", "--status"])).stdout : "";
    }
    expect(status).toMatch(/fresh 2101, changed since 0, not indexed 0, gone 0/);
    // The refresher has let go of its lock before the test's directory is removed.
    await Bun.sleep(300);
  }, 60_000);

  test("the REPL refreshes the index between tasks, while it is still open", async () => {
    bigRepository(2_100);
    world.server.script({ turns: [{ text: "first answer" }] });
    const t = weirInPty(["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off"], { home: world.home, cwd: world.ws });
    try {
      await t.waitFor("/help for commands");
      t.write("say something\r");
      await t.waitFor("first answer");
      let status = "";
      for (let i = 0; i < 100 && !/fresh 2101,/.test(status); i++) {
        await Bun.sleep(200);
        status = existsSync(join(dataDir(), "symbols.db")) ? (await weir(["index", "--status"])).stdout : "";
      }
      // Refreshed while the REPL is open: no exit has run its close yet.
      expect(t.proc.exitCode).toBeNull();
      expect(status).toMatch(/fresh 2101, changed since 0, not indexed 0, gone 0/);
    } finally {
      t.write("\x04");
      await t.proc.exited;
      await Bun.sleep(300);
    }
  }, 60_000);
});
