/**
 * A worker's path scope inside the workspace: the globs it may read and the globs it may write.
 * Containment asks it for every path a worker's action touches, after the workspace guards (a
 * scope narrows the workspace, it never widens it). Writing implies reading: a file must be read
 * before it is overwritten. Pure.
 */
export type Access = "read" | "write";

/** Why a glob cannot be a scope: absolute, escaping, or empty. Undefined when it is fine. Pure. */
export function badGlob(g: string): string | undefined {
  if (g.trim() === "") return "an empty glob";
  if (g.startsWith("/") || /^[A-Za-z]:[\\/]/.test(g) || g.startsWith("~")) return `${g} is absolute; scope globs are relative to the workspace root`;
  if (g.split("/").includes("..")) return `${g} leaves the workspace (..)`;
  return undefined;
}

const norm = (g: string) => g.replace(/^\.\//, "").replace(/\/$/, "/**");

export class PathScope {
  private readGlobs: Bun.Glob[];
  private writeGlobs: Bun.Glob[];

  constructor(
    readonly reads: readonly string[],
    readonly writes: readonly string[],
  ) {
    this.readGlobs = reads.map((g) => new Bun.Glob(norm(g)));
    this.writeGlobs = writes.map((g) => new Bun.Glob(norm(g)));
  }

  /** The whole workspace is readable: commands may see all of it. */
  get readsEverything(): boolean {
    return this.reads.some((g) => norm(g) === "**" || norm(g) === "**/*");
  }

  /** Whether `rel` (workspace-relative, forward slashes; "." is the root) may be used this way. */
  allows(rel: string, access: Access): boolean {
    // Directories on the way to a readable file may be listed.
    if (rel === "." || rel === "") return access === "read";
    const w = this.writeGlobs.some((g) => g.match(rel));
    if (access === "write") return w;
    return w || this.readGlobs.some((g) => g.match(rel));
  }

  /** Whether a directory may be walked: some readable glob could match below it. */
  mayHoldReadable(dir: string): boolean {
    if (dir === "." || dir === "") return true;
    const prefix = `${dir}/`;
    return [...this.reads, ...this.writes].map(norm).some((g) => {
      const fixed = g.split(/[*?[{]/)[0]!;
      return fixed.startsWith(prefix) || prefix.startsWith(fixed.includes("/") ? fixed.slice(0, fixed.lastIndexOf("/") + 1) : "");
    });
  }

  describe(): string {
    return `reads ${this.reads.join(", ") || "nothing"}; writes ${this.writes.length ? this.writes.join(", ") : "nothing (report only)"}`;
  }
}

/**
 * Whether two write scopes can name one file: a literal glob matched by the other, or an existing
 * file both match. Conservative on purpose (two workers must never write one file): globs that
 * share no literal path but could both grow a new file are caught when their fixed prefixes nest
 * and both end in a wildcard. Returns a description of the overlap, or undefined. Pure.
 */
export function writeOverlap(a: readonly string[], b: readonly string[], files: readonly string[]): string | undefined {
  for (const x of a.map(norm))
    for (const y of b.map(norm)) {
      const gx = new Bun.Glob(x);
      const gy = new Bun.Glob(y);
      if (x === y || gx.match(y) || gy.match(x)) return `${x} and ${y}`;
      const both = files.find((f) => gx.match(f) && gy.match(f));
      if (both) return `${x} and ${y} (both match ${both})`;
      const px = x.split(/[*?[{]/)[0]!;
      const py = y.split(/[*?[{]/)[0]!;
      const wild = (g: string) => /[*?[{]/.test(g);
      if (wild(x) && wild(y) && (px.startsWith(py) || py.startsWith(px))) return `${x} and ${y} (one could create a file the other may write)`;
    }
  return undefined;
}
