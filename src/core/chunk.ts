import { z } from "zod";

/**
 * A context chunk: anything that may enter the model's context, with where it came from and how far
 * it can be trusted. The compiler renders each admitted chunk at one level.
 */
const ChunkKind = z.enum([
  "task",
  "file_range",
  "symbol_outline",
  "test",
  "diff",
  "tool_output",
  "mcp_result",
  "rule",
  "evidence",
  "past_decision",
  "failure",
  "checks",
  "review",
]);
export const RenderLevel = z.enum(["omit", "one_line", "summary", "full"]);
export const FloorReason = z.enum(["user_named", "changed", "failure_location", "edit_target", "evidence", "sticky_rule", "task"]);

export const ContextChunk = z.object({
  id: z.string(),
  kind: ChunkKind,
  /** Workspace-relative path, or a URI for non-file sources (mcp://server/tool, tool://call-id). */
  source: z.string(),
  range: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
  /** The lines the full level shows where they are not one range: a long file's regions. */
  shows: z.array(z.object({ start: z.number().int(), end: z.number().int() })).optional(),
  revision: z.object({ sha: z.string().optional(), head: z.string().optional() }),
  /** What the chunk speaks about: a path, a symbol, or the workspace. */
  scope: z.string(),
  freshness: z.enum(["current", "stale"]),
  /** Secret material is never admitted. */
  sensitivity: z.enum(["normal", "secret"]),
  trust: z.enum(["trusted", "untrusted"]),
  cost: z.object({ full: z.number(), summary: z.number(), one_line: z.number() }),
  relevance: z.object({ score: z.number().min(0).max(1), reasons: z.array(z.string()) }),
  precision: z.enum(["exact", "syntax", "heuristic"]),
  floor: FloorReason.optional(),
  content: z.object({ full: z.string(), summary: z.string(), one_line: z.string() }),
});
export type ContextChunk = z.infer<typeof ContextChunk>;
export type RenderLevel = z.infer<typeof RenderLevel>;
export type FloorReason = z.infer<typeof FloorReason>;

/** About four characters a token: the same estimate everywhere a budget is counted. */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4);
