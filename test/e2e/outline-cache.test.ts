import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Parsed outlines are kept in the data directory between runs. Through the real loop: the second
 * run sends the model exactly what the first sent, the cache holds the files' symbols, and a
 * corrupt cache costs nothing but a parse.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const cacheFile = () => join(world.home, ".local", "share", "weir", "outlines.db");
const TASK = "rename the helper parseRange in src/range.ts, which src/main.ts imports";

function project() {
  mkdirSync(join(world.ws, "src"));
  writeFileSync(join(world.ws, "src", "range.ts"), "export function parseRange(s: string) {\n  return s.split('-').map(Number);\n}\n");
  writeFileSync(join(world.ws, "src", "main.ts"), 'import { parseRange } from "./range.ts";\nexport const RANGE = parseRange("1-2");\n');
}

/** The first request of a run with the per-process quote marker normalised. */
async function firstRequest(): Promise<string> {
  world.server.script({ turns: [{ text: "ok" }] });
  const before = world.server.requests.length;
  const r = await runWeir([...wire(), "--verify-floor", "off", TASK], { home: world.home, cwd: world.ws });
  expect(r.stderr).not.toContain("Error");
  expect(r.code).toBe(0);
  return JSON.stringify(world.server.requests[before]!.body.messages).replace(/UNTRUSTED-DATA [0-9a-f]{8}/g, "UNTRUSTED-DATA <m>");
}

describe("the outline cache", () => {
  test("a warm run sends what a cold run sent, and the cache holds the parsed symbols", async () => {
    project();
    const cold = await firstRequest();
    expect(existsSync(cacheFile())).toBe(true);
    const db = new Database(cacheFile(), { readonly: true });
    const values = (db.query("SELECT key, value FROM outlines").all() as { key: string; value: string }[]).map((r) => r.value).join("\n");
    db.close();
    expect(values).toContain('"name":"parseRange"');
    expect(values).toContain('"name":"RANGE"');
    expect(await firstRequest()).toBe(cold);
  });

  test("a corrupt cache is moved aside and the run goes on with the same request", async () => {
    project();
    const fresh = await firstRequest();
    mkdirSync(join(world.home, ".local", "share", "weir"), { recursive: true });
    for (const f of readdirSync(join(world.home, ".local", "share", "weir"))) if (f.startsWith("outlines.db")) writeFileSync(join(world.home, ".local", "share", "weir", f), "");
    writeFileSync(cacheFile(), "this is not a database, it is a text file of some length ".repeat(100));
    expect(await firstRequest()).toBe(fresh);
    expect(readdirSync(join(world.home, ".local", "share", "weir")).some((f) => f.startsWith("outlines.db.corrupt-"))).toBe(true);
  });
});

describe("the walk kept between runs", () => {
  const walks = () => join(world.home, ".local", "share", "weir", "walks");

  test("a run in the same workspace starts from the last run's walk and still sees what changed since", async () => {
    project();
    // Directories changed in the last two seconds are not kept; these are set in the past.
    const past = new Date(Date.now() - 60_000);
    for (const d of [world.ws, join(world.ws, "src")]) (await import("node:fs")).utimesSync(d, past, past);
    const cold = await firstRequest();
    expect(readdirSync(walks()).length).toBe(1);
    expect(await firstRequest()).toBe(cold);
    // A file added since, named by the task: the walk finds it, so it is in the working set.
    writeFileSync(join(world.ws, "src", "fresh.ts"), "export const FRESH_MARKER = 1;\n");
    world.server.script({ turns: [{ text: "ok" }] });
    const before = world.server.requests.length;
    const r = await runWeir([...wire(), "--verify-floor", "off", "what does src/fresh.ts export?"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).toContain("FRESH_MARKER");
  });

  test("a corrupt walk file costs a full walk, nothing else", async () => {
    project();
    mkdirSync(walks(), { recursive: true });
    const cold = await firstRequest();
    for (const f of readdirSync(walks())) writeFileSync(join(walks(), f), "\u0000garbage");
    writeFileSync(join(walks(), "0".repeat(24) + ".json"), "{");
    expect(await firstRequest()).toBe(cold);
  });
});
