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
  // The quote's marker is random per process (context/render.ts); a snapshot holds its place.
  const text = `${JSON.stringify(value, null, 2)}\n`.replace(/UNTRUSTED-DATA [0-9a-f]{8}/g, "UNTRUSTED-DATA <marker>");
  if (process.env.UPDATE_SNAPSHOTS === "1" || (!existsSync(file) && process.env.CI !== "true")) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`snapshot ${name} is missing; run the test locally with UPDATE_SNAPSHOTS=1 and review it`);
  expect(text).toBe(readFileSync(file, "utf8"));
}

const TERMINAL_DOC = join(import.meta.dir, "..", "..", "docs", "terminal.md");

/**
 * A screenshot in docs/terminal.md (a fenced block after `<!-- screen: NAME -->`) must be the screen
 * the test read off the terminal emulator, so the docs show what weir really draws. Rewritten like
 * a snapshot (`UPDATE_SNAPSHOTS=1`, or missing outside CI).
 */
export function expectScreenInDocs(name: string, screen: string): void {
  const doc = readFileSync(TERMINAL_DOC, "utf8");
  const marker = `<!-- screen: ${name} -->\n`;
  const at = doc.indexOf(marker);
  const block = `${marker}\`\`\`text\n${screen}\n\`\`\`\n`;
  const end = at >= 0 ? doc.indexOf("```\n", doc.indexOf("```text\n", at) + 8) + 4 : -1;
  if (process.env.UPDATE_SNAPSHOTS === "1" || (at < 0 && process.env.CI !== "true")) {
    writeFileSync(TERMINAL_DOC, at >= 0 ? doc.slice(0, at) + block + doc.slice(end) : `${doc.trimEnd()}\n\n${block}`);
    return;
  }
  if (at < 0) throw new Error(`docs/terminal.md has no screen "${name}"; run the test locally with UPDATE_SNAPSHOTS=1 and review it`);
  expect(doc.slice(at, end)).toBe(block);
}
