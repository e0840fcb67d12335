import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp dir per test; `cleanup` removes it. Nothing a test writes lands outside one. */
export function tempDir(prefix = "weir-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Runs `fn` in a fresh temp dir (its canonical path), removed after it, whatever `fn` does. */
export function inTempDir<T>(fn: (dir: string) => T): T {
  const t = tempDir();
  try {
    return fn(realpathSync(t.path));
  } finally {
    t.cleanup();
  }
}
