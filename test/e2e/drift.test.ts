import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { tempDir } from "../support/temp.ts";

/** A repository whose docs name, as code, what its code holds; `planted` adds what it no longer holds. */
function repository(planted: boolean) {
  const tmp = tempDir("weir-drift-");
  const home = join(tmp.path, "home");
  const ws = join(tmp.path, "project");
  const files: Record<string, string> = {
    "src/cli.ts": 'const FLAGS = [{ name: "dry-run" }, { name: "out-dir" }];\nexport function parseConfigValue(s: string) { return s; }\nexport const max_retries = 3;\n',
    "src/server/index.ts": "export {};\n",
    "Cargo.toml": '[package]\nname = "x"\n',
    "README.md": [
      "# x",
      "",
      "Run with `--dry-run`, or `--out-dir DIR`. `parseConfigValue()` reads values; `max_retries` caps retries.",
      "The server lives in `src/server/index.ts`; make your own `.x/config.json`.",
      "```sh",
      "x --removed-in-example   # fenced examples are not checked",
      "```",
      ...(planted ? ["Use `--legacy-mode` and `loadConfigValue()`; see `src/server/routes.ts` and `retry_budget`."] : []),
      "",
    ].join("\n"),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  mkdirSync(home, { recursive: true });
  return { home, ws, cleanup: tmp.cleanup };
}

describe("weir drift", () => {
  test("finds each planted path, flag and name the docs give that the code no longer has, one line each, exit 1", async () => {
    const r = repository(true);
    try {
      const out = await runWeir(["drift"], { home: r.home, cwd: r.ws });
      expect(out.code).toBe(1);
      expect(out.stdout.trim().split("\n").sort()).toEqual(
        [
          "README.md:8: `--legacy-mode`: no source file names this flag",
          "README.md:8: `loadConfigValue`: no source or configuration file names it",
          "README.md:8: `src/server/routes.ts`: no such file or directory",
          "README.md:8: `retry_budget`: no source or configuration file names it",
        ].sort(),
      );
      const json = JSON.parse((await runWeir(["drift", "--json"], { home: r.home, cwd: r.ws })).stdout);
      expect(json.drift.map((d: { kind: string }) => d.kind).sort()).toEqual(["flag", "name", "name", "path"]);
    } finally {
      r.cleanup();
    }
  });

  test("finds nothing in the same repository without the planted line, and exits 0", async () => {
    const r = repository(false);
    try {
      const out = await runWeir(["drift"], { home: r.home, cwd: r.ws });
      expect([out.code, out.stdout.trim()]).toEqual([0, "no drift: every path, flag and name the docs give as code is in the repository"]);
    } finally {
      r.cleanup();
    }
  });
});
