import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { UserError } from "../core/errors.ts";
import { findByPrefix } from "./db.ts";

export type GoalStatus = "active" | "paused" | "budget_limited" | "complete" | "failed";

export interface GoalRow {
  id: string;
  session_id: string;
  workspace: string;
  objective: string;
  /** The command whose success completes the goal; null: the project's tests, as weir detects them. */
  check_command: string | null;
  /** Tokens the goal may spend in all; null: no limit. */
  budget: number | null;
  spent: number;
  status: GoalStatus;
  created_at: number;
  updated_at: number;
}

export interface GoalTransition {
  at: number;
  status: GoalStatus;
  reason: string;
  spent: number;
}

/**
 * Goals in the session database. `transition` is the one place a goal's status changes: it writes
 * the new status, the tokens spent so far and the reason together, in one transaction.
 */
export class GoalStore {
  constructor(
    private db: Database,
    private guard: <T>(f: () => T) => T,
  ) {}

  create(g: { sessionId: string; workspace: string; objective: string; check: string | undefined; budget: number | undefined }, now = Date.now()): GoalRow {
    const id = randomBytes(6).toString("hex");
    this.guard(() =>
      this.db
        .transaction(() => {
          this.db
            .query(
              "INSERT INTO goals (id, session_id, workspace, objective, check_command, budget, spent, status, " +
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 'active', ?, ?)",
            )
            .run(id, g.sessionId, g.workspace, g.objective, g.check ?? null, g.budget ?? null, now, now);
          this.db.query("INSERT INTO goal_transitions (goal_id, at, status, reason, spent) VALUES (?, ?, 'active', ?, 0)").run(id, now, "started");
        })
        .immediate(),
    );
    return this.get(id);
  }

  get(id: string): GoalRow {
    const row = this.guard(() => this.db.query("SELECT * FROM goals WHERE id = ?").get(id) as GoalRow | null);
    if (!row) throw new UserError(`no goal ${id}`, 2);
    return row;
  }

  /** A goal by id prefix; none or several is a clear error. */
  find(prefix: string): GoalRow {
    return this.guard(() => findByPrefix<GoalRow>(this.db, "goals", prefix, "goal"));
  }

  list(workspace: string): GoalRow[] {
    return this.guard(() => this.db.query("SELECT * FROM goals WHERE workspace = ? ORDER BY updated_at DESC").all(workspace) as GoalRow[]);
  }

  transitions(id: string): GoalTransition[] {
    return this.guard(
      () => this.db.query("SELECT at, status, reason, spent FROM goal_transitions WHERE goal_id = ? ORDER BY rowid").all(id) as GoalTransition[],
    );
  }

  /** Tokens spent so far, written as they are spent (a killed process keeps its spend). */
  spend(id: string, spent: number, now = Date.now()): void {
    this.guard(() => this.db.query("UPDATE goals SET spent = ?, updated_at = ? WHERE id = ?").run(spent, now, id));
  }

  /** The one place a goal's status changes, with the reason; `budget` re-arms a resumed goal. */
  transition(id: string, status: GoalStatus, reason: string, spent: number, budget?: number | null, now = Date.now()): void {
    this.guard(() =>
      this.db.transaction(() => {
        if (budget !== undefined) this.db.query("UPDATE goals SET budget = ? WHERE id = ?").run(budget, id);
        this.db.query("UPDATE goals SET status = ?, spent = ?, updated_at = ? WHERE id = ?").run(status, spent, now, id);
        this.db.query("INSERT INTO goal_transitions (goal_id, at, status, reason, spent) VALUES (?, ?, ?, ?, ?)").run(id, now, status, reason, spent);
      }).immediate(),
    );
  }
}
