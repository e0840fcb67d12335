import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { findReferences } from "../../src/actions/builtin/references.ts";
import { verifyAction } from "../../src/actions/builtin/verify.ts";
import { VerificationLedger } from "../../src/actions/verification.ts";
import { detectChecks } from "../../src/workspace/checks.ts";
import { workspace } from "../support/workspace.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

const text = (o: string | { content: string }) => (typeof o === "string" ? o : o.content);

let ws: ReturnType<typeof workspace>;
afterEach(() => ws.cleanup());

function ctx() {
  return { workspace: new Workspace(ws.root, ws.home), ledger: ws.ledger, env: { PATH: process.env.PATH ?? "" }, signal: new AbortController().signal };
}

describe("detectChecks", () => {
  test("finds package scripts, Makefile targets, Cargo, Go and pytest; never invents one", () => {
    ws = workspace({
      "package.json": JSON.stringify({ scripts: { test: "vitest", lint: "eslint .", start: "node x" } }),
      "pnpm-lock.yaml": "",
      Makefile: "test:\n\tgo test\ncheck:\n\techo\nVAR:=1\n",
      "go.mod": "module x",
      "pyproject.toml": "[tool.pytest.ini_options]\n",
    });
    expect(detectChecks(ws.root).map((c) => `${c.level}:${c.name}`)).toEqual(["quick:pnpm run test", "full:pnpm run lint", "full:make check", "quick:go test ./...", "full:go vet ./...", "quick:pytest"]);
    const empty = workspace({ "README.md": "" });
    expect(detectChecks(empty.root)).toEqual([]);
    empty.cleanup();
  });
});

describe("verify", () => {
  test("records evidence bound to the revision; a change makes it stale; a failure is never a pass", async () => {
    ws = workspace({ "package.json": JSON.stringify({ scripts: { test: "node check.js" } }), "check.js": "process.exit(0)\n" });
    const ledger = new VerificationLedger(ws.root);
    const verify = verifyAction(ledger);
    ledger.markChanged("check.js");
    expect(text(await verify.run({ level: "quick" }, ctx()))).toContain("all checks passed");
    expect((await ledger.state()).state).toBe("passed");
    writeFileSync(join(ws.root, "check.js"), "process.exit(1)\n");
    ledger.markChanged("check.js");
    expect((await ledger.state()).state).toBe("stale");
    await expect(verify.run({ level: "quick" }, ctx())).rejects.toThrow("FAILED (exit 1)");
    expect((await ledger.state()).state).toBe("failed");
  });

  test("no checks is an error that says weir will not guess", async () => {
    ws = workspace({ "a.txt": "" });
    await expect(verifyAction(new VerificationLedger(ws.root)).run({ level: "quick" }, ctx())).rejects.toThrow("will not guess");
  });
});

describe("find_references", () => {
  test("definitions from the parser, calls and references from text, each labelled with its precision", async () => {
    ws = workspace({
      "src/total.ts": "export function total(xs: number[]) {\n  return xs.length;\n}\n",
      "src/use.ts": 'import { total } from "./total";\nconst t = total([1]);\n',
      "README.md": "Call total() to sum.\n",
    });
    const out = text(await findReferences.run({ symbol: "total" }, ctx()));
    expect(out).toContain("definitions (1):\nsrc/total.ts:1: function total(xs: number[]) {  [syntax, exported]");
    expect(out).toContain("[syntax, exported]");
    expect(out).toContain("src/use.ts:2: const t = total([1]);  [heuristic]");
    expect(out).toContain("src/use.ts:1: import { total }");

    expect(out).toMatch(/README\.md:1: .*\[heuristic\]/);
  });

  test("none found is said as such", async () => {
    ws = workspace({ "a.ts": "const x = 1;\n" });
    const none = await findReferences.run({ symbol: "nothingHere" }, ctx());
    expect(text(none)).toStartWith("none found");
    expect(typeof none === "string" ? undefined : none.details).toEqual({ kind: "references", symbol: "nothingHere", found: 0 });
  });
});
