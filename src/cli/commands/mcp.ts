import { userConfigDir } from "../../config/paths.ts";
import { UserError, usageError } from "../../core/errors.ts";
import { loadMcpServers, uncoverable } from "../../mcp/config.ts";
import type { Hub } from "../runtime.ts";
import { SessionStore } from "../../store/sessions.ts";
import { databasePath } from "../data.ts";

/** The `/mcp` words in the REPL (and `weir mcp list`): one line per server, or a change to one. */
export async function mcpCommandLine(hub: Hub, words: string[]): Promise<string> {
  const [verb = "", name] = words;
  if (verb === "" || verb === "list") {
    const all = hub.status();
    if (all.length === 0) return "no MCP servers configured (mcpServers in ~/.config/weir/mcp.json or <workspace>/.mcp.json)";
    return all.map((s) => `${hub.describe(s)}${verb === "list" && s.tools.length ? `\n  ${s.tools.join("\n  ")}` : ""}`).join("\n");
  }
  if (!["enable", "disable", "reconnect", "disconnect"].includes(verb)) return `unknown: /mcp ${verb}; use list, enable, disable, reconnect or disconnect NAME`;
  if (!name) return `/mcp ${verb} needs a server name`;
  try {
    return await hub[verb as "enable" | "disable" | "reconnect" | "disconnect"](name);
  } catch (e) {
    return (e as Error).message;
  }
}

/** `weir mcp approve NAME|--all`: lets a project's servers start in this workspace, exactly as configured now. */
export function mcpApprove(words: string[], workspace: string, all: boolean, out: (s: string) => void): number {
  const entries = loadMcpServers(userConfigDir(), workspace, process.env).filter((e) => e.origin === "project");
  const names = all ? entries.map((e) => e.name) : words.slice(2);
  if (names.length === 0) throw usageError("weir mcp approve needs a server name (or --all)");
  const store = SessionStore.open(databasePath());
  try {
    for (const n of names) {
      const e = entries.find((x) => x.name === n);
      if (!e) throw usageError(`no project MCP server named ${n} in ${workspace}/.mcp.json`);
      const tooMany = uncoverable(e);
      if (tooMany) throw new UserError(`cannot approve ${e.name}: ${tooMany}`, 1);
      store.approveMcpServer(workspace, e.name, e.fingerprint);
      const covers = e.covers ? ` (covering the ${e.covers.files === 1 ? "1 workspace file" : `${e.covers.files} workspace files`} it can load)` : "";
      out(`approved ${e.name}: ${"command" in e.config ? [e.config.command, ...e.config.args].join(" ") : e.config.url}${covers}\n`);
    }
    return 0;
  } finally {
    store.close();
  }
}
