import { counted } from "../../core/text-fit.ts";
import type { Resolved } from "../../config/resolve.ts";
import type { WorkingSet } from "../../context/working-set.ts";
import { usageError } from "../../core/errors.ts";
import type { ParsedArgs } from "../args.ts";

/**
 * `weir context "<goal>" [--budget N] [--json]`: the exact first request a run of that task would
 * send (built by the same loop, seams and wire adapter, without calling the model), with each chunk
 * of its compiled working set explained.
 */
export async function contextCommand(args: ParsedArgs, workspace: string, resolved: Resolved, out: (s: string) => void): Promise<number> {
  const goal = args.command.slice(1).join(" ").trim();
  if (!goal) throw usageError('weir context needs a goal: weir context "fix the failing parser test"');
  const started = performance.now();
  let ws: WorkingSet | undefined;
  const { buildRuntime } = await import("../runtime.ts");
  const { runOptions } = await import("../run-options.ts");
  const rt = await buildRuntime(runOptions(args), workspace, resolved, {
    preview: true,
    onWorkingSet: (w) => {
      ws = w;
    },
  });
  let request: Record<string, unknown>;
  const wire = rt.conversation.provider.settings.wire;
  try {
    request = rt.conversation.provider.wireBody(await rt.conversation.preview(goal));
  } finally {
    await rt.close();
  }
  const ms = performance.now() - started;
  if (!ws) throw new Error("no working set was compiled");
  const { compiled, gathered: g } = ws;
  const bytes = Buffer.byteLength(JSON.stringify(request));
  if (args.json) {
    out(
      `${JSON.stringify(
        {
          goal,
          wire,
          budget: compiled.budget,
          // The budget is what the whole working set costs as sent (tokens), over it only by a floor overBudget states.
          beyondFloor: false,
          tokens: ws.tokens,
          used: compiled.used,
          floorTokens: compiled.floorTokens,
          overBudget: compiled.overBudget ?? null,
          filesWalked: g.filesWalked,
          head: g.head ?? null,
          refused: g.refused,
          rules: ws.rules,
          ms: Math.round(ms),
          requestBytes: bytes,
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
            // The lines a long file's regions show at the full level; null where it shows one range or none.
            shows: e.level === "full" ? (e.chunk.shows ?? null) : null,
            why: e.why,
          })),
          text: ws.text,
          request,
        },
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  const spent = `${ws.tokens} of ${compiled.budget} tokens, the floor ${compiled.floorTokens} of them`;
  out(`goal: ${goal}\nworking set: ${spent}; ${counted(g.filesWalked, "file")} walked; first request ${bytes} bytes; ${Math.round(ms)} ms\n`);
  if (compiled.overBudget) out(`warning: ${compiled.overBudget}\n`);
  for (const r of g.refused) out(`refused ${r.path}: ${r.reason}\n`);
  out("\nlevel      tokens  verdict           source\n");
  for (const e of compiled.entries) {
    const sha = e.chunk.revision.sha ? ` @${e.chunk.revision.sha.slice(0, 12)}` : "";
    const findings = e.findings.map((f) => `${f.rule} (lines ${f.startLine}-${f.endLine})`).join(", ");
    out(`${e.level.padEnd(9)}  ${String(e.cost).padStart(6)}  ${e.verdict.padEnd(16)}  ${e.chunk.kind} ${e.chunk.source}${sha}\n`);
    const shows = e.level === "full" && e.chunk.shows ? `; shows lines ${e.chunk.shows.map((r) => `${r.start}-${r.end}`).join(", ")}` : "";
    out(`${" ".repeat(19)}${e.why}${shows}${findings ? `; ${findings}` : ""}\n`);
  }
  if (args.config.verbose) out(`\n--- the first request (wire body) ---\n${JSON.stringify(request, null, 2)}\n`);
  return 0;
}
