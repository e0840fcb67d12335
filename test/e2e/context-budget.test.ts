import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The budget is what the whole compiled working set costs as sent: through the binary, for tasks
 * that name files, changed files, a failing test and rules, at budgets from tiny to roomy, the
 * working set and task the request carries are measured from the outside (four characters to a
 * token, the estimate weir budgets with) and are within --budget, or the request says once that
 * the floor alone is over it.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

function repository() {
  const files: Record<string, string> = {
    "AGENTS.md": `# Conventions\n${"Prefer small pure functions; name them for what they do. ".repeat(30)}\n`,
    "package.json": JSON.stringify({ name: "shop", scripts: { test: "node test/cart.test.js" } }),
    "src/cart.js": `import { price } from "./price.js";\nexport function total(items) {\n${"  // sums each line\n".repeat(60)}  return items.reduce((s, i) => s + price(i), 0);\n}\n`,
    "src/price.js": `export function price(item) {\n${"  // applies the discount\n".repeat(120)}  return item.cost * item.qty;\n}\n`,
    "test/cart.test.js": `import { total } from "../src/cart.js";\nif (total([{ cost: 2, qty: 3 }]) !== 6) throw new Error("total is wrong");\n`,
  };
  for (let i = 0; i < 30; i++) files[`src/lib/util${i}.js`] = `export function util${i}(cart) {\n${`  // helper ${i} for the cart total\n`.repeat(20 + i * 3)}}\n`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
  // One uncommitted change: the diff and the changed file are floor too.
  writeFileSync(join(world.ws, "src/lib/util3.js"), "export function util3(cart) {\n  return cart.length;\n}\n");
}

const TASKS = [
  "the cart total is wrong when an item has a discount",
  "fix the failing test in test/cart.test.js",
  "rename price in src/price.js and src/cart.js to linePrice",
  "why does util3 return the length",
  "explain how the cart helpers in src/lib/util1.js, src/lib/util2.js and src/lib/util4.js fit together",
];
const BUDGETS = [300, 1200, 4000, 12000];
const tokens = (s: string) => Math.ceil(s.length / 4);

describe("the context budget", () => {
  test("every first request's working set and task fit --budget, or the request says once that the floor alone is over it", async () => {
    repository();
    const seen = { within: 0, statedOver: 0 };
    for (const budget of BUDGETS)
      for (const task of TASKS) {
        const r = await runWeir([...wire(), "context", task, "--budget", String(budget), "--json"], { home: world.home, cwd: world.ws });
        expect(r.code).toBe(0);
        const shown = JSON.parse(r.stdout) as { text: string; request: { messages: { role: string; content: string }[] } };
        const first = shown.request.messages.find((m) => m.role === "user")!.content;
        // The working set the request carries, measured as sent, with the task.
        expect(first).toContain(shown.text);
        const cost = tokens(shown.text) + tokens(task);
        const over = first.split(`over the budget of ${budget}`).length - 1;
        if (cost > budget) {
          expect([task, budget, over]).toEqual([task, budget, 1]);
          seen.statedOver++;
        } else {
          expect(over).toBe(0);
          seen.within++;
        }
      }
    // Both sides were met: the roomy budgets fit, the tiny one is over by the floor and says so.
    expect(seen.within).toBeGreaterThan(10);
    expect(seen.statedOver).toBeGreaterThan(0);
  }, 120_000);
});
