import type { AgentEvent, Display } from "../core/events.ts";
import type { ToolDetails } from "../core/messages.ts";
import { promptTokens } from "../core/usage.ts";
import { MarkdownStream } from "./markdown.ts";
import type { Style } from "./style.ts";
import { visibleEvent } from "./visible.ts";

/** A unified diff for the log: file headers dropped, hunks coloured, at most `max` lines. Pure. */
export function diffForLog(diff: string, style: Style, max = 40): string {
  const lines = diff.split("\n").filter((l) => !/^(?:Index: |={10,}|--- |\+\+\+ |\\ No newline)/.test(l) && l !== "");
  const paint = (l: string) => (l.startsWith("+") ? style.green(l) : l.startsWith("-") ? style.red(l) : l.startsWith("@@") ? style.cyan(l) : style.dim(l));
  const shown = lines.slice(0, max).map((l) => `  ${paint(l)}`);
  if (lines.length > max) shown.push(style.dim(`  … ${lines.length - max} more diff lines`));
  return shown.join("\n");
}

/** A command's result for the log: the command, the last lines of its output, and how it ended. Pure. */
export function commandForLog(content: string, style: Style, isError: boolean, tail = 3): string {
  const lines = content.replace(/\n+$/, "").split("\n");
  const head = lines[0] ?? "";
  const statusAt = lines.findLastIndex((l) => /^\[(?:exit code|timed out|stopped|ended by signal)/.test(l));
  const status = statusAt >= 0 ? lines.slice(statusAt) : [];
  const output = lines.slice(1, statusAt >= 0 ? statusAt : undefined).filter((l) => l.trim() !== "");
  const cut = output.length > tail ? [style.dim(`  … ${output.length - tail} lines above`)] : [];
  const body = output.slice(-tail).map((l) => `  ${l}`);
  const end = status.map((l) => `  ${isError ? style.red(l) : style.dim(l)}`);
  return [`  ${style.dim(head)}`, ...cut, ...body.map((l) => style.dim(l)), ...end].join("\n");
}

const isWrite = (d: ToolDetails | undefined): d is Extract<ToolDetails, { kind: "write" }> => d?.kind === "write";

export interface Sink {
  write(s: string): void;
}

/**
 * The plain line log for pipes and one-shot runs. The answer streams to `out`; tool echoes, retries
 * and notices go to `log` (stderr), so `weir "task" > answer.txt` captures just the answer.
 */
export function plainDisplay(
  out: Sink,
  log: Sink,
  style: Style,
  verbose: boolean,
  opts: { markdown?: boolean; columns?: number } = {},
): Display & { held(): string } {
  let midLine = false;
  // Rendered Markdown only where a person reads colour (a terminal), as wide as it is; a pipe gets the source.
  const md = opts.markdown ? new MarkdownStream((text) => Bun.markdown.ansi(text, { columns: opts.columns ?? 80 })) : undefined;
  const flush = () => {
    const rest = md?.end();
    if (rest) {
      out.write(rest);
      midLine = !rest.endsWith("\n");
    }
  };
  const line = (s: string) => {
    if (midLine) out.write("\n");
    midLine = false;
    log.write(`${s}\n`);
  };
  // Reasoning is folded to one dim line when it closes (the whole of it with --verbose).
  // Counted when it closes: a delta may end mid-word.
  const thought: { startedAt?: number; text: string } = { text: "" };
  const foldThought = () => {
    if (thought.startedAt === undefined) return;
    const secs = Math.max(0, Math.round((Date.now() - thought.startedAt) / 1000));
    line(style.dim(`thought for ${secs}s (${(thought.text.match(/\S+/g) ?? []).length} words)`));
    thought.startedAt = undefined;
    thought.text = "";
  };
  return {
    held: () => md?.held() ?? "",
    emit(raw: AgentEvent) {
      const e = visibleEvent(raw);
      if (e.type !== "reasoning_delta" && e.type !== "agent") foldThought();
      switch (e.type) {
        case "text_delta": {
          const shown = md ? md.push(e.text) : e.text;
          if (shown === "") return;
          out.write(shown);
          midLine = !shown.endsWith("\n");
          return;
        }
        case "reasoning_delta":
          if (verbose) log.write(style.dim(e.text));
          else {
            thought.startedAt ??= Date.now();
            thought.text += e.text;
          }
          return;
        case "retry":
          line(style.yellow(`retrying (attempt ${e.attempt}) in ${(e.delayMs / 1000).toFixed(1)}s: ${e.reason}`));
          return;
        case "tool_call":
          flush();
          line(style.cyan(`▸ ${e.call.name} ${e.summary}`));
          return;
        case "tool_result": {
          // An edit shows its diff; a command its last lines and how it ended; the rest their first lines.
          if (!e.isError && isWrite(e.details) && e.details.diff) {
            // The SHA is for the model and the ledger, not the person.
            const head = e.preview.split("\n")[0]!.replace(/, sha256 [0-9a-f]{64}/, "").replace(/ \(\d+ bytes, sha256 [0-9a-f]{64}\)/, "");
            line(`${style.dim(`  ${head}`)}\n${diffForLog(e.details.diff, style)}`);
            return;
          }
          if (e.details?.kind === "command" && e.content) {
            line(commandForLog(e.content, style, e.isError));
            return;
          }
          // The model's plan, whole, each time it changes: the step in progress stands out.
          if (e.details?.kind === "todo" && !e.isError) {
            const step = (t: { content: string; status: string }) =>
              t.status === "in_progress" ? style.yellow(`[>] ${t.content}`) : style.dim(`${t.status === "completed" ? "[x]" : "[ ]"} ${t.content}`);
            line(e.details.items.map((t) => `  ${step(t)}`).join("\n"));
            return;
          }
          // A read is said from its details (the SHA is for the model and the ledger, not the person), then its first lines.
          const d = e.details;
          const preview =
            d?.kind === "read" && !e.isError
              ? [`${d.path} (${readExtent(d)})`, ...e.preview.split("\n").slice(1)].join("\n")
              : e.preview;
          const head = preview.split("\n").map((l) => `  ${l}`).join("\n");
          line(e.isError ? style.red(head) : style.dim(head));
          return;
        }
        case "route":
          // Where each request went, and why, for a person who asks (--verbose); the events stream always has it.
          if (verbose) line(style.dim(`turn ${e.turn} → ${e.role} (${e.model}): ${e.reason}`));
          return;
        case "turn_end":
          flush();
          if (verbose) {
            const on = e.model ? ` on ${e.model}` : "";
            line(style.dim(`turn ${e.turn}: ${promptTokens(e.usage)} in (${e.usage.cacheRead} cached), ${e.usage.output} out${on}`));
          }
          return;
        case "notice":
          line(e.level === "warn" ? style.yellow(e.message) : style.dim(e.message));
          return;
        case "run_end":
          flush();
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

/** How much of a file a read showed: all its lines, or which of them. Pure. */
function readExtent(d: { lines: number; complete: boolean; shown?: readonly number[] | undefined }): string {
  if (d.complete || !d.shown) return `${d.lines} line${d.lines === 1 ? "" : "s"}`;
  return `lines ${d.shown[0]}-${d.shown[1]} of ${d.lines}`;
}

