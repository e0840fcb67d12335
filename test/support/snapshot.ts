import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "bun:test";

const DIR = join(import.meta.dir, "..", "snapshots");

/**
 * A reviewed fixture: the value must equal `test/snapshots/NAME.json`. A missing file is written
 * (and fails under CI, where nothing may be accepted unseen); `UPDATE_SNAPSHOTS=1` rewrites it, and
 * the change then shows in the diff for review.
 */
export function expectSnapshot(name: string, value: unknown): void {
  const file = join(DIR, `${name}.json`);
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_SNAPSHOTS === "1" || (!existsSync(file) && process.env.CI !== "true")) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`snapshot ${name} is missing; run the test locally with UPDATE_SNAPSHOTS=1 and review it`);
  expect(text).toBe(readFileSync(file, "utf8"));
}
