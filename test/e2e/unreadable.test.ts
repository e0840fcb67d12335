import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * One tracked file the person cannot read (chmod 000) is skipped with a note; the rest of the
 * working set compiles, in `weir context` and in a run. Root reads any file, so this runs as an
 * ordinary user (.ci/run's ordinary-user phase) and is skipped, visibly, as root.
 */
const world = e2eWorld();
const ordinary = process.getuid?.() !== 0;

describe.skipIf(!ordinary)("a tracked file the person cannot read", () => {
  test("is skipped with a note: weir context compiles the rest and exits 0, and a run's request holds the named file", async () => {
    mkdirSync(join(world.ws, "src"));
    writeFileSync(join(world.ws, "src", "a.ts"), "export const a = 1;\n");
    writeFileSync(join(world.ws, "src", "locked.ts"), "export const locked = 2;\n");
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: world.ws, env: { PATH: process.env.PATH ?? "", HOME: world.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    chmodSync(join(world.ws, "src", "locked.ts"), 0o000);
    const wire = ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off"];
    const context = await runWeir(["context", ...wire, "--cwd", world.ws, "fix src/a.ts"], { home: world.home });
    expect(context.code).toBe(0);
    expect(context.stdout).toContain("src/locked.ts could not be read (permission denied); it was skipped");
    expect(context.stdout).toContain("file_range src/a.ts");
    world.server.script({ turns: [{ text: "done" }] });
    const run = await runWeir([...wire, "--cwd", world.ws, "fix src/a.ts"], { home: world.home });
    expect(run.code).toBe(0);
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("export const a = 1;");
    chmodSync(join(world.ws, "src", "locked.ts"), 0o644);
  });
});
