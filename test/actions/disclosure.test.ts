import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { z } from "zod";
import { defineAction } from "../../src/actions/action.ts";
import { BUILTIN_ACTIONS } from "../../src/actions/builtin/index.ts";
import { DEFAULT_CORE, Disclosure, LOAD_ACTIONS, loadActionsAction, rankActions, schemaWords } from "../../src/actions/disclosure.ts";
import { ActionRegistry } from "../../src/actions/registry.ts";

function setup(mode: "auto" | "all" = "auto") {
  const registry = new ActionRegistry();
  for (const a of BUILTIN_ACTIONS) registry.register(a);
  const d = new Disclosure(registry, { mode, core: DEFAULT_CORE });
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
    // What is loaded never changes load_actions: its bytes are part of the cached prefix.
    const before = JSON.stringify(d.offer().find((t) => t.name === LOAD_ACTIONS));
    d.load([], ["shell"]);
    expect(JSON.stringify(d.offer().find((t) => t.name === LOAD_ACTIONS))).toBe(before);
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

  test("property: within a conversation the tools array only grows at its end, whatever is loaded in whatever order", () => {
    fc.assert(
      fc.property(fc.array(fc.subarray(["run_command", "shell", "verify", "todo", "git_diff", "git_log", "fetch_url"]), { maxLength: 8 }), (loads) => {
        const { d, registry } = setup();
        let before = d.offer();
        for (const ids of loads) {
          d.load([], ids.filter((id) => registry.get(id)));
          const now = d.offer();
          expect(JSON.stringify(now.slice(0, before.length))).toBe(JSON.stringify(before));
          before = now;
        }
      }),
    );
  });

  test("a resumed conversation gets the loaded actions it had, in its order, in place of this one's", () => {
    const first = setup();
    first.d.load([], ["run_command"]);
    first.d.load([], ["shell"]);
    const offered = JSON.stringify(first.d.offer());
    const next = setup();
    next.d.load([], ["shell"]);
    next.d.restore([...first.d.loadedIds(), "no_such_action", "read_file"]);
    expect(JSON.stringify(next.d.offer())).toBe(offered);
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

describe("the catalog search (load_actions' query)", () => {
  const withServer = () => {
    const { registry, d } = setup();
    const tool = (id: string, description: string) =>
      defineAction({ id, capability: "mcp:tracker", hint: "tools of the MCP server tracker", description, input: z.object({}), risk: "network", source: "mcp:tracker", readOnly: false, summary: () => "", run: async () => "" });
    registry.register(tool("mcp__tracker__create_issue", "Create an issue"));
    registry.register(tool("mcp__tracker__add_label", "Add a label"));
    return { registry, d };
  };

  test("every word of a schema is searched: nested property names, descriptions and enum values", () => {
    const words = schemaWords({ type: "object", properties: { state: { type: "string", enum: ["open", "closed"], description: "Issue state" }, filter: { type: "object", properties: { assignee: { type: "string" } } }, tags: { type: "array", items: { anyOf: [{ title: "Label name" }] } } } });
    for (const w of ["state", "open", "closed", "Issue state", "filter", "assignee", "tags", "Label name"]) expect(words).toContain(w);
  });

  test("a query finds by name, server and description, leaves out what is offered, and loads in one call", async () => {
    const { registry, d } = withServer();
    expect(d.search("open an issue on the tracker")[0]).toBe("mcp__tracker__create_issue");
    expect(d.search("read a file")).not.toContain("read_file");
    const before = d.offer().map((t) => t.name);
    const result = await registry.get(LOAD_ACTIONS)!.run({ query: "create an issue" }, {} as never);
    expect(String(result)).toContain("loaded mcp__tracker__create_issue");
    const after = d.offer().map((t) => t.name);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toContain("mcp__tracker__create_issue");
    expect(String(await registry.get(LOAD_ACTIONS)!.run({ query: "zzyzx" }, {} as never))).toContain('nothing in the catalog matches "zzyzx"');
  });
});
