import { z } from "zod";
import type { ToolSpec } from "../core/messages.ts";
import { type Action, defineAction, ToolFailure } from "./action.ts";
import type { ActionRegistry } from "./registry.ts";

export const LOAD_ACTIONS = "load_actions";

/** The default always-on core: read, edit and search. */
export const DEFAULT_CORE = ["read", "code_edit", "repository_search"];

export interface DisclosureOptions {
  /** `all` offers the whole catalog every turn (disclosure off, for comparison). */
  mode: "auto" | "all";
  core: string[];
  /** Loaded actions unused for this many turns are unloaded again. */
  unloadAfter: number;
}

const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const STOP = new Set(["the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "it", "is", "this", "that", "with", "my", "me", "please", "file", "files"]);

/**
 * Deterministic router: ranks capabilities for a goal by lexical overlap of the goal with each
 * capability's name, hint and its actions' ids and descriptions. Pure.
 */
export function rankCapabilities(goal: string, caps: { name: string; hint: string; text: string }[]): { name: string; score: number }[] {
  const g = new Set(words(goal).filter((w) => !STOP.has(w) && w.length > 2));
  return caps
    .map((c) => {
      const vocab = new Set(words(`${c.name.replace(/[_:]/g, " ")} ${c.hint} ${c.text}`));
      let score = 0;
      for (const w of g) if (vocab.has(w) || [...vocab].some((v) => v.length > 3 && (v.startsWith(w) || w.startsWith(v)))) score++;
      return { name: c.name, score: g.size ? score / g.size : 0 };
    })
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

/**
 * Progressive disclosure. Each request carries the core actions, the small `load_actions` tool whose
 * description is the capability index, and whatever the model (or the router, or later the decision
 * plane) loaded. Loaded actions keep their order so the tools array stays a stable prefix and
 * provider prompt caches stay warm.
 */
export class Disclosure {
  private loaded = new Map<string, number>();
  /** Requests offered so far, across runs: the clock for unloading. */
  private turn = 0;

  constructor(
    private registry: ActionRegistry,
    private opts: DisclosureOptions,
  ) {}

  get mode() {
    return this.opts.mode;
  }

  private coreIds(): string[] {
    return this.registry.all().filter((a) => this.opts.core.includes(a.capability) && a.id !== LOAD_ACTIONS).map((a) => a.id);
  }

  loadedIds(): string[] {
    return [...this.loaded.keys()].filter((id) => this.registry.get(id));
  }

  /** The capability index: one line per capability with its hint and how many actions it holds. */
  index(): string {
    const core = new Set(this.coreIds());
    return this.registry
      .capabilities()
      .filter((c) => c.name !== "discovery")
      .map((c) => {
        const open = c.ids.filter((id) => !core.has(id) && !this.loaded.has(id)).length;
        return `- ${c.name}: ${c.hint} (${c.ids.length} action${c.ids.length === 1 ? "" : "s"}${open < c.ids.length ? `, ${c.ids.length - open} already available` : ""})`;
      })
      .join("\n");
  }

  /** The tools array for the next request. */
  offer(): ToolSpec[] {
    const turn = ++this.turn;
    if (this.opts.mode === "all") return this.registry.ids().filter((id) => id !== LOAD_ACTIONS).map((id) => this.registry.spec(id)!);
    for (const [id, last] of this.loaded) if (turn - last > this.opts.unloadAfter || !this.registry.get(id)) this.loaded.delete(id);
    const ids = [...this.coreIds(), ...this.loadedIds()];
    const load = this.registry.spec(LOAD_ACTIONS);
    const specs = ids.map((id) => this.registry.spec(id)!);
    return load ? [...specs.slice(0, this.coreIds().length), { ...load, description: `${load.description}\n\nCapabilities:\n${this.index()}` }, ...specs.slice(this.coreIds().length)] : specs;
  }

  markUsed(id: string): void {
    if (this.loaded.has(id)) this.loaded.set(id, this.turn);
  }

  /** Loads capabilities and/or action ids; returns what was loaded, or throws naming the unknown ones. */
  load(capabilities: string[], ids: string[]): string[] {
    const turn = this.turn;
    const caps = this.registry.capabilities();
    const unknown = [...capabilities.filter((c) => !caps.some((x) => x.name === c)), ...ids.filter((id) => !this.registry.get(id))];
    if (unknown.length)
      throw new ToolFailure(`unknown capability or action: ${unknown.join(", ")}; capabilities are ${caps.map((c) => c.name).join(", ")}`);
    const core = new Set(this.coreIds());
    const wanted = [...caps.filter((c) => capabilities.includes(c.name)).flatMap((c) => c.ids), ...ids].filter((id) => id !== LOAD_ACTIONS && !core.has(id));
    for (const id of wanted) this.loaded.set(id, turn);
    return [...new Set(wanted)];
  }

  /** Router and decision-plane seam: pre-load the top capabilities for a goal. */
  preloadFor(goal: string, top = 2, minScore = 0.34): string[] {
    if (this.opts.mode === "all") return [];
    const caps = this.registry
      .capabilities()
      .filter((c) => !this.opts.core.includes(c.name) && c.name !== "discovery")
      .map((c) => ({ name: c.name, hint: c.hint, text: c.ids.map((id) => `${id.replace(/_/g, " ")} ${this.registry.get(id)?.hint ?? ""}`).join(" ") }));
    const chosen = rankCapabilities(goal, caps)
      .filter((r) => r.score >= minScore)
      .slice(0, top)
      .map((r) => r.name);
    if (chosen.length) this.load(chosen, []);
    return chosen;
  }
}

/** The `load_actions` action; its index is appended to the description each turn by `Disclosure.offer`. */
export function loadActionsAction(disclosure: () => Disclosure): Action {
  return defineAction({
    id: LOAD_ACTIONS,
    capability: "discovery",
    hint: "load the full definitions of more actions",
    description:
      "Load more actions by capability or id. Their full definitions are offered from your next turn on. Load only what the task needs.",
    input: z
      .object({
        capabilities: z.array(z.string()).optional().describe("capability names from the list below"),
        actions: z.array(z.string()).optional().describe("action ids"),
      })
      .strict(),
    risk: "read",
    failure: "an unknown capability or id; pick one from the list",
    examples: ['{"capabilities": ["command"]}'],
    source: "builtin",
    readOnly: true,
    summary: (i) => [...(i.capabilities ?? []), ...(i.actions ?? [])].join(", "),
    async run(i) {
      const d = disclosure();
      const ids = d.load(i.capabilities ?? [], i.actions ?? []);
      return ids.length ? `loaded ${ids.join(", ")}; call them from your next turn` : "nothing new to load: those actions are already available";
    },
  });
}
