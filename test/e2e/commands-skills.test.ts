import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/** Custom slash commands and skills, through the binary: what reaches the model, and when. */
const world = e2eWorld();
const args = () => ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "mock-a", "--cwd", world.ws];
const put = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const firstUserText = (body: any) => JSON.stringify(body.messages.find((m: any) => m.role === "user"));

describe("custom slash commands", () => {
  test("a project command's template becomes the task, with $ARGUMENTS and $1; a user command too; a path such as /tmp stays the task", async () => {
    put(join(world.ws, ".weir", "commands", "review.md"), "---\ndescription: review a file for bugs\nargument-hint: FILE\n---\nCMD-REVIEW: review $1 carefully. Everything: $ARGUMENTS\n");
    put(join(world.home, ".config", "weir", "commands", "git", "summary.md"), "CMD-USER: summarise the last commits\n");
    world.server.script({ turns: [{ text: "reviewed" }, { text: "summarised" }, { text: "plain" }] });
    expect((await runWeir([...args(), "/review src/a.ts twice"], { home: world.home })).code).toBe(0);
    expect(firstUserText(world.server.requests.at(-1)!.body)).toContain("CMD-REVIEW: review src/a.ts carefully. Everything: src/a.ts twice");
    expect((await runWeir([...args(), "/git:summary since monday"], { home: world.home })).code).toBe(0);
    const user = firstUserText(world.server.requests.at(-1)!.body);
    expect(user).toContain("CMD-USER: summarise the last commits");
    expect(user).toContain("since monday");
    expect((await runWeir([...args(), "/tmp is full, why?"], { home: world.home })).code).toBe(0);
    expect(firstUserText(world.server.requests.at(-1)!.body)).toContain("/tmp is full, why?");
  });

  test("in the REPL, /help lists them and /review runs the template", async () => {
    put(join(world.ws, ".claude", "commands", "review.md"), "---\ndescription: review a file for bugs\n---\nCMD-CLAUDE: review $ARGUMENTS\n");
    world.server.script({ turns: [{ text: "done reviewing" }] });
    const t = weirInPty(args(), { home: world.home, cwd: world.ws });
    await t.waitFor("/help for commands");
    t.write("/help\r");
    await t.waitFor(/\/review +review a file for bugs \(project: \.claude\/commands\/review\.md\)/);
    t.write("/review lib.ts\r");
    await t.waitFor("done reviewing");
    expect(firstUserText(world.server.requests.at(-1)!.body)).toContain("CMD-CLAUDE: review lib.ts");
    t.write("/exit\r");
    await t.exits(0);
  });
});

describe("skills", () => {
  test("names and descriptions are in the index; the body arrives only when the model asks, a project skill quoted as data and a user skill as guidance", async () => {
    put(join(world.ws, ".weir", "skills", "release", "SKILL.md"), "---\nname: release\ndescription: cut a release of this package (version bump, changelog, tag)\n---\nSKILL-BODY-PROJECT: bump the version in package.json, then write CHANGELOG.md\n");
    put(join(world.ws, ".weir", "skills", "release", "checklist.md"), "- tests\n");
    put(join(world.home, ".config", "weir", "skills", "style", "SKILL.md"), "---\nname: house-style\ndescription: how this user likes commit messages written\n---\nSKILL-BODY-USER: imperative mood, 50 characters\n");
    put(join(world.ws, ".weir", "skills", "nodesc", "SKILL.md"), "no front matter at all\n");
    world.server.script({
      turns: [{ toolCalls: [{ id: "k1", name: "use_skill", input: { name: "release" } }, { id: "k2", name: "use_skill", input: { name: "house-style" } }] }, { text: "released" }],
    });
    const r = await runWeir([...args(), "cut a release"], { home: world.home });
    expect(r.code).toBe(0);
    const [first, second] = world.server.requests.slice(-2).map((q) => q.body);
    const index = JSON.stringify(first.tools);
    // The person's skill is described as it is; the repository's description only inside the quote.
    expect(index).toContain("house-style (how this user likes commit messages written)");
    expect(index).toMatch(/quoted as data\):\\n<<<UNTRUSTED-DATA [0-9a-f]{8}\\n- release: cut a release of this package/);
    expect(index).not.toContain("release (cut a release of this package");
    expect(index).not.toContain("nodesc");
    expect(JSON.stringify(first.messages)).not.toContain("SKILL-BODY");
    // The router loaded use_skill for a task its description matches.
    expect(first.tools.map((t: any) => t.name)).toContain("use_skill");
    const results = second.messages.at(-1).content;
    const project = results.find((b: any) => b.tool_use_id === "k1");
    const user = results.find((b: any) => b.tool_use_id === "k2");
    expect(JSON.stringify(project)).toContain("SKILL-BODY-PROJECT");
    expect(JSON.stringify(project)).toContain("UNTRUSTED-DATA");
    expect(JSON.stringify(project)).toContain(".weir/skills/release/checklist.md");
    expect(JSON.stringify(user)).toContain("SKILL-BODY-USER");
    expect(JSON.stringify(user)).not.toContain("UNTRUSTED-DATA");
  });
});

describe("repository templates that link out of the workspace", () => {
  test("a command template or SKILL.md that is a link to a file outside the workspace is never read", async () => {
    put(join(world.tmp, "elsewhere", "notes.md"), "---\ndescription: OUTSIDE-DESC-3434\n---\nOUTSIDE-BODY-3535\n");
    put(join(world.home, ".ssh", "config.md"), "---\ndescription: SSH-DESC-3636\n---\nSSH-BODY-3737\n");
    mkdirSync(join(world.ws, ".weir", "commands"), { recursive: true });
    symlinkSync(join(world.tmp, "elsewhere", "notes.md"), join(world.ws, ".weir", "commands", "review.md"));
    mkdirSync(join(world.ws, ".weir", "skills", "leak"), { recursive: true });
    symlinkSync(join(world.home, ".ssh", "config.md"), join(world.ws, ".weir", "skills", "leak", "SKILL.md"));
    const before = world.server.requests.length;
    const r = await runWeir([...args(), "/review src/a.ts"], { home: world.home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command /review");
    expect(world.server.requests.length).toBe(before);
    world.server.script({ turns: [{ text: "plain" }] });
    expect((await runWeir([...args(), "cut a release"], { home: world.home })).code).toBe(0);
    const body = JSON.stringify(world.server.requests.at(-1)!.body);
    for (const marker of ["OUTSIDE-DESC-3434", "OUTSIDE-BODY-3535", "SSH-DESC-3636", "SSH-BODY-3737"]) expect(`${body}${r.stderr}`).not.toContain(marker);
  });
});
