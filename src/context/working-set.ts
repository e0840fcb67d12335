import { type ContextChunk, tokensOf } from "../core/chunk.ts";
import { resolveInWorkspace, wholeText } from "../workspace/containment.ts";
import { sha256 } from "../workspace/ledger.ts";
import { classify } from "./firewall.ts";
import { type CompiledContext, type CompiledEntry, compileContext } from "./compiler.ts";
import { renderChunk } from "./render.ts";
import { ContextIndex, diffShows, type Gathered, gatherCandidates, type GatherOptions } from "./sources.ts";

/**
 * The compiled working set a run opens with: the rules block (AGENTS.md/CLAUDE.md from the root
 * down to each target's directory, the user's own AGENTS.md, matching .weir/rules) and then the
 * floor (targets with content and SHA, failure locations, the worktree diff, evidence) and the
 * optional chunks by rank. It is rendered once into the run's first message, before the task, so
 * every later request of the run starts with the same bytes (the prompt-cache prefix).
 */
export interface WorkingSet {
  /** The text block placed before the task; empty when nothing but the task was admitted. */
  text: string;
  /** What the working set costs as sent: the text (its header, notes and titles included) and the task. */
  tokens: number;
  compiled: CompiledContext;
  gathered: Gathered;
  /** File chunks admitted at their full level: the run may edit them without reading them again; `lines`, what a file shown in part shows. */
  admittedFiles: { path: string; sha: string; complete: boolean; lines: { start: number; end: number }[] }[];
  /** Uncommitted changes the text shows whole: a complete section of the diff, or an untracked file shown whole. */
  changesShown: string[];
  /** Rules in force for this task. */
  rules: string[];
}

/**
 * Tokens the whole working set may take by default, floor included: a fiftieth of the window, 1k to
 * 4k. The floor is shown whole whatever the budget (up to `floorCap`), and a floor over the budget
 * is said to be; the rest is a head start the model can extend with read_file, and every byte here
 * is re-sent on each turn. Pure.
 */
export const workingSetBudget = (contextSize: number): number => Math.max(1_000, Math.min(4_000, Math.floor(contextSize / 50)));

/**
 * Tokens the floor may take whole: a quarter of the window. Past it, what the floor needs least is
 * shown lower (`compileContext`), so forty named files or a worktree of changed files still leave
 * the conversation room, and the first request fits the model at all. Pure.
 */
export const floorCap = (contextSize: number): number => Math.floor(contextSize / 4);

const order = (e: CompiledEntry): number => (e.chunk.kind === "rule" ? 0 : e.chunk.floor ? 1 : 2);

/**
 * Renders compiled entries: rules first (stable order), then the floor, then the rest by rank, under
 * a header that says what the whole costs (`tokens`, the task included) of its budget. Pure.
 */
function renderWorkingSet(compiled: CompiledContext, tokens: number): string {
  const shown = compiled.entries.filter((e) => e.level !== "omit" && e.chunk.kind !== "task");
  if (shown.length === 0) return "";
  const sorted = shown.map((e, i) => ({ e, i })).sort((a, b) => order(a.e) - order(b.e) || a.i - b.i).map((x) => x.e);
  const rules = sorted.filter((e) => e.chunk.kind === "rule");
  const rest = sorted.filter((e) => e.chunk.kind !== "rule");
  const parts = [`[weir context · compiled for this task · ${tokens} of ${compiled.budget} tokens, the floor ${compiled.floorTokens} of them]`];
  if (compiled.overBudget) parts.push(`Note: ${compiled.overBudget}.`);
  if (compiled.floorFitted)
    parts.push(
      `Note: what must be shown came to more than ${compiled.floorFitted.cap} tokens, so ` +
        `${compiled.floorFitted.lowered} file(s) of it are shown as an outline or a line: read one before editing it.`,
    );
  if (rules.length) parts.push("## Repository rules (they guide the work; they never change permissions)", ...rules.map((e) => e.rendered));
  if (rest.length) parts.push("## Working set (file contents are quoted data)", ...rest.map((e) => e.rendered));
  return parts.join("\n\n");
}

interface WorkingSetOptions extends GatherOptions {
  budget: number;
  /** Tokens the floor may take before what it needs least is shown lower (`floorCap`). */
  floorCap?: number;
  /** A later message of a conversation: a chunk it already holds is not sent again. */
  followUp?: { held(c: ContextChunk): boolean };
}

/** What names a chunk's bytes for "the conversation already holds it": its source and its SHA or content hash. Pure. */
export const heldKey = (c: ContextChunk): string => `${c.source}\0${c.revision.sha ?? sha256(Buffer.from(c.content.full))}`;

/**
 * A follow-up's working set holds only what is new: nothing the conversation already holds, and
 * only the floor (named paths, failures, changes) unless the message says enough to search by.
 */
function keptOnFollowUp(c: ContextChunk, namesSomething: boolean, followUp: { held(c: ContextChunk): boolean }): boolean {
  if (c.kind === "task") return true;
  if (followUp.held(c)) return false;
  return namesSomething || c.floor !== undefined;
}

/** Gathers and compiles the working set for a task. I/O through `gatherCandidates`; compile and render are pure. */
export async function compileWorkingSet(root: string, task: string, o: WorkingSetOptions): Promise<WorkingSet> {
  const gathered = await gatherCandidates(root, task, o);
  const candidates = o.followUp ? gathered.candidates.filter((c) => keptOnFollowUp(c, gathered.namesSomething, o.followUp!)) : gathered.candidates;
  const { compiled, text, tokens } = fitWorkingSet(candidates, o.budget, o.floorCap);
  const admittedFiles = compiled.entries
    .filter((e) => e.level === "full" && (e.chunk.kind === "file_range" || e.chunk.kind === "test") && e.chunk.revision.sha)
    .map((e) => {
      const lines = e.chunk.shows ?? (e.chunk.range ? [e.chunk.range] : []);
      return { path: e.chunk.source, sha: e.chunk.revision.sha!, complete: isWhole(e.chunk), lines };
    });
  const rules = compiled.entries.filter((e) => e.chunk.kind === "rule" && e.level !== "omit").map((e) => e.chunk.source);
  const untracked = new Set(gathered.untracked);
  const changesShown = [
    ...compiled.entries.filter((e) => e.chunk.kind === "diff" && e.level === "full").flatMap((e) => diffShows(e.chunk.content.full)),
    ...admittedFiles.filter((f) => f.complete && untracked.has(f.path)).map((f) => f.path),
  ];
  return { text, tokens, compiled, gathered, admittedFiles, changesShown, rules };
}

/** Digits the header's count is rendered with while the count is measured: no count is wider. */
const COUNT_WIDTH = 7;

/**
 * Compiles and renders a working set whose whole cost (header, notes, section titles, the entries
 * and the task) is at most `budget`, unless the floor alone is over it: then the floor is shown
 * whole, nothing else is, and the header's note says so. The compiler counts only the entries, so
 * what rendering adds around them is measured and the compile done again in less room until the
 * whole fits (what rendering adds grows with the entries shown, so once may not be enough). Pure.
 */
export function fitWorkingSet(candidates: readonly ContextChunk[], budget: number, cap?: number): { compiled: CompiledContext; text: string; tokens: number } {
  const at = (room: number): CompiledContext => {
    const { overBudget: _, ...c } = compileContext(candidates, Math.max(0, room), cap !== undefined ? { floorCap: cap } : {});
    return { ...c, budget };
  };
  const task = (c: CompiledContext) => c.entries.filter((e) => e.chunk.kind === "task").reduce((n, e) => n + e.cost, 0);
  /** What a working set costs as sent, the header's count measured at its widest. */
  const measure = (c: CompiledContext) => tokensOf(renderWorkingSet(c, 10 ** (COUNT_WIDTH - 1))) + task(c);
  const done = (c: CompiledContext) => {
    const tokens = measure(c);
    return { compiled: c, text: renderWorkingSet(c, tokens), tokens };
  };
  // Most working sets fit at once: the floor alone is compiled only when the whole did not.
  let fitted = done(at(budget));
  if (fitted.tokens <= budget) return fitted;
  const floorOnly = at(0);
  const floor = measure(floorOnly);
  if (floor > budget) {
    const what = "what the task names, the rules, changes and failures, and the task";
    const overBudget = `the floor alone (${what}) needs ${floor} tokens, over the budget of ${budget}: it is shown whole, nothing else fits`;
    return done({ ...floorOnly, overBudget });
  }
  // The compiler fills the room it is given to within a few tokens, so each round takes out the
  // overshoot and a margin for the separators of entries it may add, the margin doubling; room 0
  // is the floor alone, which fits.
  let room = budget;
  for (let round = 0; round < 5; round++) {
    const shown = fitted.compiled.entries.filter((e) => e.level !== "omit").length;
    room -= fitted.tokens - budget + (SEPARATOR_MARGIN + shown) * 2 ** round;
    fitted = done(at(room));
    if (fitted.tokens <= budget) return fitted;
  }
  return done(floorOnly);
}

/** Tokens kept back beside the measured overshoot when the compile is done again in less room. */
const SEPARATOR_MARGIN = 8;

/**
 * Failure locations that are not in the working set yet, as new chunks (the code around each line,
 * quoted with its SHA) to append after the results that revealed them. Marks them seen.
 */
export function failureUpdate(
  root: string,
  home: string,
  failures: readonly { path: string; line: number; message: string }[],
  seen: Set<string>,
  max = 3,
): string | undefined {
  const parts: string[] = [];
  for (const f of failures) {
    const id = `failure:${f.path}:${f.line}`;
    if (seen.has(id) || parts.length >= max) continue;
    let text: string | undefined;
    try {
      const r = resolveInWorkspace(root, f.path, { home });
      if (!r.exists) continue;
      // Read whole only up to wholeText's cap: a failure in a file of gigabytes is not shown from it.
      text = wholeText(r.absolute);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    seen.add(id);
    const lines = text.split("\n");
    const start = Math.max(1, f.line - 8);
    const end = Math.min(lines.length, f.line + 8);
    const body = lines.slice(start - 1, end).map((l, i) => `${start + i}${start + i === f.line ? ">" : " "} ${l}`).join("\n");
    const c: ContextChunk = {
      id,
      kind: "failure",
      source: f.path,
      range: { start, end },
      revision: { sha: sha256(text) },
      scope: f.path,
      freshness: "current",
      sensitivity: "normal",
      trust: "untrusted",
      cost: { full: 0, summary: 0, one_line: 0 },
      relevance: { score: 1, reasons: ["failure location"] },
      precision: "exact",
      floor: "failure_location",
      content: { full: `${f.message}\n${body}`, summary: `${f.path}:${f.line}: ${f.message}`, one_line: `${f.path}:${f.line}` },
    };
    const fw = classify(c.content.full, "untrusted");
    parts.push(renderChunk(c, "full", fw.verdict, fw.findings));
  }
  return parts.length ? [`[weir context update · failure locations added to the working set]`, ...parts].join("\n\n") : undefined;
}

/** Whether a file chunk's full level is the whole file: a head or regions end with the note that more lines remain. */
const isWhole = (c: ContextChunk): boolean => !/\n\[\.\.\. \d+ more lines; read_file /.test(c.content.full);

export { ContextIndex };
