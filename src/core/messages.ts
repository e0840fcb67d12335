/**
 * The vendor-neutral conversation history. Adapters translate it to and from their wire; the core
 * never sees a vendor type. Reasoning blocks keep their signatures so a conversation can be replayed
 * to the vendor that produced them (or stripped for one that did not).
 */
interface TextBlock {
  type: "text";
  text: string;
}

/** An image the person attached (`@shot.png`): its bytes as base64, what they are, where they came from. */
export interface ImageBlock {
  type: "image";
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  /** The bytes, base64. */
  data: string;
  /** The workspace path it was read from. */
  source: string;
}

export interface ReasoningBlock {
  type: "reasoning";
  text: string;
  /** Vendor signature that authenticates the reasoning when it is sent back (Messages wire). */
  signature?: string;
  /** Encrypted reasoning the vendor withheld (Messages wire `redacted_thinking`). */
  redacted?: string;
}

export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  name: string;
  input: unknown;
}

/**
 * What an action did, in fields the program reads; the model reads `content`. Nothing outside an
 * action parses that action's text (pi-mono's tools return `{ content, details }` the same way).
 */
export type ToolDetails =
  | {
      kind: "read";
      path: string;
      sha: string;
      complete: boolean;
      lines: number;
      /** The 1-based lines shown. */
      shown?: [number, number];
      /** The bytes were not sent: the result says where the conversation already holds them. */
      byReference?: true;
    }
  | { kind: "write"; path: string; sha: string; created: boolean; how?: string; /** Unified diff for the person (never sent to the model). */ diff?: string }
  | { kind: "search"; files: string[]; hits: number }
  | { kind: "list"; paths: number }
  | { kind: "references"; symbol: string; found: number }
  | {
      kind: "command";
      line: string;
      argv?: string[];
      exitCode: number | null;
      timedOut: boolean;
      cancelled: boolean;
      failures: { path: string; line: number; message: string }[];
    }
  | { kind: "verify"; passed: boolean; failures: { path: string; line: number; message: string }[] }
  | { kind: "todo"; items: { content: string; status: "pending" | "in_progress" | "completed" }[] };

export interface ToolResultBlock {
  type: "tool_result";
  callId: string;
  content: string;
  isError: boolean;
  /** Set when weir itself wrote the text (a refusal, a validation error), not the action's output. */
  origin?: "weir";
  /** A refusal by a guard or a person: the call did not run. `rule` names what refused it. */
  refused?: { rule: string };
  details?: ToolDetails;
}

export type AssistantBlock = TextBlock | ReasoningBlock | ToolCallBlock;
type UserBlock = TextBlock | ToolResultBlock | ImageBlock;

export interface UserMessage {
  role: "user";
  content: UserBlock[];
}

export interface AssistantMessage {
  role: "assistant";
  content: AssistantBlock[];
}

export type Message = UserMessage | AssistantMessage;

export const userText = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }] });

export function textOf(message: AssistantMessage): string {
  return message.content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("");
}

export function toolCallsOf(message: AssistantMessage): ToolCallBlock[] {
  return message.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
}

/** A tool the model may call: name, description and JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}
