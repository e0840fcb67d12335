/**
 * Reads are bounded by what they need, not by a file's size: `weir context` for a task naming a
 * source file, in a small Python project, with and without a 200 MB test-like file beside its
 * test (a fixture; context building reads a test's top to map it, never the whole). Peak RSS of
 * the compiled binary, medians of 5, and the ratio (target: at most 1.25x the project without it).
 *   bun run bench reads
 */
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostBinary, median } from "./lib/measure.ts";

const bin = hostBinary(join(import.meta.dir, ".."));
const dir = mkdtempSync(join(tmpdir(), "weir-bench-reads-"));
const ws = join(dir, "ws");
mkdirSync(join(ws, "src"), { recursive: true });
mkdirSync(join(ws, "tests"));
mkdirSync(join(dir, "home"));
writeFileSync(join(ws, "src", "calc.py"), "def add(a, b):\n    return a + b\n");
writeFileSync(join(ws, "tests", "test_calc.py"), "from src.calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n");
Bun.spawnSync(["git", "init", "-q"], { cwd: ws });

/** Peak RSS in MB of one `weir context` run (GNU time's maximum resident set size). */
function peak(): number {
  const r = Bun.spawnSync(["/usr/bin/time", "-f", "%M", bin, "context", "--provider", "openai-compatible", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "fix src/calc.py"], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? "", HOME: join(dir, "home") },
    stdout: "ignore",
    stderr: "pipe",
  });
  return Number(r.stderr.toString().trim().split("\n").at(-1)) / 1024;
}

try {
  const without = median(Array.from({ length: 5 }, peak));
  // 200 MB of real text (not sparse), written in 1 MB pieces.
  const fd = openSync(join(ws, "tests", "test_fixture_data.py"), "w");
  const piece = Buffer.from("def test_case(): assert 'calc' in 'calculator'\n".repeat(21_000));
  for (let i = 0; i < 200; i++) writeSync(fd, piece);
  closeSync(fd);
  const withBig = median(Array.from({ length: 5 }, peak));
  console.log(`weir context, peak RSS: ${without.toFixed(0)} MB without the fixture, ${withBig.toFixed(0)} MB with a 200 MB test-like file beside it (${(withBig / without).toFixed(2)}x; target 1.25x)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
