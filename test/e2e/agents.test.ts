import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Subgoals and background workers, through the real binary and the mock model: the main agent
 * spawns three workers (one report-only, two writing disjoint files, one of which breaks its output
 * schema), waits, stops one mid-way and finishes. The mock serves each worker from its own script
 * (routed by the goal in its first message), so their requests may interleave in any order.
 */
const world = e2eWorld();

const wire = ["--provider", "anthropic-compatible", "--base-url", () => world.server.url, "--model", "mock-a"] as const;
const args = () => wire.map((a) => (typeof a === "function" ? a() : a));
const call = (id: string, name: string, input: unknown) => ({ id, name, input });

function seed() {
  mkdirSync(join(world.ws, "src"));
  mkdirSync(join(world.ws, "docs"));
  writeFileSync(join(world.ws, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(world.ws, "src", "b.ts"), "export const b = 2;\n");
  writeFileSync(join(world.ws, "docs", "notes.md"), "SECRET-PLAN: not for the report worker\n");
  for (const c of [["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "seed"]]) Bun.spawnSync(["git", ...c], { cwd: world.ws });
}

/** Requests whose first message holds `marker`: one worker's conversation. */
const requestsOf = (marker: string) => world.server.requests.filter((r) => JSON.stringify(r.body.messages.find((m: any) => m.role === "user")).includes(marker));
const resultsIn = (r: { body: any }) => JSON.stringify(r.body.messages.at(-1));

const REPORT_SCHEMA = { type: "object", properties: { summary: { type: "string" }, count: { type: "integer" } }, required: ["summary", "count"], additionalProperties: false };

describe("background workers", () => {
  test("spawn three, wait, stop one mid-way, finish: scope, schemas, writes, attribution and transcripts", async () => {
    seed();
    const main = [
      {
        toolCalls: [
          call("sp1", "spawn_agent", { goal: "GOAL-REPORT: count the exports in src and summarise them", label: "reporter", reads: ["src/**"], output_schema: REPORT_SCHEMA }),
          call("sp2", "spawn_agent", { goal: "GOAL-WRITE-A: write out/a.txt", label: "writer-a", writes: ["out/a.txt"] }),
          call("sp3", "spawn_agent", { goal: "GOAL-WRITE-B: write out/b.txt", label: "writer-b", writes: ["out/b.txt"] }),
          call("sp4", "spawn_agent", { goal: "GOAL-CLASH: write every out file", writes: ["out/*.txt"] }),
        ],
      },
      { toolCalls: [call("wt1", "wait_agents", { ids: ["w1", "w3"] })] },
      { toolCalls: [call("st1", "stop_agent", { id: "w2" }), call("ls1", "list_agents", {})] },
      { toolCalls: [call("wt2", "wait_agents", {})] },
      { text: "MAIN-DONE: the workers reported." },
    ];
    world.server.script({ turns: main });
    world.server.route("GOAL-REPORT", [
      {
        toolCalls: [
          call("r1", "read_file", { path: "src/a.ts" }),
          call("r2", "read_file", { path: "docs/notes.md" }),
          call("r3", "list_files", {}),
        ],
      },
      { toolCalls: [call("r4", "write_file", { path: "src/x.ts", content: "no" }), call("r5", "run_command", { program: "cat", args: ["docs/notes.md"] }), call("r6", "run_command", { program: "cat", args: ["src/b.ts"] })] },
      { text: '```json\n{"summary": "two exports: a and b", "count": 2}\n```' },
    ]);
    world.server.route("GOAL-WRITE-A", [
      { toolCalls: [call("a1", "write_file", { path: "out/a.txt", content: "A\n" })] },
      // The worker is stopped while this answer is still coming.
      { text: "never finished", delayMs: 20_000 },
    ]);
    world.server.route("GOAL-WRITE-B", [
      { toolCalls: [call("b1", "write_file", { path: "out/b.txt", content: "B\n" }), call("b2", "write_file", { path: "out/a.txt", content: "clobbered\n" })] },
      { text: "all done, no JSON here" },
    ]);

    const r = await runWeir([...args(), "--cwd", world.ws, "--verify-floor", "off", "MAIN-TASK: split the work"], { home: world.home });

    expect(r.stderr).not.toContain("script exhausted");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("MAIN-DONE");

    // Writes landed, each in its own file; the scope refused everything else.
    expect(readFileSync(join(world.ws, "out", "a.txt"), "utf8")).toBe("A\n");
    expect(readFileSync(join(world.ws, "out", "b.txt"), "utf8")).toBe("B\n");
    expect(existsSync(join(world.ws, "src", "x.ts"))).toBe(false);

    // A worker gets a view, not the chat: its goal and its own prompt, not the main task or the agent actions.
    const rep = requestsOf("GOAL-REPORT");
    expect(rep.length).toBe(3);
    const first = JSON.stringify(rep[0]!.body);
    expect(first).not.toContain("MAIN-TASK");
    expect(JSON.stringify(rep[0]!.body.system)).toContain("weir worker");
    expect(rep[0]!.body.tools.map((t: any) => t.name)).not.toContain("spawn_agent");
    const afterReads = resultsIn(rep[1]!);
    // The worker's working set showed src/a.ts whole: its read points there.
    expect(JSON.stringify(rep[0]!.body.messages)).toContain("export const a = 1");
    expect(afterReads).toMatch(/src\/a\.ts \(sha256 [0-9a-f]{64}, 1 lines\) is unchanged since the working set/);
    expect(afterReads).toContain("outside this worker's scope");
    expect(afterReads).not.toContain("SECRET-PLAN");
    expect(afterReads).not.toContain("docs/notes.md\\n"); // list_files shows only what it may read
    const afterCmds = resultsIn(rep[2]!);
    expect(afterCmds).toContain("outside this worker's scope"); // write_file src/x.ts
    expect(afterCmds).not.toContain("SECRET-PLAN"); // cat docs/notes.md: the file does not exist in its sandbox
    expect(afterCmds).toContain("export const b = 2"); // cat src/b.ts: it does
    const b = requestsOf("GOAL-WRITE-B");
    expect(resultsIn(b[1]!)).toContain("outside this worker's scope"); // out/a.txt is writer-a's

    // What the main agent got back.
    const mainReqs = world.server.requests.filter((q) => JSON.stringify(q.body.messages[0]).includes("MAIN-TASK"));
    expect(mainReqs.length).toBe(5);
    const spawned = resultsIn(mainReqs[1]!);
    expect(spawned).toContain("started w1 (reporter)");
    expect(spawned).toContain("started w3 (writer-b)");
    expect(spawned).toMatch(/refused: its writes overlap w2 \(writer-a\)/);
    const waited = resultsIn(mainReqs[2]!);
    expect(waited).toContain("w1 (reporter): done");
    expect(waited).toContain('\\"count\\": 2');
    expect(waited).toContain("w3 (writer-b): invalid");
    expect(waited).toContain("holds no JSON");
    expect(waited).toContain("all done, no JSON here"); // a refused result is returned as such
    const stopped = resultsIn(mainReqs[3]!);
    expect(stopped).toContain("w2 (writer-a): stopped");
    expect(stopped).toContain("out/a.txt");
    expect(stopped).toMatch(/w2 {2}writer-a {2}stopped/);
    // Every report was delivered once: the last wait has nothing new.
    expect(resultsIn(mainReqs[4]!)).toContain("no workers to wait for");

    // Worker events are attributed in the log, and each worker's transcript is stored under the run's session.
    expect(r.stderr).toContain("↳ w1 reporter ▸ read_file");
    const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
    const rows = db.query("SELECT s.label, s.parent_id, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS n FROM sessions s WHERE parent_id IS NOT NULL ORDER BY label").all() as { label: string; parent_id: string; n: number }[];
    const parents = db.query("SELECT id FROM sessions WHERE parent_id IS NULL").all() as { id: string }[];
    db.close();
    expect(rows.map((x) => x.label)).toEqual(["reporter", "writer-a", "writer-b"]);
    expect(parents.length).toBe(1);
    for (const x of rows) expect(x.parent_id).toBe(parents[0]!.id);
    expect(rows.find((x) => x.label === "reporter")!.n).toBe(6);

    // --resume says what the workers did.
    world.server.script({ turns: [{ text: "resumed" }] });
    const again = await runWeir([...args(), "--cwd", world.ws, "--resume", parents[0]!.id.slice(0, 8), "go on"], { home: world.home });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/worker reporter: end_turn/);
    expect(again.stderr).toMatch(/worker writer-a: cancelled/);
  }, 60_000);

  test("stream-json attributes a worker's messages to the spawn call, and its usage is not the main agent's", async () => {
    seed();
    world.server.script({
      turns: [
        { toolCalls: [call("spx", "spawn_agent", { goal: "GOAL-SOLO: read src/a.ts", label: "solo" })], usage: { input: 100, output: 10 } },
        { toolCalls: [call("wx", "wait_agents", {})], usage: { input: 100, output: 10 } },
        { text: "ok", usage: { input: 100, output: 10 } },
      ],
    });
    world.server.route("GOAL-SOLO", [
      { toolCalls: [call("s1", "read_file", { path: "src/a.ts" })], usage: { input: 5000, output: 500 } },
      { text: '{"summary": "a is 1"}', usage: { input: 5000, output: 500 } },
    ]);
    const r = await runWeir([...args(), "--cwd", world.ws, "--output-format", "stream-json", "MAIN-TASK: one worker"], { home: world.home });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const sub = lines.filter((l) => l.parent_tool_use_id === "spx");
    expect(sub.some((l) => l.type === "assistant" && l.message.content.some((b: any) => b.type === "tool_use" && b.name === "read_file"))).toBe(true);
    // Its result: the bytes, or a pointer to where the worker's working set showed them whole.
    expect(sub.some((l) => l.type === "user" && /export const a = 1|src\/a\.ts \(sha256 [0-9a-f]{64}, 1 lines\) is unchanged/.test(JSON.stringify(l.message.content)))).toBe(true);
    const result = lines.at(-1);
    expect(result.type).toBe("result");
    expect(result.usage.input_tokens).toBe(300);
    expect(result.usage.output_tokens).toBe(30);
    expect(result.agents[0].usage.input).toBe(10_000);
    expect(lines.filter((l) => l.type === "result").length).toBe(1);
  }, 60_000);

  test("a run that ends with a worker still going stops it and says so; --max-agents 0 offers no agent actions", async () => {
    seed();
    world.server.script({ turns: [{ toolCalls: [call("sp", "spawn_agent", { goal: "GOAL-SLOW: take forever" })] }, { text: "leaving now" }] });
    world.server.route("GOAL-SLOW", [{ text: "late", delayMs: 20_000 }]);
    const r = await runWeir([...args(), "--cwd", world.ws, "MAIN-TASK: leave early"], { home: world.home });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the run ended with 1 worker still running (w1); stopped them");

    world.server.script({ turns: [{ toolCalls: [call("sp", "spawn_agent", { goal: "GOAL-NONE" })] }, { text: "fine" }] });
    const off = await runWeir([...args(), "--cwd", world.ws, "--max-agents", "0", "--tools", "all", "MAIN-TASK: no workers"], { home: world.home });
    expect(off.code).toBe(0);
    const firstReq = world.server.requests.at(-2)!;
    expect(firstReq.body.tools.map((t: any) => t.name)).not.toContain("spawn_agent");
    expect(resultsIn(world.server.requests.at(-1)!)).toContain("no action named spawn_agent");
  }, 60_000);
});
