/**
 * The model router's cost on three scripted mixes: dev, 54 tasks (written before the router was tuned:
 * a third questions, a third one-file fixes, a third changes to two files across modules; six of the
 * questions asked as follow-ups in the session of the change before them); test, 27 tasks of the
 * same kinds in another repository's layout and words, written before any change its figures could
 * steer and never tuned on; and mined, 54 tasks whose two-file changes span one directory, one
 * module or several in the shares real multi-file fixes do. Each task runs through the compiled binary twice
 * against two mock vendors that simulate prompt caching per vendor: once with `--router off` (every
 * request on main), once routed. Priced with the published list (policies/prices.json): main is
 * claude-sonnet-4-5 on the Messages wire; fast is gpt-5-mini on the Chat wire, and then
 * claude-haiku-4-5, whose uncached input costs more than Sonnet's cache reads.
 *
 * Prints: total cost routed against all-on-main (goal ≤ 0.5x), the switches off a warm main and
 * whether each paid for itself (measured afterwards from the usage the vendors reported), whether
 * every task ended with the same files and answer both ways, and the router's decision time.
 *   bun run bench models [--split dev|test|mined]
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { chooseRoute, type RouteInput } from "../src/decision/router.ts";
import { costOf, type Usage } from "../src/core/usage.ts";
import { priceOf } from "../src/providers/prices.ts";
import { MockServer, type Turn } from "../test/support/mock-server.ts";
import { hostBinary, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-models-"));
interface Task {
  id: string;
  kind: "question" | "fix" | "change";
  text: string;
  turns: Turn[];
  /** A change's planned scope: one directory, one module, or across modules. */
  scope?: "local" | "module" | "cross";
  /** Asked with -c in the session of the task before it. */
  followUp?: boolean;
}

/** A scripted mix: its tasks, and the repository they run in (a folder of modules, each with its tests). */
interface Mix {
  name: "dev" | "test" | "mined";
  /** The folder the modules are in, and where their tests are. */
  src: string;
  tests: (m: string, n: string) => string;
  modules: string[];
  /** The files of each module, by name. */
  names: string[];
  tasks: () => Task[];
  /** A module file: a function over a list, exported, with a bug to fix. */
  source: (m: string, n: string) => string;
  test: (m: string, n: string) => string;
  /** Files beside the modules' own (path to text). */
  extra?: () => Record<string, string>;
}

let seq = 0;
const call = (name: string, input: unknown, output: number): Turn => ({ toolCalls: [{ id: `c${++seq}`, name, input }], usage: { output } });
const answer = (text: string, output: number): Turn => ({ text, usage: { output } });

/** A follow-up question comes right after the change it follows (the session the -c continues). */
function inSessions(out: Task[]): Task[] {
  const ordered: Task[] = [];
  for (const t of out.filter((x) => !x.followUp)) {
    ordered.push(t);
    if (t.kind === "change") {
      const q = out.find((x) => x.followUp && x.id === `question-${t.id.split("-")[1]}`);
      if (q) ordered.push(q);
    }
  }
  return ordered;
}

const MODULES = ["billing", "orders", "users", "search", "mail", "reports"];
const NAMES = ["total", "parse", "format", "limit", "merge", "score", "index", "queue", "cache"];
const file = (m: string, n: string) => `src/${m}/${n}.js`;

/** The dev mix: written out before any routing figure was read, and not tuned since. */
const DEV: Mix = {
  name: "dev",
  src: "src",
  tests: (m, n) => `test/${m}/${n}.test.js`,
  modules: MODULES,
  names: NAMES,
  source: (m, n) => {
    const body = Array.from({ length: 12 }, (_, k) => `  // step ${k}: the ${m} ${n} rule keeps its order and its bounds\n`).join("");
    return `function ${n}Value(items) {\n  let sum = 0;\n  for (let i = 0; i <= items.length; i++) sum += items[i] ?? 0;\n${body}  return sum;\n}\nmodule.exports = { ${n}Value };\n`;
  },
  test: (m, n) => `const { ${n}Value } = require("../../${file(m, n)}");\nif (${n}Value([]) !== 0) process.exit(1);\n`,
  tasks() {
    const out: Task[] = [];
    for (let i = 0; i < sized(18, 3); i++) {
      const m = MODULES[i % 6]!;
      const n = NAMES[i % 9]!;
      const m2 = MODULES[(i + 1) % 6]!;
      const n2 = NAMES[(i + 4) % 9]!;
      out.push({
        id: `change-${i}`,
        kind: "change",
        scope: "cross",
        text: `rename ${n}Value to ${n}Amount in ${file(m, n)} and update its use in ${file(m2, n2)}`,
        turns: [
          call("read_file", { path: file(m, n) }, 60),
          call("read_file", { path: file(m2, n2) }, 60),
          call("edit_file", { path: file(m, n), old_string: `${n}Value`, new_string: `${n}Amount` }, 180),
          call("edit_file", { path: file(m2, n2), old_string: "let sum = 0;", new_string: `let sum = 0; // counted as ${n}Amount counts` }, 180),
          call("verify", { level: "quick" }, 40),
          answer(`Renamed ${n}Value to ${n}Amount in both files; the tests pass.`, 220),
        ],
      });
      out.push({
        id: `fix-${i}`,
        kind: "fix",
        text: `fix the off-by-one in ${n}Value in ${file(m, n)}`,
        turns: [
          call("read_file", { path: file(m, n) }, 60),
          call("edit_file", { path: file(m, n), old_string: "i <= items.length", new_string: "i < items.length" }, 150),
          call("verify", { level: "quick" }, 40),
          answer(`Fixed the loop bound in ${file(m, n)}; the tests pass.`, 200),
        ],
      });
      out.push({
        id: `question-${i}`,
        kind: "question",
        text: `what does ${n}Value in ${file(m, n)} return for an empty list?`,
        followUp: i % 3 === 0,
        turns: [call("read_file", { path: file(m, n) }, 60), answer(`${n}Value returns 0 for an empty list: the loop never runs and the sum starts at 0.`, 320)],
      });
    }
    return inSessions(out);
  },
};

const AREAS = ["inventory", "pricing", "shipping", "catalog", "export", "notify"];
const VERBS = ["round", "clamp", "split", "lookup", "retry", "rank", "slug", "window", "tally"];
const lib = (a: string, v: string) => `lib/${a}/${v}.js`;

/** The test mix: another layout (lib/, spec/), other words and scripts; written before its first run, never tuned on. */
const TEST: Mix = {
  name: "test",
  src: "lib",
  tests: (a, v) => `spec/${a}/${v}.spec.js`,
  modules: AREAS,
  names: VERBS,
  source: (a, v) => {
    const notes = Array.from({ length: 9 }, (_, k) => `  // ${a} ${v}, case ${k}: values arrive in the order the caller keeps\n`).join("");
    return `function ${v}Of(values) {\n  const kept = values.filter((x) => x !== null);\n${notes}  return kept.reduce((a, b) => a + b) / kept.length;\n}\nmodule.exports = { ${v}Of };\n`;
  },
  test: (a, v) => `const { ${v}Of } = require("../../${lib(a, v)}");\nif (${v}Of([2, 4]) !== 3) process.exit(1);\n`,
  tasks() {
    const out: Task[] = [];
    for (let i = 0; i < sized(9, 3); i++) {
      const a = AREAS[(i * 5) % 6]!;
      const v = VERBS[(i * 2) % 9]!;
      const a2 = AREAS[(i * 5 + 2) % 6]!;
      const v2 = VERBS[(i * 2 + 5) % 9]!;
      out.push({
        id: `change-${i}`,
        kind: "change",
        scope: "cross",
        text: `make ${v}Of in ${lib(a, v)} return 0 for an empty list, and have ${v2}Of in ${lib(a2, v2)} use it for its average`,
        turns: [
          call("read_file", { path: lib(a, v) }, 70),
          call("read_file", { path: lib(a2, v2) }, 70),
          call("edit_file", { path: lib(a, v), old_string: "  return kept.reduce", new_string: "  if (kept.length === 0) return 0;\n  return kept.reduce" }, 210),
          call("edit_file", { path: lib(a2, v2), old_string: "x !== null);", new_string: `x !== null); // averaged as ${v}Of averages` }, 200),
          call("verify", { level: "quick" }, 40),
          answer(`${v}Of now returns 0 for an empty list and ${v2}Of follows it; the specs pass.`, 240),
        ],
      });
      out.push({
        id: `fix-${i}`,
        kind: "fix",
        text: `${v}Of in ${lib(a, v)} throws on an empty list; fix it`,
        turns: [
          call("read_file", { path: lib(a, v) }, 70),
          call("edit_file", { path: lib(a, v), old_string: "kept.reduce((a, b) => a + b)", new_string: "kept.reduce((a, b) => a + b, 0)" }, 160),
          call("verify", { level: "quick" }, 40),
          answer(`Gave the reduce in ${lib(a, v)} a start of 0; the specs pass.`, 180),
        ],
      });
      out.push({
        id: `question-${i}`,
        kind: "question",
        text: `how does ${v}Of in ${lib(a, v)} treat null values?`,
        followUp: i % 3 === 1,
        turns: [call("read_file", { path: lib(a, v) }, 70), answer(`${v}Of drops null values before it averages the rest.`, 280)],
      });
    }
    return inSessions(out);
  },
};

/**
 * Scopes of the multi-file fixes among the 168 mined bug-fix commits (eval/localisation/commits.jsonl,
 * tests aside, scoped as the decision state scopes a plan): 15 of 27 in one directory, 8 in one
 * module, 4 across modules. This mix's changes keep those shares: 10, 5 and 3 of 18.
 */
const MINED_SCOPES: NonNullable<Task["scope"]>[] = [...Array(10).fill("local"), ...Array(5).fill("module"), ...Array(3).fill("cross")];
const DESKS = ["ledger", "checkout", "profile", "feed", "audit", "upload"];
const PARTS = ["sum", "pick", "trim", "bucket", "dedupe", "page", "stamp", "weight", "mask"];
const app = (d: string, p: string) => `app/${d}/${p}.js`;
const helper = (d: string) => `app/${d}/helpers/guard.js`;

/**
 * The mined mix: 54 tasks whose changes span what real multi-file fixes span (above), in a third
 * layout (app/, tests beside their sources, a helpers/ folder per module) with its own words and
 * scripts. Written and committed before the router read a local change's scope, and never tuned on.
 */
const MINED: Mix = {
  name: "mined",
  src: "app",
  tests: (d, p) => `app/${d}/${p}.test.js`,
  modules: DESKS,
  names: PARTS,
  source: (d, p) => {
    const notes = Array.from({ length: 10 }, (_, k) => `  // ${d} ${p}, row ${k}: each row is priced once, in the order it came\n`).join("");
    return `function ${p}Total(rows) {\n  let acc = 0;\n  for (const r of rows) acc += r.qty * r.price;\n${notes}  return acc;\n}\nmodule.exports = { ${p}Total };\n`;
  },
  test: (d, p) => `const { ${p}Total } = require("./${p}.js");\nif (${p}Total([{ qty: 2, price: 3 }]) !== 6) process.exit(1);\n`,
  extra: () =>
    Object.fromEntries(
      DESKS.flatMap((d) => [
        [helper(d), `function keepRow(row) {\n  // a ${d} row counts when it has a quantity\n  return row.qty > 0;\n}\nmodule.exports = { keepRow };\n`],
        [`app/${d}/helpers/guard.test.js`, `const { keepRow } = require("./guard.js");\nif (!keepRow({ qty: 1, price: 1 })) process.exit(1);\n`],
      ]),
    ),
  tasks() {
    const out: Task[] = [];
    for (let i = 0; i < sized(18, 3); i++) {
      const d = DESKS[(i * 7) % 6]!;
      const p = PARTS[(i * 4) % 9]!;
      const scope = sized(MINED_SCOPES, ["local", "module", "cross"] as const)[i]!;
      const d2 = scope === "cross" ? DESKS[(i * 7 + 3) % 6]! : d;
      const p2 = PARTS[(i * 4 + 2) % 9]!;
      const second = scope === "module" ? helper(d) : app(d2, p2);
      const secondEdit =
        scope === "module"
          ? call("edit_file", { path: second, old_string: "return row.qty > 0;", new_string: "return row.qty > 0 && row.price >= 0;" }, 170)
          : call("edit_file", { path: second, old_string: "acc += r.qty * r.price;", new_string: "if (r.qty > 0) acc += r.qty * r.price;" }, 170);
      const what = scope === "module" ? `keepRow in ${second} refuse negative prices` : `${p2}Total in ${second} skip rows with no quantity`;
      out.push({
        id: `change-${i}`,
        kind: "change",
        scope,
        text: `have ${p}Total in ${app(d, p)} skip rows with no quantity, and ${what}`,
        turns: [
          call("read_file", { path: app(d, p) }, 65),
          call("read_file", { path: second }, 65),
          call("edit_file", { path: app(d, p), old_string: "acc += r.qty * r.price;", new_string: "if (r.qty > 0) acc += r.qty * r.price;" }, 190),
          secondEdit,
          call("verify", { level: "quick" }, 40),
          answer(`${p}Total and ${second} now leave out the rows asked; the tests beside them pass.`, 230),
        ],
      });
      out.push({
        id: `fix-${i}`,
        kind: "fix",
        text: `${p}Total in ${app(d, p)} returns NaN when a row has no price; fix it`,
        turns: [
          call("read_file", { path: app(d, p) }, 65),
          call("edit_file", { path: app(d, p), old_string: "r.qty * r.price;", new_string: "r.qty * (r.price ?? 0);" }, 150),
          call("verify", { level: "quick" }, 40),
          answer(`A row with no price now counts as 0 in ${app(d, p)}; the test beside it passes.`, 190),
        ],
      });
      out.push({
        id: `question-${i}`,
        kind: "question",
        text: `what does ${p}Total in ${app(d, p)} add up, and in what order?`,
        followUp: i % 3 === 2,
        turns: [call("read_file", { path: app(d, p) }, 65), answer(`${p}Total adds quantity times price over the rows, in the order they came.`, 300)],
      });
    }
    return inSessions(out);
  },
};

/** The mix's repository: each module of each folder, with its test. */
function repository(mix: Mix, ws: string): void {
  for (const m of mix.modules)
    for (const n of mix.names) {
      for (const f of [join(mix.src, m, `${n}.js`), mix.tests(m, n)]) mkdirSync(join(ws, f, ".."), { recursive: true });
      writeFileSync(join(ws, mix.src, m, `${n}.js`), mix.source(m, n));
      writeFileSync(join(ws, mix.tests(m, n)), mix.test(m, n));
    }
  for (const [f, text] of Object.entries(mix.extra?.() ?? {})) {
    mkdirSync(join(ws, f, ".."), { recursive: true });
    writeFileSync(join(ws, f), text);
  }
  writeFileSync(join(ws, "package.json"), JSON.stringify({ name: "bench", scripts: { test: "node -e 0" } }));
}

/** What a run left: every module file's hash, and the answer. */
function outcome(mix: Mix, ws: string, text: string): string {
  const h = createHash("sha256");
  for (const m of mix.modules)
    for (const f of readdirSync(join(ws, mix.src, m), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
      h.update(`${relative(ws, join(f.parentPath, f.name))}\0${readFileSync(join(f.parentPath, f.name))}\0`);
  return `${h.digest("hex").slice(0, 16)} ${text}`;
}

interface TurnSeen {
  role: string;
  model: string;
  reason: string;
  usage: Usage;
}

interface PolicyRun {
  usd: number;
  turns: TurnSeen[][];
  outcomes: string[];
}

async function runAll(mix: Mix, fast: string, routed: boolean): Promise<PolicyRun> {
  const main = await new MockServer().start();
  const side = await new MockServer().start();
  main.simulateCache = side.simulateCache = true;
  side.shareScriptOf(main);
  const home = join(dir, `home-${mix.name}-${fast}-${routed}`);
  const ws = join(dir, `ws-${mix.name}-${fast}-${routed}`);
  mkdirSync(join(home, ".config", "weir"), { recursive: true });
  repository(mix, ws);
  const models = { fast: { provider: "openai-compatible", baseUrl: `${side.url}/v1`, model: fast } };
  const config = { provider: "anthropic-compatible", baseUrl: main.url, model: "claude-sonnet-4-5", models, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } };
  writeFileSync(join(home, ".config", "weir", "config.json"), JSON.stringify(config));
  const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share") };
  const run: PolicyRun = { usd: 0, turns: [], outcomes: [] };
  try {
    for (const t of mix.tasks()) {
      main.script({ turns: t.turns.map((x) => structuredClone(x)) });
      const args = [bin, "--yes", "--verify-floor", "off", "--output-format", "events", "--router", routed ? "on" : "off", ...(t.followUp ? ["-c"] : []), t.text];
      // Not spawnSync: the mock vendors answer from this process's event loop.
      const p = Bun.spawn(args, { cwd: ws, env, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      if (code !== 0) throw new Error(`${t.id} exited ${code}: ${stderr.slice(0, 400)}`);
      const events = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
      const seen: TurnSeen[] = [];
      let route = { role: "main", reason: "--router off" };
      for (const e of events) {
        if (e.type === "route") route = { role: e.role, reason: e.reason };
        if (e.type === "turn_end") {
          const model = e.model ?? "claude-sonnet-4-5";
          seen.push({ role: route.role, model, reason: route.reason, usage: e.usage });
          run.usd += costOf(e.usage, priceOf(model)!);
        }
      }
      run.turns.push(seen);
      const end = events.find((e) => e.type === "run_end");
      run.outcomes.push(outcome(mix, ws, end?.text ?? ""));
    }
  } finally {
    await main.stop();
    await side.stop();
  }
  return run;
}

/**
 * Each switch off a warm main, priced afterwards from what the vendors reported: the fast turn's
 * cost against what the same prompt would have cost on main reading its cache (main's last prompt,
 * at the cache price; the rest at input), with the fast turn's output at main's output price.
 */
function switches(run: PolicyRun): { count: number; paid: number } {
  let count = 0;
  let paid = 0;
  let lastMain: number | undefined;
  for (const turns of run.turns) {
    for (let i = 0; i < turns.length; i++) {
      const t = turns[i]!;
      const prompt = t.usage.input + t.usage.cacheRead + t.usage.cacheWrite;
      const before = i > 0 ? turns[i - 1] : undefined;
      const fromWarmMain = t.role === "fast" && lastMain !== undefined && (before === undefined || before.role === "main");
      if (fromWarmMain && /warm main/.test(t.reason)) {
        count++;
        const p = priceOf("claude-sonnet-4-5")!;
        const cached = Math.min(lastMain!, prompt);
        const onMain = (cached * p.cacheRead! + (prompt - cached) * p.input + t.usage.output * p.output) / 1e6;
        if (costOf(t.usage, priceOf(t.model)!) < onMain) paid++;
      }
      if (t.role === "main") lastMain = prompt;
    }
    // A new session (not a follow-up) starts cold; the next follow-up keeps this one's main.
  }
  return { count, paid };
}

const CHOICES = sized(200_000, 2_000);

/** The router's decision time: a million choices over varied inputs, microseconds each. */
function decisionMicros(): number {
  const inputs: RouteInput[] = Array.from({ length: 1000 }, (_, k) => ({
    facts: { kind: k % 2 ? "inspect" : "change", targets: k % 4, scope: "local", securitySensitive: k % 7 === 0, publicApi: false, testsMapped: k % 3, failed: k % 11 === 0 },
    view: 1000 + ((k * 37) % 30_000),
    output: 300,
    prefer: "main",
    last: k % 2 ? "main" : "fast",
    main: { price: priceOf("claude-sonnet-4-5"), warm: (k * 53) % 20_000, caches: true },
    fast: { price: priceOf("gpt-5-mini"), warm: 0, caches: true },
  }));
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < CHOICES; i++) chooseRoute(inputs[i % 1000]!);
    rounds.push(((performance.now() - t0) * 1000) / CHOICES);
  }
  return median(rounds);
}

const SCOPE_WORDS = { local: "in one directory", module: "in one module", cross: "across modules" } as const;
const scopes = (all: Task[]) =>
  (["local", "module", "cross"] as const)
    .map((s) => [s, all.filter((t) => t.scope === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${SCOPE_WORDS[s]}`)
    .join(", ");

const only = process.argv.includes("--split") ? process.argv[process.argv.indexOf("--split") + 1] : undefined;

try {
  for (const mix of [DEV, TEST, MINED].filter((x) => !only || x.name === only)) {
    const all = mix.tasks();
    const count = (k: Task["kind"]) => all.filter((t) => t.kind === k).length;
    console.log(`model router, ${mix.name}: ${all.length} scripted tasks (${count("question")} questions, ${count("fix")} one-file fixes, ${count("change")} two-file changes: ${scopes(all)}; ${all.filter((t) => t.followUp).length} questions as follow-ups), main claude-sonnet-4-5`);
    for (const fast of sized(["gpt-5-mini", "claude-haiku-4-5"], ["gpt-5-mini"])) {
      const off = await runAll(mix, fast, false);
      const on = await runAll(mix, fast, true);
      const same = on.outcomes.filter((o, i) => o === off.outcomes[i]).length;
      const fastTurns = on.turns.flat().filter((t) => t.role === "fast").length;
      const sw = switches(on);
      console.log(`  fast ${fast}: routed $${on.usd.toFixed(4)} against all-on-main $${off.usd.toFixed(4)}: ${(on.usd / off.usd).toFixed(2)}x (goal ≤ 0.50x)`);
      console.log(`    ${fastTurns} of ${on.turns.flat().length} turns on fast; switches off a warm main ${sw.count}, of which paid for themselves ${sw.paid}; same outcome ${same} of ${all.length}`);
      const groups = [["questions", (t: Task) => t.kind === "question"], ["fixes", (t: Task) => t.kind === "fix"]] as [string, (t: Task) => boolean][];
      for (const scope of ["local", "module", "cross"] as const)
        if (all.some((t) => t.scope === scope)) groups.push([`changes ${SCOPE_WORDS[scope]}`, (t: Task) => t.kind === "change" && t.scope === scope]);
      for (const [label, member] of groups) {
        const idx = all.flatMap((t, i) => (member(t) ? [i] : []));
        const cost = (r: PolicyRun) => idx.reduce((sum, i) => sum + r.turns[i]!.reduce((a, t) => a + costOf(t.usage, priceOf(t.model)!), 0), 0);
        const mainWhy = [...new Set(idx.flatMap((i) => on.turns[i]!.filter((t) => t.role === "main").map((t) => t.reason)))];
        console.log(`    ${label}: $${cost(on).toFixed(4)} routed, $${cost(off).toFixed(4)} on main; on main for: ${mainWhy.join(" | ") || "nothing"}`);
      }
      const warmWhy = on.turns.flat().find((t) => /warm main/.test(t.reason))?.reason;
      if (warmWhy) console.log(`    e.g. ${warmWhy}`);
    }
  }
  console.log(`  the router's decision: ${decisionMicros().toFixed(2)} µs a choice, median of 5 rounds of ${CHOICES} (goal < 1 ms)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
