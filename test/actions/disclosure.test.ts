import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { defineAction } from "../../src/actions/action.ts";
import { BUILTIN_ACTIONS } from "../../src/actions/builtin/index.ts";
import { DEFAULT_CORE, Disclosure, LOAD_ACTIONS, loadActionsAction, rankActions } from "../../src/actions/disclosure.ts";
import { ActionRegistry } from "../../src/actions/registry.ts";

function setup(mode: "auto" | "all" = "auto", unloadAfter = 3, maxLoaded = 1) {
  const registry = new ActionRegistry();
  for (const a of BUILTIN_ACTIONS) registry.register(a);
  const d = new Disclosure(registry, { mode, core: DEFAULT_CORE, unloadAfter, maxLoaded });
  registry.register(loadActionsAction(() => d));
  return { registry, d };
}
const names = (d: Disclosure) => d.offer().map((t) => t.name);

describe("Disclosure", () => {
  test("the first request offers the core, then load_actions with the capability index", () => {
    const { d } = setup();
    expect(names(d)).toEqual(["read_file", "edit_file", "write_file", "search", "list_files", LOAD_ACTIONS]);
    const load = d.offer().find((t) => t.name === LOAD_ACTIONS)!;
    expect(load.description).toContain("- command: run programs");
    expect(load.description).toMatch(/- command: run programs \(tests, builds, git\) and shell command lines: run_command, shell(\n|$)/);
    d.load([], ["shell"]);
    expect(d.offer().find((t) => t.name === LOAD_ACTIONS)!.description).toContain("run_command, shell (1 of 2 already available)");
  });

  test("loading a capability offers its full schemas from the next request, appended after the stable prefix", () => {
    const { d } = setup();
    const before = names(d);
    expect(d.load(["command"], [])).toEqual(["run_command", "shell"]);
    const after = names(d);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual(["run_command", "shell"]);
  });

  test("an unknown capability is refused naming the valid ones", () => {
    const { d } = setup();
    expect(() => d.load(["teleport"], [])).toThrow("capabilities are");
  });

  test("past maxLoaded, actions unused for more than unloadAfter requests are unloaded; use keeps them", () => {
    const { d } = setup("auto", 2);
    d.load([], ["run_command", "shell"]);
    d.offer();
    d.markUsed("shell");
    d.offer();
    d.markUsed("shell");
    d.offer();
    const now = names(d);
    expect(now).toContain("shell");
    expect(now).not.toContain("run_command");
  });

  test("within maxLoaded nothing unloads, so the tools array (the cache prefix) stays put", () => {
    const { d } = setup("auto", 1, 12);
    d.load([], ["run_command", "shell"]);
    const first = JSON.stringify(d.offer());
    for (let i = 0; i < 20; i++) d.offer();
    expect(JSON.stringify(d.offer())).toBe(first);
  });

  test("--tools all offers the whole catalog without load_actions", () => {
    const { d, registry } = setup("all");
    expect(names(d).sort()).toEqual(registry.ids().filter((id) => id !== LOAD_ACTIONS).sort());
  });

  test("the router pre-loads the actions that match the goal, not whole capabilities, and nothing for an unrelated one", () => {
    const { d, registry } = setup();
    registry.register(
      defineAction({
        id: "mcp__jira__create_issue",
        capability: "mcp:jira",
        hint: "create a Jira issue",
        description: "Create an issue in a Jira project",
        input: z.object({}),
        risk: "network",
        source: "mcp:jira",
        readOnly: false,
        summary: () => "",
        run: async () => "",
      }),
      "Jira issues and projects",
    );
    expect(d.preloadFor("run the tests and show the command output")).toContain("run_command");
    expect(d.preloadFor("open a jira issue for this bug")).toEqual(["mcp__jira__create_issue"]);
    expect(setup().d.preloadFor("explain the architecture")).toEqual([]);
  });

  test("rankActions is deterministic BM25: a rarer matching word outweighs a common one, and ties order by id", () => {
    const docs = [
      { id: "b", text: "read file text" },
      { id: "a", text: "read file text" },
      { id: "c", text: "read directory listing" },
      { id: "d", text: "directory tree" },
    ];
    expect(rankActions("read the text", docs).map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(rankActions("readTextFile", docs)[0]!.score).toBeGreaterThan(0);
    expect(rankActions("", docs).every((r) => r.score === 0)).toBe(true);
  });
});
