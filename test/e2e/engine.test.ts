import { describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { engineOptions, startWithEngineOptions } from "../../src/cli/engine.ts";
import { runsCompiled, weirCommand } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * The compiled binary runs with WebAssembly's optimising tier off (src/cli/engine.ts): it execs
 * itself with the option in its environment, and no command it starts inherits the option.
 */
const world = e2eWorld();

describe("the engine's options", () => {
  test("a run's own process holds them when compiled; a command it runs never sees them", async () => {
    world.server.script({
      turns: [
        // The model's reply waits, so the test can read weir's environment while it runs.
        { delayMs: 1500, toolCalls: [{ id: "e1", name: "run_command", input: { program: "printenv", args: [] } }] },
        { text: "done" },
      ],
    });
    const env = { PATH: process.env.PATH ?? "", HOME: world.home, XDG_CONFIG_HOME: join(world.home, ".config"), XDG_DATA_HOME: join(world.home, ".local", "share") };
    const args = ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock", "--verify-floor", "off", "list the environment"];
    const p = Bun.spawn([...weirCommand(), ...args], { cwd: world.ws, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    // The same pid after the exec: its environment is the one the engine started with.
    let environ = "";
    for (let i = 0; i < 100 && !environ.includes("BUN_JSC_useOMGJIT") && p.exitCode === null; i++) {
      await Bun.sleep(20);
      try {
        environ = readFileSync(`/proc/${p.pid}/environ`, "utf8");
      } catch {
        // not started yet, or gone
      }
    }
    expect(await p.exited).toBe(0);
    if (runsCompiled) expect(environ.split("\0")).toEqual(expect.arrayContaining(["BUN_JSC_useOMGJIT=0", "BUN_JSC_useDFGJIT=0"]));
    else expect(environ).not.toContain("BUN_JSC_");
    const result = JSON.stringify(world.server.requests.at(-1)!.body.messages.at(-1));
    expect(result).toContain(`HOME=`);
    expect(result).not.toContain("BUN_JSC");
  });
});

/** A program compiled as weir is, that can call startWithEngineOptions: its path. */
function compiled(name: string, lines: string[]): string {
  const entry = join(world.tmp, `${name}.ts`);
  const engine = join(import.meta.dir, "..", "..", "src", "cli", "engine.ts");
  writeFileSync(entry, [`import { startWithEngineOptions } from ${JSON.stringify(engine)};`, ...lines].join("\n"));
  const bin = join(world.tmp, name);
  expect(Bun.spawnSync([process.execPath, "build", "--compile", entry, "--outfile", bin], { stdout: "ignore", stderr: "pipe" }).exitCode).toBe(0);
  return bin;
}

describe("startWithEngineOptions", () => {
  test("once the options are set it takes them out of the environment and does not exec", () => {
    const env: Record<string, string | undefined> = { PATH: "/bin", BUN_JSC_useOMGJIT: "0", BUN_JSC_useDFGJIT: "0" };
    startWithEngineOptions(true, engineOptions(undefined), env);
    expect(env).toEqual({ PATH: "/bin" });
  });

  test("from source it leaves the environment as it is", () => {
    const env: Record<string, string | undefined> = { PATH: "/bin" };
    startWithEngineOptions(false, engineOptions(undefined), env);
    expect(env).toEqual({ PATH: "/bin" });
  });

  test("when the exec fails, the run goes on and prints nothing of it; a later warning is still printed", async () => {
    // A compiled program, as weir is, whose exec cannot succeed: the file to exec is not there.
    const bin = compiled("exec-fails", [
      `startWithEngineOptions(true, { BUN_JSC_useOMGJIT: '0' }, process.env, ${JSON.stringify(join(world.tmp, "gone"))});`,
      "await Bun.sleep(50);",
      "process.emitWarning('LATER-WARNING');",
      "await Bun.sleep(50);",
      "console.log('RAN-ON');",
    ]);
    const r = Bun.spawnSync([bin], { stdout: "pipe", stderr: "pipe" });
    expect(r.stdout.toString()).toContain("RAN-ON");
    expect(r.stderr.toString()).not.toContain("execve");
    expect(r.stderr.toString()).toContain("LATER-WARNING");
  });

  test.skipIf(process.platform !== "linux")("a binary an upgrade replaced while it started still execs itself with the options", async () => {
    // The program waits, so that its file can be replaced before it execs, as an upgrade would.
    const bin = compiled("replaced", [
      'import { readFileSync } from "node:fs";',
      "if (!process.env.ENGINE_MARK) await Bun.sleep(400);",
      "startWithEngineOptions(true, { ENGINE_MARK: '1' });",
      "console.log(readFileSync('/proc/self/environ', 'utf8').includes('ENGINE_MARK=1') ? 'EXECED' : 'NOT-EXECED');",
    ]);
    copyFileSync(bin, `${bin}.new`);
    const p = Bun.spawn([bin], { stdout: "pipe", stderr: "pipe" });
    await Bun.sleep(150);
    renameSync(`${bin}.new`, bin);
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    expect(out.trim()).toBe("EXECED");
    expect(err).not.toContain("execve");
  });

  test("an eval keeps JavaScript's optimising tiers; a run does not", () => {
    expect(engineOptions("eval")).toEqual({ BUN_JSC_useOMGJIT: "0" });
    expect(engineOptions(undefined)).toEqual({ BUN_JSC_useOMGJIT: "0", BUN_JSC_useDFGJIT: "0" });
    expect(engineOptions("context")).toEqual(engineOptions(undefined));
  });
});
