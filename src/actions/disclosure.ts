import { z } from "zod";
import { aboutChecks, byCodePoint } from "../context/lexical.ts";
import type { ToolSpec } from "../core/messages.ts";
import { type Action, defineAction, ToolFailure } from "./action.ts";
import type { ActionRegistry } from "./registry.ts";

export const LOAD_ACTIONS = "load_actions";

/** The default always-on core: read, edit and search. */
export const DEFAULT_CORE = ["read", "code_edit", "repository_search"];

interface DisclosureOptions {
  /** `all` offers the whole catalog every turn (disclosure off, for comparison). */
  mode: "auto" | "all";
  core: string[];
  /** The person's tool memory: what earlier tasks with the same words called. */
  memory?: ToolRecall;
}

/** Tool memory as the router reads and feeds it (store/tool-memory.ts). */
export interface ToolRecall {
  recall(words: readonly string[]): RecallStats;
  record(words: readonly string[], actions: readonly string[]): void;
}

/** What the memory holds for some words: tasks recorded in all, tasks per word, and the actions those tasks called. */
export interface RecallStats {
  total: number;
  tasks: ReadonlyMap<string, number>;
  uses: readonly { word: string; action: string; uses: number }[];
}

/** A recalled action is offered from this score: two words of a one-task memory, one rare word later on. */
const RECALL_MIN = 1.0;
/** Recalled actions offered at most, beside what the words of the tools pick. */
const RECALL_TOP = 4;

const STOP = new Set(["the", "a", "an", "and", "or", "to", "of", "in", "on", "for", "it", "is", "this", "that", "with", "my", "me", "please", "file", "files"]);

/** Identifier-aware tokens: `read_text_file` and `readTextFile` both give read, text, file. */
export function tokens(s: string): string[] {
  return (s.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
}

interface RankedAction {
  id: string;
  score: number;
}

/**
 * BM25 over each action's id, description and parameter names (and their descriptions): ranks
 * *actions*, not whole capabilities, so "read README.md" finds read-like tools without loading a
 * server's fourteen. Pure; k1 = 1.2, b = 0.75.
 */
export function rankActions(goal: string, docs: { id: string; text: string }[]): RankedAction[] {
  const q = [...new Set(tokens(goal))];
  if (q.length === 0 || docs.length === 0) return docs.map((d) => ({ id: d.id, score: 0 }));
  const toks = docs.map((d) => tokens(d.text));
  const avg = toks.reduce((n, t) => n + t.length, 0) / toks.length || 1;
  const df = new Map<string, number>();
  for (const t of toks) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return docs
    .map((d, i) => {
      const tf = new Map<string, number>();
      for (const w of toks[i]!) tf.set(w, (tf.get(w) ?? 0) + 1);
      let score = 0;
      for (const w of q) {
        const f = tf.get(w) ?? 0;
        if (!f) continue;
        const idf = Math.log(1 + (n - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * toks[i]!.length) / avg));
      }
      return { id: d.id, score };
    })
    .sort((a, b) => b.score - a.score || byCodePoint(a.id, b.id));
}

/**
 * Actions the person's earlier tasks with these words went on to call, best first: for each word,
 * the share of the tasks that said it and called the action, weighted by how rare the word is among
 * all the tasks recorded (a word every task says tells nothing). Pure.
 */
export function recalledActions(words: readonly string[], m: RecallStats): RankedAction[] {
  const q = new Set(words);
  const score = new Map<string, number>();
  for (const u of m.uses) {
    const n = m.tasks.get(u.word) ?? 0;
    if (!n || !q.has(u.word)) continue;
    score.set(u.action, (score.get(u.action) ?? 0) + (Math.min(u.uses, n) / n) * Math.log(1 + m.total / n));
  }
  return [...score].map(([id, s]) => ({ id, score: s })).sort((a, b) => b.score - a.score || byCodePoint(a.id, b.id));
}

/** Names an MCP tool may carry that a built-in action already covers. */
const BUILTIN_TWINS = new RegExp(
  `^(${[
    "read_(text_)?file", "read_multiple_files", "write_file", "edit_file", "list_directory", "list_files", "directory_tree",
    "search_files", "search", "get_file_info", "run_command", "shell", "execute_command",
  ].join("|")})$`,
);

/**
 * Progressive disclosure. Each request carries the core actions, the small `load_actions` tool whose
 * description is the capability index, and whatever the model (or the router, or later the decision
 * plane) loaded. What was offered stays offered, in the same bytes: loaded actions are only ever
 * added at the end, never unloaded, and the index does not change with what is loaded, so within a
 * conversation (and in a resumed one, `restore`) the tools array is a stable prefix and provider
 * prompt caches stay warm.
 */
export class Disclosure {
  private loaded = new Set<string>();

  constructor(
    private registry: ActionRegistry,
    private opts: DisclosureOptions,
  ) {}

  private coreIds(): string[] {
    return this.registry.all().filter((a) => this.opts.core.includes(a.capability) && a.id !== LOAD_ACTIONS).map((a) => a.id);
  }

  loadedIds(): string[] {
    return [...this.loaded].filter((id) => this.registry.get(id));
  }

  /**
   * A resumed conversation's loaded actions, in the order it had them (store/sessions.ts
   * `prefixOf`), in place of this one's: its next request offers the tools its last one did.
   */
  restore(ids: readonly string[]): void {
    const core = new Set(this.coreIds());
    this.loaded = new Set(ids.filter((id) => id !== LOAD_ACTIONS && !core.has(id) && this.registry.get(id)));
  }

  /**
   * The capability index: one line per capability with its hint and the purposes of its actions.
   * It depends on the registry alone, not on what is loaded, so `load_actions` keeps its bytes.
   */
  index(): string {
    const core = new Set(this.coreIds());
    return (
      this.registry
        .capabilities()
        .filter((c) => c.name !== "discovery")
        // A capability whose every action is in the core needs no line: its tools are right there.
        .filter((c) => c.ids.some((id) => !core.has(id)))
        .map((c) => {
          const open = c.ids.filter((id) => !core.has(id)).length;
          // The names are listed, so a count is only worth its bytes when some are always offered.
          const counts = open < c.ids.length ? ` (${c.ids.length - open} of ${c.ids.length} already available)` : "";
          // An MCP server's line lists its tools, so their purposes are visible before anything loads.
          return c.name.startsWith("mcp:")
            ? `- ${c.name}: ${this.registry.purposes(c.name)}${counts}`
            : `- ${c.name}: ${c.hint}: ${this.registry.purposes(c.name)}${counts}`;
        })
        .join("\n")
    );
  }

  /** The tools array for the next request. */
  offer(): ToolSpec[] {
    if (this.opts.mode === "all") return this.registry.ids().filter((id) => id !== LOAD_ACTIONS).map((id) => this.registry.spec(id)!);
    // load_actions carries the capability index.
    return this.names().map((id) =>
      id === LOAD_ACTIONS
        ? { ...this.registry.spec(id)!, description: `${this.registry.spec(id)!.description}\n\nCapabilities:\n${this.index()}` }
        : this.registry.spec(id)!,
    );
  }

  /** The names offered, in order (core, load_actions, loaded). */
  names(): string[] {
    if (this.opts.mode === "all") return this.registry.ids().filter((id) => id !== LOAD_ACTIONS);
    return [...this.coreIds(), ...(this.registry.get(LOAD_ACTIONS) ? [LOAD_ACTIONS] : []), ...this.loadedIds()];
  }

  /** Loads capabilities and/or action ids; returns what was loaded, or throws naming the unknown ones. */
  load(capabilities: string[], ids: string[]): string[] {
    const caps = this.registry.capabilities();
    const unknown = [...capabilities.filter((c) => !caps.some((x) => x.name === c)), ...ids.filter((id) => !this.registry.get(id))];
    if (unknown.length)
      throw new ToolFailure(`unknown capability or action: ${unknown.join(", ")}; capabilities are ${caps.map((c) => c.name).join(", ")}`);
    const core = new Set(this.coreIds());
    const wanted = [...caps.filter((c) => capabilities.includes(c.name)).flatMap((c) => c.ids), ...ids].filter((id) => id !== LOAD_ACTIONS && !core.has(id));
    for (const id of wanted) this.loaded.add(id);
    return [...new Set(wanted)];
  }

  /**
   * The model's search of the whole catalog: BM25 over every word of every action (its id, its
   * capability and the server it comes from, the capability's hint, its description and every word
   * of its input schema), best first, at most `top`, leaving out what is offered already. Pure
   * over the registry.
   */
  search(query: string, top = SEARCH_TOP): string[] {
    const offered = new Set(this.names());
    const caps = new Map(this.registry.capabilities().flatMap((c) => c.ids.map((id) => [id, `${c.name.replace(/^mcp:/, "")} ${c.hint}`] as const)));
    const docs = this.registry
      .all()
      .filter((a) => !offered.has(a.id) && a.id !== LOAD_ACTIONS)
      .map((a) => ({ id: a.id, text: `${a.id} ${a.id} ${caps.get(a.id) ?? ""} ${a.description} ${schemaWords(this.registry.spec(a.id)?.inputSchema)}` }));
    return rankActions(query, docs)
      .filter((r) => r.score > 0)
      .slice(0, top)
      .map((r) => r.id);
  }

  /**
   * Router and decision-plane seam: pre-load the few actions a goal most likely needs. Actions are
   * ranked by BM25 (`rankActions`); the top `top` load when they score at least `minScore` and at
   * least a third of the best score. An MCP tool that duplicates a built-in (a filesystem server's
   * read_file) ranks below it and never loads for it. Returns the ids loaded.
   */
  preloadFor(goal: string, top = 8, minScore = 1.0): string[] {
    if (this.opts.mode === "all") return [];
    const core = new Set(this.coreIds());
    // The core actions are ranked too: what ranks below the best-matching core action is already
    // served by it (a built-in beats the MCP tool that duplicates it) and does not pre-load.
    const docs = this.registry
      .all()
      .filter((a) => a.id !== LOAD_ACTIONS)
      // Fanning out is the model's call, never a word's: "list the files" must not load list_agents.
      .filter((a) => a.capability !== "agents")
      .filter((a) => !(a.source.startsWith("mcp:") && BUILTIN_TWINS.test(a.id.replace(/^mcp__.+?__/, ""))))
      .map((a) => ({ id: a.id, text: `${a.id} ${a.id} ${a.description} ${paramText(this.registry.spec(a.id)?.inputSchema)}` }));
    const ranked = rankActions(goal, docs);
    const coreBest = ranked.find((r) => core.has(r.id))?.score ?? 0;
    const candidates = ranked.filter((r) => !core.has(r.id) && (!r.id.startsWith("mcp__") || r.score > coreBest));
    const best = candidates[0]?.score ?? 0;
    const chosen = candidates
      .filter((r) => r.score >= minScore && r.score >= best / 3)
      .slice(0, top)
      .map((r) => r.id);
    // A task about tests, a failure or the build runs the project's checks: offer what runs them.
    if (aboutChecks(goal)) for (const id of CHECK_ACTIONS) if (this.registry.get(id) && !core.has(id) && !chosen.includes(id)) chosen.push(id);
    // What the person's earlier tasks with these words called: only ever added to the words' picks.
    for (const r of this.recall(goal).slice(0, RECALL_TOP)) if (!chosen.includes(r.id)) chosen.push(r.id);
    if (chosen.length) this.load([], chosen);
    return chosen;
  }

  /** Whether the memory may hold an action: one the router could offer (not the core, not fanning out). */
  private memorable(id: string): boolean {
    const a = this.registry.get(id);
    return a !== undefined && id !== LOAD_ACTIONS && a.capability !== "agents" && !this.coreIds().includes(id);
  }

  /** Recalled actions scoring at least RECALL_MIN for a goal; none without a memory, or when it fails. */
  private recall(goal: string): RankedAction[] {
    if (!this.opts.memory) return [];
    const words = [...new Set(tokens(goal))];
    try {
      return recalledActions(words, this.opts.memory.recall(words)).filter((r) => r.score >= RECALL_MIN && this.memorable(r.id));
    } catch {
      return []; // a memory that cannot be read costs its suggestions, never the run
    }
  }

  /** Tells the memory which actions a finished task called (those the router could have offered). */
  remember(goal: string, called: readonly string[]): void {
    const ids = [...new Set(called)].filter((id) => this.memorable(id));
    if (!this.opts.memory || ids.length === 0 || this.opts.mode === "all") return;
    try {
      this.opts.memory.record(tokens(goal), ids);
    } catch {
      // a memory that cannot be written misses this task, nothing more
    }
  }
}

/** What runs the project's checks. */
const CHECK_ACTIONS = ["verify", "run_command"];

/** Parameter names and their descriptions from a JSON Schema, for ranking. */
function paramText(schema: Record<string, unknown> | undefined): string {
  const props = (schema?.properties ?? {}) as Record<string, { description?: string }>;
  return Object.entries(props)
    .map(([k, v]) => `${k} ${typeof v?.description === "string" ? v.description : ""}`)
    .join(" ");
}

/**
 * Every word of a JSON Schema: property names at any depth, descriptions, titles and enum values
 * (items, anyOf/oneOf/allOf and definitions included), for the catalog search. Pure.
 */
export function schemaWords(schema: unknown, depth = 0): string {
  if (depth > 8 || schema === null || typeof schema !== "object") return "";
  if (Array.isArray(schema)) return schema.map((x) => schemaWords(x, depth + 1)).join(" ");
  const out: string[] = [];
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if ((k === "description" || k === "title") && typeof v === "string") out.push(v);
    else if (k === "enum" && Array.isArray(v)) out.push(v.filter((x) => typeof x === "string").join(" "));
    else if (k === "properties" && v && typeof v === "object") for (const [name, sub] of Object.entries(v)) out.push(name, schemaWords(sub, depth + 1));
    else if (v && typeof v === "object") out.push(schemaWords(v, depth + 1));
  }
  return out.filter(Boolean).join(" ");
}

/** Actions a catalog search names at most. */
export const SEARCH_TOP = 5;

/** The `load_actions` action; its index is appended to the description each turn by `Disclosure.offer`. */
export function loadActionsAction(disclosure: () => Disclosure): Action {
  return defineAction({
    id: LOAD_ACTIONS,
    capability: "discovery",
    hint: "load the full definitions of more actions",
    description:
      "Load more actions by capability or id, or find them by `query` (words for what you need; the best matches across " +
      "every tool's name, description and parameters are loaded). They are offered from your next turn. Load only what the task needs.",
    input: z
      .object({
        capabilities: z.array(z.string()).optional().describe("capability names from the list below"),
        actions: z.array(z.string()).optional().describe("action ids"),
        query: z.string().optional().describe("words for what you need, e.g. 'open a ticket' or 'pods stuck pending'"),
      })
      .strict(),
    risk: "read",
    source: "builtin",
    readOnly: true,
    summary: (i) => [...(i.capabilities ?? []), ...(i.actions ?? []), ...(i.query ? [`"${i.query}"`] : [])].join(", "),
    async run(i) {
      const d = disclosure();
      const found = i.query ? d.search(i.query) : [];
      if (i.query && found.length === 0 && !i.capabilities?.length && !i.actions?.length)
        return `nothing in the catalog matches "${i.query}"; try other words, or load a capability from the list`;
      const ids = d.load(i.capabilities ?? [], [...(i.actions ?? []), ...found]);
      // Names only: this result is weir's own words, and a server's description is not.
      const best = i.query ? ` (the best matches for "${i.query}" first)` : "";
      return ids.length ? `loaded ${ids.join(", ")}${best}; call them from your next turn` : "nothing new to load: those actions are already available";
    },
  });
}
