import type { ToolSpec } from "../core/messages.ts";
import { type Action, jsonSchemaOf } from "./action.ts";
import { tokensOf } from "../core/chunk.ts";

/** One-line hints for the built-in capabilities; MCP servers bring their own (`mcp:<server>`). */
const CAPABILITY_HINTS: Record<string, string> = {
  read: "read files with line numbers and SHA",
  code_edit: "create, replace and edit files",
  repository_search: "list files by glob and search text by regex",
  command: "run programs (tests, builds, git) and shell command lines",
  verification: "run the project's own checks",
  navigation: "find definitions, callers and references of a symbol",
  git: "inspect and change git state",
  discovery: "load more actions",
  agents: "background workers for independent subgoals",
};

interface CapabilityInfo {
  name: string;
  hint: string;
  ids: string[];
}

/** Rough tokens of a text for budgeting and reports: about four characters a token. */

/**
 * Every action, built-in or from an MCP server, registered once. Specs (with their generated JSON
 * Schema) are computed once per action. Removed sources leave a reason so a late call is answered
 * with a sentence instead of "unknown".
 */
export class ActionRegistry {
  private actions = new Map<string, Action>();
  private specsCache = new Map<string, ToolSpec>();
  private hints = new Map<string, string>(Object.entries(CAPABILITY_HINTS));
  private gone = new Map<string, string>();

  register(action: Action, capabilityHint?: string): void {
    if (this.actions.has(action.id)) throw new Error(`action ${action.id} is registered twice`);
    this.actions.set(action.id, action);
    this.gone.delete(action.id);
    if (capabilityHint) this.hints.set(action.capability, capabilityHint);
  }

  /** Removes every action of a source (an MCP server going away), remembering why. */
  removeSource(source: string, reason: string): void {
    for (const [id, a] of this.actions)
      if (a.source === source) {
        this.actions.delete(id);
        this.specsCache.delete(id);
        this.gone.set(id, reason);
      }
  }

  get(id: string): Action | undefined {
    return this.actions.get(id);
  }

  goneReason(id: string): string | undefined {
    return this.gone.get(id);
  }

  all(): Action[] {
    return [...this.actions.values()];
  }

  ids(): string[] {
    return [...this.actions.keys()];
  }

  spec(id: string): ToolSpec | undefined {
    const cached = this.specsCache.get(id);
    if (cached) return cached;
    const a = this.actions.get(id);
    if (!a) return undefined;
    const spec = { name: a.id, description: a.description, inputSchema: jsonSchemaOf(a) };
    this.specsCache.set(id, spec);
    return spec;
  }

  /** Tokens the action's definition costs on the wire (name, description, schema). */
  schemaTokens(id: string): number {
    const s = this.spec(id);
    return s ? tokensOf(JSON.stringify(s)) : 0;
  }

  capabilities(): CapabilityInfo[] {
    const by = new Map<string, string[]>();
    for (const a of this.actions.values()) by.set(a.capability, [...(by.get(a.capability) ?? []), a.id]);
    return [...by.entries()].map(([name, ids]) => ({ name, hint: this.hints.get(name) ?? name, ids }));
  }

  /**
   * What a capability's actions are for, in one bounded line for the index: each action's short
   * name, so an MCP server's purposes reach the model and the router, not just "tools of NAME".
   */
  purposes(capability: string, max = 2000): string {
    const names = this.all()
      .filter((a) => a.capability === capability)
      .map((a) => a.id.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, ""));
    let line = names.join(", ");
    if (line.length > max) line = `${line.slice(0, max - 3).replace(/,[^,]*$/, "")}, ...`;
    return line;
  }
}
