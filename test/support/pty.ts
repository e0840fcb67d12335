import { join } from "node:path";
import { weirCommand } from "./cli.ts";

/** Runs weir in a real pseudo-terminal, so the REPL sees a TTY; collects the screen output as text. */
export function weirInPty(args: string[], opts: { home: string; cwd: string; env?: Record<string, string> }) {
  let screen = "";
  const decoder = new TextDecoder();
  const proc = Bun.spawn([...weirCommand(), ...args], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: opts.home,
      XDG_CONFIG_HOME: join(opts.home, ".config"),
      XDG_DATA_HOME: join(opts.home, ".local", "share"),
      TERM: "xterm-256color",
      NO_COLOR: "1",
      ...opts.env,
    },
    terminal: {
      cols: 120,
      rows: 40,
      data: (_t, data) => {
        screen += decoder.decode(data, { stream: true });
      },
    },
  });
  const plain = () => screen.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
  return {
    proc,
    /** Screen text without escape sequences. */
    text: plain,
    write: (s: string) => proc.terminal!.write(s),
    /** Waits until the screen shows `needle` (after `from` characters), or fails after `ms`. */
    async waitFor(needle: string | RegExp, ms = 8000, from = 0): Promise<void> {
      const end = Date.now() + ms;
      const has = () => (typeof needle === "string" ? plain().slice(from).includes(needle) : needle.test(plain().slice(from)));
      while (!has()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${needle}; screen:\n${plain().slice(-2000)}`);
        await Bun.sleep(20);
      }
    },
    /** Waits for weir to exit, failing with the screen's tail when the exit code is not `code`. */
    async exits(code = 0): Promise<void> {
      const got = await proc.exited;
      if (got !== code) throw new Error(`weir exited ${got}, not ${code}; screen:\n${plain().slice(-2000)}`);
    },
  };
}
