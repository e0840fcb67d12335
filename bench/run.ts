/**
 * Runs every benchmark (or the ones named) and prints their figures.
 *   bun run bench            all
 *   bun run bench startup    one
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

const all = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.slice(0, -3));
const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : all) {
  if (!all.includes(name)) {
    console.error(`bench: no benchmark named ${name}; have ${all.join(", ")}`);
    process.exit(2);
  }
  const r = Bun.spawnSync([process.execPath, "run", join(import.meta.dir, `${name}.ts`)], { stdout: "inherit", stderr: "inherit" });
  if (r.exitCode !== 0) process.exit(r.exitCode ?? 1);
}
