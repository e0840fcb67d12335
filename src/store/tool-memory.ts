import type { Database } from "bun:sqlite";

/** Words of one task kept at most, and actions recorded for it at most. */
const MAX_WORDS = 24;
const MAX_ACTIONS = 8;
/** Associations not used again for this long are forgotten when the next task is recorded. */
const FORGET_MS = 180 * 24 * 3600 * 1000;

/**
 * Tool memory in the session database: for each word of a person's tasks, which actions those tasks
 * went on to call, and how many tasks said the word. It is the person's own history, on their
 * machine; the router reads it to offer a tool before the model asks for it, and it never grants
 * anything (an offered tool asks as any other does). The router reads it through its own
 * interface (actions/disclosure.ts ToolRecall), which this class meets.
 */
export class ToolMemory {
  constructor(
    private db: Database,
    private guard: <T>(f: () => T) => T,
  ) {}

  /** Records that a task with these words called these actions: one transaction. */
  record(words: readonly string[], actions: readonly string[], now = Date.now()): void {
    const w = [...new Set(words)].slice(0, MAX_WORDS);
    const a = [...new Set(actions)].slice(0, MAX_ACTIONS);
    if (w.length === 0 || a.length === 0) return;
    this.guard(() =>
      this.db
        .transaction(() => {
          const task = this.db.query(
            "INSERT INTO tool_word_tasks (word, tasks, last_at) VALUES (?, 1, ?) ON CONFLICT (word) DO UPDATE " +
              "SET tasks = tasks + 1, last_at = excluded.last_at",
          );
          const use = this.db.query(
            "INSERT INTO tool_words (word, action, uses, last_at) VALUES (?, ?, 1, ?) ON CONFLICT (word, " +
              "action) DO UPDATE SET uses = uses + 1, last_at = excluded.last_at",
          );
          task.run("", now);
          for (const word of w) {
            task.run(word, now);
            for (const action of a) use.run(word, action, now);
          }
          this.db.query("DELETE FROM tool_words WHERE last_at < ?").run(now - FORGET_MS);
        })
        .immediate(),
    );
  }

  /** What the memory holds for these words: tasks recorded in all, per word, and the actions they called. */
  recall(words: readonly string[]): { total: number; tasks: Map<string, number>; uses: { word: string; action: string; uses: number }[] } {
    const w = [...new Set(words)].slice(0, MAX_WORDS);
    return this.guard(() => {
      const total = (this.db.query("SELECT tasks FROM tool_word_tasks WHERE word = ''").get() as { tasks: number } | null)?.tasks ?? 0;
      const tasks = new Map<string, number>();
      const uses: { word: string; action: string; uses: number }[] = [];
      if (total === 0 || w.length === 0) return { total, tasks, uses };
      const marks = w.map(() => "?").join(", ");
      for (const r of this.db.query(`SELECT word, tasks FROM tool_word_tasks WHERE word IN (${marks})`).all(...w) as { word: string; tasks: number }[])
        tasks.set(r.word, r.tasks);
      uses.push(
        ...(this.db.query(`SELECT word, action, uses FROM tool_words WHERE word IN (${marks})`).all(...w) as { word: string; action: string; uses: number }[]),
      );
      return { total, tasks, uses };
    });
  }

  /** Forgets everything: `weir actions forget`. Returns how many associations were dropped. */
  forget(): number {
    return this.guard(() =>
      this.db.transaction(() => {
        const n = (this.db.query("SELECT count(*) AS n FROM tool_words").get() as { n: number }).n;
        this.db.exec("DELETE FROM tool_words; DELETE FROM tool_word_tasks;");
        return n;
      }).immediate(),
    );
  }
}
