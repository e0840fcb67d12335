import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { UserError } from "../core/errors.ts";
import { findByPrefix } from "./db.ts";

export type GraphStatus = "active" | "paused" | "budget_limited" | "complete" | "failed";
export type NodeState = "waiting" | "ready" | "running" | "merging" | "merged" | "failed" | "blocked" | "budget_limited";

export interface GraphRow {
  id: string;
  workspace: string;
  objective: string;
  /** The commit the graph started from, and the branch its nodes are merged into. */
  base: string;
  branch: string;
  check_command: string | null;
  budget: number | null;
  concurrency: number;
  /** The validated plan (agent/graph-plan.ts), as JSON. */
  plan: string;
  status: GraphStatus;
  created_at: number;
  updated_at: number;
}

/** What a transition may set beside the state: a node's goal, worktree, reserved share and merge commit; the graph's budget. */
export interface TransitionFields {
  goal?: string;
  worktree?: string | null;
  budget?: number | null;
  /** A running node's share of the budget, reserved when it starts: it may spend up to its spend then plus this. */
  reserved?: number | null;
  /** The commit on the graph's branch that merged the node (none when it changed nothing). */
  commit?: string | null;
}

export interface NodeRow {
  graph_id: string;
  node_id: string;
  state: NodeState;
  /** The goal the node runs as, once it started. */
  goal_id: string | null;
  worktree: string | null;
  spent: number;
  reason: string;
  /** The share of the budget reserved when it last started (null: no budget, or not started). */
  reserved: number | null;
  /** The commit that merged it into the graph's branch. */
  merge_commit: string | null;
}

/** One transition of a graph (node_id null) or of one of its nodes. */
export interface GraphEvent {
  graph_id: string;
  node_id: string | null;
  at: number;
  state: string;
  reason: string;
}

/**
 * Goal graphs in the session database. `transition` is the one place a graph's or a node's state
 * changes: it writes the new state, its fields and the event together, in one transaction, so a
 * killed process leaves a graph exactly as its last transition says.
 */
export class GraphStore {
  constructor(
    private db: Database,
    private guard: <T>(f: () => T) => T,
  ) {}

  create(
    g: {
      workspace: string;
      objective: string;
      base: string;
      check: string | undefined;
      budget: number | undefined;
      concurrency: number;
      plan: string;
      nodes: string[];
    },
    now = Date.now(),
  ): GraphRow {
    const id = randomBytes(4).toString("hex");
    this.guard(() =>
      this.db
        .transaction(() => {
          this.db
            .query(
              "INSERT INTO graphs (id, workspace, objective, base, branch, check_command, budget, concurrency, " +
                "plan, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)",
            )
            .run(id, g.workspace, g.objective, g.base, `weir/graph-${id}`, g.check ?? null, g.budget ?? null, g.concurrency, g.plan, now, now);
          for (const n of g.nodes)
            this.db.query("INSERT INTO graph_nodes (graph_id, node_id, state, spent, reason) VALUES (?, ?, 'waiting', 0, 'planned')").run(id, n);
          this.db.query("INSERT INTO graph_events (graph_id, node_id, at, state, reason) VALUES (?, NULL, ?, 'active', 'planned')").run(id, now);
        })
        .immediate(),
    );
    return this.get(id);
  }

  get(id: string): GraphRow {
    const row = this.guard(() => this.db.query("SELECT * FROM graphs WHERE id = ?").get(id) as GraphRow | null);
    if (!row) throw new UserError(`no graph ${id}`, 2);
    return row;
  }

  /** A graph by id prefix; none or several is a clear error. */
  find(prefix: string): GraphRow {
    return this.guard(() => findByPrefix<GraphRow>(this.db, "graphs", prefix, "graph"));
  }

  list(workspace: string): GraphRow[] {
    return this.guard(() => this.db.query("SELECT * FROM graphs WHERE workspace = ? ORDER BY updated_at DESC").all(workspace) as GraphRow[]);
  }

  nodes(id: string): NodeRow[] {
    const columns = "graph_id, node_id, state, goal_id, worktree, spent, reason, reserved, merge_commit";
    return this.guard(() => this.db.query(`SELECT ${columns} FROM graph_nodes WHERE graph_id = ? ORDER BY rowid`).all(id) as NodeRow[]);
  }

  events(id: string): GraphEvent[] {
    return this.guard(
      () => this.db.query("SELECT graph_id, node_id, at, state, reason FROM graph_events WHERE graph_id = ? ORDER BY rowid").all(id) as GraphEvent[],
    );
  }

  /** A node's spend so far, written as it is spent. */
  spend(id: string, node: string, spent: number): void {
    this.guard(() => this.db.query("UPDATE graph_nodes SET spent = ? WHERE graph_id = ? AND node_id = ?").run(spent, id, node));
  }

  /**
   * The one place a state changes: the graph's (`node` undefined; `budget` re-arms it) or a node's
   * (with the goal it runs as and its worktree), and the event, in one transaction.
   */
  transition(
    id: string,
    node: string | undefined,
    state: GraphStatus | NodeState,
    reason: string,
    fields: TransitionFields = {},
    now = Date.now(),
  ): GraphEvent {
    this.guard(() =>
      this.db.transaction(() => {
        if (node === undefined) {
          if (fields.budget !== undefined) this.db.query("UPDATE graphs SET budget = ? WHERE id = ?").run(fields.budget, id);
          this.db.query("UPDATE graphs SET status = ?, updated_at = ? WHERE id = ?").run(state, now, id);
        } else {
          this.db.query("UPDATE graph_nodes SET state = ?, reason = ? WHERE graph_id = ? AND node_id = ?").run(state, reason, id, node);
          // Each field given is set; the column names are this table's, never input.
          const set = (column: string, value: string | number | null | undefined) => {
            if (value !== undefined) this.db.query(`UPDATE graph_nodes SET ${column} = ? WHERE graph_id = ? AND node_id = ?`).run(value, id, node);
          };
          set("goal_id", fields.goal);
          set("worktree", fields.worktree);
          set("reserved", fields.reserved);
          set("merge_commit", fields.commit);
          this.db.query("UPDATE graphs SET updated_at = ? WHERE id = ?").run(now, id);
        }
        this.db.query("INSERT INTO graph_events (graph_id, node_id, at, state, reason) VALUES (?, ?, ?, ?, ?)").run(id, node ?? null, now, state, reason);
      }).immediate(),
    );
    return { graph_id: id, node_id: node ?? null, at: now, state, reason };
  }
}
