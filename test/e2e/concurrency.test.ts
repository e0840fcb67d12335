import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Several weir processes at once, as a person starts them: two terminals, or a script that runs
 * `weir -p` over many tasks in parallel. They share one data directory; each must finish, keep its
 * own session whole and leave the others' alone, on a fresh machine and on a database in use.
 */
const world = e2eWorld("shared");
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const RUNS = 20;

/**
 * What run `i` of a batch writes into its file. Not its marker: another run's first message holds
 * the changed files, and a marker there would route that run's requests to this run's turns.
 */
const edited = (batch: string, i: number) => `EDITED-${batch}-${i}`;

/** Each run reads its own file, edits it and runs a command, then answers; its turns are routed by its marker. */
function script(batch: string): void {
  world.server.script({ turns: [] });
  for (let i = 0; i < RUNS; i++) {
    const marker = `${batch}-RUN-${String(i).padStart(2, "0")}`;
    const file = `f${i}.js`;
    world.server.route(marker, [
      { toolCalls: [{ id: `r${i}`, name: "read_file", input: { path: file } }] },
      {
        toolCalls: [
          { id: `e${i}`, name: "edit_file", input: { path: file, old_string: `= ${i};`, new_string: `= ${i} + 1; // ${edited(batch, i)}` } },
          { id: `c${i}`, name: "run_command", input: { program: "true" } },
        ],
      },
      { text: `Done ${marker}.` },
    ]);
  }
}

async function batch(name: string): Promise<void> {
  script(name);
  const runs = await Promise.all(
    Array.from({ length: RUNS }, (_, i) => runWeir([...wire(), "--yes", "--verify-floor", "off", `bump the constant in f${i}.js ${name}-RUN-${String(i).padStart(2, "0")}`], { home: world.home, cwd: world.ws })),
  );
  for (const [i, r] of runs.entries()) {
    expect({ i, code: r.code, stderr: r.stderr.split("\n").filter((l) => l.startsWith("weir:")) }).toEqual({ i, code: 0, stderr: [] });
    expect(r.stdout).toContain(`Done ${name}-RUN-${String(i).padStart(2, "0")}.`);
    expect(readFileSync(join(world.ws, `f${i}.js`), "utf8")).toContain(`// ${edited(name, i)}`);
  }
}

/** Each session of the batch, by its task's marker: how its runs ended and how many messages it kept. */
function sessions(name: string): { task: string; status: string; messages: number }[] {
  const db = new Database(join(world.home, ".local", "share", "weir", "weir.db"), { readonly: true });
  try {
    return db
      .query("SELECT r.task AS task, r.status AS status, (SELECT count(*) FROM messages m WHERE m.run_id = r.id) AS messages FROM runs r WHERE r.task LIKE ? ORDER BY r.task")
      .all(`%${name}-RUN-%`) as { task: string; status: string; messages: number }[];
  } finally {
    db.close();
  }
}

describe("weir runs at once", () => {
  test(`${RUNS} runs started together on a fresh machine, then ${RUNS} more on the database they made, each finish and keep their session`, async () => {
    for (const name of ["FIRST", "SECOND"]) {
      for (let i = 0; i < RUNS; i++) writeFileSync(join(world.ws, `f${i}.js`), `export const v${i} = ${i};\n`);
      await batch(name);
      const kept = sessions(name);
      expect(kept.length).toBe(RUNS);
      // The task, the read, the edit and the command with their results, and the answer.
      for (const s of kept) expect({ task: s.task, status: s.status, whole: s.messages >= 6 }).toEqual({ task: s.task, status: "end_turn", whole: true });
    }
  }, 240_000);

  test("a run waits out another process's write transaction that lasts seconds, and keeps its session", async () => {
    world.server.script({ turns: [{ text: "Done WAITED." }] });
    // A run on the database first, so that it exists; then another process holds its write lock.
    expect((await runWeir([...wire(), "first"], { home: world.home, cwd: world.ws })).code).toBe(0);
    world.server.script({ turns: [{ text: "Done WAITED." }] });
    const other = new Database(join(world.home, ".local", "share", "weir", "weir.db"));
    other.exec("BEGIN IMMEDIATE");
    other.exec("UPDATE sessions SET updated_at = updated_at");
    const held = setTimeout(() => other.exec("COMMIT"), 4_000);
    try {
      const r = await runWeir([...wire(), "--verify-floor", "off", "say done"], { home: world.home, cwd: world.ws });
      expect({ code: r.code, stderr: r.stderr.split("\n").filter((l) => l.startsWith("weir:")) }).toEqual({ code: 0, stderr: [] });
      expect(r.stdout).toContain("Done WAITED.");
    } finally {
      clearTimeout(held);
      if (other.inTransaction) other.exec("COMMIT");
      other.close();
    }
  }, 60_000);
});
