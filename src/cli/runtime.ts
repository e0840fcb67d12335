import type { TodoItem } from "../actions/builtin/todo.ts";
import { existsSync, statSync } from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import { builtinActionSet } from "../actions/builtin/index.ts";
import { skillAction } from "../actions/builtin/skills.ts";
import type { Disclosure } from "../actions/disclosure.ts";
import { ActionExecutor, type Approver, FileLocks } from "../actions/executor.ts";
import type { RunMode } from "../config/options.ts";
import { approvedProjectHooks, Hooks, mergeHooks } from "../actions/hooks.ts";
import { defaultPolicy, layerPolicy } from "../actions/permissions.ts";
import type { ActionRegistry } from "../actions/registry.ts";
import { isDocumentation, VerificationLedger } from "../actions/verification.ts";
import { agentActions } from "../agent/agent-actions.ts";
import { Conversation } from "../agent/conversation.ts";
import { Fleet } from "../agent/fleet.ts";
import { withFleet } from "../agent/fleet-seams.ts";
import { systemPrompt } from "../agent/prompt.ts";
import { workspaceRevision } from "../agent/revision.ts";
import { runSeams } from "../agent/run-seams.ts";
import { WorkState } from "../agent/state.ts";
import { type WorkerDeps, workerActionsFor, workerStarter } from "../agent/worker.ts";
import { userConfigDir, userDataDir } from "../config/paths.ts";
import { providerSettings, type Resolved, roleProviderSettings, roleReachable } from "../config/resolve.ts";
import { ModelRouter, type RouteRole } from "../decision/router.ts";
import type { RunSeamDeps } from "../agent/run-seams.ts";
import { hostOf } from "../providers/credential.ts";
import type { ModelProvider } from "../providers/port.ts";
import { priceOf } from "../providers/prices.ts";
import { createContextStep } from "../context/context-step.ts";
import { loadSkills } from "../context/skills.ts";
import { isTestPath } from "../context/sources.ts";
import { useOutlineCache } from "../context/outline.ts";
import { quoteMarker, useQuoteMarker } from "../context/render.ts";
import { attachImages, imageMentions, takesNoImages } from "../context/images.ts";
import { ContextIndex, type WorkingSet, workingSetBudget } from "../context/working-set.ts";
import type { Display } from "../core/events.ts";
import { taskRoom } from "../core/text-fit.ts";
import { AGENT_CONTEXT, setKey } from "../decision/questions.ts";
import { configurePlane } from "../decision/policy.ts";
import type { DecisionRecord } from "../decision/plane.ts";
import { loadMcpServers, NO_SERVERS, type ServerEntry } from "../mcp/config.ts";
import type { McpHub } from "../mcp/hub.ts";
import { createProvider } from "../providers/create.ts";
import { OutlineCache } from "../store/outlines.ts";
import { WalkStore } from "../workspace/walks.ts";
import { type RouteRecord, SessionStore } from "../store/sessions.ts";
import { SymbolIndex } from "../store/symbol-index.ts";
import { indexedCallers, indexedDefiners, indexedImporters, indexedNamers } from "../context/definitions.ts";
import { refreshInBackground, symbolIndexPath } from "./commands/index-command.ts";
import { startStatusServer } from "../supervisor/status-server.ts";
import { Supervisor } from "../supervisor/supervisor.ts";
import { Ledger } from "../workspace/ledger.ts";
import { commandEnv, knownSecretValues, secretFileValues } from "../workspace/environment.ts";
import { addKnownSecrets } from "../core/credentials.ts";
import { borrowsObjects, type CommandSandbox, createSandbox } from "../workspace/sandbox.ts";
import { changesDir, Transactions } from "../workspace/transaction.ts";
import { UndoLog, undoDir } from "../workspace/undo.ts";
import { walkFiles } from "../workspace/walker.ts";
import { homeDirectory } from "../workspace/containment.ts";
import type { PathScope } from "../workspace/scope.ts";
import { Workspace } from "../workspace/workspace.ts";
import { databasePath, resumeTarget } from "./data.ts";
import { requireKeyIn } from "./settings.ts";
import type { RunOptions } from "./run-options.ts";
import { COMMIT, VERSION } from "./version.ts";

/**
 * The composition root: it builds each part once and hands it to the parts that use it. It decides
 * nothing and says nothing to the model; behaviour lives in the modules it wires.
 */

/** The MCP hub, or its empty stand-in when no server is configured. */
export type Hub = Pick<McpHub, "status" | "describe" | "closeAll" | "enable" | "disable" | "reconnect" | "disconnect">;

export interface Actions {
  /** Sets the run's mode from the next action on (`--mode`, Shift-Tab and /mode in the REPL). */
  setMode(mode: RunMode): void;
  supervisor: Supervisor;
  hooks: Hooks;
  store: SessionStore;
  ledger: Ledger;
  verification: VerificationLedger;
  registry: ActionRegistry;
  disclosure: Disclosure;
  executor: ActionExecutor;
  hub: Hub;
  /** What each turn's writes replaced, for `weir undo` and `/undo`. */
  undo: UndoLog;
  /** The model's plan as its todo action last sent it. */
  plan: { items: TodoItem[] };
  /** Lines to show the user about the session start (skipped MCP servers, ...). */
  notices: string[];
  /** Files that run code later or instruct agents that this process let an action write (the run's summary). */
  autorunWrites: string[];
  /** The session the supervisor's call records belong to. */
  setSession(id: string | undefined): void;
  /** A worker's actions: built-ins only, in its scope, its commands in a read-only sandbox showing only what it may read. */
  workerActions: WorkerDeps["actions"];
  close(): Promise<void>;
}

export interface ActionOptions {
  approver?: Approver;
  /** Told of each working set a run compiles (`weir context`). */
  onWorkingSet?: (w: WorkingSet) => void;
  /** Only to preview a request (`weir context`): no key needed, no decision recorded, no hooks run. */
  preview?: boolean;
  /** Told of each decision the plane makes (`weir serve`'s decide, which previews). */
  onDecision?: (d: DecisionRecord) => void;
  /** Asks whether a project's MCP server may start; absent where no one can answer. */
  approveServer?: (entry: ServerEntry) => Promise<boolean>;
  /** Asks whether a project's hooks may run (the file, one line per command); absent where no one can answer. */
  approveHooks?: (file: string, commands: string[]) => Promise<boolean>;
  /** The paths the run's file actions may read and write (a graph node's scope); absent: the whole workspace. */
  scope?: PathScope;
  /** The role the router prefers where the view asks for neither (a graph node: `fast`); default `main`. */
  prefer?: RouteRole;
}

/**
 * The model router's parts for a conversation preferring `prefer`, or undefined where no second
 * model can take turns: none configured, `--router off`, the same model as main, or no key for it
 * (said once in `notices`). The fast model's SDK loads when a turn first goes to it.
 */
function routing(
  resolved: Resolved,
  main: () => ModelProvider,
  registry: ActionRegistry,
  notices: string[],
  record: (r: RouteRecord & { session: string | undefined }) => void,
): ((prefer: RouteRole, session: () => string | undefined) => NonNullable<RunSeamDeps["router"]>) | undefined {
  const s = resolved.settings;
  const fast = roleProviderSettings(resolved, "fast");
  if (!fast || s.router === "off" || (fast.model === s.model && fast.baseUrl === s.baseUrl)) return undefined;
  if (!roleReachable(resolved, "fast")) {
    const why = `no key for ${hostOf(fast.baseUrl)} (${s.models.fast!.keySource})`;
    notices.push(`the fast model ${fast.model} is not used: ${why}; every request goes to ${s.model}`);
    return undefined;
  }
  let fastProvider: Promise<ModelProvider> | undefined;
  const provider = (role: RouteRole) => (role === "main" ? Promise.resolve(main()) : (fastProvider ??= createProvider(fast, `models.fast (${fast.preset})`)));
  // Main's price is read each time: /model may have switched it.
  const price = {
    get main() {
      return priceOf(main().settings.model, s.prices);
    },
    fast: priceOf(fast.model, s.prices),
  };
  const caches = { main: s.cache !== "off", fast: s.cache !== "off" };
  const edits = (name: string) => registry.get(name)?.capability === "code_edit";
  return (prefer, session) => {
    const onServed = (r: Omit<RouteRecord, "model"> & { role: RouteRole }) => {
      const model = r.role === "main" ? main().settings.model : fast.model;
      record({ ...r, model, session: session() });
    };
    return { router: new ModelRouter({ price, caches, prefer, edits, onServed }), provider };
  };
}

/** Files the compiler's content search reads at most (context/sources.ts); past it the symbol index matters. */
const CONTENT_SEARCH_FILES = 2_000;
/** The least time between two refreshes of the symbol index a REPL starts between tasks. */
const INDEX_IDLE_MS = 30_000;

/** Said at the start of a run in a clone that borrows its objects (workspace/sandbox.ts borrowsObjects). */
const BORROWED_OBJECTS =
  "this clone borrows git objects from another repository (git clone --shared or --reference), which git inside the sandbox cannot read: " +
  "commands' git and weir's view of your changes fail; `git repack -a -d` then deleting .git/objects/info/alternates makes it standalone";

/** The registry with built-ins and MCP tools, disclosure, and the executor under the permission policy. */
export async function buildActions(opts: RunOptions, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Actions> {
  const s = resolved.settings;
  const store = SessionStore.open(databasePath(opts.env));
  // Parsed outlines outlive the process: a warm run never loads a parser.
  const outlines = OutlineCache.open(join(userDataDir(opts.env), "outlines.db"));
  useOutlineCache(outlines, `${VERSION}+${COMMIT}`);
  let sessionForRecords: string | undefined;
  const supervisor = new Supervisor({ onRecord: (r) => store.recordCall(sessionForRecords, r) });
  const verification = new VerificationLedger(workspace);
  const ledger = new Ledger();
  const skills = loadSkills(workspace, userConfigDir(opts.env), homeDirectory(opts.env));
  const skill = skills.length ? skillAction(skills) : undefined;
  // The model's visible plan (the todo action): the REPL's /status shows the latest.
  const plan: { items: TodoItem[] } = { items: [] };
  const { registry, disclosure } = builtinActionSet(verification, skill, opts.tools, store.toolMemory, plan);
  const policy = layerPolicy(layerPolicy(defaultPolicy(), resolved.permissions.user, "user"), resolved.permissions.project, "project");
  const home = homeDirectory(opts.env);
  const own = [userConfigDir(opts.env), userDataDir(opts.env)];
  const undo = new UndoLog(undoDir(userDataDir(opts.env), workspace), workspace);
  const transactions = new Transactions(workspace, changesDir(userDataDir(opts.env), workspace), undo);
  // A change set whose settle a killed run left part-way is finished before anything reads the workspace.
  transactions.recover();
  const sandbox = createSandbox({ mode: s.sandbox.mode, root: workspace, home, readable: s.sandbox.readable, own, writable: opts.addDirs, transactions });
  // Commands get an allowlist of the environment; the secrets weir knows are removed from all the model reads.
  const env = commandEnv(opts.env, s.sandbox.env);
  addKnownSecrets(knownSecretValues(opts.env, workspace));
  const notices: string[] = [];
  // Hooks run in the same sandbox as every command; a project's only once the user approved exactly them here.
  const hooks = new Hooks(mergeHooks(s.hooks, await approvedProjectHooks(store, workspace, s.projectHooks, o.approveHooks, notices)), {
    root: workspace,
    env,
    sandbox,
    sessionId: () => sessionForRecords,
    onProblem: (l) => process.stderr.write(`weir: ${l}\n`),
  });
  // Writes of every agent of this process queue per file.
  const locks = new FileLocks();
  const autorunWrites: string[] = [];
  const readOnly = s.sandbox.mode === "read-only";
  const gate = { policy, yes: opts.yes, allow: opts.allow, allowNetwork: opts.allowNetwork, readOnly, hooks, locks, autorunWrites, mode: "default" as RunMode };
  // A search over every file (find_references) reads only what the symbol index's word filters allow, where one is built.
  const namers = (names: string[], files: readonly string[]) => {
    if (!existsSync(symbolIndexPath(opts.env))) return undefined;
    const symbols = SymbolIndex.open(symbolIndexPath(opts.env));
    try {
      return symbols.holds(workspace) ? indexedNamers(workspace, symbols, names, files) : undefined;
    } finally {
      symbols.close();
    }
  };
  const context = { workspace: new Workspace(workspace, home, o.scope), ledger, env, sandbox, undo, namers };
  const asks = { ...gate, ...(o.approver ? { approver: o.approver } : {}), tracker: supervisor };
  const executor = new ActionExecutor(registry, context, asks);
  // The mode changes as the run goes: the gate reads it per call, a worker takes it when spawned,
  // and in plan mode commands run in a sandbox of their own that keeps the workspace read-only.
  let planSandbox: CommandSandbox | undefined;
  const setMode = (mode: RunMode) => {
    asks.mode = gate.mode = mode;
    const plans = mode === "plan" && s.sandbox.mode !== "read-only";
    context.sandbox = plans ? (planSandbox ??= createSandbox({ mode: "read-only", root: workspace, home, readable: s.sandbox.readable, own })) : sandbox;
  };
  const workerActions = workerActionsFor({ workspace, home, sandbox: s.sandbox, env, skill, tools: opts.tools, gate, namers });
  setMode(opts.mode);
  if (!sandbox.active) notices.push(sandbox.describe());
  else if (borrowsObjects(workspace)) notices.push(BORROWED_OBJECTS);
  if (opts.yes)
    notices.push(
      `--yes approves every action that would ask (denied ones stay denied); ` +
        `${sandbox.active ? "the sandbox stays on and network access is still only by --allow-network" : "there is no sandbox to stay on"}`,
    );
  const entries = loadMcpServers(userConfigDir(opts.env), workspace, opts.env, notices);
  // The MCP SDK loads only when a server is configured.
  const hub: Hub = entries.length
    ? await (
        await import("../mcp/hub.ts")
      ).startServers(entries, {
        registry,
        workspace,
        serverHomes: join(userDataDir(opts.env), "mcp"),
        approvals: store,
        ...(o.approveServer ? { ask: o.approveServer } : {}),
        clientVersion: VERSION,
        notices,
        log: (l) => process.stderr.write(`${l}\n`),
      })
    : NO_SERVERS;
  const token = opts.env.WEIR_STATUS_TOKEN;
  const status = opts.statusPort !== undefined ? startStatusServer(supervisor, opts.statusPort, token) : undefined;
  if (status) notices.push(`status endpoint on http://127.0.0.1:${status.port}/status${token ? " (token required)" : ""}`);
  return {
    supervisor, hooks, workerActions, store, ledger, verification, registry, disclosure, executor, hub, undo, plan, notices, autorunWrites, setMode,
    setSession: (id: string | undefined) => {
      sessionForRecords = id;
    },
    async close() {
      status?.stop();
      supervisor.dispose();
      await hub.closeAll();
      store.close();
      useOutlineCache(undefined, "");
      outlines.close();
    },
  };
}

export interface Runtime extends Actions {
  conversation: Conversation;
  /** The main agent's background workers (spawn_agent and friends; `/agents` in the REPL). */
  fleet: Fleet;
  /** Wraps a display so model-stream activity reaches the supervisor (the silent verdict). */
  watch(display: Display): Display;
  /** `/compact`: the conversation's tool output so far is rendered as summaries from the next request. */
  compact(): number;
  /** The budget of the goal the next runs work towards (null: none); the decision state and each request see it. */
  goalBudget(spent: number, budget: number | null): void;
  /** Between tasks: what changed is indexed in a process of its own, at most once in `INDEX_IDLE_MS`. */
  idle(): void;
}

/** Everything a run needs: the actions, the provider and the (new or resumed) session. */
export async function buildRuntime(opts: RunOptions, workspace: string, resolved: Resolved, o: ActionOptions = {}): Promise<Runtime> {
  if (!o.preview) requireKeyIn(workspace, resolved);
  const s = resolved.settings;
  const provider = await createProvider(providerSettings(resolved), resolved.preset.hint);
  const actions = await buildActions(opts, workspace, resolved, o);
  const { store, notices } = actions;
  let sessionId: string | undefined;
  try {
    if (opts.resume) {
      const target = resumeTarget(store, opts.resume, workspace, `${s.provider}/${s.model}`);
      sessionId = target.id;
      notices.unshift(...target.notices);
    }
  } catch (e) {
    await actions.close();
    throw e;
  }
  const home = homeDirectory(opts.env);
  const userDir = userConfigDir(opts.env);
  // The walk of the last run in this workspace: a warm walk stats directories instead of reading them.
  const walks = new WalkStore(join(userDataDir(opts.env), "walks"));
  const index = new ContextIndex(() => walks.load(workspace));
  // What the secret files below the top hold is removed too, learnt at each compile's walk: a
  // file is read again only when its size or mtime moved, not at every request.
  const secretStamps = new Map<string, string>();
  index.secretFiles = (files) => {
    const moved = files.filter((f) => {
      const st = statSync(join(workspace, f), { throwIfNoEntry: false });
      const stamp = st ? `${st.mtimeMs}:${st.size}` : "";
      if (secretStamps.get(f) === stamp) return false;
      secretStamps.set(f, stamp);
      return true;
    });
    if (moved.length) addKnownSecrets(secretFileValues(workspace, moved));
  };
  // The symbol index, where one was built for this workspace: the compiler's symbol search reads it first.
  const symbols = existsSync(symbolIndexPath(opts.env)) ? SymbolIndex.open(symbolIndexPath(opts.env), (l) => notices.push(l)) : undefined;
  if (symbols?.holds(workspace)) {
    index.definers = (names) => indexedDefiners(workspace, symbols, names);
    index.namers = (names, files, vouched) => indexedNamers(workspace, symbols, names, files, vouched);
    index.callers = (target, names, files, vouched) => indexedCallers(workspace, symbols, target, names, files, vouched);
    index.importers = (targets, files, vouched) => indexedImporters(workspace, symbols, targets, files, vouched);
  }
  // Derived state in the session database; one that cannot be read costs what it would add, never the run.
  const orNone = <T>(read: () => T[]): T[] => {
    try {
      return read();
    } catch {
      return [];
    }
  };
  // The test map's recorded part: what checks saw fail, then pass once these files changed (a preview records nothing).
  const links = store.testLinks;
  index.tested = (sources) => orNone(() => links.testsFor(workspace, sources));
  const link = (sources: string[], tests: string[]) => {
    try {
      links.record(workspace, sources, tests);
    } catch {
      // the link is lost; the check's result stands
    }
  };
  if (!o.preview) actions.verification.onFixed = link;
  // Review findings (weir index --review) about the targets; the compile uses one while every file its review read is unchanged.
  const reviews = store.reviews;
  index.reviewed = (paths) => orNone(() => reviews.of(workspace, paths));
  const state = new WorkState(workspace, home, actions.ledger, actions.verification, index);
  const workingSet = opts.budget ?? workingSetBudget(s.contextSize);
  // A preview records nothing in the session; a caller may still be told of each decision.
  const record = o.preview ? o.onDecision : (rec: DecisionRecord) => store.recordDecision(conversation.sessionId, rec);
  const plane = await configurePlane(resolved, { ...(opts.judgment ? { mode: opts.judgment } : {}), workspace, notices, ...(record ? { record } : {}) });
  const judge = o.preview ? undefined : plane.chunkJudge();
  // The conversation may use the window minus the output reserve, the fixed prompt (system + tools) and the working set.
  const contextStep = createContextStep({
    budget: Math.max(8_000, s.contextSize - s.maxTokens - 6_000 - workingSet),
    onVerdict: (call, r) => {
      state.noteVerdict(r);
      if (conversation.sessionId && r.verdict !== "evidence") store.recordVerdict(conversation.sessionId, call.id, call.name, r.verdict, r.findings);
    },
    ...(judge ? { judge } : {}),
  });
  const system = systemPrompt(workspace);
  const recordRoute = (r: RouteRecord & { session: string | undefined }) => {
    if (r.session) store.recordRoute(r.session, r);
  };
  const router = o.preview ? undefined : routing(resolved, () => conversation.provider, actions.registry, notices, recordRoute);
  const mainRouter = router?.(o.prefer ?? "main", () => conversation.sessionId);
  // Worker events go to the display of the run in progress.
  let current: Display | undefined;
  const fleet = new Fleet({
    max: opts.maxAgents,
    waitMs: opts.agentWaitMs,
    revision: () => workspaceRevision(workspace),
    files: () => walkFiles(workspace, index.walk),
    // The main agent verifies what its workers changed.
    onEnd: (_s, end) => {
      for (const p of end.wrote) actions.verification.markChanged(p);
    },
    start: workerStarter({
      workspace,
      home,
      userDir,
      store,
      state,
      index,
      ...(o.preview ? {} : { onFixed: link }),
      contextSize: s.contextSize,
      maxTokens: s.maxTokens,
      workingSetBudget: workingSet,
      actions: actions.workerActions,
      ledger: actions.ledger,
      provider: () => conversation.provider,
      // A worker's routes are recorded under its own session.
      ...(router ? { router: (session: () => string | undefined) => router("fast", session) } : {}),
      parentSession: () => conversation.sessionId,
      emit: (e) => current?.emit(e),
    }),
  });
  if (fleet.enabled) for (const a of agentActions(fleet)) actions.registry.register(a);
  const seams = withFleet(
    runSeams(
      {
        workspace,
        home,
        userDir,
        state,
        contextStep,
        index,
        plane,
        ledger: actions.ledger,
        verification: actions.verification,
        registry: actions.registry,
        disclosure: actions.disclosure,
        questionSet: setKey(AGENT_CONTEXT),
        contextSize: s.contextSize,
        workingSetBudget: workingSet,
        verifyFloor: s.verifyFloor,
        // weir context previews without running the user's hooks (they may have side effects).
        ...(o.preview ? {} : { hooks: actions.hooks }),
        newSession: () => conversation.messages.length === 0,
        ...(o.onWorkingSet ? { onWorkingSet: o.onWorkingSet } : {}),
        ...(mainRouter ? { router: mainRouter } : {}),
      },
      system,
    ),
    fleet,
    { workspace, emit: (e) => current?.emit(e) },
  );
  const conversation: Conversation = new Conversation(
    {
      store, workspace, provider, system, seams, maxTurns: s.maxTurns, maxTokens: s.maxTokens, taskRoom: taskRoom(s.contextSize),
      // Disclosure offers the tools each turn; the full catalog is built only with --tools all.
      tools: [],
      execute: actions.executor.execute,
      images(task, model, typed) {
        const named = imageMentions(task);
        const why = `${model} takes no images, so @${named[0]} cannot be sent; pick a model that does (--model), or say in words what it shows`;
        if (named.length && takesNoImages(model)) return { problem: why };
        return attachImages(workspace, home, task, typed);
      },
      prefix: {
        opened(id, resumed) {
          // A resumed session quotes with its own marker and offers the tools it had loaded.
          const kept = store.prefixOf(id);
          if (resumed && kept.marker) useQuoteMarker(kept.marker);
          if (resumed) actions.disclosure.restore(kept.tools);
          // ... and its router knows what each model's cache still holds of it.
          if (resumed) mainRouter?.router.restore(store.routingOf(id));
          store.keepPrefix(id, { marker: quoteMarker(), tools: actions.disclosure.loadedIds() });
        },
        ran: (id) => {
          store.keepPrefix(id, { marker: quoteMarker(), tools: actions.disclosure.loadedIds() });
          if (mainRouter) store.keepRouting(id, mainRouter.router.memory());
        },
      },
      onTask: (t) => {
        // Call records of this run (the first call included) belong to the session; so do its writes' undo records.
        actions.setSession(conversation.sessionId);
        actions.undo.begin(conversation.sessionId ?? "none", t);
        seams.onTask(t);
      },
    },
    sessionId,
  );
  const watch = (display: Display): Display => {
    current = display;
    return actions.supervisor.watch(display);
  };
  const goalBudget = (spent: number, budget: number | null) => void (state.goalBudget = budget === null ? undefined : { spent, budget });
  // Past what the content search reads, the symbol index is what finds a named symbol: it is
  // refreshed after a run and while the REPL waits, in a process of its own (never on the path of a request).
  const indexed = o.preview ? undefined : { at: -Infinity };
  const refreshIndex = () => {
    if (!indexed || (index.walked?.length ?? 0) <= CONTENT_SEARCH_FILES) return;
    indexed.at = performance.now();
    refreshInBackground(workspace);
  };
  // With a review model configured, the source files a run changed are reviewed after it (and while
  // the REPL waits), in a process of their own: only models.review, since reviews cost requests.
  // A file is sent again only once it has changed since it was sent.
  const sentForReview = new Map<string, string>();
  const reviewChanged = () => {
    if (o.preview || !roleReachable(resolved, "review")) return;
    const stamp = (p: string) => {
      const st = statSync(resolvePath(workspace, p), { throwIfNoEntry: false });
      return st ? `${st.mtimeMs}:${st.size}` : undefined;
    };
    const due = [...actions.verification.changed]
      .filter((p) => !isTestPath(p) && !isDocumentation(p))
      .flatMap((p) => {
        const now = stamp(p);
        return now !== undefined && sentForReview.get(p) !== now ? [{ p, now }] : [];
      })
      .slice(0, 10);
    for (const { p, now } of due) sentForReview.set(p, now);
    if (due.length) refreshInBackground(workspace, due.map((d) => d.p));
  };
  const idle = () => {
    if (indexed && performance.now() - indexed.at >= INDEX_IDLE_MS) refreshIndex();
    reviewChanged();
  };
  const close = async () => {
    walks.save(workspace, index.walk);
    symbols?.close();
    refreshIndex();
    reviewChanged();
    await actions.close();
  };
  return { ...actions, close, conversation, fleet, watch, compact: () => contextStep.compact(), goalBudget, idle };
}
