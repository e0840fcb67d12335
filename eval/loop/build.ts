/**
 * Builds eval/suites/agent-context-loop.jsonl: decision cases whose states the loop's own state
 * builder produced, by running weir (compiled from the source, or the binary in WEIR_BIN) on each
 * scenario of ./scenarios.ts in a real temporary git repository with a scripted model on the local
 * wire server. Labels are the scenario's, written from weir.agent_context@4's criteria, never from the
 * baseline.
 *   bun eval/loop/build.ts           write the suite
 *   bun eval/loop/build.ts --check   exit 1 if the suite is not what the loop builds today
 */
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runWeir } from "../../test/support/cli.ts";
import { MockServer } from "../../test/support/mock-server.ts";
import { SCENARIOS, type Scenario } from "./scenarios.ts";

export const SUITE = join(import.meta.dir, "..", "suites", "agent-context-loop.jsonl");
const SET = "weir.agent_context@4";
const GIT_ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

function write(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

interface Recorded {
  request: { symbols: { signature_change?: boolean }[] };
}

/** Runs one scenario and returns the state of the decision it picks. */
export async function stateOf(s: Scenario, server: MockServer): Promise<unknown> {
  const tmp = mkdtempSync(join(tmpdir(), "weir-loop-"));
  try {
    const home = join(tmp, "home");
    const ws = join(tmp, "project");
    mkdirSync(join(home, ".config", "weir"), { recursive: true });
    mkdirSync(ws);
    write(ws, s.files);
    const env = { PATH: process.env.PATH ?? "", HOME: home, ...GIT_ENV };
    for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init", "--allow-empty"]]) {
      if (Bun.spawnSync(["git", ...args], { cwd: ws, env }).exitCode !== 0) throw new Error(`${s.id}: git ${args[0]} failed`);
    }
    if (s.dirty) write(ws, s.dirty);
    server.script({ turns: [...s.turns, { text: "done" }] as never });
    const wire = ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock"];
    const r = await runWeir([...wire, "--yes", "--verify-floor", "off", ...(s.flags ?? []), s.task], { home, cwd: ws });
    if (r.code !== 0) throw new Error(`${s.id}: weir exited ${r.code}: ${r.stderr.trim()}`);
    const db = new Database(join(home, ".local", "share", "weir", "weir.db"), { readonly: true });
    const rows = (db.query("SELECT record FROM decisions ORDER BY id").all() as { record: string }[]).map((x) => JSON.parse(x.record) as Recorded);
    db.close();
    const picked = s.pick === "last" ? rows.at(-1) : s.pick === "proposal" ? rows.find((x) => x.request.symbols.some((y) => y.signature_change !== undefined)) : rows[s.pick];
    if (!picked) throw new Error(`${s.id}: the run recorded no decision ${String(s.pick)} (${rows.length} recorded)`);
    return picked.request;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A suite's lines, built by running every scenario (`parallel` at a time, one wire server each):
 * ids `PREFIX-ID`, tags the prefix, the language and what `tags` adds for the scenario.
 */
export async function buildSuite<S extends Scenario>(scenarios: S[], prefix: string, tags: (s: S) => string[] = () => [], parallel = 4): Promise<string[]> {
  const servers = await Promise.all(Array.from({ length: parallel }, () => new MockServer().start()));
  try {
    const lines: string[] = new Array(scenarios.length);
    let next = 0;
    await Promise.all(
      servers.map(async (server) => {
        for (let i = next++; i < scenarios.length; i = next++) {
          const s = scenarios[i]!;
          const state = await stateOf(s, server);
          const label_source = Object.fromEntries(Object.keys(s.labels).map((q) => [q, "criteria"]));
          const line = { id: `${prefix}-${s.id}`, question_set: SET, state, labels: s.labels, tags: [prefix, s.language, ...tags(s)], label_source, notes: [s.note] };
          lines[i] = JSON.stringify(line);
        }
      }),
    );
    return lines;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** The loop suite's lines. */
export const buildLoopSuite = (parallel = 4) => buildSuite(SCENARIOS, "loop", () => [], parallel);

if (import.meta.main) {
  const text = `${(await buildLoopSuite()).join("\n")}\n`;
  if (process.argv.includes("--check")) {
    const same = readFileSync(SUITE, "utf8") === text;
    console.log(same ? `${SUITE} is what the loop builds` : `${SUITE} differs from what the loop builds: run bun eval/loop/build.ts`);
    process.exit(same ? 0 : 1);
  }
  writeFileSync(SUITE, text);
  console.log(`wrote ${SCENARIOS.length} cases to ${SUITE}`);
}
