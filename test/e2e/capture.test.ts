import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromiumPage } from "../support/browser.ts";
import { runWeir, weirCommand } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Capture from real use, through the binary: real sessions against the mock model leave decision
 * records; `weir eval capture` turns them into a suite labelled by what happened next; `weir eval
 * run` replays it; `weir eval label` serves the page a person corrects labels on, driven here in a
 * real headless Chromium, and the corrections land in the file.
 */
const world = e2eWorld();
const wire = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--cwd", world.ws];
const c = (id: string, name: string, input: unknown) => ({ toolCalls: [{ id, name, input }] });
const git = (...a: string[]) => Bun.spawnSync(["git", ...a], { cwd: world.ws, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });

async function sessions() {
  mkdirSync(join(world.ws, "src", "vendorish"), { recursive: true });
  writeFileSync(join(world.ws, "src", "total.js"), "export const total = (xs) => xs.reduce((a, b) => a + b, 0);\n");
  writeFileSync(join(world.ws, "src", "vendorish", "qq.js"), "export const qq = 1;\n");
  writeFileSync(join(world.ws, "notes.txt"), "alpha\n");
  writeFileSync(join(world.ws, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node test.js" } }));
  writeFileSync(join(world.ws, "test.js"), "process.exit(1);\n");
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "init");
  // 1. It reads and edits a file the state never had as a target: missed-target.
  world.server.script({ turns: [c("r1", "read_file", { path: "src/vendorish/qq.js" }), c("e1", "edit_file", { path: "src/vendorish/qq.js", old_string: "qq = 1", new_string: "qq = 2" }), { text: "done" }] });
  expect((await runWeir([...wire(), "fix the sum in src/total.js"], { home: world.home })).code).toBe(0);
  // 2. The file changes on disk between its read and its edit: stale-edit.
  world.server.script({
    turns: [
      c("r2", "read_file", { path: "notes.txt" }),
      { ...c("e2", "edit_file", { path: "notes.txt", old_string: "alpha", new_string: "beta" }), sideEffect: () => writeFileSync(join(world.ws, "notes.txt"), "alpha\nedited elsewhere\n") },
      { text: "it changed under me" },
    ],
  });
  expect((await runWeir([...wire(), "change alpha to beta in notes.txt"], { home: world.home })).code).toBe(0);
  // 3. A direct edit of the named file, then the project's tests fail: verify-failed-after-edit.
  world.server.script({ turns: [c("r3", "read_file", { path: "src/total.js" }), c("e3", "edit_file", { path: "src/total.js", old_string: "a + b", new_string: "b + a" }), c("v3", "verify", { level: "quick" }), { text: "tests fail" }] });
  expect((await runWeir([...wire(), "swap the operands in src/total.js"], { home: world.home })).code).toBe(0);
}

/** Three recorded sessions captured into a suite: the file and its cases. */
async function captured() {
  await sessions();
  const out = join(world.tmp, "captured.jsonl");
  const r = await runWeir(["eval", "capture", "-o", out, "--cwd", world.ws], { home: world.home, cwd: world.ws });
  const cases = r.code === 0 ? readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : [];
  const byRule = (rule: string) => cases.filter((x) => x.tags.includes(rule));
  return { r, out, cases, byRule, missed: byRule("missed-target"), stale: byRule("stale-edit") };
}

describe("weir eval capture and label", () => {
  test("recorded decisions become a suite labelled by outcome and replayable", async () => {
    const { r, out, cases, byRule, missed, stale } = await captured();
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote \d+ cases to .* from \d+ decisions in 3 sessions/);
    expect(r.stdout).toContain("untrusted notes were dropped");
    expect(missed).toHaveLength(1);
    expect(missed[0].state.task).toBe("fix the sum in src/total.js");
    expect(missed[0].state.targets.map((t: { path: string }) => t.path)).not.toContain("src/vendorish/qq.js");
    expect(missed[0].labels).toEqual({ context_sufficient: false, continue_retrieval: true, next_action: "retrieve" });
    expect(missed[0].label_source).toEqual({ context_sufficient: "outcome", continue_retrieval: "outcome", next_action: "outcome" });
    expect(stale).toHaveLength(1);
    expect(stale[0].labels).toEqual({ context_sufficient: false, next_action: "review_worktree" });
    const failed = byRule("verify-failed-after-edit");
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((x: { labels: Record<string, unknown> }) => x.labels.verification_escalation === true)).toBe(true);
    // --session narrows; --since in the future finds nothing; a bad date is a usage error.
    const none = await runWeir(["eval", "capture", "-o", join(world.tmp, "none.jsonl"), "--since", "2999-01-01", "--cwd", world.ws], { home: world.home, cwd: world.ws });
    expect(none.stdout).toContain("wrote 0 cases");
    const bad = await runWeir(["eval", "capture", "-o", join(world.tmp, "x.jsonl"), "--since", "someday", "--cwd", world.ws], { home: world.home, cwd: world.ws });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--since someday is not a date");

    // The captured suite replays like any other.
    const replay = await runWeir(["eval", "run", out, "--provider", "baseline", "--db", join(world.tmp, "e.db")], { home: world.home, cwd: world.ws });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(`${cases.length}/${cases.length}`);
  });

  // .ci/run installs chromium; without it this test says it was skipped.
  test.skipIf(!Bun.which("chromium"))("a person corrects the captured suite in the label page, in a real browser", async () => {
    const { out, cases, missed, stale } = await captured();
    expect(missed).toHaveLength(1);
    const label = Bun.spawn([...weirCommand(), "eval", "label", out], { cwd: world.ws, env: { PATH: process.env.PATH ?? "", HOME: world.home, XDG_CONFIG_HOME: join(world.home, ".config"), XDG_DATA_HOME: join(world.home, ".local", "share") }, stdout: "pipe", stderr: "pipe" });
    const reader = label.stdout.getReader();
    let printed = "";
    while (!/token=\w+/.test(printed)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`weir eval label ended before serving its page: ${printed}`);
      printed += new TextDecoder().decode(chunk.value);
    }
    const url = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(printed)![1]!;
    // Without the token the page is refused.
    expect((await fetch(url.replace(/\?token=\w+/, ""))).status).toBe(403);
    const page = await chromiumPage(url, join(world.tmp, "chrome"));
    try {
      await page.waitFor(`document.getElementById("status")?.textContent === "ready"`);
      expect(await page.eval(`document.querySelectorAll(".case").length`)).toBe(cases.length);
      // A person corrects the missed-target case: the next action is a worktree review after all; then confirms the rest.
      const id = missed[0].id;
      await page.eval(`document.querySelector('input[data-case="${id}"][data-question="next_action"][value="review_worktree"]').click()`);
      await page.waitFor(`document.querySelector('#case-${id} .saved')?.textContent === "saved"`);
      await page.eval(`document.querySelector('button[data-confirm="${stale[0].id}"]').click()`);
      await page.waitFor(`[...document.querySelectorAll('#case-${stale[0].id} .src')].some((e) => e.textContent === "human")`);
    } finally {
      page.close();
    }
    label.kill("SIGINT");
    expect(await label.exited).toBe(0);
    const after = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const fixed = after.find((x) => x.id === missed[0].id);
    expect(fixed.labels.next_action).toBe("review_worktree");
    expect(fixed.label_source.next_action).toBe("human");
    expect(fixed.label_source.context_sufficient).toBe("outcome");
    expect(after.find((x) => x.id === stale[0].id).label_source).toEqual({ context_sufficient: "human", next_action: "human" });
  });
});
