import type { AgentEvent, Display } from "../core/events.ts";
import type { Sink } from "./plain.ts";

/** `--output-format stream-json`: one JSON object per event, one per line, as it happens. */
export function streamJsonDisplay(out: Sink): Display {
  return { emit: (e: AgentEvent) => out.write(`${JSON.stringify(e)}\n`) };
}

/** `--output-format json`: one object when the run ends (final text, usage, turns, session id). */
export function jsonDisplay(out: Sink, extra: () => Record<string, unknown> = () => ({})): Display {
  return {
    emit(e: AgentEvent) {
      if (e.type !== "run_end") return;
      const { type: _type, ...rest } = e;
      out.write(`${JSON.stringify({ ...rest, ...extra() })}\n`);
    },
  };
}
