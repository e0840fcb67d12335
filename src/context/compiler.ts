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
}

export interface CompiledContext {
  entries: CompiledEntry[];
  budget: number;
  used: number;
  floorTokens: number;
  /** Set when the floor alone exceeds the budget: it is shown whole anyway, and this says so. */
  overBudget?: string;
  text: string;
}

const LEVELS: RenderLevel[] = ["full", "summary", "one_line"];
/** The share of the budget left after the floor that one-line pointers may take first. */
const POINTER_SHARE = 0.15;

/**
 * candidates → filters (dedupe, secrets out, stale marked) → firewall → relevance order → render
 * policy. Pure and deterministic: the same candidates and budget give the same context. The floor
 * (user-named targets, changed files, failure locations, edit targets, current evidence, sticky
 * rules) is always rendered in full; everything else gets the highest level that still fits,
 * most relevant first.
 */
export function compileContext(candidates: readonly ContextChunk[], budget: number, opts: { irrelevantBelow?: number } = {}): CompiledContext {
  const seen = new Set<string>();
  const entries: CompiledEntry[] = [];
  const pending: CompiledEntry[] = [];
  for (const c of candidates) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (c.sensitivity === "secret") {
      entries.push({ chunk: c, level: "omit", cost: 0, verdict: "irrelevant", findings: [], why: "secret material is never admitted" });
      continue;
    }
    const fw = classify(c.content.full, c.trust);
    let verdict: Verdict = fw.verdict;
    if (verdict === "evidence" && c.freshness === "stale") verdict = "conflict";
    if (verdict === "evidence" && !c.floor && c.relevance.score < (opts.irrelevantBelow ?? 0.05)) verdict = "irrelevant";
    pending.push({ chunk: c, level: "omit", cost: 0, verdict, findings: fw.findings, why: "" });
  }
  const costAt = (e: CompiledEntry, level: RenderLevel) => tokensOf(renderChunk(e.chunk, level, e.verdict, e.findings));

  let used = 0;
  const floor = pending.filter((e) => e.chunk.floor);
  for (const e of floor) {
    e.level = "full";
    e.cost = costAt(e, "full");
    e.why = `floor (${e.chunk.floor}): never dropped or demoted`;
    used += e.cost;
  }
  const floorTokens = used;
  const rest = pending
    .filter((e) => !e.chunk.floor)
    .sort((a, b) => b.chunk.relevance.score - a.chunk.relevance.score || byCodePoint(a.chunk.id, b.chunk.id));
  const relevant = rest.filter((e) => e.verdict !== "irrelevant");
  for (const e of rest) if (e.verdict === "irrelevant") e.why = `irrelevant to the goal (relevance ${e.chunk.relevance.score.toFixed(2)})`;
  // First a one-line pointer for each relevant chunk, most relevant first, within a share of what
  // the floor left: a file the budget cannot show is at least named.
  const pointers = used + Math.max(0, budget - used) * POINTER_SHARE;
  for (const e of relevant) {
    const cost = costAt(e, "one_line");
    if (used + cost > pointers) break;
    e.level = "one_line";
    e.cost = cost;
    used += cost;
  }
  // Then, in the same order, each is raised to the highest level the budget still allows.
  for (const e of relevant) {
    for (const level of LEVELS) {
      if (level === e.level) break;
      const cost = costAt(e, level);
      if (used - e.cost + cost <= budget) {
        used += cost - e.cost;
        e.level = level;
        e.cost = cost;
        break;
      }
    }
    e.why =
      e.level === "omit"
        ? `left out: no room in the budget at any level (relevance ${e.chunk.relevance.score.toFixed(2)})`
        : `relevance ${e.chunk.relevance.score.toFixed(2)} (${e.chunk.relevance.reasons.join(", ") || "no reasons"})${e.level !== "full" ? `; ${e.level.replace("_", "-")} to fit the budget` : ""}`;
  }
  const all = [...entries, ...floor, ...rest];
  const overBudget = floorTokens > budget ? `the floor alone needs ${floorTokens} tokens, over the budget of ${budget}: it is shown whole, nothing else fits` : undefined;
  const text = all
    .filter((e) => e.level !== "omit")
    .map((e) => renderChunk(e.chunk, e.level, e.verdict, e.findings))
    .join("\n\n");
  return { entries: all, budget, used, floorTokens, ...(overBudget ? { overBudget } : {}), text };
}
