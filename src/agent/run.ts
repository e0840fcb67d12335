import type { AgentEvent, Display, ModelUsage, RunStop } from "../core/events.ts";
import type { AssistantMessage, ImageBlock, Message, ToolCallBlock, ToolResultBlock, ToolSpec, UserMessage } from "../core/messages.ts";
import { textOf, toolCallsOf, userText } from "../core/messages.ts";
import { TurnAccumulator } from "../core/stream.ts";
import { addUsage, emptyUsage, type Usage } from "../core/usage.ts";
import { CancelledError, ContextOverflowError, ProviderError } from "../providers/errors.ts";
import type { ModelProvider, ModelRequest } from "../providers/port.ts";
import { type RequestState, turnRequest } from "./turn-request.ts";

/** Executes the tool calls of one turn; the loop stays ignorant of what tools exist. */
export type ToolExecutor = (calls: ToolCallBlock[], signal: AbortSignal) => Promise<ToolResultBlock[]>;

/**
 * Where later layers plug into every turn. Each is optional; without them the loop sends the whole
 * conversation, offers `tools`, and adds no guidance. Contract: a seam must not throw for anything
 * but a bug (a seam that cannot do its work returns undefined and the run goes on without it).
 *
 * The request is built for prefix caching: what a seam adds is appended to the conversation (the
 * working set before the task, guidance and updates after the newest results) and kept there, so
 * each request starts with the previous one's bytes.
 */
/**
 * The loop's extension points, called in this order each run: gate, open, then per turn context,
 * decide, offer, (the model streams), observe per result, update, and when the model answers
 * without tools beforeFinish; report once at the end.
 *
 * Contract for every seam: it **must not throw** — a failure of its own work is reported by
 * returning undefined (or nothing), and the run goes on as if the seam were absent. The loop holds
 * seams to it: a seam that throws anyway is named in a warning notice and skipped for that call
 * (`gate` included: a broken gate does not stop the run — hooks that must block say so by exit 2).
 */
export interface Seams {
  /** Asked before anything else (UserPromptSubmit hooks): a reason means the run does not start. */
  gate?: (task: string) => Promise<string | undefined>;
  /** Opens a run: the compiled working set, placed before the task in the run's first message. */
  open?: (task: string) => Promise<string | undefined>;
  /** Context step, first in each turn: how the conversation is rendered (provenance, quoting, demotion under pressure). */
  context?: (messages: readonly Message[], turn: number) => readonly Message[];
  /**
   * Decision step at a turn boundary, after the context step (it reads that turn's pressure): a
   * short trusted guidance line, appended to the newest user message only when it differs from the
   * last one given.
   */
  decide?: (messages: readonly Message[], turn: number, signal: AbortSignal) => Promise<string | undefined> | string | undefined;
  /** After a turn's tool results: working-set changes (new failure locations) appended after them as new chunks. */
  update?: (results: readonly ToolResultBlock[]) => Promise<string | undefined>;
  /** The actions offered this turn (the action registry plugs in here); undefined offers the run's `tools`. */
  offer?: () => readonly ToolSpec[];
  /**
   * Asked before a turn's tool calls run: a call it holds does not run, and its result is the
   * reason given (the decision plane's check of a proposed edit).
   */
  hold?: (calls: readonly ToolCallBlock[], signal: AbortSignal) => Promise<ReadonlyMap<string, string>>;
  /** Learns from each finished tool call (the decision plane's state). */
  observe?: (call: ToolCallBlock, result: ToolResultBlock) => void;
  /**
   * Asked when the model answers without tool calls: a reminder sends it back for another turn (the
   * verification floor); undefined lets the run end. `attempt` counts reminders already given.
   */
  beforeFinish?: (attempt: number) => Promise<string | undefined>;
  /** Extra facts for the closing event (the evidence state). */
  report?: () => Promise<Record<string, unknown>>;
  /**
   * The endpoint refused the request as longer than the model's context: whether the conversation
   * was made to take less, so that the same turn may be sent again.
   */
  overflow?: (e: ContextOverflowError) => boolean;
  /** Which model this turn's request goes to, and why (the model router); undefined: the run's provider. */
  route?: (request: ModelRequest) => Promise<{ provider: ModelProvider; role: string; reason: string } | undefined>;
  /** What the routed turn's model used, once it answered. */
  served?: (usage: Usage) => void;
  /** A routed turn's model failed: whether the turn may go again to another model (`why` says what failed). */
  escalate?: (why: string) => boolean;
}

/** Holds a seam to its contract: a throw becomes a warning notice naming it, and the seam's absence. */
function guarded(seams: Seams, emit: (e: AgentEvent) => void): Seams {
  const out: Seams = {};
  const warn = (name: string, e: unknown) => emit({ type: "notice", level: "warn", message: `the ${name} step failed (${(e as Error)?.message ?? String(e)}); the run goes on without it` });
  for (const [name, f] of Object.entries(seams) as [keyof Seams, ((...a: unknown[]) => unknown) | undefined][]) {
    if (typeof f !== "function") continue;
    (out as Record<string, unknown>)[name] = (...a: unknown[]) => {
      try {
        const r = f.apply(seams, a);
        return r instanceof Promise ? r.catch((e) => (warn(name, e), undefined)) : r;
      } catch (e) {
        warn(name, e);
        return undefined;
      }
    };
  }
  return out;
}

interface RunInput {
  provider: ModelProvider;
  system: string;
  /** The conversation so far (a resumed session); not mutated. */
  history: readonly Message[];
  task: string;
  /** Images the person attached to the task (`@shot.png`): sent with it, after its text. */
  images?: readonly ImageBlock[];
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
  /** Usage by model, where the router sent turns to more than the run's provider. */
  models?: ModelUsage;
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
  const seams = guarded(input.seams ?? {}, emit);
  const blocked = await seams.gate?.(input.task);
  // Said once, as the run's end: a notice as well printed it twice.
  if (blocked) {
    const result: RunResult = { stop: "refusal", text: "", turns: 0, usage: emptyUsage(), added: [userText(input.task)], error: blocked, extra: {} };
    emit({ type: "run_end", stop: "refusal", text: "", turns: 0, usage: result.usage, error: blocked, ...(input.sessionId ? { sessionId: input.sessionId } : {}) });
    return result;
  }
  const opening = await seams.open?.(input.task);
  // The working set comes first in the run's message so the task reads last, next to the model's turn.
  const first: UserMessage = {
    role: "user",
    content: [...(opening ? [{ type: "text" as const, text: opening }] : []), { type: "text", text: input.task }, ...(input.images ?? [])],
  };
  const added: Message[] = [first];
  const messages: Message[] = [...input.history, ...added];
  // The newest user message stays open for what the seams append (guidance, updates).
  const requests: RequestState = { messages, open: first, lastGuidance: undefined };
  let usage = emptyUsage();
  let text = "";
  let turns = 0;
  let stop: RunStop = "max_turns";
  let error: string | undefined;
  let reminders = 0;
  // The same failing calls with the same results, turn after turn: one nudge, then the run stops.
  let lastFailure = "";
  let repeats = 0;
  // A turn the endpoint refused as too long is sent again, shrunk, at most twice.
  let overflows = 0;
  // Usage by model, once the router has sent a turn anywhere.
  const models: ModelUsage = {};

  while (turns < input.maxTurns) {
    turns++;
    emit({ type: "turn_start", turn: turns });
    const acc = new TurnAccumulator();
    let reply: AssistantMessage;
    let model = provider;
    let role: string | undefined;
    try {
      const request = await turnRequest(requests, seams, input, turns, signal);
      const routed = await seams.route?.(request);
      if (routed) {
        model = routed.provider;
        role = routed.role;
        emit({ type: "route", turn: turns, role, model: model.settings.model, reason: routed.reason });
      }
      for await (const ev of model.stream(request)) {
        acc.push(ev);
        if (ev.type === "text_delta" && ev.text !== "") emit({ type: "text_delta", text: ev.text });
        else if (ev.type === "reasoning_delta" && ev.text !== "") emit({ type: "reasoning_delta", text: ev.text });
        else if (ev.type === "retry") emit({ type: "retry", attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
        else if (ev.type === "notice") emit({ type: "notice", level: "warn", message: ev.message });
      }
      reply = acc.message();
    } catch (e) {
      if (e instanceof ContextOverflowError && !signal.aborted && overflows < 2 && seams.overflow?.(e)) {
        overflows++;
        emit({ type: "notice", level: "warn", message: `the model's context is smaller than this conversation${e.window ? ` (${e.window} tokens)` : ""}: older tool results are shown shorter, and the turn is sent again; --context-size sets the window weir plans for` });
        turns--;
        continue;
      }
      // A side model that fails hands the turn to the main one, once.
      const failed = e instanceof ProviderError && !(e instanceof ContextOverflowError) && !signal.aborted && model !== provider;
      if (failed && seams.escalate?.(`${model.settings.model} failed: ${e.message}`)) {
        emit({ type: "notice", level: "warn", message: `${model.settings.model} failed (${e.message}); the turn goes to the main model` });
        turns--;
        continue;
      }
      if (e instanceof CancelledError || signal.aborted) stop = "cancelled";
      else if (e instanceof ContextOverflowError) {
        stop = "error";
        error = `${e.message}; weir could not shrink the conversation to fit: start a new session (or /compact), or set --context-size to the model's window`;
      } else if (e instanceof ProviderError) {
        stop = "error";
        error = e.message;
      } else throw e;
      break;
    }
    overflows = 0;
    usage = addUsage(usage, acc.usage);
    if (role) {
      const id = model.settings.model;
      const was = models[id];
      // A model that served two roles in one run is named for both (`fast+main`).
      const roles = !was || was.role.split("+").includes(role) ? (was?.role ?? role) : `${was.role}+${role}`;
      models[id] = { role: roles, usage: addUsage(was?.usage ?? emptyUsage(), acc.usage) };
      seams.served?.(acc.usage);
    }
    emit({ type: "turn_end", turn: turns, usage: acc.usage, ...(role ? { model: model.settings.model, role } : {}) });
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
        requests.open = nudge;
        continue;
      }
      stop = acc.stopReason === "max_tokens" ? "max_tokens" : acc.stopReason === "refusal" ? "refusal" : "end_turn";
      break;
    }
    for (const call of calls) emit({ type: "tool_call", call, summary: summarise(call.input) });
    const held = (await seams.hold?.(calls, signal)) ?? new Map<string, string>();
    const running = calls.filter((c) => !held.has(c.id));
    const ran = running.length > 0 ? await input.execute(running, signal) : [];
    const results = calls.flatMap((c): ToolResultBlock[] => {
      const reason = held.get(c.id);
      return reason !== undefined ? [{ type: "tool_result", callId: c.id, content: reason, isError: true, origin: "weir", refused: { rule: "decision" } }] : ran.filter((r) => r.callId === c.id);
    });
    for (const r of results) {
      const call = calls.find((c) => c.id === r.callId);
      const name = call?.name ?? "?";
      if (call) seams.observe?.(call, r);
      emit({ type: "tool_result", callId: r.callId, name, isError: r.isError, preview: r.content.split("\n").slice(0, 3).join("\n"), bytes: r.content.length, content: r.content, ...(r.details ? { details: r.details } : {}) });
    }
    const answer: UserMessage = { role: "user", content: [...results] };
    const failure = results.every((r) => r.isError) ? JSON.stringify([calls.map((c) => [c.name, c.input]), results.map((r) => r.content)]) : "";
    repeats = failure !== "" && failure === lastFailure ? repeats + 1 : 0;
    lastFailure = failure;
    if (repeats >= 2) {
      added.push(answer);
      stop = "repeating";
      error = `stopped: the model repeated the same failing call (${calls.map((c) => c.name).join(", ")}) with the same result ${repeats + 1} times`;
      emit({ type: "notice", level: "warn", message: error });
      break;
    }
    if (repeats === 1)
      answer.content.push({ type: "text", text: "[weir] That is the same call with the same result as your previous turn. Do not repeat it: change the arguments, try another way, or stop and say what blocks you." });
    const update = await seams.update?.(results);
    if (update) answer.content.push({ type: "text", text: update });
    added.push(answer);
    messages.push(answer);
    requests.open = answer;
    if (signal.aborted) {
      stop = "cancelled";
      break;
    }
  }
  if (stop === "max_turns") emit({ type: "notice", level: "warn", message: `stopped after --max-turns ${input.maxTurns} turns; continue the session to go on` });
  const extra = (await seams.report?.()) ?? {};
  const byModel = Object.keys(models).length > 0 ? { models } : {};
  const result: RunResult = { stop, text, turns, usage, added, ...(error ? { error } : {}), extra, ...byModel };
  const session = input.sessionId ? { sessionId: input.sessionId } : {};
  emit({ type: "run_end", stop, text, turns, usage, ...(error ? { error } : {}), ...session, ...extra, ...byModel });
  return result;
}
