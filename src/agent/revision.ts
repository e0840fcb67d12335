import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gitOutput } from "../workspace/git.ts";
import { sha256 } from "../workspace/ledger.ts";
import { walk } from "../workspace/walker.ts";

/**
 * The revision of a workspace: git HEAD plus a hash of the worktree (every changed or untracked
 * file's path and content), so two moments compare equal only when the tree a worker read is the
 * same. Outside git, a hash of every walked file's path, size and mtime. `files` maps each file that
 * differs from HEAD to its content hash, so a stale result can say what moved.
 */
export interface Revision {
  id: string;
  head: string;
  files: Map<string, string>;
}

export async function workspaceRevision(root: string): Promise<Revision> {
  const [head, status] = await Promise.all([gitOutput(root, ["rev-parse", "HEAD"]), gitOutput(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"])]);
  const files = new Map<string, string>();
  if (status === undefined) {
    // Not a repository: cheap metadata of every file stands in for a worktree hash.
    for (const e of walk(root)) {
      try {
        const st = statSync(join(root, e.path));
        files.set(e.path, `${st.size}:${st.mtimeMs}`);
      } catch {
        files.set(e.path, "gone");
      }
    }
  } else {
    const entries = status.split("\0").filter(Boolean);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const path = e.slice(3);
      // A rename's source path follows it in -z output.
      if (e[0] === "R" || e[0] === "C") i++;
      try {
        files.set(path, sha256(readFileSync(join(root, path))));
      } catch {
        files.set(path, "deleted");
      }
    }
  }
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
  const h = (head ?? "no-git").trim();
  return { id: `${h.slice(0, 12)}+${sha256(JSON.stringify(sorted)).slice(0, 12)}`, head: h, files };
}

/** Paths whose content differs between two revisions. Pure. */
export function movedPaths(a: Revision, b: Revision): string[] {
  if (a.head !== b.head) return ["(HEAD moved)"];
  const out = new Set<string>();
  for (const [p, h] of a.files) if (b.files.get(p) !== h) out.add(p);
  for (const [p, h] of b.files) if (a.files.get(p) !== h) out.add(p);
  return [...out].sort();
}
