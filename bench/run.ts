/**
 * Runs every benchmark (or the ones named) and prints their figures.
 *   bun run bench            all
 *   bun run bench startup    one
 *   bun run bench bugfixes --split dev    one, with its own flags (flags follow the names)
 *   WEIR_BENCH_SMOKE=1 bun run bench      each at a small size, as CI runs them (they must run;
 *                                         the figures are not measurements)
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

const all = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.slice(0, -3))
  .sort();
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith("-"));
const wanted = firstFlag === -1 ? args : args.slice(0, firstFlag);
const flags = firstFlag === -1 ? [] : args.slice(firstFlag);
for (const name of wanted.length ? wanted : all) {
  if (!all.includes(name)) {
    console.error(`bench: no benchmark named ${name}; have ${all.join(", ")}`);
    process.exit(2);
  }
  const r = Bun.spawnSync([process.execPath, "run", join(import.meta.dir, `${name}.ts`), ...flags], { stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) process.exit(r.exitCode ?? 1);
}
