import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir, weirStreaming } from "../support/cli.ts";
import type { Turn } from "../support/mock-server.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Goal graphs through the binary with a scripted model: each node's conversation is routed by its
 * objective, so nodes running at once each get their own script. Real git repositories and
 * worktrees; the graph's state is read back from the session database.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

function repository() {
  writeFileSync(join(world.ws, "README.md"), "# kv\n");
  writeFileSync(join(world.ws, "shared.txt"), "one\n");
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env: { PATH: process.env.PATH ?? "", HOME: world.home, ...GIT_ENV } }).exitCode).toBe(0);
}

const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: world.ws }).stdout.toString();

interface Node {
  id: string;
  objective: string;
  check?: string;
  scope: string[];
  depends_on?: string[];
}

/** Writes the plan and routes each node's objective to its script: write its file, then say done. */
function plan(nodes: Node[], scripts: Record<string, Turn[]> = {}): string {
  for (const n of nodes) world.server.route(n.objective, scripts[n.id] ?? [{ toolCalls: [{ id: `w-${n.id}`, name: "write_file", input: { path: `${n.id}.txt`, content: `${n.id}\n` } }] }, { text: `${n.id} done` }]);
  const file = join(world.tmp, "plan.json");
  writeFileSync(file, JSON.stringify({ nodes }));
  return file;
}

const DIAMOND: Node[] = [
  { id: "a", objective: "Create the file a.txt", check: "test -f a.txt", scope: ["a.txt"] },
  { id: "b", objective: "Create the file b.txt", check: "test -f a.txt && test -f b.txt", scope: ["b.txt"], depends_on: ["a"] },
  { id: "c", objective: "Create the file c.txt", check: "test -f a.txt && test -f c.txt", scope: ["c.txt"], depends_on: ["a"] },
  { id: "d", objective: "Create the file d.txt", check: "test -f b.txt && test -f c.txt && test -f d.txt", scope: ["d.txt"], depends_on: ["b", "c"] },
];

async function graph(args: string[]) {
  world.server.script({ turns: [] });
  return runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", ...args], { home: world.home, cwd: world.ws });
}

const events = (stdout: string) => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; graph?: string; graph_id?: string; node_id?: string | null; state?: string; reason?: string });

function nodesOf(id: string): Record<string, string> {
  const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
  const rows = db.query("SELECT node_id, state FROM graph_nodes WHERE graph_id = ?").all(id) as { node_id: string; state: string }[];
  db.close();
  return Object.fromEntries(rows.map((r) => [r.node_id, r.state]));
}

const TREES = () => join(world.tmp, "project.weir-worktrees");
const worktrees = () => (existsSync(TREES()) ? readdirSync(TREES(), { recursive: true }).filter((p) => !String(p).includes("/")).flatMap((g) => readdirSync(join(TREES(), String(g)))).length : 0);

describe("weir graph", () => {
  test("a diamond runs to completion: B and C at once in their own worktrees, merged in order onto the graph's branch", async () => {
    repository();
    world.server.script({ turns: [] });
    const file = plan(DIAMOND, {
      b: [{ toolCalls: [{ id: "w-b", name: "write_file", input: { path: "b.txt", content: "b\n" } }], delayMs: 300 }, { text: "b done" }],
      c: [{ toolCalls: [{ id: "w-c", name: "write_file", input: { path: "c.txt", content: "c\n" } }], delayMs: 300 }, { text: "c done" }],
    });
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "--plan", file, "--check", "test -f d.txt", "make four files"], { home: world.home, cwd: world.ws });
    if (r.code !== 0) console.log(JSON.stringify(world.server.requests.map((q) => JSON.stringify(q.body?.messages).slice(-600)), null, 1));
    expect([r.code, r.stderr, r.stdout]).toEqual([0, "", expect.any(String)]);
    const ev = events(r.stdout);
    const id = ev[0]!.graph!;
    const at = (node: string, state: string) => ev.findIndex((e) => e.node_id === node && e.state === state);
    // B and C both started before either merged; D only after both merged.
    expect(Math.max(at("b", "running"), at("c", "running"))).toBeLessThan(Math.min(at("b", "merged"), at("c", "merged")));
    expect(at("d", "running")).toBeGreaterThan(Math.max(at("b", "merged"), at("c", "merged")));
    expect(ev.at(-1)).toMatchObject({ node_id: null, state: "complete" });
    expect(nodesOf(id)).toEqual({ a: "merged", b: "merged", c: "merged", d: "merged" });
    // The result is on the graph's branch, the person's tree is untouched, the worktrees are gone.
    for (const f of ["a.txt", "b.txt", "c.txt", "d.txt"]) expect(git("show", `weir/graph-${id}:${f}`).trim()).toBe(f[0]!);
    expect(existsSync(join(world.ws, "a.txt"))).toBe(false);
    expect(worktrees()).toBe(0);
  }, 60_000);

  test("a merge conflict in C fails C and blocks D; B still merges; C's worktree is kept", async () => {
    repository();
    world.server.script({ turns: [] });
    // The file tools write only inside a node's scope; a command (a formatter, an install) can
    // still change a file outside it, and two such changes conflict at the merge.
    const sh = (id: string, text: string) => ({ toolCalls: [{ id, name: "shell", input: { command: `printf '${text}\\n' > shared.txt` } }] });
    const file = plan(DIAMOND, {
      b: [sh("s-b", "from b"), { text: "b done" }],
      c: [sh("s-c", "from c"), { text: "c done", delayMs: 1500 }],
    });
    const nodes = DIAMOND.map((n) => (n.id === "b" || n.id === "c" ? { ...n, check: "true" } : n));
    writeFileSync(file, JSON.stringify({ nodes }));
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "--plan", file, "make four files"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(1);
    const ev = events(r.stdout);
    const id = ev[0]!.graph!;
    expect(nodesOf(id)).toEqual({ a: "merged", b: "merged", c: "failed", d: "blocked" });
    expect(ev.find((e) => e.node_id === "c" && e.state === "failed")!.reason).toContain("conflict in shared.txt");
    expect(git("show", `weir/graph-${id}:shared.txt`)).toBe("from b\n");
    expect(existsSync(join(TREES(), id, "c", "shared.txt"))).toBe(true);
  }, 60_000);

  test("a node's file actions write only inside its scope: a write elsewhere is refused and never merged", async () => {
    repository();
    world.server.script({ turns: [] });
    const nodes = [DIAMOND[0]!];
    const file = plan(nodes, {
      a: [{ toolCalls: [{ id: "w-out", name: "write_file", input: { path: "elsewhere.txt", content: "no\n" } }] }, { toolCalls: [{ id: "w-a", name: "write_file", input: { path: "a.txt", content: "a\n" } }] }, { text: "a done" }],
    });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "--plan", file, "one file"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const id = events(r.stdout)[0]!.graph!;
    const said = JSON.stringify(world.server.requests.slice(before).map((q) => q.body.messages));
    expect(said).toMatch(/elsewhere\.txt[^"]*(?:outside|scope)/);
    expect(git("show", `weir/graph-${id}:a.txt`)).toBe("a\n");
    expect(git("ls-tree", "--name-only", `weir/graph-${id}`)).not.toContain("elsewhere.txt");
  }, 60_000);

  test("an invalid plan is refused before anything runs: a cycle, a missing dependency, two parallel writers of one file", async () => {
    repository();
    const before = world.server.requests.length;
    const bad: [Node[], string][] = [
      [[{ id: "a", objective: "x", scope: ["a.txt"], depends_on: ["b"] }, { id: "b", objective: "y", scope: ["b.txt"], depends_on: ["a"] }], "cycle"],
      [[{ id: "a", objective: "x", scope: ["a.txt"], depends_on: ["z"] }], "depends on z, which is not in the plan"],
      [[{ id: "a", objective: "x", scope: ["src/**"] }, { id: "b", objective: "y", scope: ["src/a.ts"] }], "may run at once and both write"],
      [[{ id: "A!", objective: "x", scope: ["a.txt"] }], "not canonical"],
      [[{ id: "a", objective: "x", scope: ["../out.txt"] }], "leaves the workspace"],
    ];
    for (const [nodes, why] of bad) {
      const file = join(world.tmp, "plan.json");
      writeFileSync(file, JSON.stringify({ nodes }));
      const r = await graph(["--plan", file, "do it"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("the plan was refused, nothing ran");
      expect(r.stderr).toContain(why);
      expect(r.stderr).not.toContain("    at ");
    }
    expect(world.server.requests.length).toBe(before);
    expect(git("branch", "--list", "weir/*").trim()).toBe("");
  }, 60_000);

  test("the plan from a planner call: one request, its JSON validated, then run", async () => {
    repository();
    // The planner answers in a fenced block; the node's conversation has its own script.
    world.server.script({ turns: [{ text: "Here is the plan.\n```json\n" + JSON.stringify({ nodes: [DIAMOND[0]] }) + "\n```" }] });
    plan([DIAMOND[0]!]);
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "make a.txt"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(events(r.stdout).at(-1)).toMatchObject({ state: "complete" });
    const planner = world.server.requests[before]!.body.messages;
    expect(JSON.stringify(planner)).toContain("Objective: make a.txt");
    expect(JSON.stringify(planner)).toContain("shared.txt");
  }, 60_000);

  test("without --yes a planner's checks are not run; the graph's own check runs in the sandbox", async () => {
    repository();
    const node = { ...DIAMOND[0]!, check: "touch planner-check-ran" };
    world.server.script({ turns: [{ text: JSON.stringify({ nodes: [node] }) }] });
    plan([DIAMOND[0]!]);
    // The graph's check tries to write beside the merged tree, and passes whatever happens.
    const r = await runWeir([...wire(), "--verify-floor", "off", "--output-format", "json", "graph", "--check", "echo x > ../escaped.txt; true", "make a.txt"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    expect(ev[0]).toMatchObject({ type: "graph_start", planner_checks: "dropped" });
    const id = ev[0]!.graph!;
    expect(git("ls-tree", "--name-only", `weir/graph-${id}`)).not.toContain("planner-check-ran");
    expect(existsSync(join(TREES(), id, "escaped.txt"))).toBe(false);
  }, 60_000);

  test("SIGKILL mid-node, then weir graph resume: no node left running, the graph completes", async () => {
    repository();
    const nodes = DIAMOND.slice(0, 2);
    world.server.script({ turns: [] });
    const file = plan(nodes, { a: [{ text: "thinking", delayMs: 4_000 }] });
    const started = weirStreaming([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "--plan", file, "two files"], { home: world.home, cwd: world.ws });
    const { proc } = started;
    // Wait until node a runs as a goal, then kill the process outright.
    const seen = await started.until("running as goal");
    proc.kill("SIGKILL");
    await proc.exited;
    const id = events(seen)[0]!.graph!;
    expect(nodesOf(id).a).toBe("running");
    world.server.route(nodes[0]!.objective, [{ toolCalls: [{ id: "w-a2", name: "write_file", input: { path: "a.txt", content: "a\n" } }] }, { text: "a done" }]);
    world.server.route(nodes[1]!.objective, [{ toolCalls: [{ id: "w-b2", name: "write_file", input: { path: "b.txt", content: "b\n" } }] }, { text: "b done" }]);
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "resume", id], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const ev = events(r.stdout);
    expect(ev[0]).toMatchObject({ node_id: "a", state: "ready", reason: "was running when weir stopped" });
    expect(Object.values(nodesOf(id))).toEqual(["merged", "merged"]);
  }, 60_000);

  test("a budget trip mid-graph stops it resumable; a resume with a top-up completes it", async () => {
    repository();
    const nodes = DIAMOND.slice(0, 2);
    world.server.script({ turns: [] });
    const file = plan(nodes, {
      a: [{ toolCalls: [{ id: "w-a", name: "write_file", input: { path: "a.txt", content: "a\n" } }], usage: { input: 400, output: 100 } }, { text: "a done", usage: { input: 400, output: 100 } }],
      b: [{ toolCalls: [{ id: "w-b", name: "write_file", input: { path: "b.txt", content: "b\n" } }], usage: { input: 400, output: 100 } }, { text: "b done" }],
    });
    const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "--plan", file, "--budget", "900", "two files"], { home: world.home, cwd: world.ws });
    expect([r.code, r.stderr]).toEqual([3, ""]);
    const id = events(r.stdout)[0]!.graph!;
    expect(events(r.stdout).at(-1)).toMatchObject({ node_id: null, state: "budget_limited" });
    expect(nodesOf(id).b).not.toBe("merged");
    // The resumed goal of node a goes on in its conversation: the model says it is done.
    world.server.route(nodes[0]!.objective, [{ text: "a done" }]);
    const again = await runWeir([...wire(), "--yes", "--verify-floor", "off", "--output-format", "json", "graph", "resume", id, "--budget", "100000"], { home: world.home, cwd: world.ws });
    expect(again.code).toBe(0);
    expect(nodesOf(id)).toEqual({ a: "merged", b: "merged" });
    const status = await runWeir(["graph", "status", id], { home: world.home, cwd: world.ws });
    expect(status.stdout).toContain(`graph ${id}  complete`);
    expect(status.stdout).toMatch(/a\s+merged/);
    // Each node's tokens against the share it was last given of the budget.
    const store = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
    const reserved = store.query("SELECT node_id, spent, reserved FROM graph_nodes WHERE graph_id = ?").all(id) as { node_id: string; spent: number; reserved: number }[];
    store.close();
    for (const n of reserved) {
      expect(n.reserved).toBeGreaterThan(0);
      expect(status.stdout).toContain(`${n.spent} of ${n.reserved} tokens`);
    }
  }, 60_000);
});
