import { UserError } from "../core/errors.ts";
import { NotAFile, readRegularFile } from "../workspace/containment.ts";
import { ConfigFile, USER_ONLY_KEYS } from "./schema.ts";

/**
 * Reads and validates one config file. A missing file is an empty layer; a broken one is refused
 * with its path, the field and what was expected. Values are never echoed: the file may hold a key.
 */
export function loadConfigFile(path: string, kind: "user" | "project"): ConfigFile {
  let text: string;
  try {
    text = readRegularFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    if (e instanceof NotAFile)
      throw new UserError(`cannot read config ${path}: it is not a regular file (a named pipe, socket or device); replace it with a file or remove it`, 2);
    throw new UserError(`cannot read config ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 2);
  }
  // An empty file is an empty layer (a fresh `touch`), not broken JSON.
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UserError(`config ${path} is not valid JSON${locateJsonError(text)}; fix or remove it`, 2);
  }
  const parsed = ConfigFile.safeParse(json);
  const problems: string[] = [];
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = issue.path.length > 0 ? issue.path.join(".") : issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "(top level)";
      problems.push(`config ${path}: field ${field}: ${issue.message}`);
    }
  if (kind === "project" && json && typeof json === "object")
    for (const key of USER_ONLY_KEYS)
      if ((json as Record<string, unknown>)[key] !== undefined)
        problems.push(
          `config ${path}: field ${key} is not allowed in a project config (a repository must not redirect ` +
            `your API key); set it in your user config or with a flag`,
        );
  // A project may name a role's model, as it may name `model`, but not where it is sent or with what key.
  const models = kind === "project" && json && typeof json === "object" ? (json as { models?: Record<string, unknown> }).models : undefined;
  for (const [role, m] of Object.entries(models && typeof models === "object" ? models : {}))
    if (m && typeof m === "object" && Object.keys(m).some((k) => k !== "model"))
      problems.push(
        `config ${path}: field models.${role} may only name a model in a project config (a repository must ` +
          `not choose where your key goes); set its provider in your user config`,
      );
  // Every problem of the file at once, one line each.
  if (problems.length || !parsed.success) throw new UserError(problems.join("\n"), 2);
  return parsed.data;
}

/** Loads several config files and reports every problem of all of them at once. */
export function loadConfigFiles(files: { path: string; kind: "user" | "project" }[]): ConfigFile[] {
  const out: ConfigFile[] = [];
  const problems: string[] = [];
  for (const f of files) {
    try {
      out.push(loadConfigFile(f.path, f.kind));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(e.message);
      out.push({});
    }
  }
  if (problems.length) throw new UserError(problems.join("\n"), 2);
  return out;
}

/** Finds the line of the first syntax error by parsing growing prefixes line by line; no content echoed. */
function locateJsonError(text: string): string {
  const lines = text.split("\n");
  let good = 0;
  for (let i = 1; i <= lines.length; i++) {
    const prefix = lines.slice(0, i).join("\n");
    // A prefix of valid JSON fails only with "unexpected end"; any other failure is the broken line.
    try {
      JSON.parse(prefix);
      good = i;
    } catch (e) {
      if (!/end|EOF/i.test(String((e as Error).message))) return ` (near line ${i})`;
      good = i;
    }
  }
  return good > 0 ? "" : "";
}
