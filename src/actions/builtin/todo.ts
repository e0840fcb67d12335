import { z } from "zod";
import { type Action, defineAction } from "../action.ts";

const STATUS = ["pending", "in_progress", "completed"] as const;

/** One step of the model's plan, as Claude Code's TodoWrite keeps it. */
export interface TodoItem {
  content: string;
  status: (typeof STATUS)[number];
}

const MARK: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

/** The plan as lines: one mark and step each. Pure. */
export function planLines(items: readonly TodoItem[]): string[] {
  return items.map((i) => `${MARK[i.status]} ${i.content}`);
}

/**
 * `todo`: the model's visible plan. Each call sends the whole list (steps and their state), which
 * replaces the last; the person sees it in the log and in `/status`, stream-json shows it as Claude
 * Code's TodoWrite. `plan` holds the latest for the frontends.
 */
export function todoAction(plan: { items: TodoItem[] }): Action {
  return defineAction({
    id: "todo",
    capability: "planning",
    hint: "keep a visible plan: the task's steps and which is in progress or done",
    description:
      "Keep the plan of a task with several steps where the user can see it: send the whole list each time, " +
      "each step with its status (pending, in_progress, completed); it replaces the last list. Keep exactly one step in_progress while you work.",
    input: z
      .object({
        items: z.array(z.object({ content: z.string().min(1), status: z.enum(STATUS) }).strict()).max(50),
      })
      .strict(),
    risk: "read",
    source: "builtin",
    readOnly: true,
    summary: (i) => `${i.items.length} steps`,
    async run(i) {
      plan.items = i.items;
      const done = i.items.filter((t) => t.status === "completed").length;
      const content = `plan (${done} of ${i.items.length} done):\n${planLines(i.items).join("\n")}`;
      return { content, details: { kind: "todo" as const, items: i.items }, trusted: true };
    },
  });
}
