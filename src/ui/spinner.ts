import type { AgentEvent } from "../core/events.ts";

/** What the run is waiting for, from the events so far; undefined while output flows. Pure. */
export function waitingFor(e: AgentEvent, current: string | undefined): string | undefined {
  switch (e.type) {
    case "turn_start":
      return "model thinking";
    case "reasoning_delta":
      return "model reasoning";
    case "text_delta":
      return undefined;
    case "tool_call":
      return `${e.call.name} running`;
    case "tool_result":
      return "model thinking";
    case "retry":
      return `retrying (attempt ${e.attempt})`;
    case "turn_end":
      return current?.endsWith("running") ? current : undefined;
    case "run_end":
      return undefined;
    default:
      return current;
  }
}
