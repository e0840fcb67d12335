import { join } from "node:path";
import { BUILTIN_ACTIONS } from "../actions/builtin/index.ts";
import { ActionExecutor, type Approver } from "../actions/executor.ts";
import { defaultPolicy, layerPolicy } from "../actions/permissions.ts";
import { Conversation } from "../agent/conversation.ts";
import { systemPrompt } from "../agent/prompt.ts";
import { userDataDir } from "../config/paths.ts";
import { providerSettings, requireKey, type Resolved } from "../config/resolve.ts";
import { UserError } from "../core/errors.ts";
import { createProvider } from "../providers/index.ts";
import { SessionStore } from "../store/sessions.ts";
import { Ledger } from "../workspace/ledger.ts";
import { scrubEnv } from "../workspace/process.ts";
import type { ParsedArgs } from "./args.ts";

export const databasePath = (env = process.env) => join(userDataDir(env), "weir.db");

export interface Runtime {
  store: SessionStore;
  conversation: Conversation;
  executor: ActionExecutor;
  /** A line to show when an earlier session was resumed, else undefined. */
  banner?: string;
}

/** Everything a run needs, wired once: provider, actions under the permission policy, the session. */
export async function buildRuntime(args: ParsedArgs, workspace: string, resolved: Resolved, approver: Approver | undefined): Promise<Runtime> {
  requireKey(resolved);
  const s = resolved.settings;
  const provider = await createProvider(providerSettings(resolved), resolved.preset.hint);
  const policy = layerPolicy(layerPolicy(defaultPolicy(), resolved.permissions.user, "user"), resolved.permissions.project, "project");
  const executor = new ActionExecutor(
    BUILTIN_ACTIONS,
    { root: workspace, home: process.env.HOME ?? process.env.USERPROFILE ?? "", ledger: new Ledger(), env: scrubEnv(process.env) },
    { policy, ...(approver ? { approver } : {}), yes: args.yes, allow: args.allow },
  );
  const store = SessionStore.open(databasePath());
  let sessionId: string | undefined;
  let banner: string | undefined;
  if (args.continue || args.resume) {
    const row = args.resume ? store.find(args.resume) : store.latest(workspace);
    if (!row) throw new UserError(`no session in ${workspace} to continue; start one with weir "task"`, 2);
    sessionId = row.id;
    const last = store.lastRun(row.id);
    const before = last ? `${last.provider}/${last.model}` : `${row.provider}/${row.model}`;
    const now = `${s.provider}/${s.model}`;
    banner = `resuming session ${row.id.slice(0, 8)} ("${row.title}")${before !== now ? `, started on ${before}, now on ${now}` : ""}${row.workspace !== workspace ? `; it began in ${row.workspace}` : ""}`;
  }
  const conversation = new Conversation(
    {
      store,
      workspace,
      provider,
      system: systemPrompt(workspace),
      tools: executor.specs(),
      execute: executor.execute,
      maxTurns: s.maxTurns,
      maxTokens: s.maxTokens,
    },
    sessionId,
  );
  return { store, conversation, executor, ...(banner ? { banner } : {}) };
}
