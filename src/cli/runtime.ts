import { join } from "node:path";
import { BUILTIN_ACTIONS } from "../actions/builtin/index.ts";
import { findReferences } from "../actions/builtin/references.ts";
import { verifyAction } from "../actions/builtin/verify.ts";
import { VerificationLedger } from "../actions/verification.ts";
import { runSeams } from "../agent/run-seams.ts";
import { WorkState } from "../agent/state.ts";
import { ContextIndex, type WorkingSet, workingSetBudget } from "../context/working-set.ts";
import { DecisionPlane } from "../decision/plane.ts";
import { configureJudge } from "../decision/configure.ts";
import type { JudgmentProvider } from "../decision/providers.ts";
import { AGENT_CONTEXT_V1, setKey } from "../decision/questions.ts";
import { existsSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createSandbox } from "../workspace/sandbox.ts";
import { loadAnswerPolicy } from "../eval/policy.ts";
import { gitOutput } from "../workspace/git.ts";
import { DEFAULT_CORE, Disclosure, loadActionsAction } from "../actions/disclosure.ts";
import { ActionExecutor, type Approver, FileLocks } from "../actions/executor.ts";
import { agentActions } from "../agent/agent-actions.ts";
import { Fleet } from "../agent/fleet.ts";
import { workspaceRevision } from "../agent/revision.ts";
import { type WorkerDeps, workerStarter } from "../agent/worker.ts";
import type { AgentEvent, Display } from "../core/events.ts";
import { walk } from "../workspace/walker.ts";
import { homeDirectory, Workspace } from "../workspace/workspace.ts";
import { skillAction } from "../actions/builtin/skills.ts";
import { quoteData } from "../context/render.ts";
import { loadSkills } from "../context/skills.ts";
import { warmParsers } from "../context/outline.ts";
import { describeHooks, Hooks, type HooksConfig, hooksFingerprint, mergeHooks } from "../actions/hooks.ts";
import { defaultPolicy, layerPolicy } from "../actions/permissions.ts";
import { ActionRegistry } from "../actions/registry.ts";
import { Conversation } from "../agent/conversation.ts";
import { createContextStep } from "../context/conversation.ts";
import { systemPrompt } from "../agent/prompt.ts";
import { userConfigDir, userDataDir } from "../config/paths.ts";
import { providerSettings, requireKey, type Resolved } from "../config/resolve.ts";
import { UserError } from "../core/errors.ts";
import { loadMcpServers, NO_SERVERS, type ServerEntry } from "../mcp/config.ts";
import type { McpHub } from "../mcp/hub.ts";
import { createProvider } from "../providers/index.ts";
import { SessionStore } from "../store/sessions.ts";
import { Ledger } from "../workspace/ledger.ts";
import { scrubEnv } from "../workspace/process.ts";
import { Supervisor } from "../supervisor/supervisor.ts";
import { startStatusServer } from "../supervisor/status-server.ts";
import type { ParsedArgs } from "./args.ts";
import { VERSION } from "./version.ts";

/** `--add-dir` values as canonical directories; a missing one is a usage error. */
function addDirs(v: unknown): string[] {
  const dirs = Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
  return dirs.map((d) => {
    try {
      const real = realpathSync(resolve(d));
      if (!statSync(real).isDirectory()) throw new Error();
      return real;
    } catch {
      throw new UserError(`--add-dir ${d} is not a directory`, 2);
    }
  });
}

export const databasePath = (env = process.env) => join(userDataDir(env), "weir.db");

/** Runs `f` on the session database when it exists; read-only commands never create one. */
export function withExistingStore(none: string, out: (s: string) => void, f: (store: SessionStore) => number): number {
  if (!existsSync(databasePath())) {
    out(`${none}\n`);
    return 0;
  }
  const store = SessionStore.open(databasePath());
  try {
    return f(store);
  } finally {
    store.close();
  }
}

/** Long enough for a cold `npx -y` download; each server may set its own `timeout`. */
export const MCP_START_TIMEOUT_MS = 30_000;
export const MCP_CALL_TIMEOUT_MS = 60_000;

/** The MCP hub, or its empty stand-in when no server is configured. */
export type Hub = Pick<McpHub, "status" | "describe" | "closeAll" | "enable" | "disable" | "reconnect" | "disconnect">;

export interface Actions {
  supervisor: Supervisor;
  hooks: Hooks;
  store: SessionStore;
  ledger: Ledger;
  verification: VerificationLedger;
  registry: ActionRegistry;
  disclosure: Disclosure;
  executor: ActionExecutor;
  hub: Hub;
  /** Lines to show the user about the session start (skipped MCP servers, ...). */
  notices: string[];
  /** The session the supervisor's call records belong to. */
  setSession(id: string | undefined): void;
  /** A worker's actions: built-ins only, in its scope, its commands in a read-only sandbox showing only what it may read. */
  workerActions: WorkerDeps["actions"];
  close(): Promise<void>;
}

export interface ActionOptions {
  approver?: Approver;
  /** Tokens for the compiled working set (`--budget`); default from the context size. */
  workingSetBudget?: number;
  /** Told of each working set a run compiles (`weir context`). */
  onWorkingSet?: (w: WorkingSet) => void;
  /** Only to preview a request (`weir context`): no key needed, no decision recorded. */
  preview?: boolean;
  /** Asks whether a project's MCP server may start; absent where no one can answer. */
  approveServer?: (entry: ServerEntry) => Promise<boolean>;
  /** Asks whether a project's hooks may run (the file, one line per command); absent where no one can answer. */
  approveHooks?: (file: string, commands: string[]) => Promise<boolean>;
}

/** The registry with built-ins and MCP tools, disclosure, and the executor under the permission policy. */
export async function buildActions(args: ParsedArgs, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Actions> {
  const store = SessionStore.open(databasePath());
  let sessionForRecords: string | undefined;
  const supervisor = new Supervisor({ onRecord: (r) => store.recordCall(sessionForRecords, r) });
  const registry = new ActionRegistry();
  const verification = new VerificationLedger(workspace);
  const ledger = new Ledger();
  for (const a of [...BUILTIN_ACTIONS, findReferences, verifyAction(verification)]) registry.register(a);
  // Skills enter the capability index by their descriptions; their bodies load on demand.
  const skills = loadSkills(workspace, userConfigDir());
  const skill = skills.length ? skillAction(skills) : undefined;
  if (skill) registry.register(skill.action, skill.hint);
  const disclosure = new Disclosure(registry, { mode: args.tools === "all" ? "all" : "auto", core: DEFAULT_CORE, unloadAfter: 12 });
  registry.register(loadActionsAction(() => disclosure));
  const policy = layerPolicy(layerPolicy(defaultPolicy(), resolved.permissions.user, "user"), resolved.permissions.project, "project");
  const home = homeDirectory();
  const sandbox = createSandbox({ mode: resolved.settings.sandbox.mode, root: workspace, home, readable: resolved.settings.sandbox.readable, writable: addDirs(args.flags["add-dir"]) });
  const env = scrubEnv(process.env);
  // Hooks run in the same sandbox as every command; a project's only once the user approved exactly them here.
  const notices: string[] = [];
  const hooks = new Hooks(mergeHooks(resolved.settings.hooks, await approvedProjectHooks(store, workspace, resolved.settings.projectHooks, o.approveHooks, notices)), { root: workspace, env, sandbox, sessionId: () => sessionForRecords });
  // Writes of every agent of this process queue per file.
  const locks = new FileLocks();
  const allowNetwork = args.flags["allow-network"] === true;
  const executor = new ActionExecutor(
    registry,
    { workspace: new Workspace(workspace, home), ledger, env, sandbox },
    { policy, ...(o.approver ? { approver: o.approver } : {}), yes: args.yes, allow: args.allow, allowNetwork, onUsed: (id) => disclosure.markUsed(id), tracker: supervisor, hooks, locks },
  );
  const workerActions: WorkerDeps["actions"] = (w) => {
    const reg = new ActionRegistry();
    for (const a of [...BUILTIN_ACTIONS, findReferences, verifyAction(w.verification)]) reg.register(a);
    if (skill) reg.register(skill.action, skill.hint);
    const disc = new Disclosure(reg, { mode: args.tools === "all" ? "all" : "auto", core: DEFAULT_CORE, unloadAfter: 12 });
    reg.register(loadActionsAction(() => disc));
    // Commands see the workspace read-only, and a scoped reader only the files it may read.
    const box = createSandbox({
      mode: resolved.settings.sandbox.mode === "off" ? "off" : "read-only",
      root: workspace,
      home,
      readable: resolved.settings.sandbox.readable,
      ...(w.scope.readsEverything ? {} : { visible: () => Array.from(walk(workspace), (e) => e.path).filter((p) => w.scope.allows(p, "read")).map((p) => join(workspace, p)) }),
    });
    const ex = new ActionExecutor(
      reg,
      { workspace: new Workspace(workspace, home, w.scope), ledger: w.ledger, env, sandbox: box },
      { policy, yes: args.yes, allow: args.allow, allowNetwork, onUsed: (id) => disc.markUsed(id), tracker: w.tracker, hooks, locks, worker: w.label },
    );
    return { registry: reg, disclosure: disc, executor: ex };
  };
  const entries = loadMcpServers(userConfigDir(), workspace, process.env);
  if (!sandbox.active) notices.push(sandbox.describe());
  if (args.yes) notices.push(`--yes approves every action that would ask (denied ones stay denied); ${sandbox.active ? "the sandbox stays on and network access is still only by --allow-network" : "there is no sandbox to stay on"}`);
  for (const e of entries)
    if (e.origin === "project" && !e.config.disabled && !store.isMcpServerApproved(workspace, e.name, e.fingerprint) && o.approveServer && (await o.approveServer(e)))
      store.approveMcpServer(workspace, e.name, e.fingerprint);
  const hub: Hub = entries.length
    ? new (await import("../mcp/hub.ts")).McpHub(registry, {
        workspace,
        startTimeoutMs: MCP_START_TIMEOUT_MS,
        onStarting: (name, ms) => process.stderr.write(`weir: MCP server ${name} is starting (waiting up to ${Math.round(ms / 1000)}s; its "timeout" in mcp.json sets how long)\n`),
        callTimeoutMs: MCP_CALL_TIMEOUT_MS,
        isApproved: (e) => store.isMcpServerApproved(workspace, e.name, e.fingerprint),
        clientVersion: VERSION,
      })
    : NO_SERVERS;
  if (entries.length) await (hub as McpHub).start(entries);
  for (const s of hub.status()) if (s.state === "failed" || s.state === "unapproved") notices.push(`MCP server ${hub.describe(s)}`);
  const status = typeof args.flags["status-port"] === "number" ? startStatusServer(supervisor, Number(args.flags["status-port"]), process.env.WEIR_STATUS_TOKEN) : undefined;
  if (status) notices.push(`status endpoint on http://127.0.0.1:${status.port}/status${process.env.WEIR_STATUS_TOKEN ? " (token required)" : ""}`);
  return {
    supervisor,
    hooks,
    setSession: (id: string | undefined) => {
      sessionForRecords = id;
    },
    workerActions,
    store,
    ledger,
    verification,
    registry,
    disclosure,
    executor,
    hub,
    notices,
    async close() {
      status?.stop();
      supervisor.dispose();
      await hub.closeAll();
      store.close();
    },
  };
}

export interface Runtime extends Actions {
  conversation: Conversation;
  /** The main agent's background workers (spawn_agent and friends; `/agents` in the REPL). */
  fleet: Fleet;
  /** Wraps a display so model-stream activity reaches the supervisor (the silent verdict). */
  watch(display: Display): Display;
}

/** Everything a run needs: the actions, the provider and the (new or resumed) session. */
export async function buildRuntime(args: ParsedArgs, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Runtime> {
  if (!o.preview) requireKey(resolved);
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
      // What its workers did (their transcripts are sessions of their own under this one).
      for (const w of store.workers(row.id)) actions.notices.splice(1, 0, `worker ${w.label}: ${w.status}, ${w.turns} turn${w.turns === 1 ? "" : "s"} (transcript: session ${w.id.slice(0, 8)}) — ${w.title.slice(0, 80)}`);
    }
  } catch (e) {
    await actions.close();
    throw e;
  }
  const home = homeDirectory();
  const state = new WorkState(workspace, home, actions.ledger, actions.verification);
  const dirty = (await gitOutput(workspace, ["status", "--porcelain=v1"])) ?? "";
  state.setDirty(dirty.split("\n").filter(Boolean).map((l) => l.slice(3)));
  const workingSet = o.workingSetBudget ?? args.budget ?? workingSetBudget(s.contextSize);
  // The conversation may use the window minus the output reserve, the fixed prompt (system + tools) and the working set.
  const contextStep = createContextStep({
    budget: Math.max(8_000, s.contextSize - s.maxTokens - 6_000 - workingSet),
    onVerdict: (call, r) => {
      if (r.verdict === "evidence") return;
      for (const f of r.findings.slice(0, 2)) state.note(f.excerpt);
      if (conversation.sessionId) store.recordVerdict(conversation.sessionId, call.id, call.name, r.verdict, r.findings);
    },
  });
  const judge = await configureJudge(resolved, actions.notices);
  const policy = judge ? loadAnswerPolicy(join(workspace, "policies", "decision-policy.json"), setKey(AGENT_CONTEXT_V1), judge, actions.notices) : undefined;
  const judgmentMode = judge ? (args.judgment ?? s.judgment?.mode ?? "shadow") : "off";
  // Calibrated mode reduces work only where the pinned policy certified it; say so when it certifies nothing.
  if (judgmentMode === "calibrated" && !Object.keys(policy?.reductions ?? {}).length)
    actions.notices.push("--judgment calibrated: the pinned decision policy certifies no work reduction for this judge (each needs >= 200 calibration cases in its band and an upper 95% false-stop bound <= 2%); the judgment runs increase-only");
  const plane = new DecisionPlane({
    ...(judge ? { provider: judge } : {}),
    ...(policy ? { policy } : {}),
    mode: judgmentMode,
    ...(s.judgment?.timeoutMs ? { timeoutMs: s.judgment.timeoutMs } : {}),
    record: (rec) => (o.preview ? undefined : store.recordDecision(conversation.sessionId, rec)),
  });
  const system = systemPrompt(workspace);
  // Worker events go to the display of the run in progress.
  let current: Display | undefined;
  const index = new ContextIndex();
  const maxAgents = typeof args.flags["max-agents"] === "number" ? (args.flags["max-agents"] as number) : 4;
  const fleet = new Fleet({
    max: maxAgents,
    waitMs: typeof args.flags["agent-wait-ms"] === "number" ? (args.flags["agent-wait-ms"] as number) : 300_000,
    revision: () => workspaceRevision(workspace),
    files: () => Array.from(walk(workspace), (e) => e.path),
    // The main agent verifies what its workers changed.
    onEnd: (_s, end) => {
      for (const p of end.wrote) actions.verification.markChanged(p);
    },
    start: workerStarter({
      workspace,
      home,
      userDir: userConfigDir(),
      provider: () => conversation.provider,
      store,
      parentSession: () => conversation.sessionId,
      ledger: actions.ledger,
      state,
      index,
      contextSize: s.contextSize,
      maxTokens: s.maxTokens,
      workingSetBudget: workingSet,
      actions: actions.workerActions,
      emit: (e) => current?.emit(e),
    }),
  });
  if (fleet.enabled) for (const a of agentActions(fleet)) actions.registry.register(a);
  const seams = runSeams(
    {
      workspace,
      home,
      userDir: userConfigDir(),
      state,
      ledger: actions.ledger,
      verification: actions.verification,
      registry: actions.registry,
      disclosure,
      plane,
      questionSet: setKey(AGENT_CONTEXT_V1),
      contextStep,
      index,
      contextSize: s.contextSize,
      workingSetBudget: workingSet,
      verifyFloor: s.verifyFloor,
      // weir context previews without running the user's hooks (they may have side effects).
      ...(o.preview ? {} : { hooks: actions.hooks }),
      newSession: () => conversation.messages.length === 0,
      ...(o.onWorkingSet ? { onWorkingSet: o.onWorkingSet } : {}),
    },
    system,
  );
  // Reports the last run did not collect (it ended first) open the next run, quoted as the data they are.
  const open = seams.open;
  seams.open = async (t) => {
    const opening = await open?.(t);
    const left = await fleet.uncollected();
    if (!left.length) return opening;
    const block = `[weir · reports of workers from an earlier turn that were not collected]\n${quoteData(left.map((r) => JSON.stringify({ ...r, answer: r.answer.slice(0, 1_000) })).join("\n"))}`;
    return [opening, block].filter(Boolean).join("\n\n");
  };
  // A run never ends with workers still going: they are stopped, and the closing event says so.
  const report = seams.report;
  seams.report = async () => {
    const stopped = await fleet.stopAll();
    if (stopped.length) current?.emit({ type: "notice", level: "warn", message: `the run ended with ${stopped.length} worker${stopped.length === 1 ? "" : "s"} still running (${stopped.join(", ")}); stopped them (what they wrote stays)` });
    const base = (await report?.()) ?? {};
    const agents = fleet.usage();
    return agents.length ? { ...base, agents } : base;
  };
  const conversation: Conversation = new Conversation(
    {
      store,
      workspace,
      provider,
      system,
      // Disclosure offers the tools each turn; the full catalog is built only with --tools all.
      tools: [],
      execute: executor.execute,
      maxTurns: s.maxTurns,
      maxTokens: s.maxTokens,
      seams,
      onTask: (t) => {
        // Call records of this run (the first call included) belong to the session.
        actions.setSession(conversation.sessionId);
        seams.onTask(t);
      },
    },
    sessionId,
  );
  // The parsers a later compile (a worker's) would need load while the first model request is out.
  let warmed = false;
  const watch = (display: Display): Display => {
    const wrapped = {
      emit(e: AgentEvent) {
        if (e.type === "turn_start" && !warmed && fleet.enabled) {
          warmed = true;
          setTimeout(() => void warmParsers(Array.from(walk(workspace, { limit: 2_000 }), (f) => f.path)), 0);
        }
        if (e.type === "turn_start" || e.type === "text_delta" || e.type === "reasoning_delta" || e.type === "retry") actions.supervisor.modelActivity(true);
        else if (e.type === "turn_end" || e.type === "run_end") actions.supervisor.modelActivity(false);
        display.emit(e);
      },
    };
    current = display;
    return wrapped;
  };
  return { ...actions, conversation, fleet, watch };
}

/** The configured judgment provider for `weir eval run --provider judgment`; notices go to stderr. */
export async function judgmentFor(resolved: Resolved): Promise<{ provider: JudgmentProvider } | undefined> {
  const notices: string[] = [];
  const provider = await configureJudge(resolved, notices);
  for (const n of notices) console.error(`weir: ${n}`);
  return provider ? { provider } : undefined;
}

/** A project's hooks if the user approved exactly these for the workspace (asked now where someone can answer); else none, said in a notice. */
async function approvedProjectHooks(store: SessionStore, workspace: string, project: HooksConfig | undefined, ask: ActionOptions["approveHooks"], notices: string[]): Promise<HooksConfig | undefined> {
  if (!project) return undefined;
  const fingerprint = hooksFingerprint(project);
  if (store.areProjectHooksApproved(workspace, fingerprint)) return project;
  const file = join(".weir", "config.json");
  if (ask && (await ask(file, describeHooks(project)))) {
    store.approveProjectHooks(workspace, fingerprint);
    return project;
  }
  notices.push(`${file} declares hooks that are not approved for this workspace, so they do not run (${ask ? "declined" : "run weir in a terminal to be asked"})`);
  return undefined;
}
