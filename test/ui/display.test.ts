import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createPatch } from "diff";
import { lastBlockEnd, MarkdownStream } from "../../src/ui/markdown.ts";
import { commandForLog, diffForLog, plainDisplay } from "../../src/ui/plain.ts";
import { answeredRows } from "../../src/ui/approve.ts";
import { completeMention } from "../../src/ui/repl.ts";
import { waitingFor, withSpinner } from "../../src/ui/spinner.ts";
import { makeStyle } from "../../src/ui/style.ts";

const plain = makeStyle(false);
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("MarkdownStream", () => {
  test("holds a block back until it is complete, never splits a code fence, renders the rest at the end", () => {
    const md = new MarkdownStream((s) => `<${s}>`);
    expect(md.push("# Title\n")).toBe("");
    expect(md.push("\nSome text")).toBe("<# Title\n\n>\n");
    expect(md.push(" more.\n\n```ts\nconst a = 1;\n\n")).toBe("<Some text more.\n\n>\n");
    expect(md.push("const b = 2;\n```\n")).toBe("<```ts\nconst a = 1;\n\nconst b = 2;\n```\n>\n");
    expect(md.end()).toBe("");
    expect(md.push("tail")).toBe("");
    expect(md.end()).toBe("<tail>\n");
  });

  test("whatever the chunking, the blocks shown are the same text in the same order (property)", () => {
    const doc = "# H\n\npara one\nline two\n\n- a\n- b\n\n```\ncode\n\nmore\n```\nafter\n\nlast";
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: doc.length - 1 }), { maxLength: 8 }), (cuts) => {
        const md = new MarkdownStream((s) => s);
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        let out = "";
        let at = 0;
        for (const p of [...points, doc.length]) {
          out += md.push(doc.slice(at, p));
          at = p;
        }
        out += md.end();
        expect(out.replace(/\n+/g, "\n")).toBe(`${doc}\n`.replace(/\n+/g, "\n"));
      }),
    );
  });

  test("a blank line inside a fence is not a block end", () => {
    expect(lastBlockEnd("```\na\n\nb\n")).toBe(0);
    expect(lastBlockEnd("x\n\n```\na\n\nb\n")).toBe(3);
  });

  test("Bun's renderer gives headings and code colour", () => {
    const out = new MarkdownStream().push("# Title\n\nuse `x`\n\n");
    expect(out).toContain("\x1b[");
    expect(strip(out)).toContain("Title");
    expect(strip(out)).not.toContain("# Title");
  });
});

describe("the log's tool results", () => {
  test("an edit shows a coloured unified diff without file headers, capped", () => {
    const diff = createPatch("a.ts", "one\ntwo\nthree\n", "one\n2\nthree\n");
    const shown = diffForLog(diff, makeStyle(true));
    expect(strip(shown)).toContain("-two");
    expect(strip(shown)).toContain("+2");
    expect(strip(shown)).not.toContain("+++");
    expect(shown).toContain("\x1b[32m+2");
    expect(shown).toContain("\x1b[31m-two");
    const long = createPatch("b.ts", Array.from({ length: 100 }, (_, i) => `l${i}`).join("\n"), Array.from({ length: 100 }, (_, i) => `m${i}`).join("\n"));
    expect(diffForLog(long, plain, 10)).toMatch(/… \d+ more diff lines$/);
  });

  test("a command shows its line, the last lines of output and how it ended", () => {
    const content = "$ bun test\nline 1\nline 2\nline 3\nline 4\n2 fail\n[exit code 1 in 0.4s]";
    const shown = commandForLog(content, plain, true);
    expect(shown.split("\n")).toEqual(["  $ bun test", "  … 2 lines above", "  line 3", "  line 4", "  2 fail", "  [exit code 1 in 0.4s]"]);
  });

  test("the plain display renders an answer's Markdown only when asked, and flushes it before a tool call", () => {
    let out = "";
    let log = "";
    const d = plainDisplay({ write: (s) => (out += s) }, { write: (s) => (log += s) }, plain, false, { markdown: true });
    d.emit({ type: "text_delta", text: "# Plan\n\nfirst " });
    d.emit({ type: "text_delta", text: "step" });
    d.emit({ type: "tool_call", call: { type: "tool_call", id: "c", name: "read_file", input: {} }, summary: "a.ts" });
    expect(strip(out)).toContain("Plan");
    expect(strip(out)).not.toContain("# Plan");
    expect(strip(out)).toContain("first step");
    let raw = "";
    const p = plainDisplay({ write: (s) => (raw += s) }, { write: () => {} }, plain, false);
    p.emit({ type: "text_delta", text: "# Plan\n" });
    expect(raw).toBe("# Plan\n");
    expect(log).toContain("▸ read_file a.ts");
  });
});

describe("@path completion", () => {
  const files = ["src/a.ts", "src/deep/b.ts", "src/deep/c.ts", "README.md"];
  test("completes the mention being typed, one directory level at a time; nothing outside a mention", () => {
    expect(completeMention("look at @src/d", files)).toEqual([["@src/deep/"], "@src/d"]);
    expect(completeMention("look at @src/deep/", files)).toEqual([["@src/deep/b.ts", "@src/deep/c.ts"], "@src/deep/"]);
    expect(completeMention("@R", files)).toEqual([["@README.md"], "@R"]);
    expect(completeMention("email me@src", files)).toEqual([[], "email me@src"]);
    expect(completeMention("no mention", files)).toEqual([[], "no mention"]);
  });
});

describe("the spinner", () => {
  const call = { type: "tool_call" as const, id: "c", name: "run_command", input: {} };
  test("says what the run waits for, from the events", () => {
    expect(waitingFor({ type: "turn_start", turn: 1 }, undefined)).toBe("model thinking");
    expect(waitingFor({ type: "text_delta", text: "x" }, "model thinking")).toBeUndefined();
    expect(waitingFor({ type: "tool_call", call, summary: "" }, undefined)).toBe("run_command running");
    expect(waitingFor({ type: "tool_result", callId: "c", name: "run_command", isError: false, preview: "", bytes: 0 }, "run_command running")).toBe("model thinking");
    expect(waitingFor({ type: "run_end", stop: "end_turn", text: "", turns: 1, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }, "model thinking")).toBeUndefined();
  });

  test("draws with the elapsed time, erases itself before any output, never over typing, and holds for a prompt", async () => {
    let t = 0;
    let log = "";
    let out = "";
    let typing = false;
    const d = withSpinner((o, l) => plainDisplay(o, l, plain, false), { write: (s) => (out += s) }, { write: (s) => (log += s) }, plain, { intervalMs: 5, now: () => t, typing: () => typing });
    d.emit({ type: "turn_start", turn: 1 });
    t = 2_500;
    await Bun.sleep(20);
    expect(log).toContain("model thinking 2s");
    d.emit({ type: "text_delta", text: "hello" });
    expect(log.endsWith("\r\x1b[2K")).toBe(true);
    expect(out).toBe("hello");
    const before = log.length;
    d.emit({ type: "tool_call", call, summary: "ls" });
    typing = true;
    await Bun.sleep(20);
    expect(log.slice(before)).not.toContain("running");
    typing = false;
    d.hold(true);
    await Bun.sleep(20);
    expect(log.slice(before)).not.toContain("run_command running");
    d.hold(false);
    await Bun.sleep(20);
    expect(log.slice(before)).toContain("run_command running");
    d.stop();
  });
});

describe("the answered approval prompt", () => {
  test("its frame's rows are counted with wrapping, so it can be replaced by one line", () => {
    const msg = "weir wants to run:\n  touch x\n  (execute; asked by the setting for shell)";
    expect(answeredRows(msg, "allow once", 100)).toBe(5);
    expect(answeredRows("weir wants to run:\n  " + "x".repeat(150) + "\n  (r)", "deny", 80)).toBe(6);
  });
});

describe("a long block", () => {
  test("is shown as it streams (unrendered) instead of held back, and Markdown resumes after it", () => {
    const md = new MarkdownStream((s) => `<${s}>`, 5);
    let out = md.push("```\n1\n2\n3\n");
    expect(out).toBe("");
    out += md.push("4\n5\n6\n");
    expect(out).toBe("```\n1\n2\n3\n4\n5\n6\n");
    expect(md.push("7\n")).toBe("7\n");
    const tail = md.push("```\n\n# Next\n\n");
    expect(tail).toBe("```\n<\n# Next\n\n>\n");
    expect(md.end()).toBe("");
  });
});

describe("reasoning", () => {
  test("is folded to one dim line when it closes; --verbose shows it whole", () => {
    let log = "";
    const d = plainDisplay({ write: () => {} }, { write: (s) => (log += s) }, plain, false);
    d.emit({ type: "reasoning_delta", text: "let me think about " });
    d.emit({ type: "reasoning_delta", text: "the cache key" });
    expect(log).toBe("");
    d.emit({ type: "text_delta", text: "Answer." });
    expect(log).toMatch(/^thought for \d+s \(7 words\)\n$/);
    let verbose = "";
    const v = plainDisplay({ write: () => {} }, { write: (s) => (verbose += s) }, plain, true);
    v.emit({ type: "reasoning_delta", text: "let me think" });
    v.emit({ type: "text_delta", text: "x" });
    expect(verbose).toBe("let me think");
  });
});
