import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { MockServer } from "../support/mock-server.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The model router through the binary, against two endpoints standing for two vendors: `main` on
 * the Messages wire (world.server), `fast` on the Chat wire (its own server). The oracles are the
 * requests each endpoint received, the events stream's route lines and the JSON result.
 */
const world = e2eWorld();
let fast: MockServer;
beforeAll(async () => {
  fast = await new MockServer().start();
});
afterAll(() => fast.stop());
// No turn scripted for one test is left for the next.
beforeEach(() => {
  fast.script({ turns: [] });
  world.server.models = ["mock-a", "mock-b"];
});

const MAIN_KEY = "sk-main-000000000000000001";
/** Shaped as Anthropic publishes them: main dear with a cheap cache, fast a third of it. */
const PRICES = {
  "main-model": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "fast-model": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

function configure(over: Record<string, unknown> = {}) {
  const config = {
    provider: "anthropic-compatible",
    baseUrl: world.server.url,
    model: "main-model",
    models: { fast: { provider: "openai-compatible", baseUrl: `${fast.url}/v1`, model: "fast-model" } },
    prices: PRICES,
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    ...over,
  };
  writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify(config));
}

/** A module of its own beside src/, so a change to it and to src/total.js spans modules. */
function shipModule() {
  mkdirSync(join(world.ws, "src", "orders"), { recursive: true });
  writeFileSync(join(world.ws, "src", "orders", "ship.js"), "const { report } = require('../report');\nfunction ship(items) {\n  return report(items);\n}\nmodule.exports = { ship };\n");
}

function repository() {
  mkdirSync(join(world.ws, "src"), { recursive: true });
  mkdirSync(join(world.ws, "test"), { recursive: true });
  writeFileSync(join(world.ws, "src", "total.js"), "function computeTotal(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\nmodule.exports = { computeTotal };\n");
  writeFileSync(join(world.ws, "src", "report.js"), "const { computeTotal } = require('./total');\nfunction report(items) {\n  return `total: ${computeTotal(items)}`;\n}\nmodule.exports = { report };\n");
  writeFileSync(join(world.ws, "test", "total.test.js"), "const { computeTotal } = require('../src/total');\nif (computeTotal([1, 2]) !== 3) process.exit(1);\n");
  writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node test/total.test.js" } }));
}

const weir = (args: string[]) => runWeir(["--cwd", world.ws, "--verify-floor", "off", "--output-format", "events", ...args], { home: world.home, env: { WEIR_API_KEY: MAIN_KEY } });
const events = (stdout: string) => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
const routes = (stdout: string) => events(stdout).filter((e) => e.type === "route");
const start = () => ({ main: world.server.requests.length, fast: fast.requests.length });
const since = (s: { main: number; fast: number }) => ({ main: world.server.requests.slice(s.main).map((r) => r.body.model), fast: fast.requests.slice(s.fast).map((r) => r.body.model) });

describe("each request goes to the model its compiled view needs", () => {
  test("an inspect task in a small view goes to fast, and main's key is not sent to fast's endpoint", async () => {
    repository();
    configure();
    fast.script({ turns: [{ text: "It adds the items up." }] });
    const s = start();
    const r = await weir(["what does computeTotal in src/total.js do?"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: [], fast: ["fast-model"] });
    const [route] = routes(r.stdout);
    expect(route).toMatchObject({ role: "fast", model: "fast-model" });
    expect(route!.reason).toContain("an inspect task");
    expect(JSON.stringify(fast.requests.at(-1)!.headers)).not.toContain(MAIN_KEY);
  });

  test("a change to two files in one directory with tests goes to fast; one across modules goes to main, with the reason; --router off sends the inspect task to main", async () => {
    repository();
    shipModule();
    configure();
    fast.script({ turns: [{ text: "Planned." }] });
    let s = start();
    const local = await weir(["change computeTotal in src/total.js and report in src/report.js to use cents"]);
    expect(local.code).toBe(0);
    expect(since(s)).toEqual({ main: [], fast: ["fast-model"] });
    expect(routes(local.stdout)[0]).toMatchObject({ role: "fast", reason: expect.stringContaining("a change to 2 files in one directory with its tests mapped") });
    // Across modules: every turn on main, also after its first file is edited (when the decision state scopes the edited file alone).
    const edit = { id: "e1", name: "edit_file", input: { path: "src/total.js", old_string: "a + b, 0", new_string: "a + b * 100, 0" } };
    world.server.script({ turns: [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/total.js" } }] }, { toolCalls: [edit] }, { text: "Changed." }] });
    s = start();
    const r = await weir(["--yes", "change computeTotal in src/total.js and ship in src/orders/ship.js to use cents"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.ws, "src", "total.js"), "utf8")).toContain("a + b * 100, 0");
    expect(since(s)).toEqual({ main: ["main-model", "main-model", "main-model"], fast: [] });
    expect(routes(r.stdout).map((e) => e.reason)).toEqual(["the change spans modules", "the change spans modules", "the change spans modules"]);
    world.server.script({ turns: [{ text: "It adds the items up." }] });
    s = start();
    const off = await weir(["--router", "off", "what does computeTotal in src/total.js do?"]);
    expect(off.code).toBe(0);
    expect(since(s)).toEqual({ main: ["main-model"], fast: [] });
    expect(routes(off.stdout)).toEqual([]);
  });

  test("a one-file change with its tests mapped goes to fast; its failed check hands the next turn to main with the same view", async () => {
    repository();
    writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node -e \"process.exit(1)\"" } }));
    configure();
    fast.script({ turns: [{ toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }] }] });
    world.server.script({ turns: [{ text: "The check fails before any change; looking closer." }] });
    const s = start();
    const r = await weir(["--yes", "fix the rounding in computeTotal in src/total.js"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: ["main-model"], fast: ["fast-model"] });
    const [first, second] = routes(r.stdout);
    expect(first).toMatchObject({ role: "fast", reason: expect.stringContaining("a one-file change with its tests mapped") });
    expect(second).toMatchObject({ role: "main", reason: "escalated: the checks failed on the fast model" });
    // Main got the conversation fast had, and the result fast's call produced.
    const toMain = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(toMain).toContain("fix the rounding in computeTotal");
    expect(toMain).toContain("v1");
  });

  test("a fast model whose endpoint fails hands the turn to main, once, with a notice", async () => {
    repository();
    configure();
    fast.script({ turns: [{ fault: "http_500" }] });
    world.server.script({ turns: [{ text: "It adds the items up." }] });
    const s = start();
    const r = await weir(["what does computeTotal in src/total.js do?"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: ["main-model"], fast: ["fast-model"] });
    const notice = events(r.stdout).find((e) => e.type === "notice" && String(e.message).includes("the turn goes to the main model"));
    expect(notice).toBeDefined();
  });
});

describe("workers", () => {
  test("a worker's scoped task goes to fast; the main agent that spawned it stays on main", async () => {
    repository();
    shipModule();
    configure();
    const call = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, input }] });
    world.server.script({
      turns: [
        call("s1", "spawn_agent", { goal: "GOAL-NOTE: write out/note.txt saying done", label: "noter", writes: ["out/note.txt"] }),
        call("w1", "wait_agents", {}),
        { text: "MAIN-DONE" },
      ],
    });
    fast.route("GOAL-NOTE", [call("n1", "write_file", { path: "out/note.txt", content: "done\n" }), { text: "wrote it" }]);
    const s = start();
    const r = await weir(["--yes", "change computeTotal in src/total.js and ship in src/orders/ship.js, with a worker writing out/note.txt"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: ["main-model", "main-model", "main-model"], fast: ["fast-model", "fast-model"] });
    const worker = events(r.stdout).filter((e) => e.type === "agent" && e.event.type === "route").map((e) => e.event);
    expect(worker.map((e) => e.role)).toEqual(["fast", "fast"]);
    expect(routes(r.stdout).map((e) => e.role)).toEqual(["main", "main", "main"]);
    expect(readFileSync(join(world.ws, "out", "note.txt"), "utf8")).toBe("done\n");
  });
});

describe("graph nodes", () => {
  test("a node's scoped objective goes to fast", async () => {
    repository();
    configure();
    const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
    for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...a], { cwd: world.ws, env }).exitCode).toBe(0);
    const plan = join(world.tmp, "plan.json");
    writeFileSync(plan, JSON.stringify({ nodes: [{ id: "n1", objective: "NODE-ONE: create out/n1.txt", check: "true", scope: ["out/n1.txt"], depends_on: [] }] }));
    fast.route("NODE-ONE", [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "out/n1.txt", content: "one\n" } }] }, { text: "created" }]);
    const s = start();
    const r = await runWeir(["--cwd", world.ws, "--yes", "--verify-floor", "off", "graph", "--plan", plan, "--check", "true", "one node"], { home: world.home });
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: [], fast: ["fast-model", "fast-model"] });
  }, 60_000);
});

describe("the cache decides a switch made to save money", () => {
  /** A first run that warms main with a long view: a change to two files, after reading a large file. */
  async function warmMain() {
    writeFileSync(join(world.ws, "src", "notes.md"), `# Notes\n${"The totals are computed in cents. ".repeat(600)}\n`);
    world.server.script({ turns: [{ toolCalls: [{ id: "r1", name: "read_file", input: { path: "src/notes.md" } }] }, { text: "Read." }] });
    const r = await weir(["read src/notes.md, then change computeTotal in src/total.js and report in src/report.js to use cents"]);
    expect(r.code).toBe(0);
    expect(routes(r.stdout).every((x) => x.role === "main")).toBe(true);
  }

  test("a follow-up inspect question in a warm conversation stays on main when fast's prefill costs more than the saving", async () => {
    repository();
    configure();
    await warmMain();
    world.server.script({ turns: [{ text: "It adds the items up." }] });
    const s = start();
    const r = await weir(["-c", "what does computeTotal in src/total.js do?"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: ["main-model"], fast: [] });
    expect(routes(r.stdout)[0]!.reason).toMatch(/but main's warm prefix makes it \$[\d.]+ there against \$[\d.]+ on fast/);
    // The same question in a new session has no warm prefix to lose.
    fast.script({ turns: [{ text: "It adds the items up." }] });
    const fresh = await weir(["what does computeTotal in src/total.js do?"]);
    expect(routes(fresh.stdout)[0]).toMatchObject({ role: "fast" });
  });

  test("where fast is cheap enough that the saving pays for the prefill, the warm conversation moves", async () => {
    repository();
    configure({ prices: { ...PRICES, "fast-model": { input: 0.01, output: 0.04, cacheRead: 0.001 } } });
    await warmMain();
    fast.script({ turns: [{ text: "It adds the items up." }] });
    const s = start();
    const r = await weir(["-c", "what does computeTotal in src/total.js do?"]);
    expect(r.code).toBe(0);
    expect(since(s)).toEqual({ main: [], fast: ["fast-model"] });
    expect(routes(r.stdout)[0]!.reason).toMatch(/\$[\d.]+ on fast against \$[\d.]+ on warm main/);
  });
});

describe("cost by model and role", () => {
  test("the JSON result breaks tokens and dollars down by model, and the total is their sum", async () => {
    repository();
    writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node -e \"process.exit(1)\"" } }));
    configure();
    fast.script({ turns: [{ toolCalls: [{ id: "v1", name: "verify", input: { level: "quick" } }], usage: { input: 1000, output: 100 } }] });
    world.server.script({ turns: [{ text: "Looking closer.", usage: { input: 2000, cacheRead: 500, output: 50 } }] });
    const r = await runWeir(["--cwd", world.ws, "--verify-floor", "off", "--yes", "--output-format", "json", "fix the rounding in computeTotal in src/total.js"], { home: world.home });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.models["fast-model"]).toMatchObject({ role: "fast", usage: { input: 1000, output: 100 } });
    expect(out.models["main-model"]).toMatchObject({ role: "main", usage: { input: 2000, cacheRead: 500, output: 50 } });
    // Written out here from the prices above, not taken from the code under test.
    const fastUsd = (1000 * 1 + 100 * 5) / 1e6;
    const mainUsd = (2000 * 3 + 500 * 0.3 + 50 * 15) / 1e6;
    expect(out.models["fast-model"].cost_usd).toBeCloseTo(fastUsd, 9);
    expect(out.models["main-model"].cost_usd).toBeCloseTo(mainUsd, 9);
    expect(out.total_cost_usd).toBeCloseTo(fastUsd + mainUsd, 9);
    // The session's requests replayed under each policy: the router sends them where they went.
    const replay = await runWeir(["--cwd", world.ws, "eval", "routing"], { home: world.home });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain("2 routed requests; main main-model, fast fast-model");
    expect(replay.stdout).toContain(`recorded (the vendors' usage): $${(fastUsd + mainUsd).toFixed(4)}`);
    expect(replay.stdout).toMatch(/router +\$[\d.]+ +main 1, fast 1, 0 moved from where they went/);
    expect(replay.stdout).toMatch(/main +\$[\d.]+ +main 2, fast 0, 1 moved from where they went/);
    expect(replay.stdout).toMatch(/the router costs [\d.]+x everything on main/);
  });

  test("weir config show names each role's model, endpoint and masked key; a project may not send a role elsewhere", async () => {
    repository();
    configure();
    const r = await runWeir(["--cwd", world.ws, "config", "show", "--fast-model", "other-fast"], { home: world.home, env: { WEIR_API_KEY: MAIN_KEY } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/models\.main\s+anthropic-compatible\/main-model/);
    expect(r.stdout).toContain(`models.fast       openai-compatible/other-fast at ${fast.url}/v1, key (unset) from unset`);
    expect(r.stdout).not.toContain(MAIN_KEY);
    mkdirSync(join(world.ws, ".weir"), { recursive: true });
    writeFileSync(join(world.ws, ".weir", "config.json"), JSON.stringify({ models: { fast: { provider: "openai", model: "gpt-5-mini" } } }));
    const bad = await runWeir(["--cwd", world.ws, "config", "show"], { home: world.home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("field models.fast may only name a model in a project config");
  });
});

describe("the REPL shows the roles and the spend by model", () => {
  test("/model names the fast role and the router; /cost breaks the session down by model with dollars", async () => {
    repository();
    configure();
    // An inspect question (fast), then a change to two files (main).
    fast.script({ turns: [{ text: "It adds the items up.", usage: { input: 1000, output: 100 } }] });
    world.server.script({ turns: [{ text: "Planned the change.", usage: { input: 3000, output: 200 } }] });
    const t = weirInPty([], { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("what does computeTotal in src/total.js do?\r");
    await t.waitFor("It adds the items up.");
    t.write("change computeTotal in src/total.js and report in src/report.js to use cents\r");
    await t.waitFor("Planned the change.");
    const mark = t.text().length;
    // An endpoint without a model list: /model says the model, and the roles beside it.
    world.server.models = null;
    t.write("/model\r");
    await t.waitFor(`roles: fast openai-compatible/fast-model; router on`, 8000, mark);
    await t.waitFor("model: main-model (the endpoint gives no list", 8000, mark);
    t.write("/cost\r");
    // Written out from PRICES: fast 1000 in + 100 out at 1/5, main 3000 in + 200 out at 3/15.
    const fastUsd = (1000 * 1 + 100 * 5) / 1e6;
    const mainUsd = (3000 * 3 + 200 * 15) / 1e6;
    await t.waitFor(`$${(fastUsd + mainUsd).toFixed(4)} at the configured or published prices`, 8000, mark);
    await t.waitFor(`fast fast-model: input 1,000 · cache read 0 · cache write 0 · output 100 tokens · $${fastUsd.toFixed(4)}`, 8000, mark);
    await t.waitFor(`main main-model: input 3,000 · cache read 0 · cache write 0 · output 200 tokens · $${mainUsd.toFixed(4)}`, 8000, mark);
    t.write("/exit\r");
    await t.exits(0);
  }, 60_000);
});

