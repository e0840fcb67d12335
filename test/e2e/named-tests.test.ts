import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Tests found by their names, through the binary: where six modules each have a `sum.test.js`, a
 * task on one module's `sum.js` gets that module's test, in `weir context` and in the first request
 * the model receives, and not its namesakes (which would take the budget and stand as its checks).
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const MODULES = ["ledger", "feed", "audit", "upload", "profile", "checkout"];

function project() {
  const files: Record<string, string> = { "package.json": JSON.stringify({ name: "desk", scripts: { test: "node -e 0" } }) };
  for (const m of MODULES) {
    files[`app/${m}/sum.js`] = `function sum(rows) {\n  return rows.reduce((a, r) => a + r.qty * r.price, 0);\n}\nmodule.exports = { sum };\n`;
    files[`app/${m}/sum.test.js`] = `const { sum } = require("./sum.js");\n// ${m.toUpperCase()}-SUM-TEST\nif (sum([{ qty: 2, price: 3 }]) !== 6) process.exit(1);\n`;
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
}

describe("a source file's tests by name are the nearest so named", () => {
  test("one module's sum.js gets its own sum.test.js, in weir context and in the request, not the five namesakes", async () => {
    project();
    const task = "sum in app/ledger/sum.js counts a row with no price as NaN; fix it";
    const ctx = await runWeir([...wire(), "context", "--json", task], { home: world.home, cwd: world.ws });
    expect(ctx.code).toBe(0);
    const entries = (JSON.parse(ctx.stdout) as { entries: { kind: string; source: string }[] }).entries;
    expect(entries.filter((e) => e.kind === "test").map((e) => e.source)).toEqual(["app/ledger/sum.test.js"]);

    world.server.script({ turns: [{ text: "ok" }] });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), task], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const first = JSON.stringify(world.server.requests[before]!.body.messages);
    expect(first).toContain("LEDGER-SUM-TEST");
    for (const m of MODULES.slice(1)) expect(first).not.toContain(`${m.toUpperCase()}-SUM-TEST`);
  });
});
