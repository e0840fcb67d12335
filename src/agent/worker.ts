import { join } from "node:path";
import type { Disclosure } from "../actions/disclosure.ts";
import type { Action, ActionContext } from "../actions/action.ts";
import { builtinActionSet } from "../actions/builtin/index.ts";
import { ActionExecutor, type ExecutorOptions } from "../actions/executor.ts";
import type { ActionRegistry } from "../actions/registry.ts";
import { VerificationLedger } from "../actions/verification.ts";
import { userConfigDir, userDataDir } from "../config/paths.ts";
import { createContextStep } from "../context/context-step.ts";
import type { ContextIndex } from "../context/working-set.ts";
import type { AgentEvent, Display } from "../core/events.ts";
import { addUsage, emptyUsage, promptTokens, type Usage } from "../core/usage.ts";
import { DecisionPlane } from "../decision/plane.ts";
import { AGENT_CONTEXT, setKey } from "../decision/questions.ts";
import type { ModelProvider } from "../providers/port.ts";
import type { SessionStore } from "../store/sessions.ts";
import { Supervisor } from "../supervisor/supervisor.ts";
import type { Ledger } from "../workspace/ledger.ts";
import { createSandbox } from "../workspace/sandbox.ts";
import { PathScope } from "../workspace/scope.ts";
import { walk } from "../workspace/walker.ts";
import { Workspace } from "../workspace/workspace.ts";
import { Conversation } from "./conversation.ts";
import type { WorkerEnd, WorkerHandle, WorkerStart } from "./fleet.ts";
import { type RunSeamDeps, runSeams } from "./run-seams.ts";
import { WorkState } from "./state.ts";
import { type Subgoal, workerPrompt } from "./subgoal.ts";

/** The actions one worker gets: built-ins only, never the agent actions or MCP tools, executed in its scope. */
interface WorkerActions {
  registry: ActionRegistry;
  disclosure: Disclosure;
  executor: ActionExecutor;
}

/**
 * The action set every worker gets: built-ins only (never agent actions or MCP tools), paths checked
 * against its scope, no one to ask; its commands run in a read-only sandbox whose workspace holds
 * only the files its scope may read (a worker whose scope reads everything sees the whole
 * workspace, read-only). Where the user turned the sandbox off, the executor refuses commands.
 */
export function workerActionsFor(o: {
  workspace: string;
  home: string;
  sandbox: { mode: "workspace-write" | "read-only" | "off"; readable: string[] };
  env: Record<string, string>;
  skill: { action: Action; hint: string } | undefined;
  tools: "auto" | "all";
  /** The main agent's permission layers, hooks and write locks. */
  gate: Pick<ExecutorOptions, "policy" | "yes" | "allow" | "allowNetwork" | "hooks" | "locks">;
  /** The symbol index's word filters, as the main agent's actions read them. */
  namers?: ActionContext["namers"];
}): WorkerDeps["actions"] {
  return (w) => {
    const set = builtinActionSet(w.verification, o.skill, o.tools);
    const visible = w.scope.readsEverything
      ? {}
      : {
          visible: () =>
            Array.from(walk(o.workspace), (e) => e.path)
              .filter((p) => w.scope.allows(p, "read"))
              .map((p) => join(o.workspace, p)),
        };
    const sandbox = createSandbox({
      mode: o.sandbox.mode === "off" ? "off" : "read-only",
      root: o.workspace,
      home: o.home,
      readable: o.sandbox.readable,
      own: [userConfigDir(), userDataDir()],
      ...visible,
    });
    const parts = { workspace: new Workspace(o.workspace, o.home, w.scope), ledger: w.ledger, env: o.env, sandbox, ...(o.namers ? { namers: o.namers } : {}) };
    const executor = new ActionExecutor(set.registry, parts, { ...o.gate, tracker: w.tracker, worker: w.label });
    return { ...set, executor };
  };
}

export interface WorkerDeps {
  workspace: string;
  home: string;
  userDir: string;
  provider: () => ModelProvider;
  /** A worker's model router (preferring the fast model), where one is configured. */
  router?: (session: () => string | undefined) => RunSeamDeps["router"];
  store: SessionStore;
  /** The spawning agent's session. */
  parentSession: () => string | undefined;
  /** The main agent's ledger: each worker gets its own view over the same record of writes. */
  ledger: Ledger;
  /** The main agent's work state: the worker's view is compiled from it and the scope. */
  state: WorkState;
  index: ContextIndex;
  /** Where a worker's checks record a fixed test's link (the test map's recorded part), as the main agent's do. */
  onFixed?: VerificationLedger["onFixed"];
  contextSize: number;
  maxTokens: number;
  workingSetBudget: number;
  /** Builds the worker's actions over its ledger view, scope and supervisor. */
  actions: (o: { ledger: Ledger; scope: PathScope; tracker: Supervisor; label: string; verification: VerificationLedger }) => WorkerActions;
  /** Where a worker's events go, attributed (the current run's display). */
  emit: (e: AgentEvent) => void;
}

/** Worker events the frontends see; text deltas stay inside (a worker's answer arrives in its report). */
const FORWARDED = new Set<AgentEvent["type"]>(["tool_call", "tool_result", "route", "turn_end", "notice", "run_end"]);

/**
 * Runs a subgoal with the same loop as the main agent: its own conversation (stored under the
 * parent session), its own compiled context (built from the shared work state within its scope),
 * its own cancel signal, supervisor and budget, the shared SHA ledger through its own view, and its
 * own decision records. The fleet validates what it returns.
 */
export function workerStarter(d: WorkerDeps): WorkerStart {
  return (s: Subgoal, o): WorkerHandle => {
    const scope = new PathScope(s.reads, s.writes);
    const label = `worker ${s.id} (${s.label})`;
    const ledger = d.ledger.view(label);
    let conversation: Conversation | undefined;
    const supervisor = new Supervisor({ onRecord: (r) => d.store.recordCall(conversation?.sessionId, r), heartbeatMs: 0 });
    const verification = new VerificationLedger(d.workspace);
    if (d.onFixed) verification.onFixed = d.onFixed;
    const { registry, disclosure, executor } = d.actions({ ledger, scope, tracker: supervisor, label, verification });
    const state = new WorkState(d.workspace, d.home, ledger, verification, d.index);
    const plane = new DecisionPlane({ mode: "off", record: (rec) => d.store.recordDecision(conversation?.sessionId, rec) });
    const contextStep = createContextStep({
      budget: Math.max(8_000, d.contextSize - d.maxTokens - 6_000 - d.workingSetBudget),
      onVerdict: (call, r) => {
        state.noteVerdict(r);
        if (conversation?.sessionId && r.verdict !== "evidence") d.store.recordVerdict(conversation.sessionId, call.id, call.name, r.verdict, r.findings);
      },
    });
    const system = workerPrompt(d.workspace, s);
    const seams = runSeams(
      {
        workspace: d.workspace,
        home: d.home,
        userDir: d.userDir,
        state,
        ledger,
        verification,
        registry,
        disclosure,
        plane,
        questionSet: setKey(AGENT_CONTEXT),
        contextStep,
        index: d.index,
        contextSize: d.contextSize,
        workingSetBudget: d.workingSetBudget,
        // The main agent verifies: the workers' writes count as its changes (Fleet onEnd).
        verifyFloor: "off",
        ...(d.router ? { router: d.router(() => conversation?.sessionId) } : {}),
        view: () => ({
          // What the main agent changed is the shared state a worker must see; what it merely read is not.
          editTargets: d.state
            .editedPaths()
            .filter((p) => scope.allows(p, "read"))
            .flatMap((p) => {
              const sha = d.ledger.get(`${d.workspace}/${p}`);
              return sha ? [{ path: p, sha }] : [];
            }),
          failureText: d.state
            .failureLocations()
            .filter((f) => scope.allows(f.path, "read"))
            .map((f) => `${f.path}:${f.line}: ${f.message}`)
            .join("\n"),
          allow: (rel) => scope.allows(rel, "read"),
        }),
      },
      system,
    );
    conversation = new Conversation(
      {
        store: d.store,
        workspace: d.workspace,
        provider: d.provider(),
        system,
        tools: [],
        execute: executor.execute,
        maxTurns: s.budget.turns,
        maxTokens: d.maxTokens,
        seams,
        onTask: (t) => seams.onTask(t),
        parent: () => {
          const sessionId = d.parentSession();
          return sessionId ? { sessionId, label: s.label } : undefined;
        },
      },
      undefined,
    );
    let turns = 0;
    let calls = 0;
    let usage: Usage = emptyUsage();
    const display: Display = {
      emit(e) {
        // The first turn is under way: the fleet takes the start revision now, off the critical path.
        if (e.type === "turn_start" && turns === 0) setTimeout(o.firstTurn, 0);
        if (e.type === "turn_start" || e.type === "text_delta" || e.type === "reasoning_delta" || e.type === "retry") supervisor.modelActivity(true);
        else if (e.type === "turn_end" || e.type === "run_end") supervisor.modelActivity(false);
        if (e.type === "turn_end") {
          turns++;
          usage = addUsage(usage, e.usage);
          if (promptTokens(usage) + usage.output > s.budget.tokens) o.overBudget();
        }
        if (e.type === "tool_call") calls++;
        if (FORWARDED.has(e.type)) d.emit({ type: "agent", agent: s.id, label: s.label, parentCallId: o.parentCallId, event: e });
      },
    };
    const done = conversation
      .send(s.goal, display, o.signal)
      .then(
        (r): WorkerEnd => ({
          stop: r.stop,
          text: r.text,
          turns: r.turns,
          usage: r.usage,
          ...(r.error ? { error: r.error } : {}),
          wrote: [...verification.changed],
          ...(conversation?.sessionId ? { sessionId: conversation.sessionId } : {}),
        }),
      )
      .finally(() => supervisor.dispose());
    return {
      done,
      stats: () => ({ turns, calls, usage }),
      calls: () => supervisor.list().map((c) => ({ id: c.id, action: c.action, ageMs: c.ageMs, severity: c.severity, verdicts: c.verdicts.map((v) => v.id) })),
      health: () => supervisor.health(),
      stopCall: (id) => supervisor.stop(id),
    };
  };
}
