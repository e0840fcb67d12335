import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/** `--sandbox read-only` through the binary: the file actions write nothing either, even with --yes. */
const world = e2eWorld();
const MODEL = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--tools", "all"];

/** The text of every tool result the model was sent in the last request. */
const results = () => JSON.stringify(world.server.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === "tool"));

describe("--sandbox read-only", () => {
  test("write_file and edit_file are refused and the disk is unchanged, with --yes too", async () => {
    writeFileSync(join(world.ws, "kept.txt"), "original\n");
    world.server.script({
      turns: [
        { toolCalls: [{ id: "w1", name: "write_file", input: { path: "new.txt", content: "created\n" } }] },
        { toolCalls: [{ id: "e1", name: "edit_file", input: { path: "kept.txt", old_string: "original", new_string: "changed" } }] },
        { text: "done" },
      ],
    });
    const r = await runWeir([...MODEL(), "--sandbox", "read-only", "--yes", "--cwd", world.ws, "make the files"], { home: world.home });
    expect(r.stdout).toContain("done");
    expect(existsSync(join(world.ws, "new.txt"))).toBe(false);
    expect(readFileSync(join(world.ws, "kept.txt"), "utf8")).toBe("original\n");
    expect(results()).toContain("the workspace is read-only in this run (--sandbox read-only)");
  });

  test("the same write goes through in the default mode (the refusal is the mode's, not the file's)", async () => {
    world.server.script({ turns: [{ toolCalls: [{ id: "w1", name: "write_file", input: { path: "new.txt", content: "created\n" } }] }, { text: "done" }] });
    const r = await runWeir([...MODEL(), "--yes", "--cwd", world.ws, "make the file"], { home: world.home });
    expect(r.code).toBe(0);
    expect(readFileSync(join(world.ws, "new.txt"), "utf8")).toBe("created\n");
  });
});
