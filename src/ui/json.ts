import type { AgentEvent, Display, RunStop } from "../core/events.ts";
import { costOf, type Price, type Usage } from "../core/usage.ts";
import type { Sink } from "./plain.ts";

/** `--output-format events`: weir's own events, one JSON object per line, as they happen. */
export function streamJsonDisplay(out: Sink): Display {
  return { emit: (e: AgentEvent) => out.write(`${JSON.stringify(e)}\n`) };
}

export interface RunMeta {
  /** Tool names offered, for the init event. */
  tools: () => string[];
  cwd: string;
  provider: string;
  model: string;
  /** A model's price, where a config file or the published list gives it. */
  priceOf: (model: string) => Price | undefined;
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** Each model's usage and cost, and the run's total (null when a model of it has no known price). Pure. */
function costs(e: Extract<AgentEvent, { type: "run_end" }>, meta: RunMeta) {
  const spend = e.models ?? { [meta.model]: { role: "main", usage: e.usage } };
  const models = Object.fromEntries(
    Object.entries(spend).map(([id, m]) => {
      const p = meta.priceOf(id);
      return [id, { role: m.role, usage: m.usage, cost_usd: p ? round(costOf(m.usage, p)) : null }];
    }),
  );
  const priced = Object.values(models).map((m) => m.cost_usd);
  const total = priced.every((c) => c !== null) ? round(priced.reduce((a: number, c) => a + c!, 0)) : null;
  return { models, total };
}

/** Usage in the Messages API's field names, as Claude Code reports it. Pure. */
function claudeUsage(u: Usage) {
  return { input_tokens: u.input, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: u.cacheRead, output_tokens: u.output };
}

const SUBTYPE: Record<RunStop, string> = {
  end_turn: "success",
  max_turns: "error_max_turns",
  max_tokens: "error_max_tokens",
  refusal: "error_refusal",
  cancelled: "error_cancelled",
  error: "error_during_execution",
  repeating: "error_repeating",
};

/** The closing object: Claude Code's `result` shape, with weir's own fields after it. Pure. */
function resultEvent(e: Extract<AgentEvent, { type: "run_end" }>, durationMs: number, meta: RunMeta) {
  const { type: _t, stop, text, turns, usage, sessionId, error, models: _m, ...weir } = e;
  const spent = costs(e, meta);
  return {
    type: "result",
    subtype: SUBTYPE[stop],
    is_error: stop !== "end_turn",
    duration_ms: Math.round(durationMs),
    num_turns: turns,
    result: text,
    session_id: sessionId ?? null,
    // Without a price for a model (config `prices`, or the published list) the cost is unknown, not zero.
    total_cost_usd: spent.total,
    usage: claudeUsage(usage),
    ...(error ? { error } : {}),
    // weir's own, richer fields (its usage ledger under its own names).
    ledger: usage,
    stop,
    text,
    turns,
    sessionId: sessionId ?? null,
    provider: meta.provider,
    model: meta.model,
    // Tokens and dollars by model, with the role each served (the model router's breakdown).
    models: spent.models,
    ...weir,
  };
}

/**
 * `--output-format stream-json`: Claude Code's event shapes, so scripts written for it read weir —
 * `system`/`init` (session_id, tools, model), `assistant` messages (text and tool_use blocks),
 * `user` messages (tool_result blocks), and a closing `result`.
 */
export function claudeStreamDisplay(out: Sink, meta: RunMeta): Display {
  let session: string | null = null;
  let text = "";
  let calls: { type: "tool_use"; id: string; name: string; input: unknown }[] = [];
  let started = performance.now();
  // The loop reports a turn's tool calls just after its turn_end: the assistant message is written
  // once they are in, at the next event of another kind.
  let pending: Usage | undefined;
  // The model that answered the pending turn (the router's choice, else the run's).
  let answeredBy = meta.model;
  const line = (o: unknown) => out.write(`${JSON.stringify(o)}\n`);
  const flush = () => {
    if (!pending) return;
    const content = [...(text ? [{ type: "text", text }] : []), ...calls];
    const message = { type: "message", role: "assistant", model: answeredBy, content, usage: claudeUsage(pending) };
    line({ type: "assistant", message, parent_tool_use_id: null, session_id: session });
    text = "";
    calls = [];
    pending = undefined;
  };
  // A worker's messages, as Claude Code writes a subagent's: parent_tool_use_id names the call that started it.
  const workers = new Map<string, { calls: { type: "tool_use"; id: string; name: string; input: unknown }[]; usage?: Usage }>();
  const worker = (e: Extract<AgentEvent, { type: "agent" }>) => {
    const w = workers.get(e.agent) ?? { calls: [] };
    workers.set(e.agent, w);
    const ev = e.event;
    const flushWorker = () => {
      if (!w.usage) return;
      line({
        type: "assistant",
        message: { type: "message", role: "assistant", model: meta.model, content: w.calls, usage: claudeUsage(w.usage) },
        parent_tool_use_id: e.parentCallId,
        session_id: session,
        agent_id: e.agent,
      });
      w.calls = [];
      w.usage = undefined;
    };
    if (ev.type === "turn_end") {
      flushWorker();
      w.usage = ev.usage;
    } else if (ev.type === "tool_call") w.calls.push(claudeToolUse(ev.call));
    else if (ev.type === "tool_result") {
      flushWorker();
      line({
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: ev.callId, content: ev.content ?? ev.preview, is_error: ev.isError }] },
        parent_tool_use_id: e.parentCallId,
        session_id: session,
        agent_id: e.agent,
      });
    } else if (ev.type === "run_end") {
      flushWorker();
      workers.delete(e.agent);
    }
  };
  return {
    emit(e: AgentEvent) {
      if (e.type === "agent") return worker(e);
      if (e.type !== "tool_call") flush();
      if (e.type === "run_start") {
        session = e.sessionId ?? null;
        started = performance.now();
        line({
          type: "system",
          subtype: "init",
          session_id: session,
          cwd: meta.cwd,
          model: e.model,
          tools: meta.tools(),
          provider: e.provider,
          permissionMode: "default",
        });
      } else if (e.type === "text_delta") text += e.text;
      else if (e.type === "tool_call") calls.push(claudeToolUse(e.call));
      else if (e.type === "turn_end") {
        pending = e.usage;
        answeredBy = e.model ?? meta.model;
      } else if (e.type === "tool_result")
        line({
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: e.callId, content: e.content ?? e.preview, is_error: e.isError }] },
          parent_tool_use_id: null,
          session_id: session,
        });
      else if (e.type === "run_end") line(resultEvent(e, performance.now() - started, meta));
    },
  };
}

/** `--output-format json`: one object when the run ends, Claude Code's `result` shape plus weir's fields. */
export function jsonDisplay(out: Sink, meta: RunMeta): Display {
  let started = performance.now();
  return {
    emit(e: AgentEvent) {
      if (e.type === "run_start") started = performance.now();
      if (e.type !== "run_end") return;
      out.write(`${JSON.stringify(resultEvent(e, performance.now() - started, meta))}\n`);
    },
  };
}

/**
 * A call as Claude Code's stream-json shows it: weir's plan (`todo`) in TodoWrite's shape, so tools
 * that read Claude Code's stream follow it; every other call as it is.
 */
function claudeToolUse(call: { id: string; name: string; input: unknown }): { type: "tool_use"; id: string; name: string; input: unknown } {
  if (call.name !== "todo") return { type: "tool_use", id: call.id, name: call.name, input: call.input };
  const items = ((call.input as { items?: { content: string; status: string }[] } | undefined)?.items ?? []);
  const todos = items.map((t) => ({ content: t.content, status: t.status, activeForm: t.content }));
  return { type: "tool_use", id: call.id, name: "TodoWrite", input: { todos } };
}
