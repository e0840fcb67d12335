import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { UserError } from "../core/errors.ts";
import type { Message } from "../core/messages.ts";
import type { Usage } from "../core/usage.ts";
import { explainDatabaseError, openDatabase } from "./db.ts";
import { GoalStore } from "./goals.ts";
import { GraphStore } from "./graphs.ts";
import { Reviews } from "./reviews.ts";
import { TestLinks } from "./test-links.ts";
import { ToolMemory } from "./tool-memory.ts";

export interface SessionRow {
  id: string;
  workspace: string;
  title: string;
  provider: string;
  model: string;
  created_at: number;
  updated_at: number;
  runs: number;
  /** How the session's newest run ended (`end_turn`, `error`, `cancelled`, …), or null before any. */
  last_status: string | null;
}

type RunStatus = "running" | "end_turn" | "max_turns" | "max_tokens" | "refusal" | "cancelled" | "error" | "repeating";

const newId = () => randomBytes(8).toString("hex");

/**
 * Sessions, runs and messages in bun:sqlite. A run's task is recorded before the first model call;
 * its messages are committed in one transaction at its end, so a killed run leaves the session at
 * its last complete run.
 */
/** MCP server names are identifiers (`safeName`), so this can never be one. */
const PROJECT_HOOKS = "#project-hooks";

export class SessionStore {
  private constructor(
    private db: Database,
    readonly path: string,
  ) {}

  static open(path: string): SessionStore {
    return new SessionStore(openDatabase(path), path);
  }

  close(): void {
    this.db.close();
  }

  /** The goals of this database (store/goals.ts). */
  get goals(): GoalStore {
    return new GoalStore(this.db, (f) => this.guard(f));
  }

  /** Which actions the person's tasks called, by their words (store/tool-memory.ts). */
  get toolMemory(): ToolMemory {
    return new ToolMemory(this.db, (f) => this.guard(f));
  }

  /** Review findings, each with the files its review read (store/reviews.ts). */
  get reviews(): Reviews {
    return new Reviews(this.db, (f) => this.guard(f));
  }

  /** Tests checks saw fail, then pass once source files changed (store/test-links.ts). */
  get testLinks(): TestLinks {
    return new TestLinks(this.db, (f) => this.guard(f));
  }

  /** The goal graphs of this database (store/graphs.ts). */
  get graphs(): GraphStore {
    return new GraphStore(this.db, (f) => this.guard(f));
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw explainDatabaseError(this.path, e);
    }
  }

  /** A new session; a worker's names the session that spawned it and its label. */
  createSession(workspace: string, title: string, provider: string, model: string, now = Date.now(), parent?: { sessionId: string; label: string }): string {
    const id = newId();
    this.guard(() =>
      this.db
        .query("INSERT INTO sessions (id, workspace, title, provider, model, created_at, updated_at, parent_id, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .run(id, workspace, title.slice(0, 200), provider, model, now, now, parent?.sessionId ?? null, parent?.label ?? null),
    );
    return id;
  }

  /**
   * What keeps a session's requests byte-identical across processes: the marker its quotes use and
   * the actions its conversation had loaded, in order (none recorded yet: undefined and []).
   */
  prefixOf(sessionId: string): { marker: string | undefined; tools: string[] } {
    type Row = { quote_marker: string | null; tools: string | null } | null;
    const row = this.guard(() => this.db.query("SELECT quote_marker, tools FROM sessions WHERE id = ?").get(sessionId) as Row);
    let tools: string[] = [];
    try {
      const parsed = JSON.parse(row?.tools ?? "[]") as unknown;
      if (Array.isArray(parsed)) tools = parsed.filter((t): t is string => typeof t === "string");
    } catch {
      // a list that does not parse costs the restored tools, never the session
    }
    return { marker: row?.quote_marker ?? undefined, tools };
  }

  /** Records a session's quote marker and the actions its conversation has loaded. */
  keepPrefix(sessionId: string, p: { marker: string; tools: readonly string[] }): void {
    this.guard(() => this.db.query("UPDATE sessions SET quote_marker = ?, tools = ? WHERE id = ?").run(p.marker, JSON.stringify(p.tools), sessionId));
  }

  /** The model router's memory of a session (JSON as the router wrote it), or undefined. */
  routingOf(sessionId: string): unknown {
    const row = this.guard(() => this.db.query("SELECT routing FROM sessions WHERE id = ?").get(sessionId) as { routing: string | null } | null);
    try {
      return row?.routing ? (JSON.parse(row.routing) as unknown) : undefined;
    } catch {
      // memory that does not parse costs the router its warm caches, never the session
      return undefined;
    }
  }

  keepRouting(sessionId: string, memory: unknown): void {
    this.guard(() => this.db.query("UPDATE sessions SET routing = ? WHERE id = ?").run(JSON.stringify(memory), sessionId));
  }

  /** Records where one request went, why, on what view and for what usage. */
  recordRoute(sessionId: string, r: RouteRecord): void {
    const q = "INSERT INTO routes (session_id, at, role, model, reason, view, facts, usage) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    const facts = r.facts ? JSON.stringify(r.facts) : null;
    this.guard(() => this.db.query(q).run(sessionId, r.at, r.role, r.model, r.reason, r.view, facts, JSON.stringify(r.usage)));
  }

  /** A session's routed requests, oldest first (its workers' are theirs). */
  routes(sessionId: string): RouteRecord[] {
    type Row = { at: number; role: string; model: string; reason: string; view: number; facts: string | null; usage: string };
    const q = "SELECT at, role, model, reason, view, facts, usage FROM routes WHERE session_id = ? ORDER BY at, rowid";
    const rows = this.guard(() => this.db.query(q).all(sessionId) as Row[]);
    return rows.map(({ facts, usage, ...r }) => ({ ...r, ...(facts ? { facts: JSON.parse(facts) } : {}), usage: JSON.parse(usage) }));
  }

  /** The workers a session spawned, oldest first, each with its last run's outcome. */
  workers(sessionId: string): { id: string; label: string; title: string; status: string; turns: number; created_at: number }[] {
    return this.guard(
      () =>
        this.db
          .query(
            "SELECT s.id, s.label, s.title, s.created_at, COALESCE(r.status, 'running') AS status, " +
              "COALESCE(r.turns, 0) AS turns FROM sessions s LEFT JOIN runs r ON r.session_id = s.id WHERE " +
              "s.parent_id = ? ORDER BY s.created_at, s.rowid",
          )
          .all(sessionId) as { id: string; label: string; title: string; status: string; turns: number; created_at: number }[],
    );
  }

  /** Records the run (and its task) before any model call. */
  startRun(sessionId: string, task: string, provider: string, model: string, now = Date.now()): string {
    const id = newId();
    this.guard(() =>
      this.db
        .query("INSERT INTO runs (id, session_id, task, provider, model, status, started_at) VALUES (?, ?, ?, ?, ?, 'running', ?)")
        .run(id, sessionId, task, provider, model, now),
    );
    return id;
  }

  /** Commits a run's messages and outcome in one transaction. */
  finishRun(
    sessionId: string,
    runId: string,
    messages: readonly Message[],
    outcome: { status: RunStatus; turns: number; usage: Usage; error?: string; provider: string; model: string },
    now = Date.now(),
  ): void {
    this.guard(() =>
      this.db.transaction(() => {
        const row = this.db.query("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session_id = ?").get(sessionId) as { seq: number };
        const insert = this.db.query("INSERT INTO messages (session_id, seq, run_id, role, content) VALUES (?, ?, ?, ?, ?)");
        let seq = row.seq;
        for (const m of messages) insert.run(sessionId, ++seq, runId, m.role, JSON.stringify(m.content));
        this.db
          .query("UPDATE runs SET status = ?, turns = ?, usage = ?, error = ?, ended_at = ? WHERE id = ?")
          .run(outcome.status, outcome.turns, JSON.stringify(outcome.usage), outcome.error ?? null, now, runId);
        this.db.query("UPDATE sessions SET updated_at = ?, provider = ?, model = ? WHERE id = ?").run(now, outcome.provider, outcome.model, sessionId);
      }).immediate(),
    );
  }

  /** The conversation of every completed run, in order. */
  history(sessionId: string): Message[] {
    return this.guard(() =>
      (this.db.query("SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq").all(sessionId) as { role: string; content: string }[]).map(
        (r) => ({ role: r.role, content: JSON.parse(r.content) }) as Message,
      ),
    );
  }

  /** The last finished run's provider and model, for the resume banner. */
  lastRun(sessionId: string): { provider: string; model: string; status: string } | undefined {
    return this.guard(
      () =>
        (this.db.query("SELECT provider, model, status FROM runs WHERE session_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1").get(sessionId) as
          | { provider: string; model: string; status: string }
          | null) ?? undefined,
    );
  }

  list(workspace?: string, limit = 50): SessionRow[] {
    const sql = [
      "SELECT s.*, (SELECT count(*) FROM runs r WHERE r.session_id = s.id) AS runs,",
      "(SELECT status FROM runs r WHERE r.session_id = s.id ORDER BY r.rowid DESC LIMIT 1) AS last_status",
      `FROM sessions s WHERE s.parent_id IS NULL ${workspace ? "AND s.workspace = ?" : ""}`,
      `ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
    ].join(" ");
    return this.guard(() => (workspace ? this.db.query(sql).all(workspace) : this.db.query(sql).all()) as SessionRow[]);
  }

  latest(workspace: string): SessionRow | undefined {
    return this.list(workspace, 1)[0];
  }

  recordVerdict(sessionId: string, callId: string, action: string, verdict: string, findings: unknown, now = Date.now()): void {
    this.guard(() =>
      this.db
        .query("INSERT OR REPLACE INTO firewall_verdicts (session_id, call_id, action, verdict, findings, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(sessionId, callId, action, verdict, JSON.stringify(findings), now),
    );
  }

  verdicts(sessionId: string): { call_id: string; action: string; verdict: string; findings: string }[] {
    return this.guard(
      () => this.db.query("SELECT call_id, action, verdict, findings FROM firewall_verdicts WHERE session_id = ? ORDER BY created_at").all(sessionId) as never,
    );
  }

  recordDecision(
    sessionId: string | undefined,
    r: { request_hash: string; question_set: string; provider: string; requested_model?: string; resolved_model?: string; latency_ms?: number },
    now = Date.now(),
  ): void {
    this.guard(() =>
      this.db
        .query(
          "INSERT INTO decisions (session_id, request_hash, question_set, provider, requested_model, " +
            "resolved_model, latency_ms, record, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(
          sessionId ?? null,
          r.request_hash,
          r.question_set,
          r.provider,
          r.requested_model ?? null,
          r.resolved_model ?? null,
          r.latency_ms ?? null,
          JSON.stringify(r),
          now,
        ),
    );
  }

  decisions(sessionId?: string): unknown[] {
    return this.guard(() =>
      (sessionId
        ? this.db.query("SELECT record FROM decisions WHERE session_id LIKE ? ORDER BY id").all(`${sessionId}%`)
        : this.db.query("SELECT record FROM decisions ORDER BY id").all()
      ).map((r) => JSON.parse((r as { record: string }).record)),
    );
  }

  /** Recorded decisions with their session and time, oldest first (`weir eval capture`). */
  decisionRows(o: { session?: string; since?: number; workspace?: string } = {}): { session_id: string; created_at: number; record: unknown }[] {
    return this.guard(() =>
      (
        this.db
          .query(
            "SELECT d.session_id, d.created_at, d.record FROM decisions d JOIN sessions s ON s.id = " +
              "d.session_id WHERE (?1 IS NULL OR d.session_id LIKE ?1) AND d.created_at >= ?2 AND (?3 IS NULL OR " +
              "s.workspace = ?3) ORDER BY d.id",
          )
          .all(o.session ? `${o.session.replace(/[%_]/g, "")}%` : null, o.since ?? 0, o.workspace ?? null) as {
          session_id: string;
          created_at: number;
          record: string;
        }[]
      ).map((r) => ({ ...r, record: JSON.parse(r.record) })),
    );
  }

  recordCall(
    sessionId: string | undefined,
    r: { callId: string; action: string; preview: string; startedAt: number; durationMs: number; resultClass: string; errorClass?: string },
  ): void {
    this.guard(() =>
      this.db
        .query(
          "INSERT INTO call_events (session_id, call_id, action, preview, started_at, duration_ms, result_class, error_class) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(sessionId ?? null, r.callId, r.action, r.preview, r.startedAt, r.durationMs, r.resultClass, r.errorClass ?? null),
    );
  }

  /** Finished calls, oldest first, optionally for one session (id prefix). */
  callEvents(sessionId?: string): Record<string, unknown>[] {
    return this.guard(
      () =>
        (sessionId
          ? this.db.query("SELECT * FROM call_events WHERE session_id LIKE ? ORDER BY id").all(`${sessionId}%`)
          : this.db.query("SELECT * FROM call_events ORDER BY id").all()) as Record<string, unknown>[],
    );
  }

  approveMcpServer(workspace: string, server: string, fingerprint: string, now = Date.now()): void {
    this.guard(() =>
      this.db
        .query(
          "INSERT INTO mcp_approvals (workspace, server, fingerprint, approved_at) VALUES (?, ?, ?, ?) ON " +
            "CONFLICT (workspace, server) DO UPDATE SET fingerprint = excluded.fingerprint, approved_at = " +
            "excluded.approved_at",
        )
        .run(workspace, server, fingerprint, now),
    );
  }

  /** Approved only for this exact configuration: a changed command needs a new approval. */
  isMcpServerApproved(workspace: string, server: string, fingerprint: string): boolean {
    return this.guard(
      () => this.db.query("SELECT 1 FROM mcp_approvals WHERE workspace = ? AND server = ? AND fingerprint = ?").get(workspace, server, fingerprint) !== null,
    );
  }

  /**
   * A project's hooks, approved for a workspace exactly as they were shown (a changed command needs a
   * new approval). Kept beside the MCP approvals under a name no server can have.
   */
  approveProjectHooks(workspace: string, fingerprint: string): void {
    this.approveMcpServer(workspace, PROJECT_HOOKS, fingerprint);
  }

  areProjectHooksApproved(workspace: string, fingerprint: string): boolean {
    return this.isMcpServerApproved(workspace, PROJECT_HOOKS, fingerprint);
  }

  /** Finds a session by id prefix; none or several is a clear error. */
  find(prefix: string): SessionRow {
    const rows = this.guard(
      () =>
        this.db
          .query("SELECT s.*, 0 AS runs FROM sessions s WHERE s.id LIKE ? ORDER BY s.updated_at DESC LIMIT 6")
          .all(`${prefix.replace(/[%_]/g, "")}%`) as SessionRow[],
    );
    if (prefix.trim() === "" || rows.length === 0) throw new UserError(`no session matches "${prefix}"; weir --list shows this workspace's sessions`, 2);
    if (rows.length > 1)
      throw new UserError(`"${prefix}" matches ${rows.length} sessions (${rows.map((r) => r.id.slice(0, 8)).join(", ")}); give more of the id`, 2);
    return rows[0]!;
  }
}

/** One routed request as the store keeps it. */
export interface RouteRecord {
  at: number;
  role: string;
  model: string;
  reason: string;
  /** Tokens of the request as compiled. */
  view: number;
  /** The decision facts the router read (agent/router.ts RouteFacts). */
  facts?: unknown;
  usage: Usage;
}
