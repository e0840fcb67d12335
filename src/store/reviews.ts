import type { Database } from "bun:sqlite";

/** One thing a review found: where, of which kind, and what. */
export interface ReviewFinding {
  path: string;
  line: number;
  kind: "security" | "test_gap";
  text: string;
}

/** A file's review: the model that made it, when, the files it read (with their SHAs), and what it found. */
export interface Review {
  path: string;
  model: string;
  at: number;
  reads: { path: string; sha: string }[];
  findings: ReviewFinding[];
}

/**
 * Review findings in the session database, one review per workspace file (a newer review of the
 * file replaces the older). They are derived state bound to what was read: a reader uses a review
 * only while every file it read has the SHA it had then (`reviewHolds`).
 */
export class Reviews {
  constructor(
    private db: Database,
    private guard: <T>(f: () => T) => T,
  ) {}

  put(workspace: string, r: Review): void {
    const q = "INSERT OR REPLACE INTO reviews (workspace, path, model, at, reads, findings) VALUES (?, ?, ?, ?, ?, ?)";
    this.guard(() => this.db.query(q).run(workspace, r.path, r.model, r.at, JSON.stringify(r.reads), JSON.stringify(r.findings)));
  }

  /** The reviews of `paths` (every review of the workspace when none are given). */
  of(workspace: string, paths?: readonly string[]): Review[] {
    if (paths?.length === 0) return [];
    const where = paths ? ` AND path IN (${paths.map(() => "?").join(", ")})` : "";
    type Row = { path: string; model: string; at: number; reads: string; findings: string };
    const rows = this.guard(() => this.db.query(`SELECT * FROM reviews WHERE workspace = ?${where} ORDER BY path`).all(workspace, ...(paths ?? [])) as Row[]);
    return rows.map((r) => ({ path: r.path, model: r.model, at: r.at, reads: JSON.parse(r.reads), findings: JSON.parse(r.findings) }));
  }
}

/** Whether a review still holds: every file it read has the SHA it read (`sha` gives the current one, or undefined when gone). */
export function reviewHolds(r: Review, sha: (path: string) => string | undefined): boolean {
  return r.reads.every((f) => sha(f.path) === f.sha);
}
