import { z } from "zod";

/**
 * The immutable, compact snapshot a decision is made on: built deterministically at a turn boundary
 * from repository state. Never raw transcripts, logs or web text; untrusted text stays in its own
 * field and is never evidence. Every field is documented in docs/decision-plane.md.
 */
export const DecisionRequest = z
  .object({
    question_set: z.string(),
    task: z.string(),
    task_flags: z
      .object({
        ambiguous: z.boolean(),
        conflicts_with_constraints: z.boolean(),
        /** The task asks a question whose answer is a set of relations: who calls, uses, imports or implements something (@3). */
        asks_relations: z.boolean().default(false),
      })
      .default({ ambiguous: false, conflicts_with_constraints: false, asks_relations: false }),
    /** Whether the task asks for a change or only for an answer (@2; an @1 state is a change). */
    task_kind: z.enum(["change", "inspect"]).default("change"),
    targets: z.array(
      z.object({
        path: z.string(),
        named_by_user: z.boolean(),
        read: z.boolean(),
        sha_fresh: z.boolean(),
        dirty_in_worktree: z.boolean(),
        /** The uncommitted changes weir did not make were shown in full in this conversation (@4). */
        worktree_shown: z.boolean().optional(),
        body_complete: z.boolean(),
      }),
    ),
    symbols: z.array(
      z.object({
        name: z.string(),
        path: z.string(),
        exported: z.boolean(),
        callers_known: z.boolean(),
        kind: z.enum(["function", "type", "const", "method", "class", "interface"]),
        /** Whether the edit proposed or made changes this symbol's declaration (absent when no edit says). */
        signature_change: z.boolean().optional(),
      }),
    ),
    tests: z.object({
      mapped: z.array(z.string()),
      read: z.boolean(),
      /** The workspace's files were searched for tests of the targets, so none mapped means none exists (@4). */
      searched: z.boolean().optional(),
    }),
    failures: z.array(z.object({ path: z.string(), line: z.number().int(), message: z.string() })),
    verification: z.object({
      files_changed_since_last_pass: z.boolean(),
      last_run: z.union([z.null(), z.object({ level: z.enum(["quick", "full"]), passed: z.boolean(), revision_current: z.boolean() })]),
    }),
    retrieval: z.object({
      rounds: z.number().int().min(0),
      candidates_seen: z.number().int().min(0),
      candidates_admitted: z.number().int().min(0),
      budget_used_ratio: z.number().min(0).max(1),
      /** Relation lookups (find_references) so far (@3). */
      navigations: z.number().int().min(0).default(0),
      /** How many files the workspace holds (@4: none means nothing to read). */
      workspace_files: z.number().int().min(0).optional(),
    }),
    change: z.object({
      planned_scope: z.enum(["none", "local", "module", "cross_module"]),
      security_sensitive: z.boolean(),
      public_api: z.boolean(),
      behaviour_change: z.boolean().default(true),
      persistence: z.boolean().default(false),
    }),
    untrusted_notes: z.array(z.string()),
  })
  .strict();
export type DecisionRequest = z.infer<typeof DecisionRequest>;

/** A stable hash of a request, so comparisons and replays can refer to exactly this state. */
export function requestHash(r: DecisionRequest): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return new Bun.CryptoHasher("sha256")
    .update(JSON.stringify(canonical(r)))
    .digest("hex")
    .slice(0, 16);
}
