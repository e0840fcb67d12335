import type { ContextChunk, RenderLevel } from "../core/chunk.ts";
import { tokensOf } from "../core/chunk.ts";
import { classify, type Finding, type Verdict } from "./firewall.ts";
import { renderChunk } from "./render.ts";
import { byCodePoint } from "./lexical.ts";

export interface CompiledEntry {
  chunk: ContextChunk;
  level: RenderLevel;
  /** Tokens this entry costs at its level (header included). */
  cost: number;
  verdict: Verdict;
  findings: Finding[];
  /** Why it is in, at this level, or left out. */
  why: string;
  /** The entry as the model reads it at its level (header included); empty when left out. */
  rendered: string;
}

export interface CompiledContext {
  entries: CompiledEntry[];
  /** What the entries may cost in all, floor included. */
  budget: number;
  used: number;
  floorTokens: number;
  /** Set when the floor alone exceeds the budget: it is shown whole anyway, and this says so. */
  overBudget?: string;
  /** Set when the floor was larger than its cap and files in it are shown at a lower level: how many, and the cap. */
  floorFitted?: { lowered: number; cap: number };
  text: string;
}

const LEVELS: RenderLevel[] = ["full", "summary", "one_line"];
/** The share of the budget left after the floor that one-line pointers may take first. */
const POINTER_SHARE = 0.15;

/** What a chunk contributes at a level before any flag: stale text conflicts, a weak match is irrelevant. Pure. */
function baseVerdict(c: ContextChunk, irrelevantBelow: number): Verdict {
  if (c.freshness === "stale") return "conflict";
  return !c.floor && c.relevance.score < irrelevantBelow ? "irrelevant" : "evidence";
}

const contentAt = (c: ContextChunk, level: RenderLevel): string =>
  level === "full" ? c.content.full : level === "summary" ? c.content.summary : c.content.one_line;

/** An entry at one level as the model would read it, flagged or not. */
interface View {
  verdict: Verdict;
  findings: Finding[];
  text: string;
  cost: number;
}

/**
 * candidates → filters (dedupe, secrets out, stale marked) → relevance order → render policy, with
 * the firewall reading each level's text as it would enter: a file shown as a one-line pointer is
 * flagged for that line, not for the body the model does not get. Pure and deterministic: the same
 * candidates and budget give the same context. The floor (user-named targets, changed files,
 * failure locations, edit targets, current evidence, sticky rules) is rendered in full, unless it
 * is over `floorCap`: then what it needs least is shown lower until it fits, never left out;
 * everything else gets the highest level that still fits in what the floor left of the budget,
 * most relevant first. A floor over the budget is shown anyway, and `overBudget` says so.
 */
export function compileContext(
  candidates: readonly ContextChunk[],
  budget: number,
  opts: { irrelevantBelow?: number; floorCap?: number } = {},
): CompiledContext {
  const base = (c: ContextChunk) => baseVerdict(c, opts.irrelevantBelow ?? 0.05);
  const seen = new Set<string>();
  const entries: CompiledEntry[] = [];
  const pending: CompiledEntry[] = [];
  for (const c of candidates) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (c.sensitivity === "secret") {
      entries.push({ chunk: c, level: "omit", cost: 0, verdict: "irrelevant", findings: [], why: "secret material is never admitted", rendered: "" });
      continue;
    }
    pending.push({ chunk: c, level: "omit", cost: 0, verdict: base(c), findings: [], why: "", rendered: "" });
  }
  // Each level of each chunk is rendered and judged at most once (ids are unique here). The render
  // without a flag bounds a level's cost from below, since a flag only adds a warning: a level that
  // cannot fit even so is never judged.
  const plain = new Map<string, string>();
  const judged = new Map<string, View>();
  const view = (e: CompiledEntry, level: RenderLevel, room = Infinity): View | undefined => {
    const key = `${e.chunk.id}\0${level}`;
    let v = judged.get(key);
    if (!v) {
      // Rendering (redaction, clean-up) is most of a compile's cost, and most levels tried do not
      // fit: a level whose text is over twice the room before it is not rendered, since redaction
      // and clean-up would have to remove half of it.
      if (tokensOf(contentAt(e.chunk, level)) > 2 * room) return undefined;
      let text = plain.get(key);
      if (text === undefined) plain.set(key, (text = renderChunk(e.chunk, level, base(e.chunk), [])));
      if (tokensOf(text) > room) return undefined;
      const fw = classify(contentAt(e.chunk, level), e.chunk.trust);
      const flagged = fw.verdict === "instruction_like";
      if (flagged) text = renderChunk(e.chunk, level, fw.verdict, fw.findings);
      v = { verdict: flagged ? fw.verdict : base(e.chunk), findings: fw.findings, text, cost: tokensOf(text) };
      judged.set(key, v);
    }
    return v.cost <= room ? v : undefined;
  };
  let used = 0;
  const take = (e: CompiledEntry, level: RenderLevel, v: View) => {
    used += v.cost - e.cost;
    Object.assign(e, { level, cost: v.cost, verdict: v.verdict, findings: v.findings, rendered: v.text });
  };

  const floor = pending.filter((e) => e.chunk.floor);
  for (const e of floor) {
    take(e, "full", view(e, "full")!);
    e.why = `floor (${e.chunk.floor}): never dropped or demoted`;
  }
  // A floor over its cap (a share of the model's context) is never dropped, but what it needs least
  // goes lower, stage by stage, largest first, until it fits: a changed file's body (its diff shows
  // the change), then the files the task names, then the diff itself. Failure locations, rules and
  // the task stay whole.
  let lowered = 0;
  const cap = opts.floorCap;
  if (cap !== undefined && used > cap) {
    const files = (reason: string) =>
      floor.filter((e) => e.chunk.floor === reason && e.chunk.kind !== "diff").sort((a, b) => b.cost - a.cost || floor.indexOf(b) - floor.indexOf(a));
    const diffs = floor.filter((e) => e.chunk.kind === "diff");
    const stages: [CompiledEntry[], RenderLevel][] = [
      [files("changed"), "summary"],
      [files("changed"), "one_line"],
      [[...files("user_named"), ...files("edit_target")], "summary"],
      [[...files("user_named"), ...files("edit_target")], "one_line"],
      [diffs, "summary"],
    ];
    for (const [entries, level] of stages) {
      for (const e of entries) {
        if (used <= cap) break;
        const v = view(e, level);
        if (!v || v.cost >= e.cost) continue;
        if (e.level === "full") lowered++;
        take(e, level, v);
        e.why = `floor (${e.chunk.floor}): ${level.replace("_", "-")}, to fit the floor's cap of ${cap} tokens; read it before an edit`;
      }
    }
  }
  const floorTokens = used;
  const limit = budget;
  const rest = pending
    .filter((e) => !e.chunk.floor)
    .sort((a, b) => b.chunk.relevance.score - a.chunk.relevance.score || byCodePoint(a.chunk.id, b.chunk.id));
  const relevant = rest.filter((e) => e.verdict !== "irrelevant");
  for (const e of rest) if (e.verdict === "irrelevant") e.why = `irrelevant to the goal (relevance ${e.chunk.relevance.score.toFixed(2)})`;
  // First a one-line pointer for each relevant chunk, most relevant first, within a share of what
  // the floor left: a file the budget cannot show is at least named.
  const pointers = used + Math.max(0, limit - used) * POINTER_SHARE;
  for (const e of relevant) {
    const v = view(e, "one_line", pointers - used);
    if (!v) break;
    take(e, "one_line", v);
  }
  // Then, in the same order, each is raised to the highest level the budget still allows.
  for (const e of relevant) {
    for (const level of LEVELS) {
      if (level === e.level) break;
      const v = view(e, level, limit - used + e.cost);
      if (v) {
        take(e, level, v);
        break;
      }
    }
    e.why =
      e.level === "omit"
        ? `left out: no room in the budget at any level (relevance ${e.chunk.relevance.score.toFixed(2)})`
        : `relevance ${e.chunk.relevance.score.toFixed(2)} ` +
          `(${e.chunk.relevance.reasons.join(", ") || "no reasons"})${e.level !== "full" ? `; ${e.level.replace("_", "-")} to fit the budget` : ""}`;
  }
  const all = [...entries, ...floor, ...rest];
  const over = `the floor alone needs ${floorTokens} tokens, over the budget of ${budget}: it is shown whole, nothing else fits`;
  const overBudget = floorTokens > budget ? over : undefined;
  const text = all
    .filter((e) => e.level !== "omit")
    .map((e) => e.rendered)
    .join("\n\n");
  const fitted = lowered && cap !== undefined ? { floorFitted: { lowered, cap } } : {};
  return { entries: all, budget, used, floorTokens, ...(overBudget ? { overBudget } : {}), ...fitted, text };
}
