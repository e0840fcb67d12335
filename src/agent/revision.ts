import { statSync } from "node:fs";
import { join } from "node:path";
import { gitOutput, repositoryPrefix } from "../workspace/git.ts";
import { hashWithHead, sha256 } from "../workspace/ledger.ts";
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
  // One git call: porcelain v2 carries HEAD in its branch header.
  // git names paths from the repository's top; a workspace below it asks for its own and keeps them.
  const prefix = repositoryPrefix(root);
  const status = await gitOutput(root, ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", ...(prefix ? ["--", "."] : [])]);
  const files = new Map<string, string>();
  let head = "no-git";
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
      if (e.startsWith("# branch.oid ")) head = e.slice(13);
      if (e.startsWith("#")) continue;
      // v2 records: "1 XY sub mH mI mW hH hI path", "2 ... score path" + NUL + origPath, "u ..." , "? path".
      const kind = e[0];
      const fields = kind === "1" ? 8 : kind === "2" ? 9 : kind === "u" ? 10 : 1;
      const full = e.split(" ").slice(fields).join(" ");
      if (kind === "2") i++;
      if (kind === "!" || !full.startsWith(prefix)) continue;
      const path = full.slice(prefix.length);
      try {
        // Hashed in 1 MB reads: a changed file of gigabytes costs no more memory than a small one.
        files.set(path, hashWithHead(join(root, path), 0).sha);
      } catch {
        files.set(path, "deleted");
      }
    }
  }
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
  return { id: `${head.slice(0, 12)}+${sha256(JSON.stringify(sorted)).slice(0, 12)}`, head, files };
}

/** Paths whose content differs between two revisions. Pure. */
export function movedPaths(a: Revision, b: Revision): string[] {
  if (a.head !== b.head) return ["(HEAD moved)"];
  const out = new Set<string>();
  for (const [p, h] of a.files) if (b.files.get(p) !== h) out.add(p);
  for (const [p, h] of b.files) if (a.files.get(p) !== h) out.add(p);
  return [...out].sort();
}
