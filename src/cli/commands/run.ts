import { noTools, runTask } from "../../agent/run.ts";
import { systemPrompt } from "../../agent/prompt.ts";
import { providerSettings, requireKey, type Resolved } from "../../config/resolve.ts";
import type { Display } from "../../core/events.ts";
import { createProvider } from "../../providers/index.ts";
import { jsonDisplay, streamJsonDisplay } from "../../ui/json.ts";
import { plainDisplay, type Sink } from "../../ui/plain.ts";
import { makeStyle } from "../../ui/style.ts";

export interface RunIO {
  stdout: Sink;
  stderr: Sink;
  isTTY: boolean;
}

export function displayFor(resolved: Resolved, io: RunIO): Display {
  const s = resolved.settings;
  if (s.outputFormat === "json") return jsonDisplay(io.stdout, () => ({ provider: s.provider, model: s.model }));
  if (s.outputFormat === "stream-json") return streamJsonDisplay(io.stdout);
  return plainDisplay(io.stdout, io.stderr, makeStyle(s.color && io.isTTY), s.verbose);
}

const EXIT = { end_turn: 0, max_turns: 1, max_tokens: 1, refusal: 1, error: 1, cancelled: 130 } as const;

/** One-shot: run the task, print per --output-format, exit with the run's status. */
export async function runCommand(task: string, workspace: string, resolved: Resolved, io: RunIO, signal: AbortSignal): Promise<number> {
  requireKey(resolved);
  const s = resolved.settings;
  const provider = await createProvider(providerSettings(resolved), resolved.preset.hint);
  const display = displayFor(resolved, io);
  display.emit({ type: "run_start", provider: s.provider, model: s.model, task });
  const result = await runTask({
    provider,
    system: systemPrompt(workspace),
    history: [],
    task,
    tools: [],
    execute: noTools,
    maxTurns: s.maxTurns,
    maxTokens: s.maxTokens,
    display,
    signal,
  });
  return EXIT[result.stop];
}
