import type { Database } from "bun:sqlite";

/** Links of one fix recorded at most: a change of many files says little of any one of them. */
const MAX_SOURCES = 8;
const MAX_TESTS = 20;
/** Links not seen again for this long are forgotten when the next fix is recorded. */
const FORGET_MS = 365 * 24 * 3600 * 1000;

/**
 * The recorded part of the test map, in the session database: for a workspace, which tests a
 * project check saw fail and then pass once these source files had changed, and how often. Where
 * naming and imports cannot tell (a test that runs the program, a fixture-driven suite), this is
 * the evidence that a test exercises a file. A link names paths only; the compiler uses one only
 * while both files are in the workspace, and never as more than a candidate.
 */
export class TestLinks {
  constructor(
    private db: Database,
    private guard: <T>(f: () => T) => T,
  ) {}

  /** Records that `tests` passed again after `sources` changed: one transaction. */
  record(workspace: string, sources: readonly string[], tests: readonly string[], now = Date.now()): void {
    const s = [...new Set(sources)].slice(0, MAX_SOURCES);
    const t = [...new Set(tests)].slice(0, MAX_TESTS);
    if (s.length === 0 || t.length === 0) return;
    this.guard(() =>
      this.db
        .transaction(() => {
          const link = this.db.query(
            "INSERT INTO test_links (workspace, source, test, seen, last_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT (workspace, source, " +
              "test) DO UPDATE SET seen = seen + 1, last_at = excluded.last_at",
          );
          for (const source of s) for (const test of t) link.run(workspace, source, test, now);
          this.db.query("DELETE FROM test_links WHERE last_at < ?").run(now - FORGET_MS);
        })
        .immediate(),
    );
  }

  /** The tests recorded for any of `sources`, most often seen first. */
  testsFor(workspace: string, sources: readonly string[]): string[] {
    if (sources.length === 0) return [];
    const marks = sources.map(() => "?").join(", ");
    const q = `SELECT test, sum(seen) AS n, max(last_at) AS at FROM test_links WHERE workspace = ? AND source IN (${marks})
      GROUP BY test ORDER BY n DESC, at DESC, test LIMIT ${MAX_TESTS}`;
    return this.guard(() => (this.db.query(q).all(workspace, ...sources) as { test: string }[]).map((r) => r.test));
  }
}
