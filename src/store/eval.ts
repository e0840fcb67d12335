import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { UserError } from "../core/errors.ts";
import { explainDatabaseError, openDatabase } from "./db.ts";

interface EvalRunRow {
  id: string;
  suite_hash: string;
  suites: string;
  provider: string;
  model: string | null;
  question_set: string;
  shard: string;
  total: number;
  created_at: number;
  finished_at: number | null;
}

interface EvalResultRow {
  run_id: string;
  case_id: string;
  baseline: string;
  candidate: string | null;
  latency_ms: number | null;
  error: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS eval_runs (
  id TEXT PRIMARY KEY, suite_hash TEXT NOT NULL, suites TEXT NOT NULL, provider TEXT NOT NULL, model TEXT,
  question_set TEXT NOT NULL, shard TEXT NOT NULL, total INTEGER NOT NULL, created_at INTEGER NOT NULL, finished_at INTEGER
);
CREATE TABLE IF NOT EXISTS eval_results (
  run_id TEXT NOT NULL, case_id TEXT NOT NULL, baseline TEXT NOT NULL, candidate TEXT, latency_ms INTEGER, error TEXT,
  PRIMARY KEY (run_id, case_id)
);`;

/**
 * Eval runs and their per-case results in bun:sqlite. Each result is committed as it arrives, so an
 * interrupted run resumes where it stopped; shard databases from other machines merge into one run.
 */
export class EvalStore {
  private constructor(
    private db: Database,
    readonly path: string,
  ) {}

  static open(path: string): EvalStore {
    const db = openDatabase(path);
    try {
      db.exec(SCHEMA);
    } catch (e) {
      db.close();
      throw explainDatabaseError(path, e);
    }
    return new EvalStore(db, path);
  }

  close(): void {
    this.db.close();
  }

  /** Creates a run; a named run that already exists is replaced (its old results are dropped). */
  createRun(r: Omit<EvalRunRow, "id" | "created_at" | "finished_at"> & { id?: string }): string {
    const id = r.id ?? `run-${randomBytes(4).toString("hex")}`;
    this.db.query("DELETE FROM eval_results WHERE run_id = ?").run(id);
    this.db.query("DELETE FROM eval_runs WHERE id = ?").run(id);
    this.db
      .query("INSERT INTO eval_runs (id, suite_hash, suites, provider, model, question_set, shard, total, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(id, r.suite_hash, r.suites, r.provider, r.model, r.question_set, r.shard, r.total, Date.now());
    return id;
  }

  run(idOrPrefix: string): EvalRunRow {
    const rows = this.db.query("SELECT * FROM eval_runs WHERE id LIKE ? ORDER BY created_at DESC").all(`${idOrPrefix.replace(/[%_]/g, "")}%`) as EvalRunRow[];
    if (rows.length === 0) throw new UserError(`no eval run matches "${idOrPrefix}" in ${this.path}; weir eval runs lists them`, 2);
    if (rows.length > 1 && !rows.some((r) => r.id === idOrPrefix)) throw new UserError(`"${idOrPrefix}" matches ${rows.length} runs; give more of the id`, 2);
    return rows.find((r) => r.id === idOrPrefix) ?? rows[0]!;
  }

  runs(): EvalRunRow[] {
    return this.db.query("SELECT * FROM eval_runs ORDER BY created_at DESC").all() as EvalRunRow[];
  }

  latestRun(): EvalRunRow | undefined {
    return this.runs()[0];
  }

  done(runId: string): Set<string> {
    return new Set((this.db.query("SELECT case_id FROM eval_results WHERE run_id = ?").all(runId) as { case_id: string }[]).map((r) => r.case_id));
  }

  /** One committed row per case, as soon as it is known. */
  addResult(r: EvalResultRow): void {
    this.db
      .query("INSERT OR REPLACE INTO eval_results (run_id, case_id, baseline, candidate, latency_ms, error) VALUES (?, ?, ?, ?, ?, ?)")
      .run(r.run_id, r.case_id, r.baseline, r.candidate, r.latency_ms, r.error);
  }

  results(runId: string): EvalResultRow[] {
    return this.db.query("SELECT * FROM eval_results WHERE run_id = ? ORDER BY case_id").all(runId) as EvalResultRow[];
  }

  finish(runId: string): void {
    this.db.query("UPDATE eval_runs SET finished_at = ? WHERE id = ?").run(Date.now(), runId);
  }

  /** Imports every run and result of another eval database (shards from other machines). */
  importFrom(other: EvalStore): { runs: EvalRunRow[]; results: number } {
    const runs = other.runs();
    let n = 0;
    this.db.transaction(() => {
      for (const r of runs) {
        this.db
          .query(
            "INSERT OR IGNORE INTO eval_runs (id, suite_hash, suites, provider, model, question_set, shard, total, created_at, finished_at) " +
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(r.id, r.suite_hash, r.suites, r.provider, r.model, r.question_set, r.shard, r.total, r.created_at, r.finished_at);
        for (const x of other.results(r.id)) {
          this.addResult(x);
          n++;
        }
      }
    }).immediate();
    return { runs, results: n };
  }
}
