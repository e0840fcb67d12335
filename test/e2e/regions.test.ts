import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * A file too long to show whole reaches the model by the regions the task points at, through the
 * binary: the function that holds the task's words, 1,000 lines down, with its line numbers, not
 * the file's first 400 lines. Where the task's words are not in the file, its head, as before.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

function project() {
  const lines: string[] = [];
  // A hundred functions of carts, then seventy of orders, then the one that refunds.
  for (let i = 0; i < 170; i++) {
    const noun = i < 100 ? "cart" : "order";
    lines.push(`export function step${i}(${noun}) {`);
    lines.push(i === 0 ? "  cart.total = 0; // HEAD-LINE-1111" : `  ${noun}.total += ${noun}.items[${i}].price;`);
    lines.push(`  return ${noun};`, "}", "");
  }
  lines.push("export function settleCancelled(order) {");
  lines.push("  if (order.status !== 'cancelled') return order;");
  lines.push("  order.refunds.push(order.paid); // REFUND-LINE-4242");
  lines.push("  return order;", "}", "");
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "shop", type: "module" }),
    "src/orders.js": lines.join("\n"),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) expect(Bun.spawnSync(["git", ...args], { cwd: world.ws, env }).exitCode).toBe(0);
  return lines;
}

async function firstRequest(task: string): Promise<string> {
  world.server.script({ turns: [{ text: "ok" }] });
  const before = world.server.requests.length;
  const r = await runWeir([...wire(), "--verify-floor", "off", "--budget", "4000", task], { home: world.home, cwd: world.ws });
  expect(r.code).toBe(0);
  const messages = world.server.requests[before]!.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === "user")!.content;
}

describe("a long file in the first request", () => {
  test("is shown by the function the task's words point at, with its line numbers, not by its head", async () => {
    const lines = project();
    const at = lines.findIndex((l) => l.includes("REFUND-LINE-4242")) + 1;
    expect(at).toBeGreaterThan(800);
    const sent = await firstRequest("a cancelled order is refunded twice in src/orders.js");
    expect(sent).toContain(`${String(at).padStart(5)}\t${lines[at - 1]}`);
    expect(sent).not.toContain("HEAD-LINE-1111");
    // The rest of the file is named, not shown, and how to read it is said.
    expect(sent).toContain("more lines; read_file src/orders.js for the rest");
    expect(sent).toContain(`${String(1).padStart(5)}  function step0(cart) {`);
  });

  test("can be edited by quoting its shown lines with their numbers, without a read_file", async () => {
    const lines = project();
    const at = lines.findIndex((l) => l.includes("REFUND-LINE-4242")) + 1;
    const quoted = [at - 1, at].map((n) => `${String(n).padStart(5)}\t${lines[n - 1]}`).join("\n");
    const fixed = "  if (!order.refunds.includes(order.paid)) order.refunds.push(order.paid); // REFUND-LINE-4242";
    world.server.script({
      turns: [{ toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/orders.js", old_string: quoted, new_string: `${lines[at - 2]}\n${fixed}` } }] }, { text: "fixed" }],
    });
    const before = world.server.requests.length;
    const task = "a cancelled order is refunded twice in src/orders.js";
    const r = await runWeir([...wire(), "--verify-floor", "off", "--yes", "--budget", "4000", task], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    expect(JSON.stringify(world.server.requests[before]!.body)).toContain(JSON.stringify(quoted).slice(1, -1));
    const after = readFileSync(join(world.ws, "src/orders.js"), "utf8").split("\n");
    expect(after[at - 1]).toBe(fixed);
    expect(after.length).toBe(lines.length);
  });

  test("weir context names the lines the regions show", async () => {
    const lines = project();
    const at = lines.findIndex((l) => l.includes("REFUND-LINE-4242")) + 1;
    const task = "a cancelled order is refunded twice in src/orders.js";
    const r = await runWeir([...wire(), "context", task, "--budget", "4000"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(0);
    const shown = /shows lines ([\d\-, ]+)/.exec(r.stdout)?.[1]?.split(", ").map((x) => x.split("-").map(Number)) ?? [];
    expect(shown.some(([start, end]) => start! <= at && at <= end!)).toBe(true);
    expect(shown.some(([start]) => start === 1)).toBe(false);
    const json = await runWeir([...wire(), "context", task, "--budget", "4000", "--json"], { home: world.home, cwd: world.ws });
    const entry = (JSON.parse(json.stdout).entries as { source: string; shows: { start: number; end: number }[] | null }[]).find((e) => e.source === "src/orders.js")!;
    expect(entry.shows!.map((x) => [x.start, x.end])).toEqual(shown);
  });

  test("is shown by its head where the task's words are not in it", async () => {
    const lines = project();
    const sent = await firstRequest("tidy up src/orders.js");
    expect(sent).toContain("HEAD-LINE-1111");
    expect(sent).not.toContain("REFUND-LINE-4242");
    expect(sent).toContain(`[... ${lines.length - 400} more lines; read_file src/orders.js with offset 401]`);
  });

  test("a line of data in a head cut is cut at 2,000 characters, so a named file cannot send it whole", async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `${i},plain,row`);
    rows[2] = `2,${"x".repeat(100_000)},blob`;
    mkdirSync(join(world.ws, "data"), { recursive: true });
    writeFileSync(join(world.ws, "data/table.csv"), rows.join("\n"));
    const sent = await firstRequest("tidy up data/table.csv");
    expect(sent).toContain(`2,${"x".repeat(1_998)}… [line cut at 2000 chars]`);
    expect(sent).not.toContain("x".repeat(2_001));
    expect(sent).toContain("399,plain,row");
    expect(sent).toContain("read_file data/table.csv with offset 401");
  });
});
