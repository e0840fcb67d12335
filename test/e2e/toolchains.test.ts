import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";
import { detectSandbox } from "../../src/workspace/sandbox.ts";

/**
 * The person's own toolchains through the binary, as a user starts it: a program their toolchain
 * manager put on the PATH runs in the sandbox, a library they installed for their user is found by
 * the real interpreter, and a program the sandbox cannot see is named with the setting that shows it.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock"];

function program(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** One run_command call through the binary with the person's PATH: what the model was told. */
async function runCommand(call: { program: string; args?: string[] }, path: string): Promise<string> {
  writeFileSync(join(world.ws, "README.md"), "# app\n");
  world.server.script({ turns: [{ toolCalls: [{ id: "r1", name: "run_command", input: { args: [], ...call } }] }, { text: "Done." }] });
  const r = await runWeir([...wire(), "--yes", "--verify-floor", "off", "run the tool"], { home: world.home, cwd: world.ws, env: { PATH: `${path}:/usr/local/bin:/usr/bin:/bin` } });
  expect(r.code).toBe(0);
  return JSON.stringify(world.server.requests.at(-1)!.body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "r1"));
}

describe.skipIf(detectSandbox().kind !== "bwrap")("the person's toolchains in the sandbox, through the binary", () => {
  test("a program pnpm's standalone install put on the PATH runs", async () => {
    const pnpmHome = join(world.home, ".local", "share", "pnpm");
    program(join(pnpmHome, "pnpm"), '#!/bin/sh\necho "PNPM-RAN-4711 $*"\n');
    const shown = await runCommand({ program: "pnpm", args: ["--version"] }, pnpmHome);
    expect(shown).toContain("PNPM-RAN-4711 --version");
  });

  test("a module installed for the user (pip --user) is imported by the real python", async () => {
    const site = join(world.home, ".local", "lib", "python3.11", "site-packages");
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, "calc_helpers.py"), 'MARK = "USER-SITE-9090"\n');
    const shown = await runCommand({ program: "/usr/bin/python3", args: ["-c", "import calc_helpers; print(calc_helpers.MARK)"] }, "/usr/bin");
    expect(shown).toContain("USER-SITE-9090");
  });

  test("a program Homebrew on Linux installed runs from its Cellar, while the prefix's var/ stays unreadable", async () => {
    // The prefix is another user's home (/home/linuxbrew/.linuxbrew), so outside this one.
    const brew = join(dirname(world.home), "linuxbrew", ".linuxbrew");
    program(join(brew, "Cellar", "brewtool", "2.1", "bin", "brewtool"), '#!/bin/sh\necho "BREWTOOL-RAN-5150"\n');
    mkdirSync(join(brew, "bin"), { recursive: true });
    symlinkSync("../Cellar/brewtool/2.1/bin/brewtool", join(brew, "bin", "brewtool"));
    mkdirSync(join(brew, "var", "postgresql"), { recursive: true });
    writeFileSync(join(brew, "var", "postgresql", "data"), "BREW-VAR-SECRET-8080");
    expect(await runCommand({ program: "brewtool" }, join(brew, "bin"))).toContain("BREWTOOL-RAN-5150");
    expect(await runCommand({ program: "cat", args: [join(brew, "var", "postgresql", "data")] }, join(brew, "bin"))).not.toContain("BREW-VAR-SECRET-8080");
  });

  test("a program linked from the PATH to a directory commands cannot see is named, with the setting that shows it; with it set, it runs", async () => {
    const code = join(world.home, "code", "deploy-tool");
    program(join(code, "run.sh"), '#!/bin/sh\necho "DEPLOY-TOOL-RAN-3131"\n');
    mkdirSync(join(world.home, "bin"), { recursive: true });
    symlinkSync(join(code, "run.sh"), join(world.home, "bin", "deploy-tool"));
    const hidden = await runCommand({ program: "deploy-tool" }, join(world.home, "bin"));
    expect(hidden).not.toContain("DEPLOY-TOOL-RAN-3131");
    expect(hidden).toContain(`blocked by the sandbox: deploy-tool is ${join(code, "run.sh")}`);
    expect(hidden).toContain(`\\"readable\\": [\\"${code}\\"]`);
    writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ sandbox: { readable: ["code/deploy-tool"] } }));
    expect(await runCommand({ program: "deploy-tool" }, join(world.home, "bin"))).toContain("DEPLOY-TOOL-RAN-3131");
  });
});
