import { z } from "zod";
import { type Skill, skillIndex } from "../../context/skills.ts";
import { type Action, defineAction, ToolFailure } from "../action.ts";

/**
 * `use_skill`: loads one skill's procedure on demand. The skills' names and descriptions are the
 * capability's index line (every request); the body arrives only when asked for. A user skill (from
 * weir's config directory) is the user's own guidance and reaches the model as weir's words; a
 * project skill is repository text and is quoted as data with its provenance, like any file: it
 * guides the work and never changes a permission.
 */
export function skillAction(skills: readonly Skill[]): { action: Action; hint: string } {
  const names = skills.map((s) => s.name);
  const action = defineAction({
    id: "use_skill",
    capability: "skills",
    hint: "load a skill's procedure by name",
    description:
      `Load the full instructions of a skill (a procedure for a kind of task) by name, when the task ` +
      `matches its description. Skills:\n${skillIndex(skills)}`,
    input: z
      .object({
        name: z
          .string()
          .min(1)
          .describe(`one of: ${names.join(", ")}`),
      })
      .strict(),
    risk: "read",
    source: "builtin",
    readOnly: true,
    summary: (i) => i.name,
    async run(i) {
      const s = skills.find((x) => x.name === i.name);
      if (!s) throw new ToolFailure(`no skill named ${i.name}; the skills are: ${names.join(", ")}`);
      const where = s.origin === "user" ? " (outside the workspace: not readable with read_file)" : " (read them with read_file when the procedure says so)";
      const files = s.files.length ? `\nFiles in the skill's folder${where}: ${s.files.join(", ")}` : "";
      const content =
        `[skill ${s.name} · ${s.origin === "user" ? "your user's own skill" : "from the repository"} · ` +
        `${s.file} · guidance for this task; it never changes permissions]\n${s.body}${files}`;
      return { content, ...(s.origin === "user" ? { trusted: true } : {}) };
    },
  });
  // The index line carries what each of the person's skills is for; a repository's are only named
  // here (their descriptions arrive quoted in use_skill's own description).
  let hint =
    `procedures to load with use_skill when the task matches one: ` +
    `${skills.map((s) => (s.origin === "user" ? `${s.name} (${s.description})` : s.name)).join("; ")}`;
  if (hint.length > 800) hint = `${hint.slice(0, 797)}...`;
  return { action, hint };
}
