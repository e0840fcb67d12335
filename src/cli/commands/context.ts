import { homedir } from "node:os";
import { compileContext } from "../../context/compiler.ts";
import { gatherCandidates } from "../../context/sources.ts";
import { usageError } from "../../core/errors.ts";
import type { ParsedArgs } from "../args.ts";

/** `weir context "<goal>" [--budget N] [--json]`: compiles and explains the context for a goal. */
export async function contextCommand(args: ParsedArgs, workspace: string, contextSize: number, out: (s: string) => void): Promise<number> {
  const goal = args.command.slice(1).join(" ").trim();
  if (!goal) throw usageError('weir context needs a goal: weir context "fix the failing parser test"');
  const budget = args.budget ?? Math.floor(contextSize / 4);
  const started = performance.now();
  const g = await gatherCandidates(workspace, goal, { home: process.env.HOME ?? homedir() });
  const compiled = compileContext(g.candidates, budget);
  const ms = performance.now() - started;
  if (args.json) {
    out(
      `${JSON.stringify(
        {
          goal,
          budget,
          used: compiled.used,
          floorTokens: compiled.floorTokens,
          overBudget: compiled.overBudget ?? null,
          filesWalked: g.filesWalked,
          head: g.head ?? null,
          refused: g.refused,
          ms: Math.round(ms),
          entries: compiled.entries.map((e) => ({
            id: e.chunk.id,
            kind: e.chunk.kind,
            source: e.chunk.source,
            level: e.level,
            cost: e.cost,
            costs: e.chunk.cost,
            floor: e.chunk.floor ?? null,
            trust: e.chunk.trust,
            verdict: e.verdict,
            findings: e.findings,
            relevance: e.chunk.relevance,
            precision: e.chunk.precision,
            revision: e.chunk.revision,
            why: e.why,
          })),
          text: compiled.text,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  out(`goal: ${goal}\nbudget ${budget} tokens, used ${compiled.used} (floor ${compiled.floorTokens}); ${g.filesWalked} files walked in ${Math.round(ms)} ms\n`);
  if (compiled.overBudget) out(`warning: ${compiled.overBudget}\n`);
  for (const r of g.refused) out(`refused ${r.path}: ${r.reason}\n`);
  out("\nlevel      tokens  verdict           source\n");
  for (const e of compiled.entries)
    out(`${e.level.padEnd(9)}  ${String(e.cost).padStart(6)}  ${e.verdict.padEnd(16)}  ${e.chunk.kind} ${e.chunk.source}\n${" ".repeat(19)}${e.why}${e.findings.length ? `; ${e.findings.map((f) => `${f.rule} (lines ${f.startLine}-${f.endLine})`).join(", ")}` : ""}\n`);
  if (args.config.verbose) out(`\n--- compiled context ---\n${compiled.text}\n`);
  return 0;
}
