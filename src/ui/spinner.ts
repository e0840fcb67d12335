import type { AgentEvent, Display } from "../core/events.ts";
import type { Sink } from "./plain.ts";
import type { Style } from "./style.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

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

/**
 * A one-line spinner on a terminal saying what the run waits for and for how long ("model thinking
 * 3s", "run_command running 12s"), so a slow model or tool can be told from a hung one. It draws on
 * its own line and erases it before anything else is printed; the wrapped display never sees it.
 */
export function withSpinner(
  inner: (out: Sink, log: Sink) => Display,
  out: Sink,
  log: Sink,
  style: Style,
  o: { intervalMs?: number; now?: () => number; /** Someone is typing on the spinner's line: do not draw over it. */ typing?: () => boolean } = {},
): Display & { stop(): void; hold(held: boolean): void } {
  const now = o.now ?? Date.now;
  let label: string | undefined;
  let since = 0;
  let frame = 0;
  let drawn = false;
  let held = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const clear = () => {
    if (drawn) log.write("\r\x1b[2K");
    drawn = false;
  };
  const draw = () => {
    if (!label || held) return;
    if (o.typing?.()) {
      clear();
      return;
    }
    const secs = Math.floor((now() - since) / 1000);
    log.write(`\r\x1b[2K${style.dim(`${FRAMES[frame++ % FRAMES.length]} ${label}${secs >= 1 ? ` ${secs}s` : ""}`)}`);
    drawn = true;
  };
  const guard = (s: Sink): Sink => ({
    write(t: string) {
      clear();
      s.write(t);
    },
  });
  const display = inner(guard(out), guard(log));
  const set = (next: string | undefined) => {
    if (next === label) return;
    if (next && next !== label) since = now();
    label = next;
    if (!label) {
      clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    } else if (!timer) {
      timer = setInterval(draw, o.intervalMs ?? 120);
      timer.unref?.();
    }
  };
  return {
    emit(e: AgentEvent) {
      display.emit(e);
      if (e.type !== "agent") set(waitingFor(e, label));
    },
    /** The terminal is needed by someone else (an approval prompt): erase and draw nothing until released. */
    hold(h: boolean) {
      if (h) clear();
      held = h;
    },
    stop() {
      set(undefined);
    },
  };
}
