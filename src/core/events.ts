import type { ToolCallBlock, ToolDetails } from "./messages.ts";
import type { Usage } from "./usage.ts";

/** A run's usage by model: which role each model served, and what it used. */
export type ModelUsage = Record<string, { role: string; usage: Usage }>;

export type RunStop = "end_turn" | "max_turns" | "max_tokens" | "refusal" | "cancelled" | "error" | "repeating";

/**
 * What the core tells a frontend. The core emits these through the display port and never learns
 * which frontend (plain log, JSON, REPL) listens.
 */
export type AgentEvent =
  | { type: "run_start"; provider: string; model: string; sessionId?: string; task: string }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "tool_call"; call: ToolCallBlock; summary: string }
  | { type: "tool_result"; callId: string; name: string; isError: boolean; preview: string; bytes: number; content?: string; details?: ToolDetails }
  /** The model router sent this turn's request to `model` (its `role`), for `reason`. */
  | { type: "route"; turn: number; role: string; model: string; reason: string }
  | { type: "turn_end"; turn: number; usage: Usage; model?: string; role?: string }
  | { type: "notice"; level: "info" | "warn"; message: string }
  | {
      type: "run_end";
      stop: RunStop;
      text: string;
      turns: number;
      usage: Usage;
      sessionId?: string;
      error?: string;
      verification?: unknown;
      models?: ModelUsage;
    }
  /**
   * Something a worker did (its tool calls and results, its turns' usage, its end), attributed to
   * it: `agent` is its id, `parentCallId` the spawn_agent call that started it. A worker's events
   * never stand for the main agent's: its run_end does not end the human's turn and its usage is
   * not the main agent's.
   */
  | { type: "agent"; agent: string; label: string; parentCallId: string; event: AgentEvent };

/** The display port. */
export interface Display {
  emit(event: AgentEvent): void;
}
