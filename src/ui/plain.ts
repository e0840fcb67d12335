import type { AgentEvent, Display } from "../core/events.ts";
import { promptTokens } from "../core/usage.ts";
import type { Style } from "./style.ts";

export interface Sink {
  write(s: string): void;
}

/**
 * The plain line log for pipes and one-shot runs. The answer streams to `out`; tool echoes, retries
 * and notices go to `log` (stderr), so `weir "task" > answer.txt` captures just the answer.
 */
export function plainDisplay(out: Sink, log: Sink, style: Style, verbose: boolean): Display {
  let midLine = false;
  const line = (s: string) => {
    if (midLine) out.write("\n");
    midLine = false;
    log.write(`${s}\n`);
  };
  return {
    emit(e: AgentEvent) {
      switch (e.type) {
        case "text_delta":
          out.write(e.text);
          midLine = !e.text.endsWith("\n");
          return;
        case "reasoning_delta":
          if (verbose) log.write(style.dim(e.text));
          return;
        case "retry":
          line(style.yellow(`retrying (attempt ${e.attempt}) in ${(e.delayMs / 1000).toFixed(1)}s: ${e.reason}`));
          return;
        case "tool_call":
          line(style.cyan(`▸ ${e.call.name} ${e.summary}`));
          return;
        case "tool_result": {
          const head = e.preview.split("\n").map((l) => `  ${l}`).join("\n");
          line(e.isError ? style.red(head) : style.dim(head));
          return;
        }
        case "turn_end":
          if (verbose) line(style.dim(`turn ${e.turn}: ${promptTokens(e.usage)} in (${e.usage.cacheRead} cached), ${e.usage.output} out`));
          return;
        case "notice":
          line(e.level === "warn" ? style.yellow(e.message) : style.dim(e.message));
          return;
        case "run_end":
          if (midLine) out.write("\n");
          midLine = false;
          if (e.error) log.write(`${style.red(`weir: ${e.error}`)}\n`);
          return;
        case "agent": {
          // A worker's steps, indented under the main agent's and named, never mixed into its answer.
          const w = e.event;
          const who = `  ↳ ${e.agent} ${e.label}`;
          if (w.type === "tool_call") line(style.dim(`${who} ▸ ${w.call.name} ${w.summary}`));
          else if (w.type === "tool_result" && w.isError) line(style.red(`${who}   ${w.preview.split("\n")[0]}`));
          else if (w.type === "notice") line(style.dim(`${who}: ${w.message}`));
          else if (w.type === "run_end") line(style.dim(`${who} finished (${w.stop}, ${w.turns} turns)`));
          return;
        }
        default:
          return;
      }
    },
  };
}
