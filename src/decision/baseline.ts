import { AGENT_CONTEXT, type Answers, type QuestionSet } from "./questions.ts";
import type { DecisionRequest } from "./request.ts";

/**
 * The deterministic baseline: a pure function from a request to answers of the same typed shape as
 * any judgment provider's. It is the authority for everything safety depends on. It reads only the
 * structured state; `untrusted_notes` never enter it.
 *
 * Its facts are the clauses of the criteria (policies/question-sets/weir.agent_context@1.json and on),
 * each read literally from the text:
 * - unreadOrPartial: "a needed target is unread or partial";
 * - stale: "a SHA is stale" (a dirty worktree is not in the sufficiency criterion; it is the
 *   next action's review_worktree row);
 * - dirty: "an edit target is dirty with changes weir did not make";
 * - relationsMissing: "callers of an exported symbol whose signature or behaviour changes" are
 *   unknown (whatever the planned scope: its callers may be anywhere);
 * - testsUnknown: "mapped tests when behaviour changes": none located, or located and not read;
 * - failureUnread: a failure location (from the task or test output) whose file has not been read,
 *   whether or not it is a target yet ("failure locations" are material evidence);
 * - vague: the task names nothing to work on and no scope is planned, so "every target the edit
 *   needs" cannot be established.
 * A request with `task_kind: inspect` (a task that asks for no change, from @2 on) never needs
 * relations or tests, escalates nothing, and a sufficient context's next action is `answer` (where
 * the set has that option; @1 has not, and an @1 state is always a change). What each later version
 * settles is a row of `Settlements` (AT_2, AT_3, AT_4), selected once per request by `settlementsOf`.
 */
interface Facts {
  unreadOrPartial: boolean;
  stale: boolean;
  dirty: boolean;
  relationsMissing: boolean;
  testsUnknown: boolean;
  failureUnread: boolean;
  nothingPlanned: boolean;
  vague: boolean;
  nothingToRead: boolean;
}

/** What a version of the set settles beyond @2's literal reading (docs/decision-plane.md, one section a version). */
interface Settlements {
  /** @3: a question never reviews the worktree; a file it needs that changed since it was read is read again. */
  questionsReadTheDisk: boolean;
  /** @3: a question whose answer is a set of relations needs them until a navigation ran, and navigates first with no target. */
  relationsQuestions: boolean;
  /** @3: a changed declaration needs its callers even where the change is not one of behaviour. */
  signaturesNeedCallers: boolean;
  /** @4: a dirty target whose changes the conversation showed in full is reviewed. */
  shownDiffsReviewed: boolean;
  /** @4: tests searched for and not found are known. */
  searchedTestsKnown: boolean;
  /** @4: a workspace with no files has no target to find. */
  emptyWorkspaceHasNothing: boolean;
}

const AT_2: Settlements = {
  questionsReadTheDisk: false,
  relationsQuestions: false,
  signaturesNeedCallers: false,
  shownDiffsReviewed: false,
  searchedTestsKnown: false,
  emptyWorkspaceHasNothing: false,
};
const AT_3: Settlements = { ...AT_2, questionsReadTheDisk: true, relationsQuestions: true, signaturesNeedCallers: true };
const AT_4: Settlements = { ...AT_3, shownDiffsReviewed: true, searchedTestsKnown: true, emptyWorkspaceHasNothing: true };

/** The settlements of a set: weir.agent_context's by version (@1 and @2 read the text as written), none for any other set. */
function settlementsOf(set: QuestionSet): Settlements {
  if (set.id !== AGENT_CONTEXT.id) return AT_2;
  return set.version >= 4 ? AT_4 : set.version === 3 ? AT_3 : AT_2;
}

export function facts(r: DecisionRequest, set: QuestionSet = AGENT_CONTEXT): Facts {
  const v = settlementsOf(set);
  const behaviour = r.task_kind !== "inspect" && r.change.behaviour_change && r.change.planned_scope !== "none";
  const read = new Set(r.targets.filter((t) => t.read).map((t) => t.path));
  const relationsAsked = v.relationsQuestions && r.task_kind === "inspect" && r.task_flags.asks_relations && r.retrieval.navigations === 0;
  const testsKnown = r.tests.mapped.length > 0 ? r.tests.read : v.searchedTestsKnown && r.tests.searched === true;
  const changesDeclaration = (s: DecisionRequest["symbols"][number]) => behaviour || (v.signaturesNeedCallers && s.signature_change === true);
  return {
    unreadOrPartial: r.targets.some((t) => !t.read || !t.body_complete),
    stale: r.targets.some((t) => !t.sha_fresh),
    dirty: r.targets.some((t) => t.dirty_in_worktree && !(v.shownDiffsReviewed && t.worktree_shown)),
    relationsMissing: r.symbols.some((s) => s.exported && !s.callers_known && changesDeclaration(s)) || relationsAsked,
    testsUnknown: behaviour && !testsKnown,
    failureUnread: r.failures.some((f) => !read.has(f.path)),
    nothingPlanned: r.change.planned_scope === "none",
    vague: r.task_flags.ambiguous && r.change.planned_scope === "none",
    nothingToRead: v.emptyWorkspaceHasNothing && r.retrieval.workspace_files === 0,
  };
}

const hasOption = (set: QuestionSet, q: string, option: string) =>
  set.questions.some((x) => x.id === q && x.type === "choice" && x.options.some((o) => o.id === option));

const yes = (b: boolean) => ({ type: "yes_no" as const, p_yes: b ? 1 : 0 });
const pick = (id: string) => ({ type: "choice" as const, distribution: { [id]: 1 } });

export function baseline(r: DecisionRequest, set: QuestionSet = AGENT_CONTEXT): Answers {
  const f = facts(r, set);
  const v = settlementsOf(set);
  const inspect = r.task_kind === "inspect";
  const worktree = v.questionsReadTheDisk && inspect ? false : f.stale || f.dirty;
  // A question about relations with no target yet navigates first (navigation finds the targets).
  const navigationFirst = v.relationsQuestions && f.relationsMissing && inspect && r.targets.length === 0;
  // context_sufficient: every needed target read whole, every SHA fresh, every needed relation and test known.
  const sufficient =
    (r.targets.length > 0 || f.nothingToRead) && !f.unreadOrPartial && !f.stale && !f.relationsMissing && !f.testsUnknown && !f.failureUnread && !f.vague;
  // continue_retrieval: material evidence missing that reading can get (not relations, not a worktree review).
  const staleAnswer = v.questionsReadTheDisk && inspect && f.stale;
  const evidenceMissing =
    f.unreadOrPartial || f.testsUnknown || f.failureUnread || staleAnswer || (r.targets.length === 0 && !f.vague && !navigationFirst && !f.nothingToRead);
  // Not when the worktree must be reviewed first, nor for a task too vague for reading to resolve
  // (task_flags.ambiguous means exactly that).
  const continueRetrieval = evidenceMissing && !worktree && !r.task_flags.ambiguous;
  const last = r.verification.last_run;
  const escalate =
    !inspect &&
    !(f.nothingPlanned && !r.verification.files_changed_since_last_pass) &&
    (r.change.security_sensitive ||
      r.change.public_api ||
      r.change.planned_scope === "cross_module" ||
      (last !== null && !last.passed) ||
      (r.tests.mapped.length > 0 && r.verification.files_changed_since_last_pass && !(last?.passed && last.revision_current)));

  // next_action: the first row of the criteria's table that applies.
  let next: string;
  if (r.task_flags.ambiguous || r.task_flags.conflicts_with_constraints) next = "other_review";
  else if (worktree) next = "review_worktree";
  else if (continueRetrieval) next = "retrieve";
  else if (f.relationsMissing) next = "semantic_navigation";
  else if (sufficient) next = inspect && hasOption(set, "next_action", "answer") ? "answer" : "edit_then_verify";
  else next = "other_review";

  const risk = inspect || r.change.planned_scope === "none" || !r.change.behaviour_change
    ? "none"
    : r.change.security_sensitive
      ? "security_sensitive"
      : r.change.public_api
        ? "public_api"
        : r.change.persistence
          ? "persistence"
          : r.change.planned_scope === "cross_module"
            ? "cross_module"
            : "local_logic";

  // Evidence in hand over evidence needed: each target read whole and fresh, relations, tests.
  let have = 0;
  let need = 0;
  for (const t of r.targets) {
    need++;
    if (t.read && t.body_complete && t.sha_fresh) have++;
  }
  for (const s of r.symbols.filter((x) => x.exported && r.change.behaviour_change && !inspect)) {
    need++;
    if (s.callers_known) have++;
  }
  if (!inspect && r.change.behaviour_change && r.change.planned_scope !== "none") {
    need += 2;
    // Tests searched for and not found (@4) are known, and there is nothing of them to read.
    if (r.tests.mapped.length === 0 && !f.testsUnknown) have += 2;
    else {
      if (r.tests.mapped.length > 0) have++;
      if (r.tests.read) have++;
    }
  }

  return {
    context_sufficient: yes(sufficient),
    continue_retrieval: yes(continueRetrieval),
    // A worktree review supplies no callers: relations stay required whatever the worktree's state.
    semantic_navigation_required: yes(f.relationsMissing),
    verification_escalation: yes(escalate),
    next_action: pick(next),
    risk_surface: pick(risk),
    evidence_density: { type: "score", value: need === 0 ? 0 : have / need },
  };
}
