import { AGENT_CONTEXT, type Answers, topChoice } from "./questions.ts";

/**
 * Guidance: what the answers require of the agent's next steps. The baseline's guidance is the floor;
 * a judgment provider may only add work to it.
 */
type VerificationLevel = "none" | "quick" | "full";
export interface Guidance {
  retrieve: boolean;
  semantic_navigation: boolean;
  review_worktree: boolean;
  verification: VerificationLevel;
  /** Whether editing is allowed now. Only ever narrowed by a candidate. */
  allow_edit: boolean;
  next_action: string;
  /** Capabilities to pre-load in the action registry. */
  preload: string[];
}

export interface Thresholds {
  /** P(yes) at or above which a yes/no answer counts as yes. */
  yes: number;
}

const RANK: Record<VerificationLevel, number> = { none: 0, quick: 1, full: 2 };
// The current set: its next_action options are a superset of @1's.
const q = (id: string) => AGENT_CONTEXT.questions.find((x) => x.id === id)!;

/** Guidance from one source's answers. Pure. */
export function guidanceFrom(a: Answers, t: Thresholds = { yes: 0.5 }, changed = true): Guidance {
  const y = (id: string) => {
    const x = a[id];
    return x?.type === "yes_no" && x.p_yes >= t.yes;
  };
  const na = a.next_action;
  const next = na?.type === "choice" ? topChoice(q("next_action") as never, na) : "retrieve";
  const sufficient = y("context_sufficient");
  const verification: VerificationLevel = y("verification_escalation") ? "full" : changed ? "quick" : "none";
  return {
    retrieve: y("continue_retrieval") || next === "retrieve",
    semantic_navigation: y("semantic_navigation_required") || next === "semantic_navigation",
    review_worktree: next === "review_worktree",
    verification,
    allow_edit: sufficient && next === "edit_then_verify",
    next_action: next,
    preload: [
      ...(y("semantic_navigation_required") || next === "semantic_navigation" ? ["navigation"] : []),
      ...(verification !== "none" ? ["verification"] : []),
      ...(next === "review_worktree" ? ["git"] : []),
    ],
  };
}

interface MergeResult {
  guidance: Guidance;
  /** Places the candidate tried to lower a floor; recorded, never applied. */
  violations: string[];
}

/**
 * The increase-only merge. Pure. Whatever the candidate says, the merged guidance requires at least
 * everything the baseline required, verification never drops below the baseline's level, editing is
 * allowed only where the baseline allows it, and no floor is removed.
 */
export function mergeIncreaseOnly(base: Guidance, cand: Guidance | undefined): MergeResult {
  if (!cand) return { guidance: base, violations: [] };
  const violations: string[] = [];
  if (base.retrieve && !cand.retrieve) violations.push("retrieve: the candidate would stop retrieval the baseline requires");
  if (base.semantic_navigation && !cand.semantic_navigation) violations.push("semantic_navigation: the candidate would skip relations the baseline requires");
  if (base.review_worktree && !cand.review_worktree) violations.push("review_worktree: the candidate would skip the worktree review");
  if (RANK[cand.verification] < RANK[base.verification])
    violations.push(`verification: the candidate would lower it from ${base.verification} to ${cand.verification}`);
  if (cand.allow_edit && !base.allow_edit) violations.push("allow_edit: the candidate would allow an edit the baseline does not");
  // The candidate's next action wins only when it adds work to an edit the baseline would allow.
  const next = base.next_action === "edit_then_verify" && cand.next_action !== "edit_then_verify" ? cand.next_action : base.next_action;
  return {
    guidance: {
      retrieve: base.retrieve || cand.retrieve,
      semantic_navigation: base.semantic_navigation || cand.semantic_navigation,
      review_worktree: base.review_worktree || cand.review_worktree,
      verification: RANK[cand.verification] > RANK[base.verification] ? cand.verification : base.verification,
      allow_edit: base.allow_edit && cand.allow_edit,
      next_action: next,
      preload: [...new Set([...base.preload, ...cand.preload])],
    },
    violations,
  };
}

/** What the state says of a review and of verifying, for the reminder's words. */
export interface ReminderFacts {
  /** The project has checks `verify` runs; without any, verifying means running what exercises the change. */
  checks: boolean;
  /** Why the worktree is to be reviewed: a target changed on disk since it was read, a target's changes no one made here, or both. */
  review: { stale: boolean; unseen: boolean };
}

/** The one short trusted reminder the model reads each turn. */
export function reminder(g: Guidance, facts: ReminderFacts): string {
  const parts: string[] = [];
  const { stale, unseen } = facts.review;
  if (g.review_worktree && stale) parts.push("read again the files that changed on disk since you read them before editing");
  // A review the judge asked for with neither reason in the state is one of changes no one made here.
  if (g.review_worktree && (unseen || !stale)) parts.push("review the worktree changes you did not make (git diff) before editing");
  if (g.retrieve) parts.push("read the missing source, tests or failure locations before editing");
  if (g.semantic_navigation) parts.push("find the callers/implementations (find_references) before changing the symbol");
  if (g.next_action === "answer") parts.push("answer from what you have read; the task asks for no change");
  else if (!g.allow_edit && !parts.length) parts.push("do not edit yet");
  if (g.verification !== "none" && !facts.checks) parts.push(`check the change after editing by running what exercises it (run_command): ${NO_CHECKS}`);
  else if (g.verification === "full") parts.push("verify at the full level after editing (verify level=full)");
  else if (g.verification === "quick") parts.push("verify after editing (verify)");
  return `[weir guidance] next: ${g.next_action}.${parts.length ? ` ${parts.join("; ")}.` : ""}`;
}

/** Why `verify` has nothing to run, in the words the model reads. */
export const NO_CHECKS = "weir found no project checks (test script, test target or build file) for verify to run";

/** Guidance fields a certified question may lower in calibrated mode. */
export type ReducibleField = "retrieve" | "semantic_navigation" | "verification";

/** Which guidance field each work-reducing question governs. */
export const REDUCES: Record<string, ReducibleField> = {
  context_sufficient: "retrieve",
  continue_retrieval: "retrieve",
  semantic_navigation_required: "semantic_navigation",
  verification_escalation: "verification",
};

/**
 * Calibrated mode's merge. Pure. Everything is increase-only, except the fields of questions the
 * pinned policy certified (and whose judge answer fell inside the certified band): those follow the
 * candidate, so it may remove work there. No floor moves: verification never drops below quick once
 * files changed, an edit the baseline does not allow is never allowed, and SHA, containment and
 * authorization are the runtime's, out of any guidance's reach.
 */
export function mergeCalibrated(
  base: Guidance,
  cand: Guidance | undefined,
  reducible: ReadonlySet<ReducibleField>,
  changed: boolean,
): MergeResult & { reductions: string[] } {
  const inc = mergeIncreaseOnly(base, cand);
  if (!cand || reducible.size === 0) return { ...inc, reductions: [] };
  const g = { ...inc.guidance };
  const reductions: string[] = [];
  if (reducible.has("retrieve") && base.retrieve && !cand.retrieve) {
    g.retrieve = false;
    if (g.next_action === "retrieve") g.next_action = cand.next_action;
    reductions.push("retrieve");
  }
  if (reducible.has("semantic_navigation") && base.semantic_navigation && !cand.semantic_navigation) {
    g.semantic_navigation = false;
    if (g.next_action === "semantic_navigation") g.next_action = cand.next_action;
    reductions.push("semantic_navigation");
  }
  if (reducible.has("verification") && RANK[cand.verification] < RANK[g.verification]) {
    const floor: VerificationLevel = changed ? "quick" : "none";
    g.verification = RANK[cand.verification] >= RANK[floor] ? cand.verification : floor;
    if (g.verification !== inc.guidance.verification) reductions.push("verification");
  }
  // Never widened, whatever was certified.
  g.allow_edit = base.allow_edit && cand.allow_edit;
  const kept = new Set(reductions);
  const violations = inc.violations.filter((v) => !kept.has(v.split(":")[0]!));
  return { guidance: g, violations, reductions };
}
