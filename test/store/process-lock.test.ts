import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProcessLock } from "../../src/store/process-lock.ts";

const dir = mkdtempSync(join(tmpdir(), "weir-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const module = join(import.meta.dir, "../../src/store/process-lock.ts");

/** Another process that takes the lock, says so, and holds it until it is killed. */
async function holder(path: string) {
  const script = `const { ProcessLock } = await import(${JSON.stringify(module)}); const l = ProcessLock.take(${JSON.stringify(path)}); console.log(l instanceof ProcessLock ? "held" : "refused"); await Bun.sleep(60000);`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value).trim()).toBe("held");
  return proc;
}

describe("a lock the OS releases", () => {
  test("a second process is refused and told who holds it; a SIGKILL releases it", async () => {
    const path = join(dir, "locks", "graph-a.lock");
    const proc = await holder(path);
    const refused = ProcessLock.take(path);
    expect(refused).toEqual({ held: { pid: proc.pid, since: expect.any(Number) } });
    expect(ProcessLock.isHeld(path)).toBe(true);
    proc.kill("SIGKILL");
    await proc.exited;
    expect(ProcessLock.isHeld(path)).toBe(false);
    const mine = ProcessLock.take(path);
    expect(mine).toBeInstanceOf(ProcessLock);
    (mine as ProcessLock).release();
  });

  test("released, it can be taken again; a lock never taken is not held", () => {
    const path = join(dir, "graph-b.lock");
    expect(ProcessLock.isHeld(path)).toBe(false);
    const first = ProcessLock.take(path) as ProcessLock;
    first.release();
    const again = ProcessLock.take(path);
    expect(again).toBeInstanceOf(ProcessLock);
    (again as ProcessLock).release();
  });
});
