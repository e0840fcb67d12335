import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ignore from "ignore";
import { inBatch, mkdirInside, placeInside, removeInside, symlinkInside, writeFileAtomic } from "./atomic.ts";
import { type Change, OPAQUE, readChangeSet } from "./changeset.ts";
import { type ChangeFacts, classifyChange, IGNORED } from "./classify.ts";
import { ENVIRONMENT_MARKERS, installScripts, looksLikeGitDirectory, wholeText } from "./containment.ts";
import { gitQuery } from "./git.ts";
import { runsPrograms } from "./gitconfig.ts";
import { folderRecords } from "./walker.ts";
import { workspaceKey } from "./walks.ts";
import { completeTurn, type UndoLog } from "./undo.ts";
import { awaitFold, entryAt, foldCutShort, foldInto, markFold, unmarkFold } from "./fold.ts";
import { openView, removeLayer, removeWork, type View } from "./view.ts";
import { removeXattr } from "./xattr.ts";
import { faultPoint } from "../core/fault-point.ts";
import {
  alive,
  claimView,
  endJournal,
  type Journal,
  Progress,
  readJournal,
  sameStamp,
  type Stamp,
  stampOf,
  type Step,
  stepsDone,
  thisProcess,
  viewOwner,
  writeJournal,
} from "./journal.ts";

/** A change a command made that was not applied, and why. */
export interface HeldChange {
  rel: string;
  kind: Change["kind"];
  reason: string;
}

/** What one command's change set came to. */
export interface Settled {
  /** Workspace-relative paths written, made or removed in the workspace. */
  applied: string[];
  held: HeldChange[];
  /** The id of the layer that keeps the held changes, when any were held. */
  id?: string;
}

/** A layer of held changes as `weir changes` lists it. */
export interface HeldLayer {
  id: string;
  /** The directory whose `upper/` holds the changes. */
  dir: string;
  command: string;
  at: string;
  held: HeldChange[];
}

/** The file beside a layer's `upper/` that says what it holds. */
const MANIFEST = "held.json";

/**
 * Removes a layer: its manifest first, in one unlink, so a kill part-way leaves no listed layer
 * with part of its changes, only a folder the next `finishSettles` removes. I/O.
 */
export function dropLayer(dir: string): void {
  rmSync(join(dir, MANIFEST), { force: true });
  faultPoint("layer-drop");
  removeLayer(dir);
}

/** Why a step of a settle finished after its process died was not applied. */
const CHANGED_SINCE = "changed in the workspace after the command ran, so the command's version was not applied over it";

/** A layer's id: its directory's name, less `tx-`. */
const layerId = (dir: string): string => dir.split("/").pop()!.replace(/^tx-/, "");

/**
 * Whether what stands now is what the step itself makes (a step done again finds its own work). A
 * file moved by rename is told by the layer instead (`finish`); one copied across file systems by its size. Pure.
 */
function madeBy(step: Step, now: Stamp, renames: boolean): boolean {
  const c = step.change;
  if (c.kind === "file") return !renames && now.kind === "file" && now.size === c.size;
  if (c.kind === "deleted") return now.kind === "absent";
  return now.kind === (c.kind === "dir" ? "dir" : c.kind === "link" ? "link" : "other");
}

/** Where the layers of the workspace `root` live under weir's data directory `dataDir`. Pure. */
export function changesDir(dataDir: string, root: string): string {
  return join(dataDir, "changes", workspaceKey(root));
}

/**
 * The transactions of one workspace: each command runs on a view of its own (`view.ts`), and when
 * it is over its change set is settled here: classified (`classify.ts`), what applies written
 * through the guarded writer (`atomic.ts`), what is held kept as a layer that later commands of
 * the same run still see (a build's outputs stay in view) and the person lists with `weir changes`.
 */
export class Transactions {
  /**
   * The layers in view of the next command, newest first: this run's held layers, and the layers of
   * earlier runs that hold only what git ignores (a build's outputs), so a build in a new run is
   * incremental. None of them reaches the workspace until the person applies it. Read from disk
   * when the first command asks, not when the run starts.
   */
  private layers: string[] | undefined;

  constructor(
    readonly root: string,
    readonly dir: string,
    /** Where what each applied change replaced is recorded, so `weir undo` can put it back. */
    private undo?: UndoLog,
  ) {}

  private recovered = false;

  private get held(): string[] {
    this.recover();
    return (this.layers ??= buildLayers(this.dir));
  }

  /** Finishes what a killed process left part-way in this workspace (`finishSettles`), once. */
  recover(): void {
    if (this.recovered) return;
    this.recovered = true;
    finishSettles(this.root, this.dir, this.undo);
  }

  /** A fresh view for one command, marked as this process's, opened once no fold is moving layers under it. */
  open(): View {
    const view = openView(this.dir);
    claimView(view.dir);
    awaitFold(this.dir);
    return view;
  }

  /** The upper layers this run holds, topmost first, for the next command's view. */
  lowers(): string[] {
    return this.held.map((d) => join(d, "upper")).filter((u) => existsSync(u));
  }

  /** The same, named from `dir` (`tx-ab12/upper`), as the view's mount takes them. */
  lowerNames(): string[] {
    return this.lowers().map((u) => relative(this.dir, u));
  }

  /**
   * Settles the change set a finished command left in `view` (every process of it is gone):
   * applies what may apply, keeps the rest as a held layer. `network`: the command had it (an
   * install the person approved). Recoverable at every step (`journal.ts`): what each write
   * replaces goes to the undo log and the steps to the journal before the first write. I/O.
   */
  async settle(view: View, o: { network: boolean; command: string }): Promise<Settled> {
    removeWork(view.dir);
    const set = readChangeSet(view.upper);
    if (set.changes.length === 0) {
      removeLayer(view.dir);
      return { applied: [], held: [] };
    }
    const facts = await this.facts(set.changes, view.upper, o.network);
    const held: HeldChange[] = [];
    const heldAt = new Set<string>();
    for (const c of set.changes) {
      const parent = ancestors(c.rel).find((a) => heldAt.has(a));
      const verdict = set.truncated
        ? { apply: false as const, reason: "the command changed more than 250,000 paths; nothing of it was applied" }
        : parent
          ? { apply: false as const, reason: insideHeld(parent) }
          : classifyChange(c, facts.get(c.rel)!);
      if (verdict.apply) continue;
      held.push({ rel: c.rel, kind: c.kind, reason: verdict.reason });
      heldAt.add(c.rel);
    }
    // A new directory none of whose entries is held moves into place whole, in one rename (an install's tree).
    const partial = new Set(held.flatMap((h) => ancestors(h.rel)));
    const parents = new Set(set.changes.map((c) => ancestors(c.rel).at(-1) ?? ""));
    const renames = statSync(view.upper).dev === statSync(this.root).dev;
    const { steps, applied } = this.plan(set.changes, view.upper, { held: heldAt, partial, parents, renames });
    for (const step of steps) this.recordBefore(step, view.upper);
    this.undo?.flush();
    const undoTurn = this.undo?.turnId;
    const at = new Date().toISOString();
    const journal: Journal = { command: o.command, at, owner: thisProcess(), steps, held, renames, ...(undoTurn ? { undoTurn } : {}) };
    writeJournal(view.dir, journal);
    faultPoint("settle-journal");
    const end = this.finish(view.dir, journal);
    if (end.held.length === 0) return { applied, held };
    this.held.unshift(view.dir);
    // Only a new build layer can fold: other held layers cost no read of the rest.
    if (onlyIgnored({ held: end.held })) foldBuildLayers(this.root, this.dir);
    const kept = (rel: string) => end.kept.has(rel) || ancestors(rel).some((a) => end.kept.has(a));
    return { applied: applied.filter((rel) => !kept(rel)), held: end.held, id: layerId(view.dir) };
  }

  /**
   * What applying a change set takes, in its order, and every path it writes: a new directory none
   * of whose entries is held moves into place whole (with `renames`, on one file system), one that
   * only holds what applies is made by its entries. Reads the workspace only to stamp what stands.
   */
  private plan(
    changes: Change[],
    upper: string,
    o: { held: Set<string>; partial: Set<string>; parents: Set<string>; renames: boolean },
  ): { steps: Step[]; applied: string[] } {
    const steps: Step[] = [];
    const applied: string[] = [];
    let moved: string | undefined;
    for (const c of changes) {
      if (o.held.has(c.rel)) continue;
      if (moved && c.rel.startsWith(`${moved}/`)) {
        applied.push(c.rel);
        continue;
      }
      const was = stampOf(join(this.root, c.rel));
      if (o.renames && c.kind === "dir" && !c.opaque && !o.partial.has(c.rel) && was.kind === "absent") {
        steps.push({ change: c, move: true, was });
        moved = c.rel;
        applied.push(c.rel);
        continue;
      }
      // A directory is made where something applied lands in it, or when it is all the command made there.
      if (c.kind === "dir" && !c.opaque && o.parents.has(c.rel)) continue;
      steps.push({ change: c, move: false, was });
      applied.push(c.rel);
    }
    return { steps, applied };
  }

  /** Records in the undo log what a step will replace: a path, and what an opaque directory's step removes below it. */
  private recordBefore(step: Step, upper: string): void {
    if (!this.undo) return;
    const c = step.change;
    if (step.move) return this.undo.before(c.rel);
    // What goes whole: a removed directory, or one a file or link replaces.
    this.undo.before(c.rel, "link", c.kind !== "dir");
    if (c.kind !== "dir" || !c.opaque || step.was.kind !== "dir") return;
    const kept = new Set(readdirSync(join(upper, c.rel)));
    for (const name of readdirSync(join(this.root, c.rel))) if (!kept.has(name)) this.undo.before(`${c.rel}/${name}`, "link", true);
  }

  /**
   * Carries out a journal's steps not yet done, then leaves the layer as the journal says: what is
   * held stays, with its manifest, or the layer goes. A step whose path someone changed since the
   * journal was written (a settle finished after its process died, the person at work meanwhile)
   * is not applied: it stays held, and so does what lies below it. Returns what is held in the end
   * and the paths of the steps kept that way. I/O.
   */
  finish(dir: string, journal: Journal): { held: HeldChange[]; kept: Set<string> } {
    const upper = join(dir, "upper");
    const { done, kept: keptBefore } = stepsDone(dir);
    const kept = new Set<string>();
    const held = [...journal.held];
    const keep = (c: Change) => {
      const under = ancestors(c.rel).find((a) => kept.has(a));
      kept.add(c.rel);
      held.push({ rel: c.rel, kind: c.kind, reason: under ? insideHeld(under) : CHANGED_SINCE });
    };
    // What an earlier attempt kept held stays held.
    for (const i of [...keptBefore].sort((a, b) => a - b)) keep(journal.steps[i]!.change);
    const progress = new Progress(dir);
    try {
      inBatch(this.root, () =>
        journal.steps.forEach((step, i) => {
          if (done.has(i)) return;
          faultPoint(`settle-step:${i}`);
          const c = step.change;
          const under = ancestors(c.rel).find((a) => kept.has(a));
          const placed = !under && (step.move || (c.kind === "file" && journal.renames)) && !existsSync(join(upper, c.rel));
          const now = stampOf(join(this.root, c.rel));
          if (under || !(placed || sameStamp(now, step.was) || madeBy(step, now, journal.renames))) {
            keep(c);
            return progress.done(i, true);
          }
          if (!placed && step.move && c.kind === "dir") placeInside(this.root, c.rel, join(upper, c.rel), c.mode);
          else if (!placed) this.write(c, upper);
          progress.done(i);
        }),
      );
    } finally {
      progress.close();
    }
    faultPoint("settle-steps-done");
    if (journal.undoTurn && journal.undoTurn === this.undo?.turnId) this.undo.completeAfters(kept);
    else if (journal.undoTurn && this.undo) completeTurn(this.undo.dir, journal.undoTurn, this.root, kept);
    this.prune(upper, journal.steps.map((s) => s.change), new Set(held.map((h) => h.rel)), journal.renames);
    if (held.length > 0) {
      const manifest = { id: layerId(dir), command: journal.command, at: journal.at, held };
      writeFileAtomic(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
    }
    endJournal(dir);
    if (held.length === 0) dropLayer(dir);
    return { held, kept };
  }

  /** Writes one change of the layer `upper` into the workspace through the guarded writer. */
  private write(c: Change, upper: string): void {
    const from = join(upper, c.rel);
    if (c.kind === "file") placeInside(this.root, c.rel, from, c.mode);
    else if (c.kind === "link") symlinkInside(this.root, c.rel, c.target);
    else if (c.kind === "deleted") removeInside(this.root, c.rel);
    else if (c.kind === "dir") {
      mkdirInside(this.root, c.rel, c.mode);
      // A directory that replaced one: what the old one held and the new one does not is gone.
      if (c.opaque) {
        const kept = new Set(readdirSync(from));
        for (const name of readdirSync(join(this.root, c.rel))) if (!kept.has(name)) removeInside(this.root, `${c.rel}/${name}`);
      }
    }
  }

  /**
   * Leaves in the upper layer only what was held: applied files were moved out already; applied
   * removals and directories go unless a held layer below still has the path (then the removal
   * must keep hiding it) or they hold held entries (then the directory stays, no longer opaque:
   * the workspace below now has what it replaced).
   */
  private prune(upper: string, changes: Change[], held: Set<string>, renamed: boolean): void {
    const below = this.lowers();
    for (const c of [...changes].reverse()) {
      // An applied file was renamed out of the layer already (on one file system).
      if (held.has(c.rel) || (renamed && c.kind === "file")) continue;
      const at = join(upper, c.rel);
      if (c.kind === "dir") {
        try {
          rmdirSync(at); // empty once what it held was applied
        } catch {
          if (c.opaque) removeXattr(at, OPAQUE);
        }
        continue;
      }
      if (c.kind === "deleted" && below.some((l) => existsSync(join(l, c.rel)))) continue;
      rmSync(at, { force: true });
    }
  }

  /** What each changed path needs besides the change: git's view, the mode before, the environment, the file-specific checks. */
  private async facts(changes: Change[], upper: string, network: boolean): Promise<Map<string, ChangeFacts>> {
    const freshRepository = !existsSync(join(this.root, ".git"));
    const outsideGit = changes.filter((c) => !c.rel.split("/").includes(".git"));
    const git = await gitViews(this.root, outsideGit, upper);
    const hidesChanges = changes.some((c) => c.rel === ".git/index" && c.kind === "file") ? await indexHides(this.root, join(upper, ".git", "index")) : false;
    const packed = changes.some((c) => c.rel === ".git/packed-refs" && c.kind === "file");
    const replacing = (dir: string) => (packed ? replaceRefs(join(dir, ".git", "packed-refs")) : []);
    const replacedBefore = replacing(this.root);
    const packedReplaces = replacing(upper).some((r) => !replacedBefore.includes(r));
    const out = new Map<string, ChangeFacts>();
    const gitDirectory = gitDirectories(this.root, upper);
    const environment = environments(this.root, upper);
    for (const c of changes) {
      const name = c.rel.split("/").pop();
      const before = modeOf(join(this.root, c.rel));
      const upperText = () => wholeText(join(upper, c.rel));
      const hostText = () => wholeText(join(this.root, c.rel));
      out.set(c.rel, {
        git: git.get(c.rel) ?? "none",
        ...(before !== undefined ? { modeBefore: before } : {}),
        ...environment(c.rel),
        ...gitDirectory(c),
        network,
        freshRepository,
        ...(c.kind === "file" && c.rel === ".git/config" ? { runsPrograms: runsPrograms(upperText() ?? "") } : {}),
        ...(c.rel === ".git/index" ? { hidesChanges } : {}),
        ...(c.rel === ".git/packed-refs" ? { hidesChanges: packedReplaces } : {}),
        ...(c.kind === "file" && name === "package.json" ? { installChanged: installScripts(upperText()) !== installScripts(hostText()) } : {}),
      });
    }
    return out;
  }
}

/**
 * The git directory a change lies in or makes, as the workspace will be after the command (its
 * entries and the layer's, less what the layer removed): a directory outside any `.git` that git
 * takes for a repository itself (`looksLikeGitDirectory`). Each directory is looked at once.
 */
function gitDirectories(root: string, upper: string): (c: Change) => { gitDirectory?: string } {
  const known = new Map<string, boolean>();
  const entriesOf = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  const isGitDirectory = (rel: string): boolean => {
    const hit = known.get(rel);
    if (hit !== undefined) return hit;
    const mine = entriesOf(join(upper, rel));
    const gone = new Set(mine.filter((e) => e.isCharacterDevice()).map((e) => e.name));
    const below = entriesOf(join(root, rel)).filter((e) => !gone.has(e.name) && !mine.some((m) => m.name === e.name));
    const merged = [...mine.filter((e) => !gone.has(e.name)), ...below];
    const is = looksLikeGitDirectory(merged);
    known.set(rel, is);
    return is;
  };
  return (c) => {
    const parts = c.rel.split("/");
    const upTo = c.kind === "dir" ? parts.length : parts.length - 1;
    for (let i = 1; i <= upTo; i++) {
      const rel = parts.slice(0, i).join("/");
      if (parts[i - 1] === ".git") return {};
      if (isGitDirectory(rel)) return { gitDirectory: rel };
    }
    return {};
  };
}

/** Why a path below a held directory is held with it. Pure. */
const insideHeld = (parent: string) => `inside ${parent}, which is held`;

/** The directories on the way to `rel`, outermost first (`a`, `a/b` for `a/b/c`). Pure. */
function ancestors(rel: string): string[] {
  const parts = rel.split("/");
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The permission bits of the regular file at `path`, or undefined. */
function modeOf(path: string): number | undefined {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The dependency environment a change lies in, by a marker (`pyvenv.cfg`) in a directory on its way,
 * in the workspace or the command's layer; each directory is looked at once.
 */
function environments(root: string, upper: string): (rel: string) => { environment?: string } {
  const known = new Map<string, boolean>();
  const marked = (at: string) => {
    let is = known.get(at);
    if (is === undefined) known.set(at, (is = ENVIRONMENT_MARKERS.some((m) => existsSync(join(root, at, m)) || existsSync(join(upper, at, m)))));
    return is;
  };
  return (rel) => {
    const at = ancestors(rel).find(marked);
    return at ? { environment: at } : {};
  };
}

/**
 * How git's review sees each path before the command: tracked, ignored, or untracked and shown;
 * nothing when the workspace is in no repository. Two git queries for all paths at once.
 */
/**
 * Whether an ignore file the change set writes (a `.gitignore`, new or changed, at any level)
 * ignores a path: git ignores it once the set is applied, though the workspace's git cannot see
 * that file yet (pytest's cache ignoring itself with `*`; a line added to the tracked `.gitignore`
 * hiding a new `conftest.py` from the person's `git status`). A path under an ignored directory is
 * ignored too. Calling more paths ignored only ever holds more. I/O: reads each such file of `upper`.
 */
function newlyIgnored(changes: Change[], upper: string): (rel: string, isDir: boolean) => boolean {
  const files = changes
    .filter((c) => c.kind === "file" && (c.rel === ".gitignore" || c.rel.endsWith("/.gitignore")))
    .flatMap((c) => {
      const text = wholeText(join(upper, c.rel));
      return text === undefined ? [] : [{ base: c.rel.slice(0, Math.max(0, c.rel.lastIndexOf("/"))), rules: ignore().add(text) }];
    });
  if (files.length === 0) return () => false;
  return (rel, isDir) =>
    files.some(({ base, rules }) => {
      if (base !== "" && !rel.startsWith(`${base}/`)) return false;
      const parts = (base === "" ? rel : rel.slice(base.length + 1)).split("/");
      // Each directory on the way, then the path itself: git does not look inside an ignored directory.
      return parts.some((_, i) => rules.ignores(`${parts.slice(0, i + 1).join("/")}${i < parts.length - 1 || isDir ? "/" : ""}`));
    });
}

async function gitViews(root: string, changes: Change[], upper: string): Promise<Map<string, ChangeFacts["git"]>> {
  const views = new Map<string, ChangeFacts["git"]>();
  if (changes.length === 0) return views;
  const asked = changes.map((c) => (c.kind === "dir" ? `${c.rel}/` : c.rel));
  // The index below the workspace, relative to it, not a pathspec per change (an install's thousands of
  // paths would outgrow a command line); outside a repository git answers nothing. Both asked at once.
  const [listed, ignoring] = await Promise.all([
    gitQuery(root, ["ls-files", "-z"]),
    gitQuery(root, ["check-ignore", "-z", "--stdin"], { stdin: `${asked.join("\0")}\0` }),
  ]);
  if (listed === undefined) return views;
  const tracked = new Set(listed.split("\0"));
  const ignored = new Set(ignoring?.split("\0") ?? []);
  const ignoredOnce = newlyIgnored(changes, upper);
  changes.forEach((c, i) => {
    const view = tracked.has(c.rel) ? "tracked" : ignored.has(asked[i]!) || ignoredOnce(c.rel, c.kind === "dir") ? "ignored" : "shown";
    views.set(c.rel, view);
  });
  return views;
}

/** Whether the index at `index` flags an entry the workspace's own index does not (assume-unchanged, skip-worktree). */
async function indexHides(root: string, index: string): Promise<boolean> {
  const flagged = async (file?: string) => {
    const out = await gitQuery(root, ["ls-files", "-v", "-z"], file ? { env: { GIT_INDEX_FILE: file } } : {});
    // ls-files -v: a lowercase tag is assume-unchanged, S is skip-worktree.
    return new Set((out ?? "").split("\0").filter((l) => /^[a-z]|^S/.test(l)).map((l) => l.slice(2)));
  };
  const before = await flagged();
  const after = await flagged(index);
  return [...after].some((p) => !before.has(p));
}

/** The replace refs a packed-refs file names (`<sha> refs/replace/<sha>` lines). I/O. */
function replaceRefs(packed: string): string[] {
  return (wholeText(packed) ?? "").split("\n").filter((l) => l.includes(" refs/replace/"));
}

/**
 * The kept layers that hold only paths git ignores, newest first: a build's outputs, which later
 * commands see (sandboxed, on their view) and the person's own tools never do. A layer holding
 * anything else (a config, a hook, bytecode) stays out of every later run's view. I/O.
 */
export function buildLayers(dir: string): string[] {
  return heldLayers(dir)
    .filter(onlyIgnored)
    .map((l) => l.dir);
}

/**
 * Folds the newest held layer into the one below it, again while both hold only what git ignores (a
 * build's outputs, a cache), so a workspace keeps one such layer, holding the latest of each path:
 * its size is one build's outputs, not every build's, and all of it stays in view. Not while a view
 * of any live process is open (its mount may stack either layer), nor past a layer of anything else
 * (they are next to each other in time). Kill-safe (`fold.ts`); the manifest moves last. Whether it
 * folded. I/O.
 */
export function foldBuildLayers(root: string, dir: string): boolean {
  const pair = () => {
    const [newer, older, ...rest] = heldLayers(dir);
    return newer && older && onlyIgnored(newer) && onlyIgnored(older) ? { newer, older, rest } : undefined;
  };
  if (!pair() || !markFold(dir)) return false;
  try {
    if (openViews(dir)) return false;
    // Folded pair by pair, newest first, until the newest two are not both build layers; read again
    // once the fold is this process's, since another may have folded them meanwhile.
    for (let p = pair(); p; p = pair()) {
      const below = [root, ...p.rest.map((l) => join(l.dir, "upper"))];
      foldPair(p.newer, p.older, (rel) => below.some((d) => entryAt(join(d, rel)) !== undefined));
    }
    return true;
  } catch {
    // A file system that takes no user xattrs, or a layer a person changed: the two stay as they
    // are, stacked as before (the fold leaves them showing the same at every step).
    return false;
  } finally {
    unmarkFold(dir);
  }
}

/** Folds `newer` into `older` (`fold.ts`), then writes what the folded layer holds and drops `newer`. I/O. */
function foldPair(newer: HeldLayer, older: HeldLayer, shows: (rel: string) => boolean): void {
  const to = join(older.dir, "upper");
  foldInto(join(newer.dir, "upper"), to, shows);
  // What the folded layer holds, read from it: each ignored path either layer named, and what is inside it.
  const tops = new Set([...older.held, ...newer.held].filter((h) => h.reason === IGNORED).map((h) => h.rel));
  const held = readChangeSet(to).changes.flatMap((c): HeldChange[] => {
    if (tops.has(c.rel)) return [{ rel: c.rel, kind: c.kind, reason: IGNORED }];
    const top = ancestors(c.rel).find((a) => tops.has(a));
    return top ? [{ rel: c.rel, kind: c.kind, reason: insideHeld(top) }] : [];
  });
  writeFileAtomic(join(older.dir, MANIFEST), `${JSON.stringify({ id: older.id, command: newer.command, at: newer.at, held }, null, 1)}\n`);
  faultPoint("fold-manifest");
  dropLayer(newer.dir);
}

/** Whether a live process has a view open in `dir`: a command running, or its change set not yet settled. I/O. */
function openViews(dir: string): boolean {
  return readdirSync(dir)
    .filter((n) => n.startsWith("tx-") && !existsSync(join(dir, n, MANIFEST)))
    .some((n) => {
      const owner = viewOwner(join(dir, n));
      return owner !== undefined && alive(owner);
    });
}

/** Whether a layer holds only what git ignores: each path ignored, or inside an ignored one held whole. Pure. */
function onlyIgnored(l: Pick<HeldLayer, "held">): boolean {
  const ignored = new Set(l.held.filter((h) => h.reason === IGNORED).map((h) => h.rel));
  return ignored.size > 0 && l.held.every((h) => ignored.has(h.rel) || ancestors(h.rel).some((a) => ignored.has(a) && h.reason === insideHeld(a)));
}

/** The layers of held changes kept for the workspace, newest first. I/O. */
export function heldLayers(dir: string): HeldLayer[] {
  return folderRecords<Omit<HeldLayer, "dir">>(dir, MANIFEST)
    .map(({ at, record }) => ({ ...record, dir: at }))
    .sort((a, b) => (a.at < b.at ? 1 : -1));
}

/**
 * Applies a held layer whole (the person read it and said so: `weir changes apply ID`), through the
 * same guarded writer and journal as a settle, and removes the layer; a kill part-way is finished
 * by the next run or `weir changes`. What it applied, workspace-relative. I/O.
 */
export function applyHeld(root: string, layer: HeldLayer): string[] {
  const journal = readJournal(layer.dir) ?? applyJournal(root, layer.dir);
  const end = new Transactions(root, layer.dir).finish(layer.dir, journal);
  return journal.steps.map((s) => s.change.rel).filter((rel) => !end.kept.has(rel));
}

/** The journal of applying a held layer whole, written before its first write. I/O. */
function applyJournal(root: string, dir: string): Journal {
  const upper = join(dir, "upper");
  const steps = readChangeSet(upper).changes.map((change): Step => ({ change, move: false, was: stampOf(join(root, change.rel)) }));
  const renames = statSync(upper).dev === statSync(root).dev;
  const journal: Journal = { command: "weir changes apply", at: new Date().toISOString(), owner: thisProcess(), steps, held: [], renames };
  writeJournal(dir, journal);
  return journal;
}

/**
 * Finishes every settle under `dir` whose process died part-way (`journal.ts`), and removes every
 * view whose process died before its command's change set was settled: that command never
 * committed, so none of it reaches the workspace. Then finishes a fold of build layers a kill cut
 * short (`foldBuildLayers`). I/O: one read of `dir`, a look into each layer.
 */
export function finishSettles(root: string, dir: string, undo?: UndoLog): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("tx-"));
  } catch {
    return;
  }
  for (const name of names) {
    const at = join(dir, name);
    const journal = readJournal(at);
    if (journal) {
      if (alive(journal.owner)) continue;
      // Claimed before it is finished; of two processes claiming at once, the one whose claim stands goes on.
      writeJournal(at, { ...journal, owner: thisProcess() });
      const claimed = readJournal(at);
      if (claimed && claimed.owner.pid === process.pid) new Transactions(root, dir, undo).finish(at, claimed);
      continue;
    }
    const owner = viewOwner(at);
    if (owner && !alive(owner) && !existsSync(join(at, MANIFEST))) removeLayer(at);
  }
  // A fold cut short goes on once no view is open (one held back by an open view waits for the next build).
  if (foldCutShort(dir)) foldBuildLayers(root, dir);
}
