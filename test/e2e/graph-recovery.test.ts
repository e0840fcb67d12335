import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir, weirStreaming } from "../support/cli.ts";
import type { Turn } from "../support/mock-server.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Goal graphs a person leaves running, through the binary with a scripted model: weir killed at
 * every step of a node's way to the graph's branch and resumed, two runners on one graph, a budget
 * across nodes that run at once, a package of a monorepo, the project's own tests on the merged
 * tree, uncommitted work, and what is left behind. Real git; state read back from the database.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
const base = ["--yes", "--verify-floor", "off", "--output-format", "json", "graph"];

function commitAll(dir = world.ws) {
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]])
    expect(Bun.spawnSync(["git", ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: world.home, ...GIT_ENV } }).exitCode).toBe(0);
}

function repository(files: Record<string, string> = { "README.md": "# kv\n" }) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  commitAll();
}

const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: world.ws }).stdout.toString();

interface Node {
  id: string;
  objective: string;
  check?: string;
  scope: string[];
  depends_on?: string[];
}

const writes = (id: string, path = `${id}.txt`, turns: Partial<Turn> = {}): Turn[] => [
  { toolCalls: [{ id: `w-${id}-${Math.random()}`, name: "write_file", input: { path, content: `${id}\n` } }], ...turns },
  { text: `${id} done`, ...turns },
];

/** Routes each node's objective to a fresh script (write its file, say done) and writes the plan. */
function plan(nodes: Node[], scripts: Record<string, Turn[]> = {}): string {
  for (const n of nodes) world.server.route(n.objective, scripts[n.id] ?? writes(n.id));
  const file = join(world.tmp, "plan.json");
  writeFileSync(file, JSON.stringify({ nodes }));
  return file;
}

const DIAMOND: Node[] = [
  { id: "a", objective: "Create the file a.txt", check: "test -f a.txt", scope: ["a.txt"] },
  { id: "b", objective: "Create the file b.txt", check: "test -f b.txt", scope: ["b.txt"], depends_on: ["a"] },
  { id: "c", objective: "Create the file c.txt", check: "test -f c.txt", scope: ["c.txt"], depends_on: ["a"] },
  { id: "d", objective: "Create the file d.txt", check: "test -f d.txt", scope: ["d.txt"], depends_on: ["b", "c"] },
];

const run = (args: string[], env: Record<string, string> = {}, cwd = world.ws) => runWeir([...wire(), ...base, ...args], { home: world.home, cwd, env });

type Ev = { type: string; graph?: string; graph_id?: string; node_id?: string | null; state?: string; reason?: string };
const events = (stdout: string) => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Ev);
const graphOf = (stdout: string) => events(stdout).find((e) => e.type === "graph_start")!.graph!;

function db<T>(f: (d: Database) => T): T {
  const d = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
  try {
    return f(d);
  } finally {
    d.close();
  }
}
const nodesOf = (id: string) =>
  Object.fromEntries(db((d) => d.query("SELECT node_id, state FROM graph_nodes WHERE graph_id = ?").all(id) as { node_id: string; state: string }[]).map((r) => [r.node_id, r.state]));
const spentOf = (id: string) => db((d) => (d.query("SELECT sum(spent) AS s FROM graph_nodes WHERE graph_id = ?").get(id) as { s: number }).s);

/** How many times each node was merged into the graph's branch (its merge commits). */
function mergesOf(id: string): Record<string, number> {
  const subjects = git("log", "--format=%s", `weir/graph-${id}`).split("\n");
  const count: Record<string, number> = {};
  for (const s of subjects) {
    const m = s.match(/^weir graph \w+: merge (\w+)$/);
    if (m) count[m[1]!] = (count[m[1]!] ?? 0) + 1;
  }
  return count;
}

const TREES = () => join(world.tmp, "project.weir-worktrees");

describe("weir graph across crashes and runners", () => {
  // Every step a node's way to the branch is written in: its goal done, merging recorded, its
  // worktree committed, git's merge made, the merge recorded (and the merged tree's check before the graph's end).
  const steps = ["a", "c"].flatMap((n) => ["goal-done", "merging", "committed", "git-merged", "merged"].map((s) => `graph-${s}:${n}`)).concat("graph-checked");
  test.each(steps)("killed at %s, then resumed: complete, each node merged exactly once, nothing left behind", async (step) => {
    repository();
    world.server.script({ turns: [] });
    const file = plan(DIAMOND);
    const killed = await run(["--plan", file, "--check", "test -f d.txt", "make four files"], { WEIR_FAULT_AT: step });
    expect(killed.code).not.toBe(0);
    const id = graphOf(killed.stdout);
    expect(db((d) => (d.query("SELECT status FROM graphs WHERE id = ?").get(id) as { status: string }).status)).toBe("active");
    // No process runs it: it shows as stopped, with how to go on.
    const status = await runWeir(["graph", "status", id], { home: world.home, cwd: world.ws });
    expect(status.stdout).toContain(`graph ${id}  stopped`);
    expect(status.stdout).toContain(`weir graph resume ${id}`);
    plan(DIAMOND);
    const resumed = await run(["resume", id]);
    expect([resumed.code, resumed.stderr]).toEqual([0, ""]);
    expect(nodesOf(id)).toEqual({ a: "merged", b: "merged", c: "merged", d: "merged" });
    expect(mergesOf(id)).toEqual({ a: 1, b: 1, c: 1, d: 1 });
    for (const f of ["a", "b", "c", "d"]) expect(git("show", `weir/graph-${id}:${f}.txt`)).toBe(`${f}\n`);
    // Each node's recorded merge commit is git's, whichever step the kill fell on; status shows it.
    const byGit: Record<string, string> = Object.fromEntries(
      git("log", "--merges", "--format=%s %H", `weir/graph-${id}`).trim().split("\n").map((l) => [l.split(" ")[4]!, l.split(" ").at(-1)!]),
    );
    const recorded = db((d) => d.query("SELECT node_id, merge_commit FROM graph_nodes WHERE graph_id = ?").all(id) as { node_id: string; merge_commit: string }[]);
    expect(Object.fromEntries(recorded.map((r) => [r.node_id, r.merge_commit]))).toEqual(byGit);
    const shown = (await runWeir(["graph", "status", id], { home: world.home, cwd: world.ws })).stdout;
    for (const [node, commit] of Object.entries(byGit)) expect(shown).toMatch(new RegExp(`\\n  ${node} .* merged .* merge ${commit.slice(0, 10)} `));
    // Only the result branch is left: no node branches, no worktrees, no folder for them.
    expect(git("branch", "--list", "weir/*").trim()).toBe(`weir/graph-${id}`);
    expect(existsSync(TREES())).toBe(false);
  }, 60_000);

  test("a second runner on a running graph is refused and names the first; the first completes", async () => {
    repository();
    world.server.script({ turns: [] });
    const file = plan(DIAMOND.slice(0, 1), { a: [{ text: "thinking", delayMs: 2_500 }, ...writes("a")] });
    const first = weirStreaming([...wire(), ...base, "--plan", file, "one file"], { home: world.home, cwd: world.ws });
    const { proc } = first;
    const id = graphOf(await first.until("running as goal"));
    const second = await run(["resume", id]);
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(second.stderr.trim().split("\n")[0]!);
    expect(second.stderr).toContain(`graph ${id} is being run by another weir (pid ${proc.pid},`);
    const listed = await runWeir(["graph", "list"], { home: world.home, cwd: world.ws });
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+active`));
    const seen = await first.rest();
    expect(await proc.exited).toBe(0);
    expect(events(seen).at(-1)).toMatchObject({ node_id: null, state: "complete" });
    expect(mergesOf(id)).toEqual({ a: 1 });
  }, 60_000);

  test("nodes that run at once share the budget: the graph stops within one turn of it, and a top-up finishes it", async () => {
    repository();
    world.server.script({ turns: [] });
    const turn = { usage: { input: 400, output: 100 } };
    const nodes: Node[] = ["p", "q", "r"].map((id) => ({ id, objective: `Create the file ${id}.txt`, check: `test -f ${id}.txt`, scope: [`${id}.txt`] }));
    // Each node would spend 2,500 tokens: five turns of 500.
    const busy = (id: string): Turn[] => [...[1, 2, 3, 4].map((i) => ({ toolCalls: [{ id: `w-${id}-${i}`, name: "write_file", input: { path: `${id}.txt`, content: `${id}${i}\n` } }], delayMs: 100, ...turn })), { text: `${id} done`, ...turn }];
    const file = plan(nodes, { p: busy("p"), q: busy("q"), r: busy("r") });
    const before = world.server.requests.length;
    const r = await run(["--plan", file, "--budget", "3000", "three files"]);
    expect([r.code, r.stderr]).toEqual([3, ""]);
    const id = graphOf(r.stdout);
    expect(spentOf(id)).toBeLessThanOrEqual(3000 + 500);
    const last = events(r.stdout).at(-1)!;
    expect(last).toMatchObject({ node_id: null, state: "budget_limited" });
    expect(last.reason).toContain(`weir graph resume ${id} --budget N`);
    // A node stopped by the budget names the graph's resume, never a goal's.
    const stopped = events(r.stdout).filter((e) => e.state === "budget_limited" && e.node_id);
    expect(stopped.length).toBeGreaterThan(0);
    for (const e of stopped) expect(e.reason).not.toContain("weir goal resume");
    for (const n of nodes) world.server.route(n.objective, writes(n.id));
    const again = await run(["resume", id, "--budget", "100000"]);
    expect(again.code).toBe(0);
    expect(nodesOf(id)).toEqual({ p: "merged", q: "merged", r: "merged" });
    const said = JSON.stringify(world.server.requests.slice(before).map((q) => q.body.messages));
    expect(said).not.toContain("The person interrupted");
  }, 60_000);

  test("in a package of a monorepo the nodes edit the package's files and its check runs there", async () => {
    repository({ "README.md": "# mono\n", "pkg/src/add.js": "export const add = (a, b) => a - b;\n", "other/src/add.js": "// other\n" });
    world.server.script({ turns: [] });
    const pkg = join(world.ws, "pkg");
    const nodes: Node[] = [{ id: "fix", objective: "Fix add in src/add.js", scope: ["src/add.js"] }];
    const file = plan(nodes, { fix: [{ toolCalls: [{ id: "e", name: "write_file", input: { path: "src/add.js", content: "export const add = (a, b) => a + b;\n" } }] }, { text: "fixed" }] });
    const r = await run(["--plan", file, "--check", "grep -q 'a + b' src/add.js", "fix add"], {}, pkg);
    if (r.code !== 0) console.log(JSON.stringify(world.server.requests.slice(-3).map((q) => JSON.stringify(q.body?.messages).slice(-700)), null, 1));
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const id = graphOf(r.stdout);
    expect(git("show", `weir/graph-${id}:pkg/src/add.js`)).toContain("a + b");
    expect(git("ls-tree", "-r", "--name-only", `weir/graph-${id}`).split("\n").filter(Boolean).sort()).toEqual(["README.md", "other/src/add.js", "pkg/src/add.js"]);
    // The worktrees lie beside the repository, never inside it.
    expect(existsSync(join(world.ws, "pkg.weir-worktrees"))).toBe(false);
  }, 60_000);

  test("without --check the project's tests run on the merged tree: two nodes that pass alone fail together", async () => {
    const test = "const fs = require('fs'); if (fs.existsSync('x.txt') && fs.existsSync('y.txt')) { console.log('x and y clash'); process.exit(1); }\n";
    repository({ "package.json": JSON.stringify({ name: "p", scripts: { test: "node test.js" } }), "test.js": test });
    world.server.script({ turns: [] });
    const nodes: Node[] = [
      { id: "x", objective: "Create the file x.txt", scope: ["x.txt"] },
      { id: "y", objective: "Create the file y.txt", scope: ["y.txt"] },
    ];
    const file = plan(nodes);
    const r = await run(["--plan", file, "two files"]);
    expect(r.code).toBe(1);
    const id = graphOf(r.stdout);
    expect(nodesOf(id)).toEqual({ x: "merged", y: "merged" });
    const last = events(r.stdout).at(-1)!;
    expect(last).toMatchObject({ node_id: null, state: "failed" });
    expect(last.reason).toContain("x and y clash");
    expect(last.reason).toContain(`the branch weir/graph-${id} is kept`);
    expect(git("show", `weir/graph-${id}:x.txt`)).toBe("x\n");
  }, 60_000);

  test("uncommitted work is refused in one line; --from-worktree starts from it and leaves the person's tree as it was", async () => {
    repository();
    writeFileSync(join(world.ws, "notes.txt"), "draft\n");
    writeFileSync(join(world.ws, "README.md"), "# kv, edited\n");
    world.server.script({ turns: [] });
    const nodes: Node[] = [{ id: "a", objective: "Create the file a.txt", check: "test -f notes.txt && grep -q edited README.md", scope: ["a.txt"] }];
    const before = world.server.requests.length;
    const refused = await run(["--plan", plan(nodes), "one file"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("uncommitted changes");
    expect(refused.stderr).toContain("--from-worktree");
    expect(world.server.requests.length).toBe(before);
    const statusBefore = git("status", "--porcelain");
    const r = await run(["--plan", plan(nodes), "--from-worktree", "one file"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const id = graphOf(r.stdout);
    expect(git("show", `weir/graph-${id}:notes.txt`)).toBe("draft\n");
    expect(git("show", `weir/graph-${id}:a.txt`)).toBe("a\n");
    expect(git("status", "--porcelain")).toBe(statusBefore);
    expect(git("log", "--format=%s", "-1", "HEAD")).toBe("init\n");
  }, 60_000);

  test("a failed graph keeps its worktrees until weir graph clean; the result branch stays", async () => {
    repository();
    world.server.script({ turns: [] });
    const nodes: Node[] = [{ id: "a", objective: "Create the file a.txt", check: "false", scope: ["a.txt"] }];
    world.server.route(nodes[0]!.objective, Array.from({ length: 12 }, () => writes("a")).flat());
    const file = join(world.tmp, "plan.json");
    writeFileSync(file, JSON.stringify({ nodes }));
    const r = await run(["--plan", file, "one file"]);
    expect(r.code).toBe(1);
    const id = graphOf(r.stdout);
    expect(readdirSync(join(TREES(), id)).sort()).toEqual(["a", "merged"]);
    const resumeRunning = await runWeir(["graph", "clean", "nope"], { home: world.home, cwd: world.ws });
    expect(resumeRunning.code).toBe(2);
    const clean = await runWeir(["graph", "clean", id], { home: world.home, cwd: world.ws });
    expect([clean.code, clean.stderr]).toEqual([0, ""]);
    expect(clean.stdout).toContain("result branches are kept");
    expect(existsSync(TREES())).toBe(false);
    expect(git("branch", "--list", "weir/*").trim()).toBe(`weir/graph-${id}`);
    expect(git("worktree", "list").trim().split("\n")).toHaveLength(1);
  }, 90_000);
});
