import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { baseline, facts } from "../../src/decision/baseline.ts";
import { guidanceFrom, mergeIncreaseOnly } from "../../src/decision/merge.ts";
import { AGENT_CONTEXT, AGENT_CONTEXT_V1, AGENT_CONTEXT_V2, AGENT_CONTEXT_V3, AGENT_CONTEXT_V4, type Answers, checkShape, questionSetFor } from "../../src/decision/questions.ts";
import { DecisionRequest, requestHash } from "../../src/decision/request.ts";
import { arbRequest, request } from "../support/requests.ts";

const yes = (a: Answers, id: string) => (a[id] as { p_yes: number }).p_yes === 1;
const top = (a: Answers, id: string) => Object.keys((a[id] as { distribution: Record<string, number> }).distribution)[0];

describe("the baseline", () => {
  test("a clean, fully read local change: sufficient, edit then verify quick", () => {
    const a = baseline(request());
    expect(yes(a, "context_sufficient")).toBe(true);
    expect(yes(a, "continue_retrieval")).toBe(false);
    expect(yes(a, "semantic_navigation_required")).toBe(false);
    expect(top(a, "next_action")).toBe("edit_then_verify");
    expect(top(a, "risk_surface")).toBe("local_logic");
    expect(a.evidence_density).toEqual({ type: "score", value: 1 });
  });

  test("an unread target means retrieve; a stale one means review the worktree first", () => {
    const unread = request({ targets: [{ ...request().targets[0]!, read: false }] });
    expect(top(baseline(unread), "next_action")).toBe("retrieve");
    expect(yes(baseline(unread), "continue_retrieval")).toBe(true);
    const stale = request({ targets: [{ ...request().targets[0]!, sha_fresh: false }] });
    expect(top(baseline(stale), "next_action")).toBe("review_worktree");
    expect(yes(baseline(stale), "continue_retrieval")).toBe(false);
  });

  test("an exported symbol whose behaviour changes with unknown callers needs semantic navigation, not more reading", () => {
    const r = request({ symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }], change: { ...request().change, planned_scope: "module" } });
    const a = baseline(r);
    expect(yes(a, "semantic_navigation_required")).toBe(true);
    expect(yes(a, "continue_retrieval")).toBe(false);
    expect(top(a, "next_action")).toBe("semantic_navigation");
    expect(yes(a, "context_sufficient")).toBe(false);
  });

  test("a local private change never requires navigation even with unknown callers", () => {
    expect(yes(baseline(request()), "semantic_navigation_required")).toBe(false);
  });

  test("security-sensitive, public API, cross-module and failed runs escalate verification", () => {
    for (const change of [{ security_sensitive: true }, { public_api: true }, { planned_scope: "cross_module" as const }])
      expect(yes(baseline(request({ change: { ...request().change, ...change } })), "verification_escalation")).toBe(true);
    expect(yes(baseline(request({ verification: { files_changed_since_last_pass: true, last_run: { level: "quick", passed: false, revision_current: true } } })), "verification_escalation")).toBe(true);
    expect(yes(baseline(request()), "verification_escalation")).toBe(false);
  });

  describe("each clause of the criteria, read literally", () => {
    const t0 = () => request().targets[0]!;
    test("a dirty target that is fresh and read whole still counts as sufficient context; the next action is the worktree review", () => {
      const a = baseline(request({ targets: [{ ...t0(), dirty_in_worktree: true }] }));
      expect(yes(a, "context_sufficient")).toBe(true);
      expect(yes(a, "continue_retrieval")).toBe(false);
      expect(top(a, "next_action")).toBe("review_worktree");
    });
    test("a failure location whose file is not read is missing evidence, target or not", () => {
      const a = baseline(request({ failures: [{ path: "src/other.ts", line: 3, message: "boom" }] }));
      expect(yes(a, "context_sufficient")).toBe(false);
      expect(yes(a, "continue_retrieval")).toBe(true);
      expect(top(a, "next_action")).toBe("retrieve");
      expect(yes(baseline(request({ failures: [{ path: "src/total.ts", line: 3, message: "boom" }] })), "context_sufficient")).toBe(true);
    });
    test("a behaviour change with its mapped tests located but unread is not sufficient: read them", () => {
      const a = baseline(request({ tests: { mapped: ["test/total.test.ts"], read: false } }));
      expect(yes(a, "context_sufficient")).toBe(false);
      expect(yes(a, "continue_retrieval")).toBe(true);
      // No behaviour change: tests are not a needed relation.
      expect(yes(baseline(request({ tests: { mapped: [], read: false }, change: { ...request().change, behaviour_change: false } })), "context_sufficient")).toBe(true);
    });
    test("an exported symbol whose behaviour changes needs its callers whatever the planned scope", () => {
      const a = baseline(request({ symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }] }));
      expect(yes(a, "semantic_navigation_required")).toBe(true);
      expect(yes(a, "context_sufficient")).toBe(false);
    });
    test("a stale or dirty target does not suppress the relations a safe edit needs", () => {
      const a = baseline(request({ targets: [{ ...t0(), sha_fresh: false }], symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }] }));
      expect(yes(a, "semantic_navigation_required")).toBe(true);
      expect(top(a, "next_action")).toBe("review_worktree");
    });
    test("a vague task with no planned scope: the needed targets cannot be established, and more reading will not say", () => {
      const a = baseline(request({ targets: [], task_flags: { ambiguous: true, conflicts_with_constraints: false, asks_relations: false }, change: { ...request().change, planned_scope: "none" } }));
      expect(yes(a, "context_sufficient")).toBe(false);
      expect(yes(a, "continue_retrieval")).toBe(false);
      expect(top(a, "next_action")).toBe("other_review");
    });
    test("a change with nothing planned yet, its file read whole, is sufficient (it is not a question: task_kind stays change)", () => {
      const a = baseline(request({ change: { ...request().change, planned_scope: "none", behaviour_change: false }, symbols: [], tests: { mapped: [], read: false } }));
      expect(yes(a, "context_sufficient")).toBe(true);
    });
  });

  test("an ambiguous task goes to other_review", () => {
    expect(top(baseline(request({ task_flags: { ambiguous: true, conflicts_with_constraints: false, asks_relations: false } })), "next_action")).toBe("other_review");
  });

  test("property: untrusted notes never change the baseline's answers", () => {
    fc.assert(
      fc.property(arbRequest, fc.array(fc.string()), (r, notes) => {
        expect(baseline({ ...r, untrusted_notes: notes })).toEqual(baseline({ ...r, untrusted_notes: [] }));
      }),
    );
  });

  test("property: every answer has the question set's shape", () => {
    fc.assert(
      fc.property(arbRequest, (r) => {
        // Under either version: @1 (still loadable) never gets @2's `answer` option.
        for (const set of [AGENT_CONTEXT_V1, AGENT_CONTEXT_V2]) {
          const shape = checkShape(set, baseline(r, set));
          expect(shape.missing).toEqual([]);
          expect(shape.mismatched).toEqual([]);
        }
        expect(DecisionRequest.safeParse(r).success).toBe(true);
      }),
    );
  });

  test("the request hash is stable under key order and changes with content", () => {
    const r = request();
    const shuffled = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(r).reverse())));
    expect(requestHash(shuffled)).toBe(requestHash(r));
    expect(requestHash({ ...r, task: "other" })).not.toBe(requestHash(r));
  });
});

describe("the increase-only merge", () => {
  const arbAnswers: fc.Arbitrary<Answers> = fc.record({
    context_sufficient: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ type: "yes_no" as const, p_yes: p })),
    continue_retrieval: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ type: "yes_no" as const, p_yes: p })),
    semantic_navigation_required: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ type: "yes_no" as const, p_yes: p })),
    verification_escalation: fc.double({ min: 0, max: 1, noNaN: true }).map((p) => ({ type: "yes_no" as const, p_yes: p })),
    next_action: fc.constantFrom("retrieve", "semantic_navigation", "review_worktree", "edit_then_verify", "other_review").map((id) => ({ type: "choice" as const, distribution: { [id]: 1 } })),
  });
  const rank = { none: 0, quick: 1, full: 2 };

  test("property: whatever the candidate says, the merge requires at least what the baseline required", () => {
    fc.assert(
      fc.property(arbRequest, arbAnswers, fc.boolean(), (r, cand, changed) => {
        const base = guidanceFrom(baseline(r), { yes: 0.5 }, changed);
        const m = mergeIncreaseOnly(base, guidanceFrom(cand, { yes: 0.5 }, changed)).guidance;
        if (base.retrieve) expect(m.retrieve).toBe(true);
        if (base.semantic_navigation) expect(m.semantic_navigation).toBe(true);
        if (base.review_worktree) expect(m.review_worktree).toBe(true);
        expect(rank[m.verification]).toBeGreaterThanOrEqual(rank[base.verification]);
        if (m.allow_edit) expect(base.allow_edit).toBe(true);
        if (m.next_action === "edit_then_verify") expect(base.next_action).toBe("edit_then_verify");
        for (const p of base.preload) expect(m.preload).toContain(p);
      }),
    );
  });

  test("a candidate that tries to lower a floor is recorded as a violation and ignored", () => {
    const base = guidanceFrom(baseline(request({ targets: [{ ...request().targets[0]!, read: false }] })));
    const lax = guidanceFrom({ ...baseline(request()), verification_escalation: { type: "yes_no", p_yes: 0 } }, { yes: 0.5 }, false);
    const m = mergeIncreaseOnly(base, lax);
    expect(m.violations.some((v) => v.startsWith("retrieve"))).toBe(true);
    expect(m.violations.some((v) => v.startsWith("allow_edit"))).toBe(true);
    expect(m.guidance.allow_edit).toBe(false);
    expect(m.guidance.retrieve).toBe(true);
  });
});

describe("weir.agent_context@2: a task that asks for no change", () => {
  const inspect = (over: Parameters<typeof request>[0] = {}) => request({ task: "how does total() round?", task_kind: "inspect", symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }], tests: { mapped: [], read: false }, ...over });
  const pick = (a: Answers, q: string) => (a[q]!.type === "choice" ? Object.keys((a[q] as { distribution: Record<string, number> }).distribution)[0] : (a[q] as { p_yes: number }).p_yes === 1);
  test("is answered once what it needs is read and fresh: no callers, tests or escalation are needed", () => {
    const a = baseline(inspect({ verification: { files_changed_since_last_pass: true, last_run: { level: "quick", passed: false, revision_current: false } } }), AGENT_CONTEXT_V2);
    expect([pick(a, "context_sufficient"), pick(a, "continue_retrieval"), pick(a, "semantic_navigation_required"), pick(a, "verification_escalation"), pick(a, "next_action"), pick(a, "risk_surface")]).toEqual([true, false, false, false, "answer", "none"]);
    expect(guidanceFrom(a).allow_edit).toBe(false);
  });
  test("an unread target is still retrieved, a stale one still reviewed; under @1 the same state is a change", () => {
    expect(pick(baseline(inspect({ targets: [{ path: "src/total.ts", named_by_user: true, read: false, sha_fresh: true, dirty_in_worktree: false, body_complete: false }] }), AGENT_CONTEXT_V2), "next_action")).toBe("retrieve");
    expect(pick(baseline(inspect({ targets: [{ path: "src/total.ts", named_by_user: true, read: true, sha_fresh: false, dirty_in_worktree: false, body_complete: true }] }), AGENT_CONTEXT_V2), "next_action")).toBe("review_worktree");
    expect(pick(baseline(inspect(), AGENT_CONTEXT_V1), "next_action")).toBe("edit_then_verify");
  });
});

describe("every clause of the criteria is a named branch (facts), each flipped alone", () => {
  // From the ready state, one change at a time; each must flip exactly its fact, and the answers the criterion says.
  const ready = () => request({ symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: true, kind: "function" }] });
  const t0 = ready().targets[0]!;
  const cases: { fact: keyof ReturnType<typeof facts>; state: ReturnType<typeof request>; expect: Partial<Record<string, boolean | string>> }[] = [
    { fact: "unreadOrPartial", state: request({ ...ready(), targets: [{ ...t0, body_complete: false }] }), expect: { context_sufficient: false, continue_retrieval: true, next_action: "retrieve" } },
    { fact: "stale", state: request({ ...ready(), targets: [{ ...t0, sha_fresh: false }] }), expect: { context_sufficient: false, continue_retrieval: false, next_action: "review_worktree" } },
    { fact: "dirty", state: request({ ...ready(), targets: [{ ...t0, dirty_in_worktree: true }] }), expect: { context_sufficient: true, continue_retrieval: false, next_action: "review_worktree" } },
    { fact: "relationsMissing", state: request({ ...ready(), symbols: [{ name: "total", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }] }), expect: { context_sufficient: false, semantic_navigation_required: true, continue_retrieval: false, next_action: "semantic_navigation" } },
    { fact: "testsUnknown", state: request({ ...ready(), tests: { mapped: ["test/total.test.ts"], read: false } }), expect: { context_sufficient: false, continue_retrieval: true, next_action: "retrieve" } },
    { fact: "failureUnread", state: request({ ...ready(), failures: [{ path: "src/other.ts", line: 3, message: "boom" }] }), expect: { context_sufficient: false, continue_retrieval: true, next_action: "retrieve" } },
    { fact: "nothingPlanned", state: request({ ...ready(), change: { planned_scope: "none", security_sensitive: false, public_api: false, behaviour_change: false, persistence: false } }), expect: { context_sufficient: true, verification_escalation: false, next_action: "edit_then_verify" } },
    { fact: "vague", state: request({ ...ready(), task_flags: { ambiguous: true, conflicts_with_constraints: false, asks_relations: false }, change: { planned_scope: "none", security_sensitive: false, public_api: false, behaviour_change: false, persistence: false } }), expect: { context_sufficient: false, continue_retrieval: false, next_action: "other_review" } },
  ];
  const value = (a: Answers, q: string) => (a[q]!.type === "choice" ? Object.keys((a[q] as { distribution: Record<string, number> }).distribution)[0] : (a[q] as { p_yes: number }).p_yes === 1);
  test("the ready state has every fact false", () => {
    expect(Object.values(facts(ready())).every((v) => v === false)).toBe(true);
  });
  for (const c of cases)
    test(`${c.fact}`, () => {
      const f = facts(c.state);
      // `vague` implies `nothingPlanned` (it is defined on an unplanned scope); every other flip is alone.
      const on = Object.entries(f).filter(([, v]) => v).map(([k]) => k);
      expect(on).toEqual(c.fact === "vague" ? ["nothingPlanned", "vague"] : [c.fact]);
      const a = baseline(c.state, AGENT_CONTEXT_V2);
      for (const [q, v] of Object.entries(c.expect)) expect([q, value(a, q)]).toEqual([q, v]);
    });
});

describe("weir.agent_context@3: the settlements of @2's ambiguities", () => {
  const inspect = (over: Partial<DecisionRequest> = {}) =>
    request({ question_set: "weir.agent_context@3", task: "what does total() return?", task_kind: "inspect", change: { planned_scope: "none", security_sensitive: false, public_api: false, behaviour_change: false, persistence: false }, ...over });
  const target = { path: "src/total.ts", named_by_user: true, read: true, sha_fresh: true, dirty_in_worktree: false, body_complete: true };

  test("@1 to @4 all load; runs ask @4, with @3's questions", () => {
    expect(questionSetFor("weir.agent_context@1")).toBe(AGENT_CONTEXT_V1);
    expect(questionSetFor("weir.agent_context@2")).toBe(AGENT_CONTEXT_V2);
    expect(questionSetFor("weir.agent_context@3")).toBe(AGENT_CONTEXT_V3);
    expect(questionSetFor("weir.agent_context@4")).toBe(AGENT_CONTEXT_V4);
    expect(AGENT_CONTEXT).toBe(AGENT_CONTEXT_V4);
    expect(AGENT_CONTEXT_V3.questions.map((q) => q.id)).toEqual(AGENT_CONTEXT_V2.questions.map((q) => q.id));
    expect(AGENT_CONTEXT_V4.questions.map((q) => q.id)).toEqual(AGENT_CONTEXT_V3.questions.map((q) => q.id));
  });

  test("(c) a question about a dirty file is answered, not sent to a worktree review; @2 reviewed it", () => {
    const s = inspect({ targets: [{ ...target, dirty_in_worktree: true }] });
    expect(top(baseline(s, AGENT_CONTEXT_V3), "next_action")).toBe("answer");
    expect(top(baseline(s, AGENT_CONTEXT_V2), "next_action")).toBe("review_worktree");
  });

  test("(c) a question about a file changed since it was read reads it again; a change task still reviews", () => {
    const s = inspect({ targets: [{ ...target, sha_fresh: false }] });
    expect(top(baseline(s, AGENT_CONTEXT_V3), "next_action")).toBe("retrieve");
    expect(yes(baseline(s, AGENT_CONTEXT_V3), "continue_retrieval")).toBe(true);
    const change = request({ question_set: "weir.agent_context@3", targets: [{ ...target, sha_fresh: false }] });
    expect(top(baseline(change, AGENT_CONTEXT_V3), "next_action")).toBe("review_worktree");
  });

  test("(e) a question whose answer is a set of callers navigates, first when no target is known, and not after a navigation", () => {
    const asks = { ambiguous: false, conflicts_with_constraints: false, asks_relations: true };
    const none = inspect({ task: "who calls total()?", task_flags: asks, targets: [], symbols: [] });
    expect(yes(baseline(none, AGENT_CONTEXT_V3), "semantic_navigation_required")).toBe(true);
    expect(top(baseline(none, AGENT_CONTEXT_V3), "next_action")).toBe("semantic_navigation");
    expect(yes(baseline(none, AGENT_CONTEXT_V2), "semantic_navigation_required")).toBe(false);
    const after = inspect({ task: "who calls total()?", task_flags: asks, targets: [target], retrieval: { rounds: 1, candidates_seen: 3, candidates_admitted: 1, budget_used_ratio: 0.1, navigations: 1 } });
    expect(yes(baseline(after, AGENT_CONTEXT_V3), "semantic_navigation_required")).toBe(false);
    expect(top(baseline(after, AGENT_CONTEXT_V3), "next_action")).toBe("answer");
  });

  test("(b) a security-sensitive change escalates while it is still only planned; nothing planned, nothing escalated", () => {
    const planned = request({ question_set: "weir.agent_context@3", change: { planned_scope: "local", security_sensitive: true, public_api: false, behaviour_change: true, persistence: false }, verification: { files_changed_since_last_pass: false, last_run: null } });
    expect(yes(baseline(planned, AGENT_CONTEXT_V3), "verification_escalation")).toBe(true);
    const nothing = request({ question_set: "weir.agent_context@3", change: { planned_scope: "none", security_sensitive: true, public_api: false, behaviour_change: false, persistence: false } });
    expect(yes(baseline(nothing, AGENT_CONTEXT_V3), "verification_escalation")).toBe(false);
  });

  test("(g) a local change after a passing run, with no mapped tests, is not escalated", () => {
    const s = request({ question_set: "weir.agent_context@3", tests: { mapped: [], read: false }, verification: { files_changed_since_last_pass: true, last_run: { level: "quick", passed: true, revision_current: false } } });
    expect(yes(baseline(s, AGENT_CONTEXT_V3), "verification_escalation")).toBe(false);
  });

  test("(a) a symbol no other file reaches needs no callers; a reachable one with unknown callers does", () => {
    const local = request({ question_set: "weir.agent_context@3", symbols: [{ name: "round", path: "src/total.ts", exported: false, callers_known: false, kind: "function" }] });
    expect(yes(baseline(local, AGENT_CONTEXT_V3), "semantic_navigation_required")).toBe(false);
    const reachable = request({ question_set: "weir.agent_context@3", symbols: [{ name: "round", path: "src/total.ts", exported: true, callers_known: false, kind: "function" }] });
    expect(yes(baseline(reachable, AGENT_CONTEXT_V3), "semantic_navigation_required")).toBe(true);
  });
});

describe("weir.agent_context@4: work that cannot help is not asked for", () => {
  const at4 = (over: Partial<DecisionRequest> = {}) => request({ question_set: "weir.agent_context@4", ...over });
  const t0 = () => request().targets[0]!;
  const noTests = { mapped: [], read: false };

  test("a dirty target whose changes were shown is reviewed; one whose changes were not shown still is; @3 reviewed both", () => {
    const shown = at4({ targets: [{ ...t0(), dirty_in_worktree: true, worktree_shown: true }] });
    expect(top(baseline(shown, AGENT_CONTEXT_V4), "next_action")).toBe("edit_then_verify");
    expect(top(baseline(shown, AGENT_CONTEXT_V3), "next_action")).toBe("review_worktree");
    const unseen = at4({ targets: [{ ...t0(), dirty_in_worktree: true, worktree_shown: false }] });
    expect(top(baseline(unseen, AGENT_CONTEXT_V4), "next_action")).toBe("review_worktree");
    // A stale target is reviewed whatever was shown of it.
    const stale = at4({ targets: [{ ...t0(), sha_fresh: false, dirty_in_worktree: true, worktree_shown: true }] });
    expect(top(baseline(stale, AGENT_CONTEXT_V4), "next_action")).toBe("review_worktree");
  });

  test("tests searched for and not found are known; located and unread, or never searched for, they are not", () => {
    const none = baseline(at4({ tests: { ...noTests, searched: true } }), AGENT_CONTEXT_V4);
    expect(yes(none, "context_sufficient")).toBe(true);
    expect(top(none, "next_action")).toBe("edit_then_verify");
    expect(none.evidence_density).toEqual({ type: "score", value: 1 });
    expect(yes(baseline(at4({ tests: { ...noTests, searched: true } }), AGENT_CONTEXT_V3), "context_sufficient")).toBe(false);
    expect(top(baseline(at4({ tests: { ...noTests, searched: false } }), AGENT_CONTEXT_V4), "next_action")).toBe("retrieve");
    expect(top(baseline(at4({ tests: { mapped: ["test/total.test.ts"], read: false, searched: true } }), AGENT_CONTEXT_V4), "next_action")).toBe("retrieve");
  });

  test("a workspace with no files has no target to find; one with files does", () => {
    const empty = (files: number) => at4({ targets: [], symbols: [], tests: { ...noTests, searched: true }, change: { ...request().change, planned_scope: "none", behaviour_change: false }, retrieval: { ...request().retrieval, workspace_files: files } });
    expect(top(baseline(empty(0), AGENT_CONTEXT_V4), "next_action")).toBe("edit_then_verify");
    expect(yes(baseline(empty(0), AGENT_CONTEXT_V4), "continue_retrieval")).toBe(false);
    expect(top(baseline(empty(3), AGENT_CONTEXT_V4), "next_action")).toBe("retrieve");
    expect(top(baseline(empty(0), AGENT_CONTEXT_V3), "next_action")).toBe("retrieve");
  });

  const withFacts = fc.record({ shown: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), searched: fc.boolean(), files: fc.option(fc.nat(3), { nil: undefined }) });
  const give = (r: DecisionRequest, f: { shown: boolean[]; searched: boolean; files: number | undefined }): DecisionRequest => ({
    ...r,
    targets: r.targets.map((t, i) => ({ ...t, worktree_shown: f.shown[i]! })),
    tests: { ...r.tests, searched: f.searched },
    retrieval: { ...r.retrieval, ...(f.files === undefined ? {} : { workspace_files: f.files }) },
  });

  test("property: without @4's facts, @4 answers as @3 does", () => {
    fc.assert(fc.property(arbRequest, (r) => expect(baseline(r, AGENT_CONTEXT_V4)).toEqual(baseline(r, AGENT_CONTEXT_V3))));
  });

  test("property: @4's facts only take work away, except the reading a dirty target held back under @3", () => {
    fc.assert(
      fc.property(arbRequest, withFacts, (r, f) => {
        const s = give(r, f);
        const g3 = guidanceFrom(baseline(s, AGENT_CONTEXT_V3));
        const g4 = guidanceFrom(baseline(s, AGENT_CONTEXT_V4));
        for (const k of ["semantic_navigation", "review_worktree"] as const) if (g4[k]) expect([k, g3[k]]).toEqual([k, true]);
        // Under @3 a dirty target held reading back, as one still to review; shown, it no longer does.
        if (g4.retrieve && !g3.retrieve) expect(["held back by a shown change", s.targets.some((t) => t.dirty_in_worktree && t.worktree_shown)]).toEqual(["held back by a shown change", true]);
        const rank = { none: 0, quick: 1, full: 2 };
        expect(rank[g4.verification]).toBeLessThanOrEqual(rank[g3.verification]);
      }),
    );
  });
});
