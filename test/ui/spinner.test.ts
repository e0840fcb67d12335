import { describe, expect, test } from "bun:test";
import type { AgentEvent, Display } from "../../src/core/events.ts";
import { withSpinner } from "../../src/ui/spinner.ts";

describe("the one-shot spinner", () => {
  test("says what the run waits for on stderr and erases itself before anything else is shown", () => {
    const err: string[] = [];
    const seen: AgentEvent["type"][] = [];
    const base: Display = { emit: (e) => void seen.push(e.type) };
    let t = 0;
    const d = withSpinner(base, { write: (s) => void err.push(s) }, () => t);
    d.emit({ type: "turn_start", turn: 1 } as AgentEvent);
    expect(err.join("")).toContain("model thinking");
    t = 3_000;
    err.length = 0;
    d.emit({ type: "text_delta", text: "hi" } as AgentEvent);
    // The spinner's line is erased first, and nothing is drawn while text flows.
    expect(err).toEqual(["\r\x1b[2K"]);
    d.emit({ type: "tool_call", call: { type: "tool_call", id: "c", name: "shell", input: {} }, summary: "x" } as AgentEvent);
    expect(err.join("")).not.toContain("shell running");
    d.emit({ type: "run_end", stop: "end_turn", turns: 1 } as AgentEvent);
    expect(seen).toEqual(["turn_start", "text_delta", "tool_call", "run_end"]);
  });
});
