import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { expectSnapshot } from "../support/snapshot.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * What the model receives, as reviewed fixtures (codex-rs keeps its context snapshots the same way):
 * the first request of a run, the request after three reads, and one after older results were
 * demoted to fit. A change to what the model sees shows up as a diff of test/snapshots/.
 */
const world = e2eWorld("ws");

const wire = (w: "messages" | "chat") =>
  w === "messages" ? ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "mock-a"] : ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"];

/** Paths of the temp dir are the only thing that differs between machines. */
const normal = (body: unknown) => JSON.parse(JSON.stringify(body).replaceAll(world.ws, "<WORKSPACE>"));

function repository() {
  writeFileSync(join(world.ws, "AGENTS.md"), "Use two spaces. Run `node test.js` before you finish.\n");
  mkdirSync(join(world.ws, "src"));
  writeFileSync(join(world.ws, "src", "sum.js"), "export const sum = (xs) => xs.reduce((a, b) => a - b, 0);\n");
  writeFileSync(join(world.ws, "test.js"), 'import { sum } from "./src/sum.js";\nif (sum([1, 2]) !== 3) process.exit(1);\n');
  // About 2k tokens each: three reads fit the conversation budget, eight do not.
  for (const n of ["a", "b", "c", "d", "e", "f", "g", "h"]) writeFileSync(join(world.ws, `${n}.txt`), Array.from({ length: 150 }, (_, i) => `${n} line ${i} with some padding text to make it longer`).join("\n"));
}

const read = (id: string, path: string) => ({ toolCalls: [{ id, name: "read_file", input: { path } }] });
const TASK = "fix sum in src/sum.js";

describe.each(["messages", "chat"] as const)("request snapshots over the %s wire", (w) => {
  test("the first request, the request after three reads, and one after a demotion", async () => {
    repository();
    // Eight different files: a file read again unchanged would not be sent again, and nothing would need demoting.
    const files = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt", "g.txt", "h.txt"];
    world.server.script({ turns: [...files.map((f, i) => read(`r${i + 1}`, f)), { text: "done" }] });
    // A small window makes the conversation budget (8k tokens at least) bind after a few reads.
    const r = await runWeir([...wire(w), "--verify-floor", "off", "--context-size", "20000", "--max-tokens", "1000", TASK, "--cwd", world.ws], { home: world.home });
    expect(r.code).toBe(0);
    const reqs = world.server.requests.slice(-9).map((q) => normal(q.body));
    expectSnapshot(`requests/${w}-first`, reqs[0]);
    expectSnapshot(`requests/${w}-after-three-reads`, reqs[3]);
    const isDemoted = (b: unknown) => JSON.stringify(b).includes("summary]") || JSON.stringify(b).includes("was dropped to fit");
    expect(isDemoted(reqs[3])).toBe(false);
    const demoted = reqs.find(isDemoted);
    expect(reqs.indexOf(demoted)).toBeGreaterThan(3);
    expectSnapshot(`requests/${w}-after-demotion`, demoted);
  });
});
