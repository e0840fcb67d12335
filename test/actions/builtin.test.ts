import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { largeLines } from "../../src/actions/builtin/files.ts";
import { capOutput } from "../../src/actions/executor.ts";
import { sha256 } from "../../src/workspace/ledger.ts";
import { tempDir } from "../support/temp.ts";
import { workspace } from "../support/workspace.ts";

let ws: ReturnType<typeof workspace>;
afterEach(() => ws?.cleanup());

describe("read_file", () => {
  test("returns numbered lines and the SHA-256 of the whole file", async () => {
    ws = workspace({ "a.txt": "one\ntwo\nthree\n" });
    const r = await ws.one("read_file", { path: "a.txt", offset: 2, limit: 1 });
    expect(r.isError).toBe(false);
    expect(r.content).toBe(`a.txt (sha256 ${sha256("one\ntwo\nthree\n")}, lines 2-2 of 3)\n2\ttwo`);
  });

  test("binary files and directories are refused with what to do", async () => {
    ws = workspace({ "b.bin": "\u0000\u0001", "d/x": "" });
    expect((await ws.one("read_file", { path: "b.bin" })).content).toContain("binary file");
    expect((await ws.one("read_file", { path: "d" })).content).toContain("use list_files");
  });
});

describe("a file too large to read whole", () => {
  test("its lines are streamed as a whole read splits them: CRLF, no final newline, empty lines, any range (property)", () => {
    const t = tempDir();
    try {
      const file = join(t.path, "f.log");
      const piece = fc.constantFrom("a", "é", "\n", "\r\n", "", "line", "\n\n");
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(12), fc.integer({ min: 1, max: 12 }), (parts, from, count) => {
          const text = parts.join("");
          writeFileSync(file, text);
          const whole = text.split(/\r?\n/);
          if (whole.length > 1 && whole[whole.length - 1] === "") whole.pop();
          const lines = text === "" ? [] : whole;
          const r = largeLines(file, from, count);
          expect(r.lines).toEqual(lines.slice(from, from + count));
          expect(r.total).toBe(lines.length);
          expect(r.sha).toBe(sha256(Buffer.from(text)));
        }),
      );
    } finally {
      t.cleanup();
    }
  });
});

describe("write_file and edit_file", () => {
  test("write creates parent dirs; overwriting needs a read first; a changed file needs a re-read", async () => {
    ws = workspace({ "a.txt": "old\n" });
    expect((await ws.one("write_file", { path: "new/deep/b.txt", content: "hi" })).content).toStartWith("created new/deep/b.txt");
    expect(readFileSync(join(ws.root, "new/deep/b.txt"), "utf8")).toBe("hi");

    const unread = await ws.one("write_file", { path: "a.txt", content: "x" });
    expect(unread.isError).toBe(true);
    expect(unread.content).toContain("read it first");

    await ws.one("read_file", { path: "a.txt" });
    writeFileSync(join(ws.root, "a.txt"), "changed by an editor\n");
    const stale = await ws.one("edit_file", { path: "a.txt", old_string: "old", new_string: "new" });
    expect(stale.content).toContain("changed on disk since weir last read it");
    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("changed by an editor\n");

    await ws.one("read_file", { path: "a.txt" });
    const ok = await ws.one("edit_file", { path: "a.txt", old_string: "changed", new_string: "edited" });
    expect(ok.isError).toBe(false);
    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("edited by an editor\n");
    // weir's own write keeps the ledger current: a second edit needs no re-read.
    expect((await ws.one("edit_file", { path: "a.txt", old_string: "edited", new_string: "fixed" })).isError).toBe(false);
  });

  test("an ambiguous edit is answered with line numbers; edits are all or nothing", async () => {
    ws = workspace({ "a.ts": "x = 1\ny = 2\nx = 1\n" });
    await ws.one("read_file", { path: "a.ts" });
    const amb = await ws.one("edit_file", { path: "a.ts", old_string: "x = 1", new_string: "x = 3" });
    expect(amb.content).toContain("lines 1, 3");
    const all = await ws.one("edit_file", { path: "a.ts", edits: [{ old_string: "y = 2", new_string: "y = 5" }, { old_string: "nope", new_string: "z" }] });
    expect(all.isError).toBe(true);
    expect(readFileSync(join(ws.root, "a.ts"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  test("an empty old_string creates a new file (or fills an empty one), and is refused on a file with text", async () => {
    ws = workspace({ "a.txt": "text\n", "empty.txt": "" });
    expect((await ws.one("edit_file", { path: "src/new.ts", old_string: "", new_string: "export {};\n" })).content).toStartWith("created src/new.ts");
    expect(readFileSync(join(ws.root, "src/new.ts"), "utf8")).toBe("export {};\n");
    await ws.one("read_file", { path: "empty.txt" });
    expect((await ws.one("edit_file", { path: "empty.txt", old_string: "", new_string: "now\n" })).isError).toBe(false);
    expect(readFileSync(join(ws.root, "empty.txt"), "utf8")).toBe("now\n");
    await ws.one("read_file", { path: "a.txt" });
    const refused = await ws.one("edit_file", { path: "a.txt", old_string: "", new_string: "x" });
    expect(refused.content).toContain("old_string is empty");
    expect(readFileSync(join(ws.root, "a.txt"), "utf8")).toBe("text\n");
  });

  test("writes leave no temp files behind", async () => {
    ws = workspace({});
    await ws.one("write_file", { path: "a.txt", content: "1" });
    expect(readdirSync(ws.root)).toEqual(["a.txt"]);
  });

  test("escapes and protected paths come back as refusals naming the guard", async () => {
    ws = workspace({ ".env": "KEY=1" });
    expect((await ws.one("write_file", { path: "../evil.txt", content: "x" })).content).toStartWith("refused by the containment guard");
    expect((await ws.one("read_file", { path: ".env" })).content).toStartWith("refused by the protected guard");
    expect((await ws.one("write_file", { path: ".git/hooks/pre-commit", content: "x" })).content).toStartWith("refused by the protected guard");
  });
});

describe("list_files and search", () => {
  test("list honours .gitignore and globs", async () => {
    ws = workspace({ ".gitignore": "dist/\n", "src/a.ts": "", "src/b.js": "", "dist/c.ts": "" });
    expect((await ws.one("list_files", {})).content).toBe(".gitignore\nsrc/a.ts\nsrc/b.js");
    expect((await ws.one("list_files", { pattern: "**/*.ts" })).content).toBe("src/a.ts");
  });

  test("search finds regex hits with path:line, skipping ignored, binary and protected files", async () => {
    ws = workspace({ ".gitignore": "out/\n", "src/a.ts": "const token = 1;\nfoo()\n", "out/x.ts": "token", "bin.dat": "token\u0000", ".env": "token=secret" });
    const r = await ws.one("search", { pattern: "tok.n" });
    expect(r.content).toBe("1 hit in 1 file\nsrc/a.ts:1: const token = 1;");
    expect((await ws.one("search", { pattern: "(" })).content).toContain("invalid regular expression");
    expect((await ws.one("search", { pattern: "nothing-here" })).content).toStartWith("no matches");
  });
});

describe("search over a file too large to read", () => {
  test("names the file it did not search, with how to search it, whether or not anything else matched", async () => {
    ws = workspace({ "src/a.ts": "const token = 1;\n", "logs/huge.log": `${"x".repeat(5_100_000)}\ntoken here\n` });
    const hit = await ws.one("search", { pattern: "token" });
    expect(hit.content).toBe("1 hit in 1 file\nsrc/a.ts:1: const token = 1;\n[not searched, over 5 MB: logs/huge.log; search one with run_command (grep -n)]");
    expect((await ws.one("search", { pattern: "here" })).content).toBe("no matches for /here/ in 1 file\n[not searched, over 5 MB: logs/huge.log; search one with run_command (grep -n)]");
  });
});

describe("run_command and shell", () => {
  test("runs without a shell and reports the exit code; a failure is an error result", async () => {
    ws = workspace({});
    const ok = await ws.one("run_command", { program: "echo", args: ["a b", "$HOME"] });
    expect(ok.content).toMatch(/^\$ echo 'a b' '\$HOME'\na b \$HOME\n\[exit code 0 in [\d.]+s\]$/);
    const bad = await ws.one("run_command", { program: "sh", args: ["./missing.sh"] });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/exit code \d+/);
    const missing = await ws.one("run_command", { program: "definitely-not-a-program-xyz", args: [] });
    expect(missing.content).toContain("program not found");
  });

  test("secret-bearing environment variables never reach the command", async () => {
    process.env.WEIR_TEST_API_KEY = "sk-should-not-leak";
    process.env.WEIR_TEST_PLAIN = "visible";
    try {
      ws = workspace({});
      const r = await ws.one("run_command", { program: "env", args: [] });
      expect(r.content).toContain("WEIR_TEST_PLAIN=visible");
      expect(r.content).not.toContain("sk-should-not-leak");
    } finally {
      delete process.env.WEIR_TEST_API_KEY;
      delete process.env.WEIR_TEST_PLAIN;
    }
  });

  test("a timeout kills the whole process group, grandchildren included", async () => {
    ws = workspace({});
    const marker = join(ws.root, "survived");
    const r = await ws.one("shell", { command: `(sleep 1.5; touch ${marker}) & sleep 30`, timeout_ms: 300 }, ws.executor({ yes: true }));
    expect(r.content).toContain("timed out");
    await Bun.sleep(1800);
    expect(readdirSync(ws.root)).not.toContain("survived");
  });
});

describe("the executor", () => {
  test("invalid arguments come back naming the field", async () => {
    ws = workspace({});
    expect((await ws.one("read_file", { path: 3 })).content).toContain("field path");
    expect((await ws.one("edit_file", { path: "a", old_string: "x" })).content).toContain("field edits");
    expect((await ws.one("nope", {})).content).toContain("no action named nope");
    expect((await ws.one("read_file", { __invalid_json: "{" })).content).toContain("not valid JSON");
  });

  test("ask without anyone to approve is a refusal the model reads; --allow and --yes lift it; deny stays", async () => {
    ws = workspace({});
    expect((await ws.one("shell", { command: "echo hi" })).content).toContain("needs the user's approval");
    expect((await ws.one("shell", { command: "echo hi" }, ws.executor({ allow: ["echo *"] }))).content).toContain("hi");
    expect((await ws.one("shell", { command: "echo hi" }, ws.executor({ yes: true }))).isError).toBe(false);
    expect((await ws.one("run_command", { program: "sudo", args: ["ls"] }, ws.executor({ yes: true }))).content).toContain("denied by rule");
  });

  test("an approver answering 'session' is asked once for the same command", async () => {
    ws = workspace({});
    let asked = 0;
    const ex = ws.executor({ approver: async () => (asked++, "session") });
    await ex.execute([ws.call("shell", { command: "echo 1" }), ws.call("shell", { command: "echo 1" })], ws.signal);
    expect(asked).toBe(1);
    const denied = await ws.executor({ approver: async () => "deny" }).execute([ws.call("shell", { command: "echo 1" })], ws.signal);
    expect(denied[0]!.content).toContain("refused by the user");
  });

  test("reads of one turn run concurrently; results keep the call order", async () => {
    ws = workspace({ "a.txt": "A", "b.txt": "B" });
    const r = await ws.executor().execute([ws.call("read_file", { path: "b.txt" }), ws.call("read_file", { path: "a.txt" }), ws.call("write_file", { path: "c.txt", content: "C" })], ws.signal);
    expect(r.map((x) => x.content.split(" ")[0])).toEqual(["b.txt", "a.txt", "created"]);
  });

  test("long output is cut in the middle with a note saying how much and how to read the rest", () => {
    const text = "x".repeat(100) + "MIDDLE" + "y".repeat(100);
    const out = capOutput(text, 50, "read_file with offset");
    expect(out).toContain("bytes cut here; to see them: read_file with offset");
    expect(out).toStartWith("x".repeat(35));
    expect(out).toEndWith("y".repeat(15));
    expect(out).not.toContain("MIDDLE");
    expect(capOutput("short", 50)).toBe("short");
  });
});
