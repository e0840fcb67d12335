/**
 * A goal graph's own cost per node, on the compiled binary against the mock wire server answering
 * instantly: a chain of 10 nodes (each a goal in its own worktree that writes one file, then its
 * merge), wall time of the whole graph divided by its nodes, median of 5 graphs; against the same
 * binary running one such task as a one-shot in the same run (what a node would cost with no
 * worktree, no goal and no merge). Target: under 200 ms a node.
 *   bun run bench graph
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer, type Turn } from "../test/support/mock-server.ts";
import { hostBinary, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-graph-"));
const home = join(dir, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
const gitEnv = { ...env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@e", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@e" };
const server = await new MockServer().start();
const wire = ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--yes", "--verify-floor", "off"];
const NODES = sized(10, 2);
const ROUNDS = sized(5, 1);

const writes = (id: string): Turn[] => [{ toolCalls: [{ id: `w-${id}-${Math.random()}`, name: "write_file", input: { path: `${id}.txt`, content: `${id}\n` } }] }, { text: `${id} done` }];

/** A fresh repository with one commit. */
function repository(name: string): string {
  const ws = join(dir, name, "project");
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, "README.md"), "# bench\n");
  for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) Bun.spawnSync(["git", ...a], { cwd: ws, env: gitEnv });
  return ws;
}

async function timed(cmd: string[], cwd: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { cwd, env, stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`${cmd.slice(1).join(" ")} exited ${code}: ${await new Response(p.stderr).text()}`);
  return performance.now() - t0;
}

try {
  const perNode: number[] = [];
  const oneShot: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ws = repository(`g${round}`);
    const nodes = Array.from({ length: NODES }, (_, i) => ({ id: `n${i}`, objective: `Create the file n${i}.txt (round ${round})`, check: "true", scope: [`n${i}.txt`], depends_on: i ? [`n${i - 1}`] : [] }));
    server.script({ turns: [] });
    for (const n of nodes) server.route(n.objective, writes(n.id));
    const plan = join(dir, `plan${round}.json`);
    writeFileSync(plan, JSON.stringify({ nodes }));
    perNode.push((await timed([bin, ...wire, "graph", "--plan", plan, "--check", "true", "a chain"], ws)) / NODES);
    const single = repository(`s${round}`);
    server.script({ turns: writes("one") });
    oneShot.push(await timed([bin, ...wire, "create one.txt"], single));
  }
  const node = median(perNode);
  const one = median(oneShot);
  console.log(`goal graph: a chain of ${NODES} nodes, median of ${ROUNDS} graphs`);
  console.log(`  per node ${node.toFixed(0)} ms (target < 200 ms); a one-shot task of the same work ${one.toFixed(0)} ms; ratio ${(node / one).toFixed(2)}x`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
