import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * A model whose context, or whose output, is smaller than weir plans for (a local model behind the default
 * --context-size, or a tokenizer that counts code denser than weir's estimate), through the binary
 * over both wires: the endpoint refuses the long request in its own words, and the run goes on.
 */
const world = e2eWorld("window");
const WIRES = [
  ["anthropic-compatible", ""],
  ["openai-compatible", "/v1"],
] as const;

/** Five files of about 9 KB, each read in a turn of its own, and an answer. */
function session(): void {
  for (let i = 0; i < 5; i++) writeFileSync(join(world.ws, `part${i}.js`), `${Array.from({ length: 180 }, (_, k) => `export const value_${i}_${k} = ${k}; // PART-${i}-${k}`).join("\n")}\n`);
  world.server.script({
    turns: [...Array.from({ length: 5 }, (_, i) => ({ toolCalls: [{ id: `r${i}`, name: "read_file", input: { path: `part${i}.js` } }] })), { text: "Read them all." }],
  });
}

describe.each(WIRES)("over %s, a model with a 12,000-token context", (provider, path) => {
  const run = (extra: string[] = []) =>
    runWeir(["--provider", provider, "--base-url", `${world.server.url}${path}`, "--model", "m", "--verify-floor", "off", ...extra, "summarise the part files one by one"], { home: world.home, cwd: world.ws });

  test("a conversation that outgrows it is shrunk and sent again, and the run finishes", async () => {
    session();
    world.server.contextWindow = 12_000;
    try {
      const before = world.server.requests.length;
      const r = await run();
      expect({ code: r.code, errors: r.stderr.split("\n").filter((l) => l.startsWith("weir:")) }).toEqual({ code: 0, errors: [] });
      expect(r.stdout).toContain("Read them all.");
      expect(r.stderr).toContain("the model's context is smaller than this conversation (12000 tokens)");
      // Every scripted turn was served: the refused requests took none.
      expect(world.server.remaining).toBe(0);
      // The last request kept the newest reads whole.
      const last = JSON.stringify(world.server.requests.at(-1)!.body.messages);
      expect(last).toContain("PART-4-179");
      expect(world.server.requests.length - before).toBeGreaterThan(6);
    } finally {
      world.server.contextWindow = undefined;
    }
  });

  test("a request that cannot be shrunk enough ends in one line naming --context-size, exit 1", async () => {
    session();
    world.server.contextWindow = 1_500;
    try {
      const r = await run();
      expect(r.code).toBe(1);
      const errors = r.stderr.split("\n").filter((l) => l.startsWith("weir:"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain("--context-size");
    } finally {
      world.server.contextWindow = undefined;
    }
  });
});

describe.each(WIRES)("over %s, a model that gives at most 4,096 output tokens", (provider, path) => {
  test("the first answer refusing --max-tokens 20000 is taken at its word: the run asks for 4096 from then on and finishes", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "l1", name: "list_files", input: {} }] }, { text: "Listed." }] });
    world.server.maxOutput = 4096;
    try {
      const before = world.server.requests.length;
      const r = await runWeir(["--provider", provider, "--base-url", `${world.server.url}${path}`, "--model", "m", "--verify-floor", "off", "--max-tokens", "20000", "list the files"], { home: world.home, cwd: world.ws });
      expect({ code: r.code, errors: r.stderr.split("\n").filter((l) => l.startsWith("weir:")) }).toEqual({ code: 0, errors: [] });
      expect(r.stdout).toContain("Listed.");
      expect(r.stderr).toContain("allows at most 4096 output tokens");
      const asked = world.server.requests.slice(before).map((q) => q.body.max_tokens ?? q.body.max_completion_tokens);
      expect(asked).toEqual([20_000, 4096, 4096]);
    } finally {
      world.server.maxOutput = undefined;
    }
  });
});
