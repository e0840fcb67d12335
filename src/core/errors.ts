/**
 * The one class of error a user can act on. Its message names the input that was wrong and what to
 * do; the CLI prints it as one line without a stack. Anything else that escapes is a bug in weir.
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
