import type { Message, ToolSpec, UserMessage } from "../core/messages.ts";
import type { ModelRequest } from "../providers/port.ts";
import type { Seams } from "./run.ts";

/** What a run carries from turn to turn for its requests: the history and the guidance last given. */
export interface RequestState {
  /** The run's history, the conversation before it included. */
  messages: Message[];
  /** The newest user message, still open for what the seams append. */
  open: UserMessage;
  lastGuidance: string | undefined;
}

/**
 * The request one turn sends, and the only place it is put together: the conversation as the
 * context step renders it (provenance, quoting, demotion), the decision step's guidance appended
 * to the newest user message when it changed, the actions offered this turn, the system prompt.
 * Guidance is appended to the history and kept, never moved, so the next request's cached prefix
 * stays put.
 */
export async function turnRequest(
  state: RequestState,
  seams: Pick<Seams, "context" | "decide" | "offer">,
  fixed: { system: string; tools: readonly ToolSpec[]; maxTokens: number },
  turn: number,
  signal: AbortSignal,
): Promise<ModelRequest> {
  // The context step runs first: the decision then sees this turn's firewall notes and pressure.
  const rendered = seams.context ? seams.context(state.messages, turn) : undefined;
  // The run's signal reaches the judgment call too: Ctrl-C cancels it with the turn.
  const guidance = await seams.decide?.(state.messages, turn, signal);
  let messages: readonly Message[] = rendered ?? state.messages;
  if (guidance && guidance !== state.lastGuidance) {
    const block = { type: "text" as const, text: guidance };
    state.open.content.push(block);
    state.lastGuidance = guidance;
    // The open message is the newest one; its rendering (a copy) gets the same block.
    const last = rendered?.at(-1);
    if (rendered && last?.role === "user") messages = [...rendered.slice(0, -1), { ...last, content: [...last.content, block] }];
  }
  return { system: fixed.system, messages, tools: seams.offer?.() ?? fixed.tools, maxTokens: fixed.maxTokens, signal };
}
