import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Goals through the binary with a scripted model: worked on across runs until the completion check
 * passes, stopped by a budget and resumed with a top-up, every transition stored with its reason.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const weir = (args: string[]) => runWeir([...wire(), "--yes", "--verify-floor", "off", ...args], { home: world.home, cwd: world.ws });

function project() {
  // The check passes once done.txt exists.
  writeFileSync(join(world.ws, "check.js"), 'const fs = require("fs");\nif (!fs.existsSync("done.txt")) { console.log("CHECK-SAYS: done.txt is missing"); process.exit(1); }\n');
}

function transitions(): { status: string; reason: string; spent: number }[] {
  const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
  const rows = db.query("SELECT status, reason, spent FROM goal_transitions ORDER BY rowid").all() as { status: string; reason: string; spent: number }[];
  db.close();
  return rows;
}

const goalId = (stderr: string) => /goal ([0-9a-f]{12})/.exec(stderr)![1]!;

describe("weir goal", () => {
  test("works across rounds until the check passes: a failed check goes back to the model, quoted", async () => {
    project();
    world.server.script({
      turns: [
        { text: "I think it is done." },
        { toolCalls: [{ id: "w1", name: "write_file", input: { path: "done.txt", content: "yes\n" } }] },
        { text: "Now it is done." },
      ],
    });
    const before = world.server.requests.length;
    const r = await weir(["goal", "make the check pass", "--check", "node check.js"]);
    expect(r.stderr).toMatch(/goal [0-9a-f]{12} complete: the completion check passed \(node check\.js\)/);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.ws, "done.txt"))).toBe(true);
    const second = JSON.stringify(world.server.requests[before + 1]!.body.messages);
    expect(second).toContain("The completion check (node check.js) failed after round 1");
    expect(second).toMatch(/<<<UNTRUSTED-DATA [0-9a-f]{8}[^]*CHECK-SAYS: done.txt is missing/);
    expect(transitions().map((t) => t.status)).toEqual(["active", "complete"]);
  });

  test("a budget trip counts the call that tripped it, is resumable, and a top-up completes the goal", async () => {
    project();
    world.server.script({ turns: [{ text: "Working on it.", usage: { input: 4000, output: 500 } }] });
    const first = await weir(["goal", "make the check pass", "--check", "node check.js", "--budget", "1000"]);
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/budget-limited: spent 4500 of 1000 tokens/);
    const id = goalId(first.stderr);
    world.server.script({
      turns: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "done.txt", content: "yes\n" } }], usage: { input: 100, output: 10 } }, { text: "Done.", usage: { input: 100, output: 10 } }],
    });
    const resumed = await weir(["goal", "resume", id.slice(0, 6), "--budget", "10000"]);
    expect(resumed.stderr).toContain(`goal ${id} complete`);
    expect(resumed.code).toBe(0);
    const t = transitions();
    expect(t.map((x) => x.status)).toEqual(["active", "budget_limited", "active", "complete"]);
    expect(t[1]!.spent).toBe(4500);
    expect(t[2]!.reason).toBe("resumed with 10000 more tokens");
    expect(t[3]!.spent).toBe(4500 + 220);
    // The resumed run continues the goal's session: the first round is in its history.
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("Working on it.");
  });

  test("each request of a budgeted goal says what is left, and the decision state's budget_used_ratio is the share spent", async () => {
    project();
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "check.js" } }], usage: { input: 3000, output: 1000 } },
        { toolCalls: [{ id: "w1", name: "write_file", input: { path: "done.txt", content: "yes\n" } }], usage: { input: 1000, output: 0 } },
        { text: "Done." },
      ],
    });
    const before = world.server.requests.length;
    const r = await weir(["goal", "make the check pass", "--check", "node check.js", "--budget", "10000"]);
    expect(r.code).toBe(0);
    const texts = world.server.requests.slice(before).map((q) => JSON.stringify(q.body.messages));
    expect(texts[0]).toContain("[weir goal budget] 10000 of 10000 tokens left");
    expect(texts[1]).toContain("[weir goal budget] 6000 of 10000 tokens left");
    expect(texts[2]).toContain("[weir goal budget] 5000 of 10000 tokens left");
    const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
    const ratios = (db.query("SELECT record FROM decisions ORDER BY id").all() as { record: string }[]).map((x) => (JSON.parse(x.record) as { request: { retrieval: { budget_used_ratio: number } } }).request.retrieval.budget_used_ratio);
    db.close();
    expect(ratios.slice(-3)).toEqual([expect.any(Number), 0.4, 0.5]);
  });

  test("list and status show the goal and its transitions; bad input is one line and exit 2", async () => {
    project();
    world.server.script({ turns: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "done.txt", content: "ok\n" } }] }, { text: "Done." }] });
    const r = await weir(["goal", "make the check pass", "--check", "node check.js"]);
    const id = goalId(r.stderr);
    const list = await weir(["goal", "list"]);
    expect(list.stdout).toContain(`${id}  complete`);
    const status = await weir(["goal", "status", id]);
    expect(status.stdout).toContain("make the check pass");
    expect(status.stdout).toMatch(/active\s+0 tokens\s+started/);
    for (const bad of [["goal", "   "], ["goal", "resume", "ffffffff"], ["goal", "resume"], ["goal", "resume", id]]) {
      const e = await weir(bad);
      expect(e.code).toBe(2);
      expect(e.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
