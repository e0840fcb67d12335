import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";
import { detectSandbox } from "../../src/workspace/sandbox.ts";

/**
 * weir started in a subdirectory of a repository, as a person does in a monorepo's package, through
 * the binary: git works for weir and for the model's commands, the repository's ignore rules hold,
 * the rest of the repository is there to read but not to write, and its secrets stay hidden.
 */
const world = e2eWorld("mono");
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];
const SECRET = "MONO-SECRET-7373";

function git(cwd: string, ...args: string[]) {
  const env = { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  expect(Bun.spawnSync(["git", ...args], { cwd, env }).exitCode).toBe(0);
}

/** A monorepo with one package, committed; then the package's source is changed and a build output appears. */
function monorepo(): string {
  const files: Record<string, string> = {
    ".gitignore": "dist/\n.env\n",
    ".env": `TOKEN=${SECRET}\n`,
    "package.json": JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }),
    "tsconfig.base.json": '{ "compilerOptions": { "strict": true } } // ROOT-CONFIG-1212\n',
    "AGENTS.md": "Use pnpm, never npm. MONO-RULE-4545\n",
    "packages/AGENTS.md": "Packages export ESM only. PACKAGES-RULE-6464\n",
    "packages/other/AGENTS.md": "OTHER-RULE-9898\n",
    "packages/calc/package.json": JSON.stringify({ name: "calc", scripts: { test: "node test.js" } }),
    "packages/calc/src/calc.js": "export const add = (a, b) => a + b;\n",
    "packages/calc/test.js": 'import { add } from "./src/calc.js";\nif (add(2, 2) !== 4) throw new Error("wrong");\n',
    "packages/other/index.js": "export const other = 1;\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(world.ws, path, ".."), { recursive: true });
    writeFileSync(join(world.ws, path), text);
  }
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) git(world.ws, ...args);
  const pkg = join(world.ws, "packages", "calc");
  writeFileSync(join(pkg, "src", "calc.js"), "export const add = (a, b) => a - b; // CHANGED-5555\n");
  mkdirSync(join(pkg, "dist"));
  writeFileSync(join(pkg, "dist", "calc.js"), "export const add = (a, b) => a + b; // BUILT-OUTPUT-8080\n");
  return pkg;
}

/** One run in the package whose model calls `calls` once: the first request, and each tool result by id. */
async function runIn(pkg: string, task: string, calls: { id: string; name: string; input: Record<string, unknown> }[]) {
  world.server.script({ turns: [...(calls.length ? [{ toolCalls: calls }] : []), { text: "Done." }] });
  const before = world.server.requests.length;
  const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", task], { home: world.home, cwd: pkg });
  expect(r.code).toBe(0);
  const last = world.server.requests.at(-1)!.body.messages as { role: string; tool_call_id?: string; content: unknown }[];
  const result = (id: string) => JSON.stringify(last.find((m) => m.role === "tool" && m.tool_call_id === id)?.content);
  return { first: JSON.stringify(world.server.requests[before]!.body.messages), result };
}

describe.skipIf(detectSandbox().kind !== "bwrap")("weir in a subdirectory of a repository", () => {
  test("the first request holds the package's diff, the guidance of the directories above it, and no build output the repository ignores", async () => {
    const pkg = monorepo();
    const { first } = await runIn(pkg, "what did I change in add?", []);
    expect(first).toContain("MONO-RULE-4545");
    expect(first).toContain("PACKAGES-RULE-6464");
    expect(first).not.toContain("OTHER-RULE-9898");
    expect(first).toContain("-export const add = (a, b) => a + b;");
    expect(first).toContain("CHANGED-5555");
    expect(first).not.toContain("BUILT-OUTPUT-8080");
  });

  test("the package's test command runs with the package manager the repository's lock file names", async () => {
    const pkg = monorepo();
    writeFileSync(join(world.ws, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
    const { first } = await runIn(pkg, "fix the failing test", []);
    expect(first).toContain("quick: pnpm run test");
    expect(first).not.toContain("quick: npm run test");
  });

  test("a rule file above the package that links out of the repository is never read", async () => {
    const pkg = monorepo();
    writeFileSync(join(world.tmp, "outside.txt"), "OUTSIDE-SECRET-1919\n");
    symlinkSync(join(world.tmp, "outside.txt"), join(world.ws, "packages", "CLAUDE.md"));
    const { first } = await runIn(pkg, "what did I change in add?", []);
    expect(first).toContain("PACKAGES-RULE-6464");
    expect(first).not.toContain("OUTSIDE-SECRET-1919");
  });

  test("the model's git works, relative to the package; the rest of the repository reads but does not write, and its secrets stay hidden", async () => {
    const pkg = monorepo();
    const sh = (id: string, program: string, ...args: string[]) => ({ id, name: "run_command", input: { program, args } });
    const { result } = await runIn(pkg, "look around", [
      sh("status", "git", "status", "--short"),
      sh("diff", "git", "diff", "--stat"),
      sh("config", "cat", "../../tsconfig.base.json"),
      sh("secret", "cat", "../../.env"),
      sh("write", "sh", "-c", "echo x > ../other/planted.js"),
    ]);
    expect(result("status")).toContain("M src/calc.js");
    expect(result("diff")).toContain("src/calc.js");
    expect(result("config")).toContain("ROOT-CONFIG-1212");
    expect(result("secret")).not.toContain(SECRET);
    expect(result("write")).toContain("blocked by the sandbox");
    expect(existsSync(join(world.ws, "packages", "other", "planted.js"))).toBe(false);
  });
});
