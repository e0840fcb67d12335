/**
 * The REPL as a person meets it, on the compiled binary in a real pseudo-terminal against the mock
 * wire server:
 *  (1) start to a live prompt (the banner's "/help for commands" on screen), median of 10, against a
 *      compiled hello-world's start in the same run. Target: <= 50 ms.
 *  (2) a keystroke's echo while an answer streams (a character typed during the stream, until it is
 *      on screen), median of 20. Target: <= 16 ms.
 *  (3) a 10,000-line streamed answer against a 1,000-line one: time per line, from the first line on
 *      screen to the last. Target: the long one within 2x of the short one per line (linear).
 *   bun run bench repl
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer } from "../test/support/mock-server.ts";
import { hostBinary, median, quantile, referenceBinary } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-repl-"));
const home = join(dir, "home");
const ws = join(dir, "ws");
mkdirSync(join(home, ".config", "weir"), { recursive: true });
mkdirSync(ws);
const server = await new MockServer().start();
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share"), TERM: "xterm-256color", NO_COLOR: "1" };

/** weir in a PTY; `seen(needle)` resolves with performance.now() when the screen first holds it. */
function repl(color = false) {
  let screen = "";
  const waiters: { needle: string; from: number; resolve: (t: number) => void }[] = [];
  const decoder = new TextDecoder();
  const proc = Bun.spawn([bin, "--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--cwd", ws], {
    env: color ? { ...env, NO_COLOR: "" } : env,
    terminal: {
      cols: 120,
      rows: 40,
      data: (_t, data) => {
        screen += decoder.decode(data, { stream: true });
        const now = performance.now();
        for (const w of [...waiters]) if (screen.indexOf(w.needle, w.from) !== -1) waiters.splice(waiters.indexOf(w), 1), w.resolve(now);
      },
    },
  });
  return {
    proc,
    length: () => screen.length,
    write: (s: string) => proc.terminal!.write(s),
    seen: (needle: string, from = 0) => new Promise<number>((resolve) => (screen.indexOf(needle, from) !== -1 ? resolve(performance.now()) : waiters.push({ needle, from, resolve }))),
  };
}

const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (p10–p90 ${quantile(xs, 0.1).toFixed(1)}–${quantile(xs, 0.9).toFixed(1)})`;
const ref = referenceBinary();
try {
  // (1) start to a live prompt
  const starts: number[] = [];
  const hellos: number[] = [];
  for (let i = 0; i <= 10; i++) {
    const t0 = performance.now();
    const r = repl();
    const t1 = await r.seen("/help for commands");
    r.write("/exit\r");
    await r.proc.exited;
    const h0 = performance.now();
    await Bun.spawn([ref.bin], { stdout: "ignore" }).exited;
    if (i > 0) starts.push(t1 - t0), hellos.push(performance.now() - h0);
  }
  console.log("repl (1): start to a live prompt, compiled binary, 10 runs");
  console.log(`  weir            ${fmt(starts)}`);
  console.log(`  reference hello ${fmt(hellos)} (to exit)`);
  console.log(`  ratio ${(median(starts) / median(hellos)).toFixed(2)}x; target <= 50 ms`);

  // (2) keystroke echo while an answer streams
  const lines = Array.from({ length: 4000 }, (_, i) => `streamed line ${i}`).join("\n");
  server.script({ turns: [{ text: lines, chunkSize: 64 }] });
  const r = repl();
  await r.seen("/help for commands");
  r.write("stream please\r");
  await r.seen("streamed line 10");
  const echoes: number[] = [];
  for (let k = 0; k < 20; k++) {
    const mark = r.length();
    // A character the stream never contains, so only its echo can match.
    const ch = String.fromCharCode(0x416 + (k % 20));
    const t0 = performance.now();
    r.write(ch);
    const t1 = await Promise.race([r.seen(ch, mark), Bun.sleep(2000).then(() => Number.NaN)]);
    echoes.push(t1 - t0);
    await Bun.sleep(15);
  }
  await r.seen("streamed line 3999");
  console.log("repl (2): a keystroke's echo while an answer streams, 20 keys");
  console.log(`  ${fmt(echoes.filter((x) => !Number.isNaN(x)))}${echoes.some(Number.isNaN) ? `; ${echoes.filter(Number.isNaN).length} never echoed` : ""}; target <= 16 ms`);
  r.write("\x15/exit\r");
  await r.proc.exited;

  // (3) a 10,000-line answer against a 1,000-line one
  const perLine = async (n: number, color = false) => {
    const text = Array.from({ length: n }, (_, i) => `line ${String(i).padStart(5, "0")} of a long answer`).join("\n");
    server.script({ turns: [{ text, chunkSize: 256 }] });
    const b = repl(color);
    await b.seen("/help for commands");
    b.write("a long one\r");
    const first = await b.seen("line 00000");
    const last = await b.seen(`line ${String(n - 1).padStart(5, "0")}`);
    b.write("/exit\r");
    await b.proc.exited;
    return (last - first) / n;
  };
  const short: number[] = [];
  const long: number[] = [];
  for (let i = 0; i < 3; i++) {
    short.push(await perLine(1_000));
    long.push(await perLine(10_000));
  }
  const shortC: number[] = [];
  const longC: number[] = [];
  for (let i = 0; i < 3; i++) {
    shortC.push(await perLine(1_000, true));
    longC.push(await perLine(10_000, true));
  }
  console.log("repl (3): streamed answers, time per line from first to last line on screen, 3 runs each");
  console.log(`  plain:            1,000 lines ${(median(short) * 1000).toFixed(1)} µs/line, 10,000 lines ${(median(long) * 1000).toFixed(1)} µs/line: ${(median(long) / median(short)).toFixed(2)}x; target <= 2x`);
  console.log(`  Markdown (colour): 1,000 lines ${(median(shortC) * 1000).toFixed(1)} µs/line, 10,000 lines ${(median(longC) * 1000).toFixed(1)} µs/line: ${(median(longC) / median(shortC)).toFixed(2)}x; target <= 2x`);
} finally {
  ref.cleanup();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
