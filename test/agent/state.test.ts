import { describe, expect, test } from "bun:test";
import { runsGitDiff, securityTask, taskAmbiguous, taskKind, testOnlyTask } from "../../src/agent/state.ts";
import { moduleOf } from "../../src/decision/scope.ts";

describe("the task, read deterministically", () => {
  test.each([
    ["summarise README.md", "inspect"],
    ["explain what src/cli/main.ts does", "inspect"],
    ["where is parseConfig called from?", "inspect"],
    ["is the cache invalidated on write", "inspect"],
    ["fix the failing test", "change"],
    ["can you add a --json flag?", "change"],
    ["review the PR and fix what you find", "change"],
    ["the greeting test fails: src/greet.js:2", "change"],
  ])("%s is a %s task", (task, kind) => {
    expect(taskKind(task)).toBe(kind as "change" | "inspect");
  });

  test("a task with almost no words of its own and nothing named is ambiguous; one that names a path or symbol is not", () => {
    expect(taskAmbiguous("fix it")).toBe(true);
    expect(taskAmbiguous("do the thing")).toBe(true);
    expect(taskAmbiguous("fix src/a.ts")).toBe(false);
    expect(taskAmbiguous("fix parseConfig")).toBe(false);
    expect(taskAmbiguous("fix the rounding of invoice totals")).toBe(false);
    expect(taskAmbiguous("fix lint")).toBe(false);
    expect(taskAmbiguous("fix the bug")).toBe(true);
  });
});

describe("runsGitDiff: which commands show the worktree's changes", () => {
  test.each([
    [{ line: "git diff", argv: ["git", "diff"] }, true],
    [{ line: "/usr/bin/git -c core.pager=cat -C . diff -- a.ts", argv: ["/usr/bin/git", "-c", "core.pager=cat", "-C", ".", "diff", "--", "a.ts"] }, true],
    [{ line: "git --no-pager diff HEAD" }, true],
    [{ line: "git diff | head -20" }, false],
    [{ line: "git diff > out.txt" }, false],
    [{ line: "git show HEAD", argv: ["git", "show", "HEAD"] }, false],
    [{ line: "git log -p", argv: ["git", "log", "-p"] }, false],
    [{ line: "diff a b", argv: ["diff", "a", "b"] }, false],
  ])("%j → %p", (d, want) => expect(runsGitDiff(d)).toBe(want));
});

describe("a task that asks only for tests", () => {
  test.each([
    ["add a test for compute_total", true],
    ["Write unit tests for parse in src/p.ts", true],
    ["cover encodeKey with tests", true],
    ["Add regression tests for the parser", true],
    ["add input validation and tests", false],
    ["add a test and fix the bug", false],
    ["fix the failing test", false],
    ["make the tests pass", false],
    ["write a function that tests primality", false],
  ] as const)("%s: %p", (task, only) => expect(testOnlyTask(task)).toBe(only));
});

describe("security work by the task's words", () => {
  test("sanitisation, API tokens and keys, constant-time comparisons and security paths count; a lexer's tokens and a keyboard's keys do not", () => {
    for (const t of ["Escape quotes when sanitising HTML input in src/web/escape.ts", "Return early when the two API tokens differ", "Rotate the api key", "Make the compare constant-time", "Fix src/auth/login.ts"])
      expect([t, securityTask(t)]).toEqual([t, true]);
    for (const t of ["Change tokenKind in src/lexer/token.ts to return 5 kinds", "Offset key codes by 64 in src/ui/keyboard.ts", "Rename the --limit flag"]) expect([t, securityTask(t)]).toEqual([t, false]);
  });
});

describe("the module a path belongs to", () => {
  test("the first directory below the source roots, a monorepo's package, or the top", () => {
    expect(["src/parser/lexer.ts", "src/render/html.ts", "internal/net/retry.go", "app/text/pad.py", "packages/core/src/a/b.ts", "src/index.ts", "README.md"].map(moduleOf)).toEqual([
      "src/parser",
      "src/render",
      "internal/net",
      "app/text",
      "packages/core/src/a",
      "src",
      "",
    ]);
  });
});

