/**
 * Start-up of the compiled binary: `weir --version` and `weir --help`, 20 runs each, against a
 * compiled hello-world Bun binary in the same run. Targets: median under 15 ms, peak RSS under 40 MB.
 *   bun run bench/startup.ts
 */
import { join } from "node:path";
import { hostBinary, measure, median, referenceBinary, sized, summary } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? sized(20, 1));
const bin = hostBinary(ROOT);
const ref = referenceBinary();
try {
  const hello = measure([ref.bin], RUNS);
  const version = measure([bin, "--version"], RUNS);
  const help = measure([bin, "--help"], RUNS);
  console.log(`startup (${RUNS} runs each, ${process.platform}-${process.arch})`);
  console.log(summary("reference: compiled hello", hello));
  console.log(summary("weir --version", version));
  console.log(summary("weir --help", help));
  const ratio = (s: typeof version) => (median(s.map((x) => x.ms)) / median(hello.map((x) => x.ms))).toFixed(2);
  console.log(`ratio to reference: --version ${ratio(version)}x, --help ${ratio(help)}x`);
} finally {
  ref.cleanup();
}
