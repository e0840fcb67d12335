import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { z } from "zod";
import { defineAction } from "../../src/actions/action.ts";
import { BUILTIN_ACTIONS } from "../../src/actions/builtin/index.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction, recalledActions, tokens, type ToolRecall } from "../../src/actions/disclosure.ts";
import { ActionRegistry } from "../../src/actions/registry.ts";
import { SessionStore } from "../../src/store/sessions.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());
const open = () => {
  tmp = tempDir();
  return SessionStore.open(`${tmp.path}/weir.db`);
};

/** The built-ins plus two tools of a chat server whose words are not the person's. */
function registry() {
  const r = new ActionRegistry();
  for (const a of BUILTIN_ACTIONS) r.register(a);
  const tool = (id: string, description: string) => defineAction({ id, capability: "mcp:chat", hint: "chat", description, input: z.object({ channel: z.string() }).strict(), risk: "write", source: "mcp:chat", readOnly: false, summary: (i) => i.channel, run: async () => "ok" });
  r.register(tool("mcp__chat__add_reaction", "Add an emoji reaction to a message"));
  r.register(tool("mcp__chat__post_message", "Post a new message to a channel"));
  return r;
}
/** A run's disclosure over a fresh registry, with the person's memory. */
function disclosure(memory?: ToolRecall) {
  const r = registry();
  const d = new Disclosure(r, { mode: "auto", core: DEFAULT_CORE, ...(memory ? { memory } : {}) });
  r.register(loadActionsAction(() => d));
  return d;
}

describe("tool memory", () => {
  test("a task's words lead to the tool it called: the next task that says them is offered it first", () => {
    const store = open();
    const goal = "thumbs-up the deploy announcement";
    expect(disclosure(store.toolMemory).preloadFor(goal)).not.toContain("mcp__chat__add_reaction");
    disclosure(store.toolMemory).remember(goal, ["mcp__chat__add_reaction", "read_file", "load_actions"]);
    const next = disclosure(store.toolMemory).preloadFor("thumbs-up the release announcement");
    expect(next).toContain("mcp__chat__add_reaction");
    // The core is never remembered: it is always offered anyway.
    expect(store.toolMemory.recall(tokens(goal)).uses.map((u) => u.action)).not.toContain("read_file");
    // Unrelated words recall nothing.
    expect(disclosure(store.toolMemory).preloadFor("rename the parser module")).not.toContain("mcp__chat__add_reaction");
    store.close();
  });

  test("it outlives the process: a new store on the same file remembers", () => {
    const store = open();
    store.toolMemory.record(["thumbs", "announcement"], ["mcp__chat__add_reaction"]);
    store.close();
    const again = SessionStore.open(`${tmp!.path}/weir.db`);
    const m = again.toolMemory.recall(["thumbs", "announcement", "other"]);
    expect(m.total).toBe(1);
    expect(m.tasks.get("thumbs")).toBe(1);
    expect(m.uses).toContainEqual({ word: "thumbs", action: "mcp__chat__add_reaction", uses: 1 });
    again.close();
  });

  test("a memory that throws costs its suggestions, never the route or the run", () => {
    const broken = { recall: () => { throw new Error("locked"); }, record: () => { throw new Error("locked"); } };
    const d = disclosure(broken as never);
    expect(() => d.preloadFor("post a message to the team channel")).not.toThrow();
    expect(() => d.remember("post a message", ["mcp__chat__post_message"])).not.toThrow();
  });

  test("property: a word every recorded task says adds nothing, and only actions the tasks called are recalled", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.subarray(["alpha", "beta", "gamma", "delta"], { minLength: 1 }), fc.constantFrom("a1", "a2", "a3")), { minLength: 1, maxLength: 20 }), (history) => {
        const tasks = new Map<string, number>();
        const uses = new Map<string, number>();
        for (const [words, action] of history) {
          for (const w of ["common", ...words]) {
            tasks.set(w, (tasks.get(w) ?? 0) + 1);
            uses.set(`${w}\0${action}`, (uses.get(`${w}\0${action}`) ?? 0) + 1);
          }
        }
        const stats = { total: history.length, tasks, uses: [...uses].map(([k, n]) => ({ word: k.split("\0")[0]!, action: k.split("\0")[1]!, uses: n })) };
        const called = new Set<string>(history.map(([, a]) => a));
        for (const r of recalledActions(["alpha", "common"], stats)) expect(called.has(r.id)).toBe(true);
        // "common" is in every task: its weight is log(1 + 1) times a share; with nothing else it stays below one per action.
        for (const r of recalledActions(["common"], stats)) expect(r.score).toBeLessThanOrEqual(Math.log(2) + 1e-9);
      }),
      { numRuns: 200 },
    );
  });
});
