import { join } from "node:path";
import { protectedReason, type ResolvedPath, resolveInWorkspace } from "./containment.ts";
import type { Access, PathScope } from "./scope.ts";

/**
 * The workspace an agent works in, as one value: the canonical root, the user's home (for `~` and
 * the home's protected dot-directories) and, for a worker, its scope. Every path an action touches is
 * resolved through it, so the guards (containment, symlinks, hard links, protected paths, scope)
 * are applied the same way at every call site.
 */
export class Workspace {
  constructor(
    /** Canonical absolute root. */
    readonly root: string,
    readonly home: string,
    /** A worker's read and write globs; absent for the main agent. */
    readonly scope?: PathScope,
  ) {}

  /** A path the model sent, resolved and guarded for this access (PathRefused otherwise). */
  resolve(requested: string, access: Access = "read"): ResolvedPath {
    return resolveInWorkspace(this.root, requested, { home: this.home, ...(this.scope ? { scope: this.scope, access } : {}) });
  }

  /** Whether a walked file is out of scope (as opposed to protected): it is simply not there for a worker. */
  inScope(rel: string): boolean {
    return !this.scope || this.scope.allows(rel, "read");
  }

  isProtected(rel: string): boolean {
    return protectedReason(rel, join(this.root, rel), this.home) !== undefined;
  }
}
