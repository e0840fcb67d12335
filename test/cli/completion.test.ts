import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS, FLAGS } from "../../src/cli/args.ts";
import { runWeir } from "../support/cli.ts";
import { tempDir } from "../support/temp.ts";

/** `weir completion`, through the binary, with bash itself completing as the oracle. */
let home: ReturnType<typeof tempDir> | undefined;
afterEach(() => home?.cleanup());

/** What bash completes for `line` (the last word is the one being completed) with weir's script loaded. */
function completes(script: string, dir: string, ...words: string[]): string[] {
  writeFileSync(join(dir, "weir.bash"), script);
  const probe = `source ${join(dir, "weir.bash")}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _weir; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return Bun.spawnSync(["bash", "-c", probe], { cwd: dir }).stdout.toString().split("\n").filter(Boolean);
}

describe("weir completion", () => {
  test("bash completes commands, a command's words, flags and a flag's values", async () => {
    home = tempDir();
    const r = await runWeir(["completion", "bash"], { home: home.path });
    expect(r.code).toBe(0);
    expect(completes(r.stdout, home.path, "weir", "chan")).toEqual(["changes"]);
    expect(completes(r.stdout, home.path, "weir", "changes", "a")).toEqual(["apply"]);
    expect(completes(r.stdout, home.path, "weir", "--yes", "und")).toEqual(["undo"]);
    expect(completes(r.stdout, home.path, "weir", "--output-format", "st")).toEqual(["stream-json"]);
    expect(completes(r.stdout, home.path, "weir", "--sandbox", "")).toEqual(["workspace-write", "read-only", "off"]);
    expect(completes(r.stdout, home.path, "weir", "--allow-net")).toEqual(["--allow-network"]);
    // A flag that takes free text completes nothing rather than a command.
    expect(completes(r.stdout, home.path, "weir", "--model", "")).toEqual([]);
  });

  test("every command and every flag is in each shell's script, which is generated from the same tables", async () => {
    home = tempDir();
    for (const shell of ["bash", "zsh", "fish"]) {
      const r = await runWeir(["completion", shell], { home: home.path });
      expect(r.code).toBe(0);
      for (const c of COMMANDS) expect(r.stdout).toContain(c);
      for (const f of FLAGS) expect(r.stdout).toMatch(new RegExp(`(--| -l )${f.name}\\b`));
    }
    const zsh = Bun.which("zsh");
    if (zsh) expect(Bun.spawnSync([zsh, "-n", "-c", (await runWeir(["completion", "zsh"], { home: home.path })).stdout]).exitCode).toBe(0);
  });

  test("a missing or unknown shell is a one-line usage error; a broken config does not stop it", async () => {
    home = tempDir();
    for (const args of [["completion"], ["completion", "powershell"]]) {
      const r = await runWeir(args, { home: home.path });
      expect([r.code, r.stderr.trim().split("\n").length]).toEqual([2, 1]);
      expect(r.stderr).toContain("weir completion bash, zsh or fish");
    }
    Bun.spawnSync(["mkdir", "-p", join(home.path, ".config", "weir")]);
    writeFileSync(join(home.path, ".config", "weir", "config.json"), "{ broken");
    expect((await runWeir(["completion", "bash"], { home: home.path })).code).toBe(0);
  });
});
