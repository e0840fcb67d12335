import type { AgentEvent, Display } from "../core/events.ts";

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

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A one-shot run on a terminal: while the run waits for the model, one line on stderr says so and for
 * how long (not while a tool runs: an approval prompt may own the terminal then); it is erased before anything else is printed, so the log and the answer stay
 * as they would be without it. The REPL has its own pane.
 */
export function withSpinner(display: Display, err: { write(s: string): void }, now = () => Date.now()): Display {
  let label: string | undefined;
  let since = 0;
  let frame = 0;
  let shown = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const clear = () => {
    if (shown) err.write("\r\x1b[2K");
    shown = false;
  };
  const draw = () => {
    if (!label) return;
    const secs = Math.floor((now() - since) / 1000);
    err.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label}${secs >= 1 ? ` ${secs}s` : ""} · Ctrl-C cancels`);
    shown = true;
  };
  return {
    emit(e: AgentEvent) {
      clear();
      display.emit(e);
      // Only waits on the model: while a tool runs, an approval prompt may own the terminal.
      const waits = waitingFor(e, label);
      const next = waits && !waits.endsWith("running") ? waits : undefined;
      if (next !== label) since = now();
      label = next;
      if (e.type === "run_end" && timer) {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      if (label && !timer) {
        timer = setInterval(draw, 120);
        timer.unref?.();
      }
      draw();
    },
  };
}
