import type { AssistantBlock, AssistantMessage, ReasoningBlock, ToolCallBlock } from "./messages.ts";
import type { Usage } from "./usage.ts";
import { emptyUsage } from "./usage.ts";

/** Why the model stopped one turn, normalised across wires. */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other";

/**
 * One stream of events for every wire. Block indexes are the adapter's own ordering so interleaved
 * deltas land in the right block.
 */
export type StreamEvent =
  | { type: "text_delta"; index: number; text: string }
  | { type: "reasoning_delta"; index: number; text: string }
  | { type: "reasoning_signature"; index: number; signature: string }
  | { type: "reasoning_redacted"; index: number; data: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; json: string }
  | { type: "tool_call_end"; index: number }
  | { type: "usage"; usage: Usage }
  | { type: "stop"; reason: StopReason }
  /** The attempt failed before completing and is being retried: discard what it streamed. */
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  /** Something the user should know about the endpoint or model, in weir's words (a deprecation). */
  | { type: "notice"; message: string };

type Slot =
  | { kind: "text"; text: string }
  | { kind: "reasoning"; block: ReasoningBlock }
  | { kind: "tool"; id: string; name: string; json: string };

/**
 * Folds a stream into the assistant message and its usage. Pure: the same events always give the
 * same message. Tool arguments arrive as JSON fragments and are parsed once the call ends; arguments
 * that do not parse become an `{ __invalid_json }` input so the tool layer can report it to the model
 * instead of the run crashing.
 */
export class TurnAccumulator {
  private slots = new Map<number, Slot>();
  usage: Usage = emptyUsage();
  stopReason: StopReason = "other";

  push(event: StreamEvent): void {
    switch (event.type) {
      case "retry":
        this.slots.clear();
        this.usage = emptyUsage();
        return;
      case "text_delta": {
        const slot = this.slots.get(event.index);
        if (slot?.kind === "text") slot.text += event.text;
        else this.slots.set(event.index, { kind: "text", text: event.text });
        return;
      }
      case "reasoning_delta":
        this.reasoning(event.index).text += event.text;
        return;
      case "reasoning_signature":
        this.reasoning(event.index).signature = (this.reasoning(event.index).signature ?? "") + event.signature;
        return;
      case "reasoning_redacted":
        this.reasoning(event.index).redacted = event.data;
        return;
      case "tool_call_start":
        this.slots.set(event.index, { kind: "tool", id: event.id, name: event.name, json: "" });
        return;
      case "tool_call_delta": {
        const slot = this.slots.get(event.index);
        if (slot?.kind === "tool") slot.json += event.json;
        return;
      }
      case "tool_call_end":
        return;
      case "usage":
        this.usage = event.usage;
        return;
      case "stop":
        this.stopReason = event.reason;
        return;
    }
  }

  private reasoning(index: number): ReasoningBlock {
    const slot = this.slots.get(index);
    if (slot?.kind === "reasoning") return slot.block;
    const block: ReasoningBlock = { type: "reasoning", text: "" };
    this.slots.set(index, { kind: "reasoning", block });
    return block;
  }

  message(): AssistantMessage {
    const content: AssistantBlock[] = [];
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const slot = this.slots.get(index)!;
      if (slot.kind === "text") {
        if (slot.text !== "") content.push({ type: "text", text: slot.text });
      } else if (slot.kind === "reasoning") {
        content.push(slot.block);
      } else {
        content.push({ type: "tool_call", id: slot.id, name: slot.name, input: parseArguments(slot.json) } satisfies ToolCallBlock);
      }
    }
    return { role: "assistant", content };
  }
}

function parseArguments(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json);
  } catch {
    return { __invalid_json: json };
  }
}
