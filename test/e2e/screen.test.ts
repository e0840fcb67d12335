import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { weirCommand } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * What a person sees, read off a real terminal emulator (tmux's screen, not the byte stream): the
 * answered approval prompt collapses to one line, the spinner leaves nothing behind, an edit shows as
 * a diff, and Markdown is rendered.
 */
const tmux = Bun.which("tmux");
const world = e2eWorld();
const d = describe.skipIf(!tmux);

function terminal(args: string[]) {
  const name = `weir-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = `HOME=${world.home} XDG_CONFIG_HOME=${join(world.home, ".config")} XDG_DATA_HOME=${join(world.home, ".local", "share")} TERM=xterm-256color`;
  const cmd = `cd ${world.ws} && env -u NO_COLOR ${env} ${weirCommand().map((a) => `'${a}'`).join(" ")} ${args.map((a) => `'${a}'`).join(" ")}`;
  Bun.spawnSync([tmux!, "new-session", "-d", "-s", name, "-x", "100", "-y", "40", cmd]);
  const screen = () => Bun.spawnSync([tmux!, "capture-pane", "-t", name, "-p"]).stdout.toString();
  return {
    screen,
    keys: (...k: string[]) => Bun.spawnSync([tmux!, "send-keys", "-t", name, ...k]),
    async waitFor(re: RegExp, ms = 8000) {
      const end = Date.now() + ms;
      while (!re.test(screen())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${re}; screen:\n${screen()}`);
        await Bun.sleep(50);
      }
    },
    close: () => Bun.spawnSync([tmux!, "kill-session", "-t", name]),
  };
}

d("the REPL's screen", () => {
  test("an answered approval is one line; the spinner leaves nothing; the edit is a diff; the answer's Markdown is rendered", async () => {
    await Bun.write(join(world.ws, "notes.txt"), "alpha\nbeta\n");
    world.server.script({
      turns: [
        { toolCalls: [{ id: "r1", name: "read_file", input: { path: "notes.txt" } }], delayMs: 1_200 },
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "notes.txt", old_string: "beta", new_string: "gamma" } }] },
        { toolCalls: [{ id: "s1", name: "shell", input: { command: "touch made" } }] },
        { text: "# Done\n\nThe **edit** is in.\n" },
      ],
    });
    const t = terminal(["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock", "--verify-floor", "off"]);
    try {
      await t.waitFor(/\/help for commands/);
      t.keys("change it", "Enter");
      await t.waitFor(/allow once/);
      t.keys("Up", "Up", "Enter");
      await t.waitFor(/tokens · cache/);
      const s = t.screen();
      expect(s).toContain("✓ allowed once: touch made");
      expect(s).not.toContain("weir wants to run");
      expect(s).not.toContain("model thinking");
      expect(s).toMatch(/ {2}-beta\n {2}\+gamma/);
      expect(s).toMatch(/^Done$/m);
      expect(s).not.toContain("# Done");
      expect(s).not.toContain("**edit**");
    } finally {
      t.close();
    }
  });
});
