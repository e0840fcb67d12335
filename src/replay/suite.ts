import { readFileSync } from "node:fs";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { type QuestionSet, setKey } from "../decision/questions.ts";
import { DecisionRequest } from "../decision/request.ts";

/** One labeled decision case. The format is documented in docs/eval.md. */
export const EvalCase = z
  .object({
    id: z.string().min(1),
    question_set: z.string(),
    state: DecisionRequest,
    /** The true answer per question: boolean for yes/no, an option id for choices, 0..1 for scores. A question may be unlabeled. */
    labels: z.record(z.string(), z.union([z.boolean(), z.string(), z.number().min(0).max(1)])),
    tags: z.array(z.string()).optional(),
    /**
     * Where each label came from: the criteria (a person writing from the question text), an outcome
     * rule of `weir eval capture`, or a person in `weir eval label`.
     */
    label_source: z.record(z.string(), z.enum(["criteria", "outcome", "human"])).optional(),
    /** Why the labels are what they are (the outcome rules that fired, a resolution citing the criterion). */
    notes: z.array(z.string()).optional(),
    /** Answers recorded from real provider runs (weir eval run --record), keyed "provider/model". */
    judgments: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .strict();
export type EvalCase = z.infer<typeof EvalCase>;

export interface SuiteProblem {
  file: string;
  line: number;
  message: string;
}

export interface Suite {
  cases: EvalCase[];
  problems: SuiteProblem[];
  /** Hash of the suites' bytes: a run and its shards refer to exactly this content. */
  hash: string;
}

/**
 * The lines of JSONL files, each parsed and checked by `schema`, handed to `take` with a `report` that
 * names the line: a bad line is reported with its line number and field and skipped (with `strict`, it
 * stops the run), and `take` may refuse a line the same way. An unreadable file is a user error.
 * Returns the files' bytes, for a hash. Shared by decision suites and firewall suites.
 */
export function readJsonl<T>(
  files: readonly string[],
  schema: z.ZodType<T>,
  strict: boolean,
  problems: SuiteProblem[],
  take: (value: T, report: (message: string) => void) => void,
): string[] {
  const texts: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new UserError(`cannot read suite ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 2);
    }
    texts.push(text);
    text.split("\n").forEach((raw, i) => {
      if (raw.trim() === "") return;
      const report = (message: string) => {
        if (strict) throw new UserError(`${file}:${i + 1}: ${message} (--strict stops at the first bad line)`, 2);
        problems.push({ file, line: i + 1, message });
      };
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return report("not valid JSON");
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        return report(`field ${issue.path.join(".") || "(line)"}: ${issue.message}`);
      }
      take(parsed.data, report);
    });
  }
  return texts;
}

/**
 * Reads JSONL suites (`readJsonl`): a case for another question-set version is refused with the
 * reason; a label must fit its question; an id may stand once.
 */
export function loadSuites(files: string[], set: QuestionSet, strict = false): Suite {
  const cases: EvalCase[] = [];
  const problems: SuiteProblem[] = [];
  const ids = new Set<string>();
  const texts = readJsonl(files, EvalCase, strict, problems, (c, report) => {
    if (c.question_set !== setKey(set))
      return report(`case ${c.id} is for question set ${c.question_set}; this replay uses ${setKey(set)} (a new version needs its own suite)`);
    for (const [q, v] of Object.entries(c.labels)) {
      const question = set.questions.find((x) => x.id === q);
      if (!question) return report(`case ${c.id}: label for unknown question ${q}`);
      const ok =
        question.type === "yes_no"
          ? typeof v === "boolean"
          : question.type === "choice"
            ? typeof v === "string" && question.options.some((o) => o.id === v)
            : typeof v === "number";
      if (!ok) return report(`case ${c.id}: label ${q}=${JSON.stringify(v)} does not fit a ${question.type} question`);
    }
    if (ids.has(c.id)) return report(`duplicate case id ${c.id}`);
    ids.add(c.id);
    cases.push(c);
  });
  const hasher = new Bun.CryptoHasher("sha256");
  for (const t of texts) hasher.update(t);
  return { cases, problems, hash: hasher.digest("hex").slice(0, 16) };
}
