import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createPatch } from "diff";
import { lastBlockEnd, MarkdownStream } from "../../src/ui/markdown.ts";
import { commandForLog, diffForLog, plainDisplay } from "../../src/ui/plain.ts";
import { answeredRows } from "../../src/ui/approve.ts";
import { completeMention, REPL_HELP } from "../../src/ui/repl.ts";
import { cutToWidth, fitSegments, formatElapsed, LivePane, paneRows, statusSegments } from "../../src/ui/pane.ts";
import { clampTop, foldForReview, type ReviewItem, reviewKey, reviewLines } from "../../src/ui/review.ts";
import { waitingFor } from "../../src/ui/spinner.ts";
import { makeStyle } from "../../src/ui/style.ts";

const plain = makeStyle(false);
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("MarkdownStream", () => {
  test("shows each finished line of a heading, paragraph or list as it ends, holds a code fence whole, renders the rest at the end", () => {
    const md = new MarkdownStream((s) => `<${s}>`);
    expect(md.push("# Title\n")).toBe("<# Title\n>\n");
    expect(md.push("\nSome text")).toBe("");
    expect(md.push(" more.\n\n```ts\nconst a = 1;\n\n")).toBe("<Some text more.\n>\n");
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

  test("a 60-line paragraph and a list are shown line by line as they stream, not when they end", () => {
    const md = new MarkdownStream((s) => `<${s}>`);
    for (let i = 1; i <= 60; i++) expect(md.push(`line ${i} of a long paragraph\n`)).toBe(`<line ${i} of a long paragraph\n>\n`);
    expect(md.push("\n- one\n")).toBe("<- one\n>\n");
    expect(md.push("    - nested\n")).toBe("<    - nested\n>\n");
    expect(md.push("| a | b |\n")).toBe("");
    expect(md.end()).toBe("<| a | b |\n>\n");
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

});

describe("the live pane", () => {
  const colour = makeStyle(true);
  test("no pane row is ever as wide as the terminal (so none wraps), whatever the status, label or partial line", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.array(fc.string({ maxLength: 40 }), { maxLength: 8 }), fc.string({ maxLength: 300 }), fc.option(fc.string({ maxLength: 120 })), (cols, status, partial, label) => {
        const rows = paneRows({ partial, status, ...(label ? { spinner: { label, secs: 3, frame: 1 } } : {}) }, cols, colour);
        for (const r of rows) expect(Bun.stringWidth(r)).toBeLessThan(Math.max(11, cols));
        expect(rows.at(-1)!.startsWith("\x1b[2m─ ")).toBe(true);
      }),
    );
  });

  test("cutting at a width keeps every character and never splits an escape sequence", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("\x1b[2m", "\x1b[22m", "中", "é")), { maxLength: 30 }), fc.integer({ min: 0, max: 30 }), (parts, w) => {
        const s = parts.join("");
        const [head, rest] = cutToWidth(s, w);
        expect(head + rest).toBe(s);
        expect(Bun.stringWidth(head)).toBeLessThanOrEqual(w);
        expect(head).not.toMatch(/\x1b(?:\[[0-9;]*)?$/);
      }),
    );
  });

  test("the status bar drops fields from the end to fit, most important first", () => {
    const segs = statusSegments({ model: "mock", effort: "high", used: 1530, contextSize: 200_000, cacheRate: 0.834, sessionId: "3f2a9c1e77", costUsd: 0.01234, elapsedMs: 65_000 });
    expect(segs).toEqual(["mock", "effort high", "1.5k/200.0k tokens", "cache 83%", "session 3f2a9c1e", "$0.0123", "1m05s"]);
    expect(fitSegments(segs, 200)).toBe(segs.join(" · "));
    expect(fitSegments(segs, 40)).toBe("mock · effort high · 1.5k/200.0k tokens");
    expect(fitSegments(["a-very-long-model-name"], 6)).toBe("a-very");
    expect(statusSegments({ model: "m", used: 0, contextSize: 1000, cacheRate: 0, graph: "graph 1a2b3c4d 2/4", sessionId: "3f2a9c1e77" })).toEqual(["m", "0/1.0k tokens", "cache 0%", "graph 1a2b3c4d 2/4", "session 3f2a9c1e"]);
    expect(formatElapsed(3_999)).toBe("3s");
    expect(formatElapsed(7_260_000)).toBe("2h01m");
  });

  function fakeTerminal(cols = 40) {
    const input = { prompt: "› ", line: "", cursor: { rows: 0, cols: 2 } };
    let written = "";
    const pane = new LivePane({ write: (s) => (written += s), columns: cols }, { prompt: () => input.prompt, line: () => input.line, cursor: () => input.cursor }, plain, () => ["mock", "cache 0%"], () => 0);
    return { pane, input, out: () => written, reset: () => (written = "") };
  }

  test("output goes above the pane: erase exactly the rows drawn, print, draw again with the cursor where the line editor had it", () => {
    const t = fakeTerminal();
    t.pane.redraw();
    expect(t.out()).toBe("─ mock · cache 0%\r\n› \r\x1b[2C");
    t.reset();
    t.input.line = "ab";
    t.input.cursor = { rows: 0, cols: 3 };
    t.pane.print("hello\nwor");
    // Up the one status row, clear, the finished line, then the pane with the unfinished "wor" on top.
    expect(t.out()).toBe("\r\x1b[1A\x1b[Jhello\r\nwor\r\n─ mock · cache 0%\r\n› ab\r\x1b[3C");
    t.reset();
    t.pane.print("ld\n");
    expect(t.out().startsWith("\r\x1b[2A\x1b[Jworld\r\n─ mock")).toBe(true);
    // A line wider than the terminal is committed at the width instead of wrapping inside the pane.
    t.reset();
    t.pane.print("x".repeat(50));
    expect(t.out()).toContain(`${"x".repeat(39)}\r\n${"x".repeat(11)}\r\n─ mock`);
  });

  test("Enter: the typed line is replaced by its echo; a held pane draws nothing until released", () => {
    const t = fakeTerminal();
    t.pane.redraw();
    t.reset();
    t.pane.submitted("› hi");
    // The pane left the cursor on the input row: up past the status row, the echo, the pane again.
    expect(t.out()).toBe("\r\x1b[1A\x1b[J› hi\r\n─ mock · cache 0%\r\n› \r\x1b[2C");
    // A wrapped line: the erase starts from the row the cursor was left on, whatever the editor says now.
    t.input.line = "x".repeat(50);
    t.input.cursor = { rows: 1, cols: 12 };
    t.pane.redraw();
    t.reset();
    t.input.line = "";
    t.input.cursor = { rows: 0, cols: 2 };
    t.pane.redraw();
    expect(t.out().startsWith("\r\x1b[2A\x1b[J─ mock")).toBe(true);
    t.reset();
    t.pane.hold(true);
    expect(t.out()).toBe("\r\x1b[1A\x1b[J");
    t.pane.print("while held\n");
    t.pane.redraw();
    expect(t.out()).toBe("\r\x1b[1A\x1b[Jwhile held\n");
    t.pane.hold(false);
    expect(t.out().endsWith("─ mock · cache 0%\r\n› \r\x1b[2C")).toBe(true);
  });
});

describe("the review (Ctrl-O)", () => {
  const call = { type: "tool_call" as const, id: "c", name: "run_command", input: {} };
  test("folds whole reasoning, whole tool output and diffs, in order, a worker's named", () => {
    const items: ReviewItem[] = [];
    foldForReview(items, { type: "reasoning_delta", text: "first " });
    foldForReview(items, { type: "reasoning_delta", text: "thought" });
    foldForReview(items, { type: "tool_call", call, summary: "seq 1 9" });
    foldForReview(items, { type: "tool_result", callId: "c", name: "run_command", isError: false, preview: "1", bytes: 9, content: "1\n2\n3\n4\n5" });
    foldForReview(items, { type: "turn_end", turn: 1, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
    foldForReview(items, { type: "reasoning_delta", text: "second" });
    foldForReview(items, { type: "agent", agent: "w1", label: "reader", parentCallId: "s", event: { type: "tool_call", call: { ...call, name: "read_file" }, summary: "a.ts" } } as never);
    expect(items.map((i) => i.title)).toEqual(["reasoning", "▸ run_command seq 1 9", "reasoning", "w1 reader: ▸ read_file a.ts"]);
    expect(items[0]!.body).toBe("first thought");
    expect(items[1]!.body).toBe("1\n2\n3\n4\n5");
    const lines = reviewLines(items, 20, plain);
    expect(lines).toContain("  5");
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(20);
  });

  test("keys move within bounds and close", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 2, max: 80 }), fc.constantFrom("up", "down", "pageup", "pagedown", "home", "end", "j", "k", "space"), (top, total, rows, name) => {
        const next = reviewKey({ name }, clampTop(top, total, rows), total, rows);
        expect(typeof next).toBe("number");
        expect(next as number).toBeGreaterThanOrEqual(0);
        expect(next as number).toBeLessThanOrEqual(Math.max(0, total - (rows - 1)));
      }),
    );
    expect(reviewKey({ name: "q" }, 0, 10, 5)).toBe("close");
    expect(reviewKey({ name: "o", ctrl: true }, 0, 10, 5)).toBe("close");
    expect(reviewKey({ name: "x" }, 0, 10, 5)).toBeUndefined();
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
    expect(tail).toBe("```\n<# Next\n>\n");
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

test("/help fits a 120-column terminal and says that !COMMAND runs without asking", () => {
  for (const line of REPL_HELP.split("\n")) expect(line.length).toBeLessThanOrEqual(120);
  expect(REPL_HELP).toContain("!COMMAND           run a shell command yourself: in the sandbox, without asking (you typed it)");
});
