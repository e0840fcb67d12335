import { join } from "node:path";
import { BUILTIN_ACTIONS } from "../actions/builtin/index.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction } from "../actions/disclosure.ts";
import { ActionExecutor, type Approver } from "../actions/executor.ts";
import { defaultPolicy, layerPolicy } from "../actions/permissions.ts";
import { ActionRegistry } from "../actions/registry.ts";
import { Conversation } from "../agent/conversation.ts";
import { createContextStep } from "../context/conversation.ts";
import { systemPrompt } from "../agent/prompt.ts";
import { userConfigDir, userDataDir } from "../config/paths.ts";
import { providerSettings, requireKey, type Resolved } from "../config/resolve.ts";
import { UserError } from "../core/errors.ts";
import { loadMcpServers, type ServerEntry } from "../mcp/config.ts";
import { McpHub } from "../mcp/hub.ts";
import { createProvider } from "../providers/index.ts";
import { SessionStore } from "../store/sessions.ts";
import { Ledger } from "../workspace/ledger.ts";
import { scrubEnv } from "../workspace/process.ts";
import type { ParsedArgs } from "./args.ts";
import { VERSION } from "./version.ts";

export const databasePath = (env = process.env) => join(userDataDir(env), "weir.db");

export const MCP_START_TIMEOUT_MS = 10_000;
export const MCP_CALL_TIMEOUT_MS = 60_000;

export interface Actions {
  store: SessionStore;
  registry: ActionRegistry;
  disclosure: Disclosure;
  executor: ActionExecutor;
  hub: McpHub;
  /** Lines to show the user about the session start (skipped MCP servers, ...). */
  notices: string[];
  close(): Promise<void>;
}

export interface ActionOptions {
  approver?: Approver;
  /** Asks whether a project's MCP server may start; absent where no one can answer. */
  approveServer?: (entry: ServerEntry) => Promise<boolean>;
}

/** The registry with built-ins and MCP tools, disclosure, and the executor under the permission policy. */
export async function buildActions(args: ParsedArgs, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Actions> {
  const store = SessionStore.open(databasePath());
  const registry = new ActionRegistry();
  for (const a of BUILTIN_ACTIONS) registry.register(a);
  const disclosure = new Disclosure(registry, { mode: args.tools === "all" ? "all" : "auto", core: DEFAULT_CORE, unloadAfter: 12 });
  registry.register(loadActionsAction(() => disclosure));
  const policy = layerPolicy(layerPolicy(defaultPolicy(), resolved.permissions.user, "user"), resolved.permissions.project, "project");
  const executor = new ActionExecutor(
    registry,
    { root: workspace, home: process.env.HOME ?? process.env.USERPROFILE ?? "", ledger: new Ledger(), env: scrubEnv(process.env) },
    { policy, ...(o.approver ? { approver: o.approver } : {}), yes: args.yes, allow: args.allow, onUsed: (id) => disclosure.markUsed(id) },
  );
  const entries = loadMcpServers(userConfigDir(), workspace, process.env);
  const notices: string[] = [];
  for (const e of entries)
    if (e.origin === "project" && !e.config.disabled && !store.isMcpServerApproved(workspace, e.name, e.fingerprint) && o.approveServer && (await o.approveServer(e)))
      store.approveMcpServer(workspace, e.name, e.fingerprint);
  const hub = new McpHub(registry, {
    workspace,
    startTimeoutMs: MCP_START_TIMEOUT_MS,
    callTimeoutMs: MCP_CALL_TIMEOUT_MS,
    isApproved: (e) => store.isMcpServerApproved(workspace, e.name, e.fingerprint),
    clientVersion: VERSION,
  });
  await hub.start(entries);
  for (const s of hub.status()) if (s.state === "failed" || s.state === "unapproved") notices.push(`MCP server ${hub.describe(s)}`);
  return {
    store,
    registry,
    disclosure,
    executor,
    hub,
    notices,
    async close() {
      await hub.closeAll();
      store.close();
    },
  };
}

export interface Runtime extends Actions {
  conversation: Conversation;
}

/** Everything a run needs: the actions, the provider and the (new or resumed) session. */
export async function buildRuntime(args: ParsedArgs, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Runtime> {
  requireKey(resolved);
  const s = resolved.settings;
  const provider = await createProvider(providerSettings(resolved), resolved.preset.hint);
  const actions = await buildActions(args, workspace, resolved, o);
  const { store, executor, disclosure } = actions;
  let sessionId: string | undefined;
  try {
    if (args.continue || args.resume) {
      const row = args.resume ? store.find(args.resume) : store.latest(workspace);
      if (!row) throw new UserError(`no session in ${workspace} to continue; start one with weir "task"`, 2);
      sessionId = row.id;
      const last = store.lastRun(row.id);
      const before = last ? `${last.provider}/${last.model}` : `${row.provider}/${row.model}`;
      const now = `${s.provider}/${s.model}`;
      actions.notices.unshift(
        `resuming session ${row.id.slice(0, 8)} ("${row.title}")${before !== now ? `, started on ${before}, now on ${now}` : ""}${row.workspace !== workspace ? `; it began in ${row.workspace}` : ""}`,
      );
    }
  } catch (e) {
    await actions.close();
    throw e;
  }
  // The conversation may use the window minus the output reserve and the fixed prompt (system + tools).
  const contextStep = createContextStep({
    budget: Math.max(8_000, s.contextSize - s.maxTokens - 6_000),
    onVerdict: (call, r) => {
      if (conversation.sessionId && r.verdict !== "evidence") store.recordVerdict(conversation.sessionId, call.id, call.name, r.verdict, r.findings);
    },
  });
  const conversation: Conversation = new Conversation(
    {
      store,
      workspace,
      provider,
      system: systemPrompt(workspace),
      tools: executor.specs(),
      execute: executor.execute,
      maxTurns: s.maxTurns,
      maxTokens: s.maxTokens,
      seams: { offer: () => disclosure.offer(), context: (messages) => contextStep(messages) },
      onTask: (task) => disclosure.preloadFor(task),
    },
    sessionId,
  );
  return { ...actions, conversation };
}
