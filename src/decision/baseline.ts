import type { Answers } from "./questions.ts";
import type { DecisionRequest } from "./request.ts";

/**
 * The deterministic baseline: a pure function from a request to answers of the same typed shape as
 * any judgment provider's. It is the authority for everything safety depends on. It reads only the
 * structured state; `untrusted_notes` never enter it.
 */
export interface Facts {
  unreadOrPartial: boolean;
  staleOrDirty: boolean;
  relationsMissing: boolean;
  testsMissing: boolean;
  failureUnread: boolean;
  nothingPlanned: boolean;
}

export function facts(r: DecisionRequest): Facts {
  const behaviour = r.change.behaviour_change && r.change.planned_scope !== "none";
  const failurePaths = new Set(r.failures.map((f) => f.path));
  return {
    unreadOrPartial: r.targets.some((t) => !t.read || !t.body_complete),
    staleOrDirty: r.targets.some((t) => !t.sha_fresh || t.dirty_in_worktree),
    relationsMissing: behaviour && r.symbols.some((s) => s.exported && !s.callers_known) && (r.change.public_api || r.change.planned_scope !== "local"),
    testsMissing: behaviour && r.tests.mapped.length === 0,
    failureUnread: r.targets.some((t) => failurePaths.has(t.path) && !t.read),
    nothingPlanned: r.change.planned_scope === "none",
  };
}

const yes = (b: boolean) => ({ type: "yes_no" as const, p_yes: b ? 1 : 0 });
const pick = (id: string) => ({ type: "choice" as const, distribution: { [id]: 1 } });

export function baseline(r: DecisionRequest): Answers {
  const f = facts(r);
  const sufficient = r.targets.length > 0 && !f.unreadOrPartial && !f.staleOrDirty && !f.relationsMissing && !f.testsMissing;
  const evidenceMissing = f.unreadOrPartial || f.testsMissing || f.failureUnread || r.targets.length === 0;
  // Stale or dirty targets call for a worktree review first, not more reading.
  const continueRetrieval = evidenceMissing && !f.staleOrDirty;
  const last = r.verification.last_run;
  const escalate =
    !(f.nothingPlanned && !r.verification.files_changed_since_last_pass) &&
    (r.change.security_sensitive ||
      r.change.public_api ||
      r.change.planned_scope === "cross_module" ||
      (last !== null && !last.passed) ||
      (r.tests.mapped.length > 0 && r.verification.files_changed_since_last_pass && !(last?.passed && last.revision_current)));

  let next: string;
  if (r.task_flags.ambiguous || r.task_flags.conflicts_with_constraints) next = "other_review";
  else if (f.staleOrDirty) next = "review_worktree";
  else if (continueRetrieval) next = "retrieve";
  else if (f.relationsMissing) next = "semantic_navigation";
  else if (sufficient) next = "edit_then_verify";
  else next = "other_review";

  const risk = r.change.planned_scope === "none" || !r.change.behaviour_change
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
  for (const s of r.symbols.filter((x) => x.exported && r.change.behaviour_change)) {
    need++;
    if (s.callers_known) have++;
  }
  if (r.change.behaviour_change && r.change.planned_scope !== "none") {
    need += 2;
    if (r.tests.mapped.length > 0) have++;
    if (r.tests.read) have++;
  }

  return {
    context_sufficient: yes(sufficient),
    continue_retrieval: yes(continueRetrieval),
    semantic_navigation_required: yes(f.relationsMissing && !f.staleOrDirty),
    verification_escalation: yes(escalate),
    next_action: pick(next),
    risk_surface: pick(risk),
    evidence_density: { type: "score", value: need === 0 ? 0 : have / need },
  };
}
