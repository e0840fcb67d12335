import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { userDataDir } from "../../config/paths.ts";
import { freshness, refreshSymbols } from "../../context/definitions.ts";
import { ProcessLock } from "../../store/process-lock.ts";
import { SymbolIndex } from "../../store/symbol-index.ts";
import { WalkStore } from "../../workspace/walks.ts";
import type { ParsedArgs } from "../args.ts";
import { COMMIT } from "../version.ts";
import type { reviewStatus } from "./review.ts";

type Out = (s: string) => void;

/** The symbol index's database, shared by every workspace of the user. */
export const symbolIndexPath = (env: Record<string, string | undefined> = process.env) => join(userDataDir(env), "symbols.db");

/** One refresher per workspace at a time: a lock the OS releases when its process dies. */
const lockPath = (workspace: string) => join(userDataDir(), "locks", `index-${createHash("sha256").update(workspace).digest("hex").slice(0, 16)}.lock`);

const ago = (ms: number) => {
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  return ms < 5_400_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 3_600_000)} h`;
};

/** The reviews' line of `weir index --status`. */
const reviewLine = (r: NonNullable<ReturnType<typeof reviewStatus>>) =>
  `reviews: ${r.files} file${r.files === 1 ? "" : "s"} reviewed, ${r.fresh} fresh (${r.findings} findings), ` +
  `${r.stale} stale (a file the review read changed since; weir index --review reviews them again)\n`;

/**
 * `weir index`: brings this workspace's symbol index up to date (only files whose stat moved are
 * read); `weir index --status`: what is fresh, stale or not indexed, and the last refresh.
 */
export async function indexCommand(args: ParsedArgs, workspace: string, out: Out, err: Out): Promise<number> {
  const index = SymbolIndex.open(symbolIndexPath(), (l) => err(`weir: ${l}\n`));
  try {
    if (args.flags.status === true) {
      const s = index.status(workspace);
      const reviews = (await import("./review.ts")).reviewStatus(workspace);
      if (!s) {
        if (args.json) out(`${JSON.stringify({ symbols: null, reviews: reviews ?? null })}\n`);
        else out(`no symbol index for ${workspace} yet: weir index builds one (and a run in a workspace of over 2,000 files refreshes it after)\n`);
        if (!args.json && reviews) out(reviewLine(reviews));
        return 0;
      }
      const f = freshness(workspace, index, new WalkStore(join(userDataDir(), "walks")).load(workspace));
      const held = { files: s.files, symbols: s.symbols, imports: s.imports };
      const o = { refreshed: `${ago(Date.now() - s.refreshedAt)} ago`, took_ms: s.tookMs, ...held, ...f, reviews: reviews ?? null };
      if (args.json) out(`${JSON.stringify(o)}\n`);
      else {
        const counts = `${s.files} files, ${s.symbols} names defined, ${s.imports} import edges`;
        out(`symbol index of ${workspace}: refreshed ${o.refreshed} in ${s.tookMs} ms; ${counts}\n`);
        const behind = f.stale + f.unindexed + f.gone ? " (weir index refreshes them)" : "";
        out(`fresh ${f.fresh}, changed since ${f.stale}, not indexed ${f.unindexed}, gone ${f.gone}${behind}\n`);
        if (reviews) out(reviewLine(reviews));
      }
      return 0;
    }
    const lock = ProcessLock.take(lockPath(workspace));
    if (!(lock instanceof ProcessLock)) {
      out(`the index of ${workspace} is being refreshed${lock.held ? ` by pid ${lock.held.pid}` : ""}; weir index --status says when it is done\n`);
      return 0;
    }
    try {
      // The walk runs keep: a warm one stats directories instead of reading them.
      const walks = new WalkStore(join(userDataDir(), "walks"));
      const walk = walks.load(workspace);
      const r = refreshSymbols(workspace, index, walk);
      walks.save(workspace, walk);
      out(`indexed ${r.files} source files in ${Math.round(r.ms)} ms: ${r.read} read, ${r.gone} gone, the rest unchanged\n`);
      return 0;
    } finally {
      lock.release();
    }
  } finally {
    index.close();
  }
}

/**
 * Runs `weir index` for `workspace` in a process of its own that outlives this one, with nothing
 * to say: a run does not wait for it, and the next run reads what it wrote. With `review`, the
 * process reviews those files (`weir index --review`) instead of refreshing the symbol index.
 */
export function refreshInBackground(workspace: string, review?: readonly string[]): void {
  const self = COMMIT === "source" ? [process.execPath, process.argv[1]!] : [process.execPath];
  // A path that starts like a flag is given as ./path.
  const reviewed = review ? ["--review", ...review.map((p) => (p.startsWith("-") ? `./${p}` : p))] : [];
  try {
    const child = spawn(self[0]!, [...self.slice(1), "index", "--cwd", workspace, ...reviewed], { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  } catch {
    // the next run or weir index refreshes it
  }
}
