import type { AgentEvent, Display, RunStop } from "../core/events.ts";
import type { AssistantMessage, Message, ToolCallBlock, ToolResultBlock, ToolSpec } from "../core/messages.ts";
import { textOf, toolCallsOf, userText } from "../core/messages.ts";
import { TurnAccumulator } from "../core/stream.ts";
import { addUsage, emptyUsage, type Usage } from "../core/usage.ts";
import { CancelledError, ProviderError } from "../providers/errors.ts";
import type { ModelProvider } from "../providers/port.ts";

/** Executes the tool calls of one turn; the loop stays ignorant of what tools exist. */
export type ToolExecutor = (calls: ToolCallBlock[], signal: AbortSignal) => Promise<ToolResultBlock[]>;

/**
 * Where later layers plug into every turn. Each is optional; without them the loop sends the whole
 * conversation, offers `tools`, and adds no guidance.
 */
export interface Seams {
  /** Context step: what the model sees this turn (the context compiler plugs in here). */
  context?: (messages: readonly Message[], turn: number) => readonly Message[];
  /** Decision step at a turn boundary (the decision plane plugs in here): a short trusted reminder, or nothing. */
  decide?: (messages: readonly Message[], turn: number) => Promise<string | undefined> | string | undefined;
  /** The actions offered this turn (the action registry plugs in here). */
  offer?: () => readonly ToolSpec[];
  /** Learns from each finished tool call (the decision plane's state). */
  observe?: (call: ToolCallBlock, result: ToolResultBlock) => void;
  /**
   * Asked when the model answers without tool calls: a reminder sends it back for another turn (the
   * verification floor); undefined lets the run end. `attempt` counts reminders already given.
   */
  beforeFinish?: (attempt: number) => Promise<string | undefined>;
  /** Extra facts for the closing event (the evidence state). */
  report?: () => Promise<Record<string, unknown>>;
}

export interface RunInput {
  provider: ModelProvider;
  system: string;
  /** The conversation so far (a resumed session); not mutated. */
  history: readonly Message[];
  task: string;
  tools: readonly ToolSpec[];
  execute: ToolExecutor;
  maxTurns: number;
  maxTokens: number;
  display: Display;
  signal: AbortSignal;
  seams?: Seams;
  /** Reported in the closing event so JSON output can name the session. */
  sessionId?: string;
}

export interface RunResult {
  stop: RunStop;
  text: string;
  turns: number;
  usage: Usage;
  /** Messages this run added (the task first); the caller persists them in one transaction. */
  added: Message[];
  error?: string;
  extra: Record<string, unknown>;
}

/** Adds a trusted text block at the end of the request without touching the history. */
function withTrailingText(messages: readonly Message[], text: string): Message[] {
  const last = messages[messages.length - 1];
  if (last?.role === "user") return [...messages.slice(0, -1), { role: "user", content: [...last.content, { type: "text", text }] }];
  return [...messages, userText(text)];
}

function summarise(input: unknown): string {
  const s = JSON.stringify(input) ?? "";
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
}

/**
 * One run: the task, then model turns until the model answers without tool calls, the turn limit is
 * reached, or the user cancels. A provider failure ends the run with its one-line message; what the
 * run added so far is returned so the caller can keep the session whole.
 */
export async function runTask(input: RunInput): Promise<RunResult> {
  const { provider, display, signal } = input;
  const emit = (e: AgentEvent) => display.emit(e);
  const added: Message[] = [userText(input.task)];
  const messages: Message[] = [...input.history, ...added];
  let usage = emptyUsage();
  let text = "";
  let turns = 0;
  let stop: RunStop = "max_turns";
  let error: string | undefined;
  let reminders = 0;
  const seams = input.seams ?? {};

  while (turns < input.maxTurns) {
    turns++;
    emit({ type: "turn_start", turn: turns });
    const acc = new TurnAccumulator();
    let reply: AssistantMessage;
    try {
      const reminder = await seams.decide?.(messages, turns);
      const shown = seams.context ? seams.context(messages, turns) : messages;
      // The reminder rides at the end of the request, not in the system prompt, so the cached prefix stays put.
      const seen = reminder ? withTrailingText(shown, reminder) : shown;
      const system = input.system;
      const tools = seams.offer ? seams.offer() : input.tools;
      for await (const ev of provider.stream({ system, messages: seen, tools, maxTokens: input.maxTokens, signal })) {
        acc.push(ev);
        if (ev.type === "text_delta" && ev.text !== "") emit({ type: "text_delta", text: ev.text });
        else if (ev.type === "reasoning_delta" && ev.text !== "") emit({ type: "reasoning_delta", text: ev.text });
        else if (ev.type === "retry") emit({ type: "retry", attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
      }
      reply = acc.message();
    } catch (e) {
      if (e instanceof CancelledError || signal.aborted) stop = "cancelled";
      else if (e instanceof ProviderError) {
        stop = "error";
        error = e.message;
      } else throw e;
      break;
    }
    usage = addUsage(usage, acc.usage);
    emit({ type: "turn_end", turn: turns, usage: acc.usage });
    added.push(reply);
    messages.push(reply);
    text = textOf(reply);
    const calls = toolCallsOf(reply);
    if (calls.length === 0) {
      const again = acc.stopReason === "end_turn" && seams.beforeFinish ? await seams.beforeFinish(reminders) : undefined;
      if (again && turns < input.maxTurns) {
        reminders++;
        emit({ type: "notice", level: "info", message: again });
        const nudge = userText(again);
        added.push(nudge);
        messages.push(nudge);
        continue;
      }
      stop = acc.stopReason === "max_tokens" ? "max_tokens" : acc.stopReason === "refusal" ? "refusal" : "end_turn";
      break;
    }
    for (const call of calls) emit({ type: "tool_call", call, summary: summarise(call.input) });
    const results = await input.execute(calls, signal);
    for (const r of results) {
      const call = calls.find((c) => c.id === r.callId);
      const name = call?.name ?? "?";
      if (call) seams.observe?.(call, r);
      emit({ type: "tool_result", callId: r.callId, name, isError: r.isError, preview: r.content.split("\n").slice(0, 3).join("\n"), bytes: r.content.length });
    }
    const answer: Message = { role: "user", content: results };
    added.push(answer);
    messages.push(answer);
    if (signal.aborted) {
      stop = "cancelled";
      break;
    }
  }
  if (stop === "max_turns") emit({ type: "notice", level: "warn", message: `stopped after --max-turns ${input.maxTurns} turns; continue the session to go on` });
  const extra = (await seams.report?.().catch(() => undefined)) ?? {};
  const result: RunResult = { stop, text, turns, usage, added, ...(error ? { error } : {}), extra };
  emit({ type: "run_end", stop, text, turns, usage, ...(error ? { error } : {}), ...(input.sessionId ? { sessionId: input.sessionId } : {}), ...extra });
  return result;
}
