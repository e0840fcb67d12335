import type { AgentEvent, Display, ModelUsage, RunStop } from "../core/events.ts";
import type { AssistantMessage, ImageBlock, Message, ToolCallBlock, ToolResultBlock, ToolSpec, UserMessage } from "../core/messages.ts";
import { textOf, toolCallsOf, userText } from "../core/messages.ts";
import { redactCredentials } from "../core/credentials.ts";
import { TurnAccumulator } from "../core/stream.ts";
import { addUsage, emptyUsage, type Usage } from "../core/usage.ts";
import { CancelledError, ContextOverflowError, ProviderError } from "../providers/errors.ts";
import type { ModelProvider, ModelRequest } from "../providers/port.ts";
import { type RequestState, turnRequest } from "./turn-request.ts";

/** Executes the tool calls of one turn; the loop stays ignorant of what tools exist. */
export type ToolExecutor = (calls: ToolCallBlock[], signal: AbortSignal) => Promise<ToolResultBlock[]>;

/**
 * Where later layers plug into every turn, called in this order each run: gate, open, then per turn
 * context, decide, offer, (the model streams), observe per result, update, and when the model
 * answers without tools beforeFinish; report once at the end. Each is optional; without them the
 * loop sends the whole conversation, offers `tools`, and adds no guidance.
 *
 * The request is built for prefix caching: what a seam adds is appended to the conversation (the
 * working set before the task, guidance and updates after the newest results) and kept there, so
 * each request starts with the previous one's bytes.
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
  const warn = (name: string, e: unknown) =>
    emit({ type: "notice", level: "warn", message: `the ${name} step failed (${(e as Error)?.message ?? String(e)}); the run goes on without it` });
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
  const { display, signal } = input;
  const emit = (e: AgentEvent) => display.emit(e);
  const seams = guarded(input.seams ?? {}, emit);
  const blocked = await seams.gate?.(input.task);
  // Said once, as the run's end: a notice as well printed it twice.
  if (blocked) {
    const added = [userText(redactCredentials(input.task))];
    const result: RunResult = { stop: "refusal", text: "", turns: 0, usage: emptyUsage(), added, error: blocked, extra: {} };
    emit({
      type: "run_end",
      stop: "refusal",
      text: "",
      turns: 0,
      usage: result.usage,
      error: blocked,
      ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    });
    return result;
  }
  const run = openRun(input, await seams.open?.(input.task));
  while (run.turns < input.maxTurns) {
    run.turns++;
    emit({ type: "turn_start", turn: run.turns });
    const turn = await modelTurn(run, seams, input, emit);
    if (turn === "again") {
      run.turns--;
      continue;
    }
    if (turn === "ended") break;
    recordTurn(run, turn, seams, emit);
    const calls = toolCallsOf(turn.reply);
    if (calls.length === 0) {
      if (await remindBeforeFinish(run, turn.acc, seams, input, emit)) continue;
      run.stop = turn.acc.stopReason === "max_tokens" ? "max_tokens" : turn.acc.stopReason === "refusal" ? "refusal" : "end_turn";
      break;
    }
    const results = await runCalls(calls, seams, input, emit);
    if (!(await answerCalls(run, calls, results, seams, emit))) break;
    if (signal.aborted) {
      run.stop = "cancelled";
      break;
    }
  }
  return endRun(run, seams, input, emit);
}

/** A run's state as its turns go: what it added to the conversation, what it spent, and how it stops. */
interface Run {
  added: Message[];
  messages: Message[];
  requests: RequestState;
  usage: Usage;
  text: string;
  turns: number;
  stop: RunStop;
  error?: string;
  reminders: number;
  /** The same failing calls with the same results, turn after turn: one nudge, then the run stops. */
  lastFailure: string;
  repeats: number;
  /** A turn the endpoint refused as too long is sent again, shrunk, at most twice. */
  overflows: number;
  /** Usage by model, once the router has sent a turn anywhere. */
  models: ModelUsage;
}

/** The run's first message: the working set first, so the task reads last, next to the model's turn. */
function openRun(input: RunInput, opening: string | undefined): Run {
  // The task enters with what it carries (piped input, a pasted log, a command's output) redacted,
  // after the opening's compile learnt the secrets below the workspace's top.
  const task = redactCredentials(input.task);
  const first: UserMessage = {
    role: "user",
    content: [...(opening ? [{ type: "text" as const, text: opening }] : []), { type: "text", text: task }, ...(input.images ?? [])],
  };
  const messages: Message[] = [...input.history, first];
  // The newest user message stays open for what the seams append (guidance, updates).
  const requests: RequestState = { messages, open: first, lastGuidance: undefined };
  const counters = { reminders: 0, lastFailure: "", repeats: 0, overflows: 0 };
  return { added: [first], messages, requests, usage: emptyUsage(), text: "", turns: 0, stop: "max_turns", ...counters, models: {} };
}

/** One model turn that came back whole. */
interface Turn {
  reply: AssistantMessage;
  acc: TurnAccumulator;
  model: ModelProvider;
  role: string | undefined;
}

/**
 * Sends the turn's request to the model the router chose and reads the stream. A failure is
 * recovered where it can be ("again": the turn is sent again, shrunk or on the main model) or ends
 * the run ("ended", with its stop and error set).
 */
async function modelTurn(run: Run, seams: Seams, input: RunInput, emit: (e: AgentEvent) => void): Promise<Turn | "again" | "ended"> {
  const { provider, signal } = input;
  const acc = new TurnAccumulator();
  let model = provider;
  let role: string | undefined;
  try {
    const request = await turnRequest(run.requests, seams, input, run.turns, signal);
    const routed = await seams.route?.(request);
    if (routed) {
      model = routed.provider;
      role = routed.role;
      emit({ type: "route", turn: run.turns, role, model: model.settings.model, reason: routed.reason });
    }
    for await (const ev of model.stream(request)) {
      acc.push(ev);
      if (ev.type === "text_delta" && ev.text !== "") emit({ type: "text_delta", text: ev.text });
      else if (ev.type === "reasoning_delta" && ev.text !== "") emit({ type: "reasoning_delta", text: ev.text });
      else if (ev.type === "retry") emit({ type: "retry", attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
      else if (ev.type === "notice") emit({ type: "notice", level: "warn", message: ev.message });
    }
    run.overflows = 0;
    return { reply: acc.message(), acc, model, role };
  } catch (e) {
    return turnFailed(run, e, model, seams, input, emit);
  }
}

/** What a failed turn becomes: sent again (shrunk, or on the main model once), or the run's end. */
function turnFailed(run: Run, e: unknown, model: ModelProvider, seams: Seams, input: RunInput, emit: (e: AgentEvent) => void): "again" | "ended" {
  const { signal } = input;
  if (e instanceof ContextOverflowError && !signal.aborted && run.overflows < 2 && seams.overflow?.(e)) {
    run.overflows++;
    const window = e.window ? ` (${e.window} tokens)` : "";
    const message =
      `the model's context is smaller than this conversation${window}: older tool results are shown shorter, ` +
      "and the turn is sent again; --context-size sets the window weir plans for";
    emit({ type: "notice", level: "warn", message });
    return "again";
  }
  // A side model that fails hands the turn to the main one, once.
  const failed = e instanceof ProviderError && !(e instanceof ContextOverflowError) && !signal.aborted && model !== input.provider;
  if (failed && seams.escalate?.(`${model.settings.model} failed: ${e.message}`)) {
    emit({ type: "notice", level: "warn", message: `${model.settings.model} failed (${e.message}); the turn goes to the main model` });
    return "again";
  }
  if (e instanceof CancelledError || signal.aborted) run.stop = "cancelled";
  else if (e instanceof ContextOverflowError) {
    run.stop = "error";
    run.error = `${e.message}; weir could not shrink the conversation to fit: start a new session (or /compact), or set --context-size to the model's window`;
  } else if (e instanceof ProviderError) {
    run.stop = "error";
    run.error = e.message;
  } else throw e;
  return "ended";
}

/** Counts a turn's usage (by model, when routed) and adds its reply to the conversation. */
function recordTurn(run: Run, t: Turn, seams: Seams, emit: (e: AgentEvent) => void): void {
  run.usage = addUsage(run.usage, t.acc.usage);
  if (t.role) {
    const id = t.model.settings.model;
    const was = run.models[id];
    // A model that served two roles in one run is named for both (`fast+main`).
    const roles = !was || was.role.split("+").includes(t.role) ? (was?.role ?? t.role) : `${was.role}+${t.role}`;
    run.models[id] = { role: roles, usage: addUsage(was?.usage ?? emptyUsage(), t.acc.usage) };
    seams.served?.(t.acc.usage);
  }
  emit({ type: "turn_end", turn: run.turns, usage: t.acc.usage, ...(t.role ? { model: t.model.settings.model, role: t.role } : {}) });
  run.added.push(t.reply);
  run.messages.push(t.reply);
  run.text = textOf(t.reply);
}

/** A finished answer a seam sends back once more (a Stop hook, a verification floor): whether the run goes on. */
async function remindBeforeFinish(run: Run, acc: TurnAccumulator, seams: Seams, input: RunInput, emit: (e: AgentEvent) => void): Promise<boolean> {
  const again = acc.stopReason === "end_turn" && seams.beforeFinish ? await seams.beforeFinish(run.reminders) : undefined;
  if (!again || run.turns >= input.maxTurns) return false;
  run.reminders++;
  emit({ type: "notice", level: "info", message: again });
  const nudge = userText(again);
  run.added.push(nudge);
  run.messages.push(nudge);
  run.requests.open = nudge;
  return true;
}

/** Runs a turn's calls, less those a seam holds (answered with its reason), and reports each result. */
async function runCalls(calls: ToolCallBlock[], seams: Seams, input: RunInput, emit: (e: AgentEvent) => void): Promise<ToolResultBlock[]> {
  for (const call of calls) emit({ type: "tool_call", call, summary: summarise(call.input) });
  const held = (await seams.hold?.(calls, input.signal)) ?? new Map<string, string>();
  const running = calls.filter((c) => !held.has(c.id));
  const ran = running.length > 0 ? await input.execute(running, input.signal) : [];
  const results = calls.flatMap((c): ToolResultBlock[] => {
    const reason = held.get(c.id);
    if (reason === undefined) return ran.filter((r) => r.callId === c.id);
    return [{ type: "tool_result", callId: c.id, content: reason, isError: true, origin: "weir", refused: { rule: "decision" } }];
  });
  for (const r of results) {
    const call = calls.find((c) => c.id === r.callId);
    if (call) seams.observe?.(call, r);
    const preview = r.content.split("\n").slice(0, 3).join("\n");
    const details = r.details ? { details: r.details } : {};
    emit({
      type: "tool_result",
      callId: r.callId,
      name: call?.name ?? "?",
      isError: r.isError,
      preview,
      bytes: r.content.length,
      content: r.content,
      ...details,
    });
  }
  return results;
}

/**
 * Answers the calls with their results and what the seams add. The same failing calls with the
 * same results a second time get a nudge; a third time the run stops: whether it goes on.
 */
async function answerCalls(run: Run, calls: ToolCallBlock[], results: ToolResultBlock[], seams: Seams, emit: (e: AgentEvent) => void): Promise<boolean> {
  const answer: UserMessage = { role: "user", content: [...results] };
  const failure = results.every((r) => r.isError) ? JSON.stringify([calls.map((c) => [c.name, c.input]), results.map((r) => r.content)]) : "";
  run.repeats = failure !== "" && failure === run.lastFailure ? run.repeats + 1 : 0;
  run.lastFailure = failure;
  if (run.repeats >= 2) {
    run.added.push(answer);
    run.stop = "repeating";
    run.error = `stopped: the model repeated the same failing call (${calls.map((c) => c.name).join(", ")}) with the same result ${run.repeats + 1} times`;
    emit({ type: "notice", level: "warn", message: run.error });
    return false;
  }
  if (run.repeats === 1) answer.content.push({ type: "text", text: REPEATED });
  const update = await seams.update?.(results);
  if (update) answer.content.push({ type: "text", text: update });
  run.added.push(answer);
  run.messages.push(answer);
  run.requests.open = answer;
  return true;
}

const REPEATED =
  "[weir] That is the same call with the same result as your previous turn. " +
  "Do not repeat it: change the arguments, try another way, or stop and say what blocks you.";

/** The run's result and its `run_end` event, with what the seams report. */
async function endRun(run: Run, seams: Seams, input: RunInput, emit: (e: AgentEvent) => void): Promise<RunResult> {
  const { stop, text, turns, usage, added, error, models } = run;
  if (stop === "max_turns")
    emit({ type: "notice", level: "warn", message: `stopped after --max-turns ${input.maxTurns} turns; continue the session to go on` });
  const extra = (await seams.report?.()) ?? {};
  const byModel = Object.keys(models).length > 0 ? { models } : {};
  const result: RunResult = { stop, text, turns, usage, added, ...(error ? { error } : {}), extra, ...byModel };
  const session = input.sessionId ? { sessionId: input.sessionId } : {};
  emit({ type: "run_end", stop, text, turns, usage, ...(error ? { error } : {}), ...session, ...extra, ...byModel });
  return result;
}
