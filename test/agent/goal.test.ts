import { describe, expect, test } from "bun:test";
import { MAX_ROUNDS, pursueGoal, tokensOf } from "../../src/agent/goal.ts";
import type { RunResult } from "../../src/agent/run.ts";
import type { AgentEvent } from "../../src/core/events.ts";
import type { GoalRow, GoalStatus } from "../../src/store/goals.ts";

/** A goal's pursuit over a runner whose runs and checks are scripted here (the binary tests use the real parts). */
const goal = (over: Partial<GoalRow> = {}): GoalRow => ({ id: "g1", session_id: "s", workspace: "/w", objective: "ship it", check_command: "make", budget: null, spent: 0, status: "active", created_at: 0, updated_at: 0, ...over });
const usage = { input: 10, cacheRead: 0, cacheWrite: 0, output: 5 };
const run = (stop: RunResult["stop"] = "end_turn"): RunResult => ({ stop, text: "", turns: 1, usage, added: [], extra: {} });

function runner(checks: boolean[], opts: { stop?: RunResult["stop"]; turns?: number } = {}) {
  const log: { status: GoalStatus; reason: string; spent: number }[] = [];
  const sent: string[] = [];
  let c = 0;
  return {
    log,
    sent,
    r: {
      async send(message: string, display: { emit(e: AgentEvent): void }, signal: AbortSignal) {
        sent.push(message);
        for (let t = 1; t <= (opts.turns ?? 1) && !signal.aborted; t++) display.emit({ type: "turn_end", turn: t, usage });
        return run(signal.aborted ? "cancelled" : opts.stop);
      },
      async check() {
        return { passed: checks[c++] ?? false, summary: "out" };
      },
      spend() {},
      transition(status: GoalStatus, reason: string, spent: number) {
        log.push({ status, reason, spent });
      },
    },
  };
}

const go = (g: GoalRow, r: ReturnType<typeof runner>["r"], signal = new AbortController().signal) => pursueGoal(g, r, { display: { emit() {} }, signal, checkName: "make", resumed: false });

describe("a goal's pursuit", () => {
  test("rounds go on while the check fails, and end complete when it passes", async () => {
    const x = runner([false, false, true]);
    expect(await go(goal(), x.r)).toBe("complete");
    expect(x.sent).toHaveLength(3);
    expect(x.sent[1]).toContain("failed after round 1");
    expect(x.log.at(-1)!.spent).toBe(3 * tokensOf(usage));
  });

  test("a check that never passes fails the goal after the last round", async () => {
    const x = runner([]);
    expect(await go(goal(), x.r)).toBe("failed");
    expect(x.sent).toHaveLength(MAX_ROUNDS);
  });

  test("the turn that crosses the budget is counted, and the run stops at it", async () => {
    const x = runner([true], { turns: 5 });
    expect(await go(goal({ budget: 20 }), x.r)).toBe("budget_limited");
    expect(x.log.at(-1)!.spent).toBe(2 * tokensOf(usage));
  });

  test("a goal already over its budget does not start a run", async () => {
    const x = runner([true]);
    expect(await go(goal({ budget: 100, spent: 100 }), x.r)).toBe("budget_limited");
    expect(x.sent).toHaveLength(0);
  });

  test("a stop by the person pauses it; a provider error fails it", async () => {
    const stopped = new AbortController();
    stopped.abort();
    expect(await go(goal(), runner([true]).r, stopped.signal)).toBe("paused");
    expect(await go(goal(), runner([true], { stop: "error" }).r)).toBe("failed");
  });
});
