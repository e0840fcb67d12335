import { quoteData } from "../context/render.ts";
import { basename, join } from "node:path";
import type { Disclosure } from "../actions/disclosure.ts";
import type { Hooks } from "../actions/hooks.ts";
import type { ActionRegistry } from "../actions/registry.ts";
import { isDocumentation, type VerificationLedger } from "../actions/verification.ts";
import { detectChecks } from "../workspace/checks.ts";
import { type ContextStep, conversationTokens } from "../context/context-step.ts";
import { compileWorkingSet, type ContextIndex, failureUpdate, floorCap, heldKey, type WorkingSet } from "../context/working-set.ts";
import type { ContextChunk } from "../core/chunk.ts";
import { tokensOf } from "../core/chunk.ts";
import type { Message, ToolCallBlock, ToolResultBlock, ToolSpec } from "../core/messages.ts";
import type { DecisionPlane } from "../decision/plane.ts";
import { NO_CHECKS, reminder } from "../decision/merge.ts";
import type { Ledger } from "../workspace/ledger.ts";
import type { ModelProvider } from "../providers/port.ts";
import { type ModelRouter, type RouteFacts, type RouteRole, routeFacts } from "../decision/router.ts";
import type { Seams } from "./run.ts";
import { taskKind, type WorkState } from "./state.ts";

export interface RunSeamDeps {
  workspace: string;
  home: string;
  /** weir's user config directory (its AGENTS.md applies everywhere). */
  userDir: string;
  state: WorkState;
  ledger: Ledger;
  verification: VerificationLedger;
  registry: ActionRegistry;
  disclosure: Disclosure;
  plane: DecisionPlane;
  questionSet: string;
  contextStep: ContextStep;
  index: ContextIndex;
  /** Tokens of the whole window, for the budget ratio. */
  contextSize: number;
  /** Tokens the compiled working set may take. */
  workingSetBudget: number;
  verifyFloor: "off" | "remind" | "require";
  /** Told of each working set compiled (for `weir context` and the JSON output). */
  onWorkingSet?: (w: WorkingSet) => void;
  /** The user's hooks (UserPromptSubmit, SessionStart, Stop). */
  hooks?: Hooks;
  /** Whether this run starts a new session (SessionStart fires). */
  newSession?: () => boolean;
  /**
   * A worker's view of the shared work state: the main agent's targets and failure locations
   * inside the worker's scope, and the scope itself (nothing outside it is gathered).
   */
  view?: () => { editTargets: { path: string; sha: string }[]; failureText: string; allow: (rel: string) => boolean };
  /** The model router and each role's provider; absent: every request goes to the run's provider. */
  router?: { router: ModelRouter; provider(role: RouteRole): Promise<ModelProvider> };
}

export interface RunSeams extends Seams {
  /** Called with each new task before its run. */
  onTask(task: string): void;
}

/** Tokens of a whole request: the fixed prompt and the rendered conversation. */
const sizeOf = (system: string, tools: readonly ToolSpec[], messages: readonly Message[]) =>
  tokensOf(system) + tokensOf(JSON.stringify(tools)) + conversationTokens(messages);

/**
 * The turn behaviour of a compiled run, as seams of the loop: open (the working set), context
 * (provenance, quoting, demotion), decide (the decision plane's guidance), update (new failure
 * locations as chunks), observe (the work state from typed results), beforeFinish (the verification
 * floor) and report. Each seam follows the loop's contract: it does not throw for a failure of its
 * own work; it returns undefined and the run goes on.
 */
export function runSeams(d: RunSeamDeps, system: string): RunSeams {
  let task = "";
  let tools: readonly ToolSpec[] = [];
  const inWorkingSet = new Set<string>();
  // The floor reminder is given once per set of changes, not again on every later input of a session.
  let remindedFor = "";
  const checks = () => detectChecks(d.workspace);
  let hookContext: string | undefined;
  // What the working sets of this conversation showed (heldKey), so a follow-up does not repeat it.
  const shownChunks = new Set<string>();
  // Evidence from a command is recorded after the revision is known; later steps wait for it.
  let evidence: Promise<void> = Promise.resolve();
  // Symbols (path and name) whose declaration change was held once: the next attempt goes through.
  const heldOnce = new Set<string>();
  // The actions this task called without an error: the tool memory learns them when it ends.
  let called = new Set<string>();
  // What the router last read of the decision state, and what it last chose (for the turn's usage).
  let facts: RouteFacts | undefined;
  let routed: { role: RouteRole; view: number } | undefined;
  return {
    onTask(t) {
      task = t;
      called = new Set();
      facts = undefined;
      d.router?.router.newRun();
      d.state.newTask(t);
      d.disclosure.preloadFor(t);
    },
    async gate(t) {
      if (!d.hooks?.has("UserPromptSubmit")) return undefined;
      const r = await d.hooks.run("UserPromptSubmit", "", { prompt: t });
      if (r.block) return `the prompt was blocked by a UserPromptSubmit hook: ${r.message}`;
      hookContext = r.message;
      return undefined;
    },
    // A failure here (the compile, a hook) is the loop's to report: it names the seam in a warning.
    async open(t) {
      // Context the user's hooks add (SessionStart for a new session, UserPromptSubmit) opens the working set.
      if (d.hooks?.has("SessionStart") && d.newSession?.()) {
        const s = await d.hooks.run("SessionStart", "startup", { source: "startup" });
        if (s.message) hookContext = [s.message, hookContext].filter(Boolean).join("\n");
      }
      // A follow-up sends only what the conversation does not hold yet: not a chunk a working set
      // showed, not bytes a read returned.
      const followUp = d.newSession ? !d.newSession() : false;
      const held = (c: ContextChunk) =>
        shownChunks.has(heldKey(c)) || (c.revision.sha !== undefined && d.ledger.get(join(d.workspace, c.source)) === c.revision.sha);
      const w = await compileWorkingSet(d.workspace, t, {
        home: d.home,
        userDir: d.userDir,
        budget: d.workingSetBudget,
        floorCap: floorCap(d.contextSize),
        index: d.index,
        editTargets: [],
        failureText: "",
        ...(followUp ? { followUp: { held } } : {}),
        ...d.view?.(),
      });
      for (const e of w.compiled.entries) if (e.level !== "omit") shownChunks.add(heldKey(e.chunk));
      // Tests the compiler mapped to a target (by name or by import) are the state's mapped tests too.
      d.state.mapTests(w.gathered.candidates.filter((c) => c.kind === "test").map((c) => c.source));
      // What the model was shown in full it may edit without reading again: the ledger knows its SHA.
      const where = `the working set of the task "${t.length > 60 ? `${t.slice(0, 57)}...` : t}" showed it whole`;
      for (const f of w.admittedFiles) {
        // With a judge, a read sends the bytes again: the judge checks tool results, not the working set.
        if (f.complete && !d.contextStep.judging) d.ledger.shownWhole(join(d.workspace, f.path), f.sha, where);
        else d.ledger.record(join(d.workspace, f.path), f.sha);
        d.state.admitted(f.path, f.complete, f.sha, f.lines);
      }
      // What the firewall flagged in the working set is an untrusted note, as in a tool result.
      for (const e of w.compiled.entries) if (e.level !== "omit") d.state.noteVerdict(e);
      d.state.vouch(w.gathered.vouched);
      d.state.addTargets(w.gathered.targets);
      d.state.worktreeChanges(w.gathered.worktreeChanges, w.gathered.untracked);
      d.state.changesShown(w.changesShown);
      d.state.rules = w.rules;
      for (const e of w.compiled.entries) if (e.chunk.kind === "failure" && e.level !== "omit") inWorkingSet.add(e.chunk.id);
      d.onWorkingSet?.(w);
      // A hook's output is what its program printed, often from the repository: data, quoted.
      const extra = hookContext ? `[context from your hooks · untrusted]\n${quoteData(hookContext)}` : "";
      hookContext = undefined;
      return [w.text, extra].filter(Boolean).join("\n\n") || undefined;
    },
    offer() {
      tools = d.disclosure.offer();
      return tools;
    },
    overflow: (e) => d.contextStep.shrink(e.window),
    context(messages) {
      const shown = d.contextStep(messages);
      d.state.budgetUsed = sizeOf(system, tools, shown) / d.contextSize;
      return shown;
    },
    async route(request) {
      if (!d.router) return undefined;
      const view = sizeOf(request.system, request.tools, request.messages);
      const r = d.router.router.choose(facts, view);
      routed = { role: r.role, view };
      return { provider: await d.router.provider(r.role), role: r.role, reason: r.reason };
    },
    served(usage) {
      if (routed) d.router?.router.served(routed.role, routed.view, usage);
    },
    escalate: (why) => (routed ? (d.router?.router.fail(routed.role, why) ?? false) : false),
    observe(call: ToolCallBlock, result: ToolResultBlock) {
      d.router?.router.observe(call, result);
      d.state.observe(call, result);
      if (!result.isError) called.add(call.name);
      d.contextStep.observe?.(call, result);
      const det = result.details;
      // A passing run of a detected project check, at the workspace root, is verification evidence;
      // a failing one's test files are kept for the test map (a later pass links them).
      if (det?.kind === "command" && det.exitCode !== null && !(call.input as { cwd?: string })?.cwd) {
        const line = (det.argv ?? det.line.split(/\s+/)).map((a, i) => (i === 0 ? basename(a) : a)).join(" ");
        // Programs compare by name on both sides: `./mvnw test` run as `mvnw test`, or the other way.
        const same = (c: { program: string; args: string[] }) => {
          const want = [basename(c.program), ...c.args].join(" ");
          return line === want || line === want.replace(/ run test$/, " test");
        };
        const check = checks().find(same);
        const failures = det.failures.map((f) => f.path);
        if (check && det.exitCode !== 0) evidence = evidence.then(() => d.verification.failedAt(check.name, failures));
        else if (check)
          evidence = evidence.then(async () => {
            const revision = await d.verification.revision();
            d.verification.record({
              producer: call.name === "shell" ? "shell" : "run_command",
              check: check.name,
              command: line,
              level: check.level,
              exitCode: 0,
              passed: true,
              complete: true,
              revision,
              at: Date.now(),
            });
          });
      }
    },
    async update(results) {
      // Results the judge flagged (the semantic seam: a warning appended, nothing re-rendered). Its
      // check of this turn's results is waited for, as increase-only waits for the judge; it is
      // bounded by the judge's own timeout.
      await d.contextStep.settled?.();
      const judged = d.contextStep.judgeNotes?.();
      const failures = results.flatMap((r) => (r.details?.kind === "command" || r.details?.kind === "verify" ? r.details.failures : []));
      // A throw here reaches the loop, which names the failed step in a warning (agent/run.ts).
      const located = failures.length ? failureUpdate(d.workspace, d.home, d.state.failureLocations(), inWorkingSet) : undefined;
      return [located, judged].filter(Boolean).join("\n\n") || undefined;
    },
    async decide(messages, _turn, signal) {
      try {
        await evidence;
        const request = await d.state.request(task, d.questionSet);
        facts = routeFacts(request);
        const r = await d.plane.decide(request, d.verification.changed.size > 0, signal, messages.length);
        // Guidance pre-loads the capabilities it asks for; without project checks, verifying is a command.
        const checked = checks().length > 0;
        const asked = r.guidance.preload.map((c) => (c === "verification" && !checked ? "command" : c));
        const caps = asked.filter((c) => d.registry.capabilities().some((x) => x.name === c));
        if (caps.length) d.disclosure.load(caps, []);
        // Within a goal's budget, every request says what is left of it.
        const g = d.state.goalBudget;
        const left = g ? `[weir goal budget] ${Math.max(0, g.budget - g.spent)} of ${g.budget} tokens left` : undefined;
        // A task that asks for no change gets no edit guidance (until something was changed after all).
        if (taskKind(task) === "inspect" && d.verification.changed.size === 0) return left;
        // When the conversation is being shrunk to fit, the advisory goes first, never source or evidence.
        return (
          [
            d.contextStep.underPressure
              ? undefined
              : reminder(r.guidance, {
                  checks: checked,
                  review: { stale: request.targets.some((t) => !t.sha_fresh), unseen: request.targets.some((t) => t.dirty_in_worktree && !t.worktree_shown) },
                }),
            left,
          ]
            .filter(Boolean)
            .join("\n") || undefined
        );
      } catch (e) {
        // A cancelled turn decides nothing; any other failure is the loop's to report.
        if (signal?.aborted) return undefined;
        throw e;
      }
    },
    /**
     * A proposed edit is decided on before it is applied: an edit that changes the declaration of
     * a symbol other files reach, while callers are unread and the plane asks for navigation, is
     * held once, with the callers to read. The model may then read them, or make the edit again.
     */
    async hold(calls, signal) {
      const out = new Map<string, string>();
      if (taskKind(task) !== "change") return out;
      for (const call of calls) {
        const proposal = await d.state.propose(call);
        if (!proposal?.signatures.length) {
          d.state.withdraw();
          continue;
        }
        try {
          await evidence;
          const request = await d.state.request(task, d.questionSet);
          const r = await d.plane.decide(request, d.verification.changed.size > 0, signal);
          const open = request.symbols.filter((s) => s.signature_change && !s.callers_known && !heldOnce.has(`${s.path}\0${s.name}`));
          if (!r.guidance.semantic_navigation || open.length === 0) continue;
          for (const s of open) heldOnce.add(`${s.path}\0${s.name}`);
          const named = open.map((s) => {
            const callers = d.state.unreadCallers(s.path, s.name);
            return callers.length ? `${s.name} (called from ${callers.slice(0, 5).join("; ")}${callers.length > 5 ? "; ..." : ""})` : s.name;
          });
          out.set(
            call.id,
            `[weir] Not applied: this edit changes the declaration of ${named.join(", ")} in ${proposal.path}, ` +
              `and its callers are not read where they call it. Read those lines (or run find_references) and ` +
              `update them with it; to apply the edit as it is, make it again.`,
          );
        } finally {
          d.state.withdraw();
        }
      }
      return out;
    },
    async beforeFinish(attempt) {
      await evidence;
      // A Stop hook that exits 2 sends the model back with its reason (at most three times).
      if (d.hooks?.has("Stop") && attempt < 3) {
        const r = await d.hooks.run("Stop", "", { stop_hook_active: attempt > 0 });
        if (r.block) return `[Stop hook] ${r.message}`;
      }
      // Documentation alone (AGENTS.md, a README, docs/) is checked by no test: nothing to verify.
      if (d.verifyFloor === "off" || [...d.verification.changed].every(isDocumentation)) return undefined;
      // Without project checks no verification can pass: the model is asked once to exercise the change.
      const checked = checks().length > 0;
      if (attempt >= (d.verifyFloor === "require" && checked ? 3 : 1)) return undefined;
      const v = await d.verification.state();
      if (v.state === "passed" || v.state === "not_needed") return undefined;
      const key = [...d.verification.changed].sort().join("\0");
      if (d.verifyFloor === "remind" && key === remindedFor) return undefined;
      remindedFor = key;
      const changed = [...d.verification.changed].slice(0, 5).join(", ");
      d.disclosure.load([checked ? "verification" : "command"], []);
      if (!checked)
        return (
          `[weir verification floor] You changed ${changed}, and ${NO_CHECKS}. Before you finish, run what ` +
          `exercises the change (run_command), or say exactly why it cannot be checked.`
        );
      return (
        `[weir verification floor] You changed ${changed} and there is no passing verification for the ` +
        `current revision (${v.state}). Run verify before you finish, or say exactly why it cannot be verified.`
      );
    },
    async report() {
      d.disclosure.remember(task, [...called]);
      await evidence;
      const v = await d.verification.state();
      return {
        verification: {
          state: v.state,
          ...(v.latest ? { check: v.latest.check, level: v.latest.level, revision: v.latest.revision } : {}),
          changed: [...d.verification.changed],
        },
      };
    },
  };
}
