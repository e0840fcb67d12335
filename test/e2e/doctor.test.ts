import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { STDIO_SERVER } from "../support/mcp-servers.ts";
import { e2eWorld } from "../support/world.ts";

const world = e2eWorld();
const weir = (args: string[], env: Record<string, string> = {}) => runWeir([...args, "--cwd", world.ws], { home: world.home, env });

describe("weir doctor", () => {
  test("against a working endpoint with an MCP server: every line ok, with what was found", async () => {
    writeFileSync(join(world.home, ".config", "weir", "mcp.json"), JSON.stringify({ mcpServers: { tools: { command: process.execPath, args: [STDIO_SERVER, "stdio"] } } }));
    world.server.script({ turns: [{ text: "ok" }] });
    const r = await weir(["doctor", "--json", "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"]);
    const report = JSON.parse(r.stdout);
    const by = Object.fromEntries(report.checks.map((c: any) => [c.name, c]));
    expect(by["endpoint and model"]).toMatchObject({ ok: true });
    expect(by["endpoint and model"].detail).toContain("model mock-b: answered in");
    expect(by["mcp tools"]).toMatchObject({ ok: true });
    expect(by["data directory"].ok).toBe(true);
    expect(r.code).toBe(report.ok ? 0 : 1);
    // The properties docs/security.md states, each as it holds on this machine: the same facts as the checks above.
    const security = Object.fromEntries(report.security.map((p: { property: string; holds: string }) => [p.property, p.holds]));
    expect(Object.keys(security)).toHaveLength(13);
    const viewed = by.transactions?.ok === true;
    expect(security["what your review shows applies"]).toBe(viewed ? "yes" : "no");
    expect(security["held is containment, not a question"]).toBe(viewed ? "yes" : "no");
    expect(security["a change set lands whole, even if weir is killed"]).toBe(viewed ? "yes" : "no");
    expect(security["the process limit holds for root"]).toBe(by["process limit"]?.detail.includes("pids cgroup:") ? "yes" : process.getuid?.() === 0 ? "no" : "partly");
    const plain = await weir(["doctor", "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"]);
    expect(plain.stdout).toContain("security properties on this machine (docs/security.md):");
    expect(plain.stdout).toMatch(/\n {2}(yes|partly|no) +secrets are removed by value: /);
  });

  test("in a dotfiles repository, what the person's home, git config and PATH read from it is a line: commands cannot change it", async () => {
    const line = async (env: Record<string, string> = {}) => {
      world.server.script({ turns: [{ text: "ok" }] });
      const r = await weir(["doctor", "--json", "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m"], env);
      return JSON.parse(r.stdout).checks.find((c: any) => c.name === "your environment");
    };
    expect(await line()).toBeUndefined();
    for (const d of ["bin", "hooks", "zsh"]) mkdirSync(join(world.ws, d));
    writeFileSync(join(world.ws, "bashrc"), "alias ll='ls -l'\n");
    writeFileSync(join(world.ws, "zsh", "init.zsh"), "export EDITOR=vi\n");
    symlinkSync(join(world.ws, "bashrc"), join(world.home, ".bashrc"));
    writeFileSync(join(world.home, ".zshrc"), `source ${join(world.ws, "zsh", "init.zsh")}\n`);
    writeFileSync(join(world.home, ".gitconfig"), `[core]\n\thooksPath = ${join(world.ws, "hooks")}\n`);
    const found = await line({ PATH: `${join(world.ws, "bin")}:${process.env.PATH ?? ""}` });
    expect(found.ok).toBe(true);
    for (const part of ["bashrc (what ~/.bashrc in your home links to)", "zsh/init.zsh (sourced by ~/.zshrc in your home)", "hooks (named by your own git config)", "bin (a directory on your PATH: a program a command adds there that shadows one of yours is removed)"]) expect(found.detail).toContain(part);
  });

  test("a missing key and a deprecated model are lines with their fix, and exit 1", async () => {
    const none = await weir(["doctor", "--provider", "anthropic"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/FIX +api key +missing: set ANTHROPIC_API_KEY/);
    world.server.script({ turns: [{ text: "ok" }] });
    const elsewhere = await weir(["doctor", "--provider", "anthropic", "--base-url", world.server.url], { ANTHROPIC_API_KEY: "sk-ant-test-0000" });
    expect(elsewhere.stdout).toMatch(/FIX +api key +missing \(ANTHROPIC_API_KEY is for api\.anthropic\.com, not 127\.0\.0\.1:\d+\): set/);
    const old = await weir(["doctor", "--provider", "anthropic", "--base-url", world.server.url, "--model", "claude-sonnet-4-5"], { WEIR_API_KEY: "sk-ant-test-0000" });
    expect(old.code).toBe(1);
    expect(old.stdout).toContain("the model claude-sonnet-4-5 is deprecated");
  });

  test("the project's checks are listed, with a wrapper that cannot start, a tool not on the PATH or one commands cannot see as lines to fix", async () => {
    const line = async (env: Record<string, string> = {}) => {
      world.server.script({ turns: [{ text: "ok" }] });
      const r = await weir(["doctor", "--json", "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m"], env);
      return JSON.parse(r.stdout).checks.find((c: any) => c.name === "project checks");
    };
    expect(await line()).toMatchObject({ ok: true, detail: "none found at the workspace root; verify will not guess a command" });
    writeFileSync(join(world.ws, "pom.xml"), "<project/>\n");
    writeFileSync(join(world.ws, "mvnw"), "#!/bin/sh\n");
    expect(await line()).toMatchObject({ ok: false, detail: "quick: ./mvnw test; full: ./mvnw verify; ./mvnw is missing or not executable (chmod +x mvnw): verify cannot run the tests" });
    chmodSync(join(world.ws, "mvnw"), 0o755);
    expect(await line()).toMatchObject({ ok: true, detail: "quick: ./mvnw test; full: ./mvnw verify" });
    writeFileSync(join(world.ws, "mix.exs"), "");
    // A PATH with only what starts weir and git on it, so no Elixir: the wrapper still starts, mix does not.
    const bin = join(world.tmp, "bin");
    mkdirSync(bin);
    for (const tool of ["env", "git", "bun"]) symlinkSync(tool === "bun" ? process.execPath : Bun.which(tool)!, join(bin, tool));
    expect((await line({ PATH: bin })).detail).toContain("mix is not on your PATH");
    // mix on the PATH through a link to where commands cannot see: named, with the setting that shows it.
    const elixir = join(world.home, "code", "elixir", "bin");
    mkdirSync(elixir, { recursive: true });
    writeFileSync(join(elixir, "mix"), "#!/bin/sh\n");
    chmodSync(join(elixir, "mix"), 0o755);
    symlinkSync(join(elixir, "mix"), join(bin, "mix"));
    const hidden = await line({ PATH: bin });
    expect(hidden.ok).toBe(false);
    expect(hidden.detail).toContain(`mix is ${join(elixir, "mix")}, which commands cannot see; the user can show one to read with "sandbox": {"readable": ["${elixir}"]}`);
  });

  test("your hooks are listed with whether each can start", async () => {
    const guard = join(world.home, "guard.sh");
    writeFileSync(guard, "#!/bin/sh\nexit 0\n");
    chmodSync(guard, 0o755);
    const hooks = (command: string) => writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command }] }] } }));
    const check = async () => {
      const r = await weir(["doctor", "--json", "--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m"]);
      return JSON.parse(r.stdout).checks.find((c: any) => c.name === "hooks");
    };
    hooks("~/guard.sh --strict");
    world.server.script({ turns: [{ text: "ok" }] });
    expect(await check()).toMatchObject({ ok: true, detail: "1 hook, each can start" });
    hooks("~/missing-guard.sh");
    world.server.script({ turns: [{ text: "ok" }] });
    expect(await check()).toMatchObject({ ok: false, detail: 'PreToolUse "~/missing-guard.sh": ~/missing-guard.sh does not exist' });
  });

  test("a broken configuration is reported as such, with its file and field", async () => {
    writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ maxTurns: "many" }));
    const r = await weir(["doctor"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("field maxTurns");
  });
});
