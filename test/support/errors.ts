import { UserError } from "../../src/core/errors.ts";

/** Runs `f` and returns the UserError it throws; fails the test if it throws nothing or something else. */
export function thrown(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error("expected a UserError");
}

/** Runs `f` and returns whatever it throws, as the system threw it; fails the test if it throws nothing. */
export function raised(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}
