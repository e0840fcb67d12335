import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VerificationLedger } from "../../src/actions/verification.ts";
import { SessionStore } from "../../src/store/sessions.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

const pass = { producer: "verify", check: "test", command: "npm test", level: "quick", exitCode: 0, passed: true, complete: true, revision: "r", at: 0 } as const;

/** A workspace with these files, and a ledger over it whose fixes are collected. */
function workspace(files: string[]) {
  tmp = tempDir();
  const root = join(tmp.path, "ws");
  for (const f of files) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "x\n");
  }
  const ledger = new VerificationLedger(root);
  const fixed: [string[], string[]][] = [];
  ledger.onFixed = (s, t) => fixed.push([s, t]);
  return { root, ledger, fixed };
}

describe("the ledger links failing tests to the change that made them pass", () => {
  test("tests named by a failure, then a change, then a pass: the changed sources, not tests or prose, not what changed before", () => {
    const { root, ledger, fixed } = workspace(["src/a.ts", "src/b.ts", "test/run.test.ts", "README.md"]);
    ledger.markChanged("src/b.ts"); // changed before the failure: not part of the fix
    ledger.failedAt("test", [join(root, "test/run.test.ts"), "src/a.ts", "/elsewhere/test/x.test.ts", "test/gone.test.ts"]);
    for (const p of ["src/a.ts", join(root, "test/run.test.ts"), "README.md"]) ledger.markChanged(p);
    ledger.record(pass);
    expect(fixed).toEqual([[["src/a.ts"], ["test/run.test.ts"]]]);
    // The pass ends the failure: a second pass links nothing.
    ledger.record(pass);
    expect(fixed).toHaveLength(1);
  });

  test("a pass with no failure before it, an incomplete pass, or a failure naming no test links nothing", () => {
    const { ledger, fixed } = workspace(["src/a.ts", "test/a.test.ts"]);
    ledger.markChanged("src/a.ts");
    ledger.record(pass);
    ledger.failedAt("test", ["src/a.ts"]);
    ledger.record(pass);
    ledger.failedAt("test", ["test/a.test.ts"]);
    ledger.record({ ...pass, complete: false });
    expect(fixed).toEqual([]);
  });

  test("another check's pass leaves a failure pending: only the failed check's own pass links", () => {
    const { ledger, fixed } = workspace(["src/a.ts", "test/a.test.ts"]);
    ledger.failedAt("test", ["test/a.test.ts"]);
    ledger.record({ ...pass, check: "lint" });
    ledger.markChanged("src/a.ts");
    ledger.record({ ...pass, check: "lint" });
    expect(fixed).toEqual([]);
    ledger.record(pass);
    expect(fixed).toEqual([[["src/a.ts"], ["test/a.test.ts"]]]);
  });
});

describe("test links in the session database", () => {
  test("recorded per workspace, most often seen first, bounded, and read back from a reopened file", () => {
    tmp = tempDir();
    const path = join(tmp.path, "weir.db");
    const store = SessionStore.open(path);
    store.testLinks.record("/w", ["src/a.ts"], ["test/one.test.ts"], 1_000);
    store.testLinks.record("/w", ["src/a.ts", "src/b.ts"], ["test/two.test.ts"], 2_000);
    store.testLinks.record("/w", ["src/b.ts"], ["test/two.test.ts"], 3_000);
    store.testLinks.record("/other", ["src/a.ts"], ["test/three.test.ts"], 3_000);
    store.close();
    const again = SessionStore.open(path);
    expect(again.testLinks.testsFor("/w", ["src/a.ts", "src/b.ts"])).toEqual(["test/two.test.ts", "test/one.test.ts"]);
    // Seen as often: the newer first.
    expect(again.testLinks.testsFor("/w", ["src/a.ts"])).toEqual(["test/two.test.ts", "test/one.test.ts"]);
    expect(again.testLinks.testsFor("/w", [])).toEqual([]);
    // A fix of many files links only the first few of them.
    const many = Array.from({ length: 20 }, (_, i) => `src/f${i}.ts`);
    again.testLinks.record("/w", many, ["test/wide.test.ts"], 4_000);
    expect(again.testLinks.testsFor("/w", many.slice(8))).toEqual([]);
    expect(again.testLinks.testsFor("/w", many.slice(0, 1))).toEqual(["test/wide.test.ts"]);
    again.close();
  });
});
