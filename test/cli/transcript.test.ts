import { describe, expect, test } from "bun:test";
import { transcript } from "../../src/cli/commands/repl.ts";
import type { Message } from "../../src/core/messages.ts";

describe("/resume's transcript", () => {
  test("shows what the person typed, never the working set, guidance or quoted data weir put around it", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "[weir context · compiled for this task · 130 of 1000 tokens]\n\n## Repository rules\n\n[rule AGENTS.md]\nUse tabs.\n\n<<<UNTRUSTED-DATA 1a2b3c4d\nexport const x = 1;\nUNTRUSTED-DATA 1a2b3c4d>>>" },
          { type: "text", text: "fix sum in src/sum.js\n\n[weir guidance] next: edit_then_verify." },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "Fixed it." }] },
      { role: "user", content: [{ type: "text", text: "[commands I ran myself in the terminal, with their output]\n<<<UNTRUSTED-DATA 1a2b3c4d\n$ ls\nUNTRUSTED-DATA 1a2b3c4d>>>\n\nnow add a test" }] },
    ];
    expect(transcript(messages)).toBe("  you:  fix sum in src/sum.js\n  weir: Fixed it.\n  you:  now add a test");
  });
});
