/**
 * The one class of error a user can act on. Its message names the input that was wrong and what to
 * do; the CLI prints it as one line without a stack. Anything else that escapes is a bug in weir,
 * but for the machine's own refusals (`machineRefusal`).
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** Process exit code when this error ends the run: 2 for usage errors, 1 otherwise. */
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}

/** A usage error (bad flag, bad value): exit code 2. */
export function usageError(message: string): UserError {
  return new UserError(message, 2);
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * The one line for a file-system error the machine raised on a path (a data directory where a file
 * is, a full disk, a read-only mount): what was refused and why, as `cannot mkdir /x/weir: not a
 * directory`. Undefined for anything else, which stays a bug report. Pure.
 */
export function machineRefusal(e: unknown): string | undefined {
  const { code, syscall, path } = (e ?? {}) as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== "string" || !/^E[A-Z]+$/.test(code) || typeof syscall !== "string" || typeof path !== "string") return undefined;
  return `cannot ${syscall} ${path}: ${refusalReason(e)}`;
}

/** Why the system refused, in words: "not a directory" from "ENOTDIR: not a directory, mkdir '/x'". Pure. */
export function refusalReason(e: unknown): string {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown };
  return String(message ?? "").replace(`${String(code)}: `, "").split(", ")[0] || String(code);
}

/**
 * Why a run was stopped when the person did not stop it: a token budget ran out. Given as an abort
 * signal's reason, so what the model is told names it instead of an interruption by the person.
 */
export class BudgetSpent extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BudgetSpent";
  }
}
