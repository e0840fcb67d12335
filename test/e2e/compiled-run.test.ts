import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The run is compiled: what the repository's rules, the named file and the failure location say
 * reaches the model in the first request of a real run (the binary, the loop, the mock model), stays
 * there for every later request, and `weir context` prints exactly that request.
 */
const world = e2eWorld();

const wire = (w: "messages" | "chat") =>
  w === "messages" ? ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "mock-a"] : ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"];
const weir = (args: string[]) => runWeir([...args, "--cwd", world.ws], { home: world.home });

async function git(...args: string[]) {
  const p = Bun.spawn(["git", ...args], {
    cwd: world.ws,
    env: { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" },
    stdout: "ignore",
    stderr: "ignore",
  });
  expect(await p.exited).toBe(0);
}

async function repository() {
  writeFileSync(join(world.ws, "AGENTS.md"), "# Conventions\nUse tabs for indentation. SENTINEL-AGENTS-4242\n");
  mkdirSync(join(world.ws, ".weir", "rules"), { recursive: true });
  writeFileSync(join(world.ws, ".weir", "rules", "style.md"), "---\nsticky: true\n---\nEvery exported function gets a doc comment. STICKY-RULE-7171\n");
  mkdirSync(join(world.ws, "src"));
  writeFileSync(join(world.ws, "src", "greet.js"), 'export function greet(name) {\n\treturn "Hello " + name; // GREET-BODY-5151\n}\n');
  mkdirSync(join(world.ws, "test"));
  writeFileSync(join(world.ws, "test", "greet.test.js"), 'import { greet } from "../src/greet.js";\nif (greet("x") !== "Hello, x") throw new Error("FAILING-TEST-3131");\n');
  writeFileSync(join(world.ws, "notes.txt"), "unrelated\n");
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-qm", "init");
}

const TASK = "the greeting test fails:\n    at greet (src/greet.js:2:9)\nfix src/greet.js so greet returns a comma";
const SENTINELS = ["SENTINEL-AGENTS-4242", "STICKY-RULE-7171", "GREET-BODY-5151"];

/** The text the model was sent in one request, all messages joined. */
const sent = (body: any) => JSON.stringify(body.messages);

describe.each(["messages", "chat"] as const)("a compiled run over the %s wire", (w) => {
  test("rules, the named file and the failure location reach the first request and stay in every request for twenty turns", async () => {
    await repository();
    const reads = Array.from({ length: 20 }, (_, i) => ({ toolCalls: [{ id: `r${i}`, name: "read_file", input: { path: "notes.txt" } }] }));
    world.server.script({ turns: [...reads, { text: "done" }] });
    const r = await weir([...wire(w), "--verify-floor", "off", TASK]);
    expect(r.code).toBe(0);
    const requests = world.server.requests.slice(-21);
    expect(requests.length).toBe(21);
    const first = sent(requests[0]!.body);
    for (const s of SENTINELS) expect(first).toContain(s);
    // The failure location from the task is in the floor with the code around the line.
    expect(first).toContain("[failure src/greet.js:1-4");
    // The file is quoted as data with its SHA; the rules are not.
    expect(first).toContain("[file_range src/greet.js:1-4 · sha ");
    expect(first).toMatch(/<<<UNTRUSTED-DATA [0-9a-f]{8}\\nexport function greet/);
    for (const req of requests) for (const s of SENTINELS) expect(sent(req.body)).toContain(s);
  });

  test("consecutive requests share their prefix: nothing above the newest message is rewritten", async () => {
    await repository();
    // Past the 12 requests after which idle pre-loaded actions used to unload and break the prefix.
    world.server.script({ turns: [...Array.from({ length: 15 }, (_, i) => ({ toolCalls: [{ id: `p${i}`, name: "read_file", input: { path: "notes.txt" } }] })), { text: "done" }] });
    // "run the tests" pre-loads command actions, which stay loaded (and the tools array the same) throughout.
    expect((await weir([...wire(w), "--verify-floor", "off", `${TASK}, then run the tests`])).code).toBe(0);
    const requests = world.server.requests.slice(-16);
    expect(requests[0]!.body.tools.map((t: any) => t.name ?? t.function?.name)).toContain("verify");
    // Cache markers move with the newest message; the bytes they mark do not.
    const strip = (m: unknown) => JSON.parse(JSON.stringify(m).replace(/,"cache_control":\{"type":"ephemeral"\}/g, ""));
    for (let i = 1; i < requests.length; i++) {
      const before = strip(requests[i - 1]!.body.messages);
      const after = strip(requests[i]!.body.messages);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(JSON.stringify(strip(requests[i]!.body.tools ?? []))).toStartWith(JSON.stringify(strip(requests[i - 1]!.body.tools ?? [])).replace(/]$/, ""));
    }
  });

  test("weir context prints exactly the first request the run sends", async () => {
    await repository();
    const ctx = await weir([...wire(w), "context", TASK, "--json"]);
    expect(ctx.code).toBe(0);
    const shown = JSON.parse(ctx.stdout);
    world.server.script({ turns: [{ text: "done" }] });
    expect((await weir([...wire(w), "--verify-floor", "off", TASK])).code).toBe(0);
    const received = world.server.requests.at(-1)!;
    // Each process draws its own quote marker; everything else is byte for byte the same.
    const same = (v: unknown) => JSON.stringify(v).replace(/UNTRUSTED-DATA [0-9a-f]{8}/g, "UNTRUSTED-DATA <marker>");
    expect(same(shown.request)).toBe(same(received.body));
    // And it explains each chunk: the rules and the named file are floor chunks with a reason.
    const byId = Object.fromEntries(shown.entries.map((e: any) => [e.id, e]));
    expect(byId["rule:AGENTS.md"].floor).toBe("sticky_rule");
    expect(byId["rule:.weir/rules/style.md"].floor).toBe("sticky_rule");
    expect(byId["file:src/greet.js"].floor).toBe("user_named");
    expect(byId["file:src/greet.js"].why).toContain("floor");
    // The budget is what the whole working set costs as sent, floor included.
    expect(shown.beyondFloor).toBe(false);
    expect(shown.tokens).toBeLessThanOrEqual(shown.budget);
  });
});

describe("the working set and the ledger", () => {
  test("a file shown in full in the working set can be edited without reading it again", async () => {
    await repository();
    world.server.script({
      turns: [{ toolCalls: [{ id: "e1", name: "edit_file", input: { path: "src/greet.js", old_string: '"Hello " + name', new_string: '"Hello, " + name' } }] }, { text: "fixed" }],
    });
    const r = await weir([...wire("messages"), "--verify-floor", "off", TASK]);
    expect(r.code).toBe(0);
    expect(await Bun.file(join(world.ws, "src", "greet.js")).text()).toContain('"Hello, " + name');
  });

  test("the user's own AGENTS.md in weir's config directory reaches the model too", async () => {
    await repository();
    writeFileSync(join(world.home, ".config", "weir", "AGENTS.md"), "Answer in English. USER-RULE-9090\n");
    world.server.script({ turns: [{ text: "ok" }] });
    expect((await weir([...wire("chat"), "summarise notes.txt"])).code).toBe(0);
    expect(sent(world.server.requests.at(-1)!.body)).toContain("USER-RULE-9090");
  });

  test("a CLAUDE.md linking to AGENTS.md reaches the model once; a rule file linking out of the workspace is never read", async () => {
    await repository();
    symlinkSync("AGENTS.md", join(world.ws, "CLAUDE.md"));
    mkdirSync(join(world.home, ".aws"), { recursive: true });
    writeFileSync(join(world.home, ".aws", "credentials"), "[default]\nregion = OUTSIDE-AWS-6161\n");
    writeFileSync(join(world.tmp, "notes.md"), "OUTSIDE-NOTES-6262\n");
    symlinkSync(join(world.home, ".aws", "credentials"), join(world.ws, "src", "AGENTS.md"));
    symlinkSync(join(world.tmp, "notes.md"), join(world.ws, ".weir", "rules", "leak.md"));
    world.server.script({ turns: [{ text: "ok" }] });
    expect((await weir([...wire("chat"), "--verify-floor", "off", "fix src/greet.js"])).code).toBe(0);
    const text = sent(world.server.requests.at(-1)!.body);
    expect(text).not.toContain("OUTSIDE-AWS-6161");
    expect(text).not.toContain("OUTSIDE-NOTES-6262");
    expect(text.split("SENTINEL-AGENTS-4242").length - 1).toBe(1);
  });

  test("failure locations a failing command reveals are appended as new chunks, not rewritten above", async () => {
    await repository();
    writeFileSync(join(world.ws, "fail.js"), 'console.error("Error at src/greet.js:2:9");\nprocess.exit(1);\n');
    world.server.script({ turns: [{ toolCalls: [{ id: "c1", name: "run_command", input: { program: process.execPath, args: ["fail.js"] } }] }, { text: "seen" }] });
    expect((await weir([...wire("messages"), "--verify-floor", "off", "look at notes.txt"])).code).toBe(0);
    const last = world.server.requests.at(-1)!.body;
    const newest = JSON.stringify(last.messages.at(-1));
    expect(newest).toContain("[weir context update · failure locations added to the working set]");
    expect(newest).toContain("GREET-BODY-5151");
    expect(JSON.stringify(last.messages[0])).not.toContain("GREET-BODY-5151");
  });

  test("a JVM stack trace from a failing command brings the file its frame names, found under its package", async () => {
    await repository();
    mkdirSync(join(world.ws, "src", "main", "java", "com", "example"), { recursive: true });
    writeFileSync(join(world.ws, "src", "main", "java", "com", "example", "Calc.java"), "package com.example;\n\npublic class Calc {\n    public static int div(int a, int b) {\n        return a / b; // CALC-DIV-6363\n    }\n}\n");
    // What java printed for this class, replayed: the frames name Calc.java by its package only.
    const trace = 'Exception in thread "main" java.lang.ArithmeticException: / by zero\n\tat com.example.Calc.div(Calc.java:5)\n\tat java.base/java.lang.Thread.run(Thread.java:833)\n';
    writeFileSync(join(world.ws, "fail.js"), `process.stderr.write(${JSON.stringify(trace)});\nprocess.exit(1);\n`);
    world.server.script({ turns: [{ toolCalls: [{ id: "c1", name: "run_command", input: { program: process.execPath, args: ["fail.js"] } }] }, { text: "seen" }] });
    expect((await weir([...wire("chat"), "--verify-floor", "off", "look at notes.txt"])).code).toBe(0);
    const newest = JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    expect(newest).toContain("failure locations added to the working set");
    expect(newest).toContain("CALC-DIV-6363");
    expect(newest).toContain("src/main/java/com/example/Calc.java");
  });
});
