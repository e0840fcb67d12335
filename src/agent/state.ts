import { basename, isAbsolute, join, relative } from "node:path";
import type { ToolCallBlock, ToolResultBlock } from "../core/messages.ts";
import { textAfter } from "../actions/edit-match.ts";
import type { VerificationLedger } from "../actions/verification.ts";
import { reachableFromOtherFiles, resolveCallers } from "../context/callers.ts";
import { locate, parseFailureLocations } from "../context/failures.ts";
import { outline } from "../context/outline.ts";
import { documentedName, documentedValue, isDocumentation, isPublicApi, isSurfaceFile, namesLiteral } from "../context/public-api.ts";
import { securityBindings, touchesSecurity } from "../context/security-surface.ts";
import { diffShows, goalWords, isTestPath, namedTestsOf, pathsIn, textNaming, textOf } from "../context/sources.ts";
import type { ContextIndex } from "../context/working-set.ts";
import type { DecisionRequest } from "../decision/request.ts";
import { changeScope } from "../decision/index.ts";
import { PathRefused, resolveInWorkspace, wholeText } from "../workspace/containment.ts";
import { hashWithHead, type Ledger, sha256 } from "../workspace/ledger.ts";
import { reviewHolds } from "../store/reviews.ts";
import { walk, walkFiles } from "../workspace/walker.ts";
import { type Proposal, readProposal } from "./proposal.ts";
import { addRange, callerWithLines, type LineRange, linesNaming, unseenLines } from "./shown-lines.ts";

interface Target {
  named_by_user: boolean;
  /** Named by the task or put in the floor by the compiler: what the change is planned to touch before any edit. */
  planned: boolean;
  read: boolean;
  body_complete: boolean;
  edited: boolean;
}

/**
 * Words that make a path security-sensitive, each a word of the path (`src/auth/session.ts`,
 * `oauth2.rs`). Words with other common meanings are left out: a lexer's token, a REPL's session, a
 * test's sandbox; beside one of these (`src/auth/token.ts`) the path is sensitive anyway. Data.
 */
const SECURITY_WORDS = [
  "auth",
  "authn",
  "authz",
  "authentication",
  "authorization",
  "security",
  "crypto",
  "secret",
  "password",
  "permission",
  "acl",
  "oauth",
  "credential",
];

/**
 * Phrases of a task that name security work its paths may not: input sanitisation, secrets that are
 * tokens or keys of an API, comparisons that must take constant time. A lexer's "token kinds" or a
 * keyboard's "key codes" are none of them. Data.
 */
const SECURITY_PHRASES = ["sanitis", "sanitiz", "xss", "csrf", "sql injection", "user input", "api token", "access token", "bearer", "api key"]
  .concat(["constant time", "constant-time", "timing attack"]);

/** Whether a task asks for security work by its words: a security word of a path, or a security phrase. Pure. */
export function securityTask(task: string): boolean {
  const text = task.toLowerCase();
  return securityPath(text) || SECURITY_PHRASES.some((p) => text.includes(p));
}

/** Whether a task names a symbol, as a whole word. Pure. */
const namedIn = (task: string, name: string) => new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`).test(task);

/** Whether a path is security-sensitive by its words (a plural counts as its singular). Pure. */
export function securityPath(path: string): boolean {
  return path
    .toLowerCase()
    .split(/[^a-z]+/)
    .some((w) => SECURITY_WORDS.includes(w) || SECURITY_WORDS.includes(w.replace(/s$/, "")));
}

/**
 * Whether a task names anything to work on. Pure. A task is ambiguous only when it has almost no
 * words of its own and names no path, symbol or failure ("fix it", "do the thing"): the
 * deterministic reading of "the request is unclear" in the question set's other_review.
 */
export function taskAmbiguous(task: string): boolean {
  if (pathsIn(task, true).length > 0) return false;
  if (/`[^`]+`|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|:\d+\b/.test(task)) return false;
  // No word of its own at all: "fix it", "do the thing". A short real task ("fix lint") is not ambiguous.
  return (
    goalWords(task).filter((w) => !["it", "thing", "things", "stuff", "something", "this", "that", "again", "now", "issue", "problem", "bug"].includes(w))
      .length === 0
  );
}

/** Verbs that ask for a change. */
const CHANGE_VERBS = ["fix", "add", "implement", "change", "update", "refactor", "rename", "remove", "delete", "write", "create", "make", "migrate"]
  .concat(["convert", "bump", "replace", "port", "move", "edit", "improve", "optimi[sz]e", "support", "handle", "upgrade", "set ?up", "install"])
  .concat(["generate", "patch", "correct", "clean ?up", "document"]);
const CHANGE_WORDS = new RegExp(String.raw`\b(?:${CHANGE_VERBS.join("|")})\b`, "i");
const QUESTION = /^\s*(?:what|why|how|where|which|who|when|is|are|does|do|did|should|was|were)\b/i;
const ASK = /^\s*(?:please\s+|can you\s+|could you\s+)?/;
/** What starts a request for an answer: a verb of reading or explaining, or a question word. */
const ANSWER_VERBS = ["summari[sz]e", "explain", "describe", "list", "show", "find", "review", "read", "tell", "look", "check", "compare", "count"]
  .concat(["what", "why", "how", "where", "which", "who", "when", "is", "are", "does", "do"])
  .concat(["walk me through", "give me an? (?:overview|summary|explanation)"]);
const INSPECT_VERB = new RegExp(String.raw`(?:${ANSWER_VERBS.join("|")})\b`);
const INSPECT_START = new RegExp(ASK.source + INSPECT_VERB.source, "i");
/** A change asked for after the first clause: "… and fix it", "…? Then fix it.", "… If not, make it so." */
const NEXT_CLAUSE = String.raw`(?:[.?!;]\s+|\b(?:and|then)\s+)(?:if not,?\s+|otherwise,?\s+)?(?:please\s+)?(?:then\s+)?`;
const GOES_ON_TO_CHANGE = new RegExp(NEXT_CLAUSE + CHANGE_WORDS.source, "i");
/** Prose written into the code or its docs: "in a JSDoc comment", "into the README", "in a new section of docs/x.md". */
const DOC_PLACE = /(?:comments?|docstrings?|doc ?blocks?|readme|changelog|docs?|documentation|section|[\w./-]+\.(?:md|rst|txt))\b/;
const DOC_DETERMINERS = String.raw`(?:(?:a|an|the|its|their|this|that|new|jsdoc|tsdoc|javadoc|code|\w+'s)\s+)*`;
const INTO_PROSE = new RegExp(String.raw`\b(?:in|into|to)\s+` + DOC_DETERMINERS + DOC_PLACE.source, "i");

/**
 * Whether a task asks for a change or only for an answer about the code, read from the whole
 * sentence. Deterministic and pure:
 * - a question is `inspect` unless it goes on to ask for a change ("…? Then fix it");
 * - "explain", "describe" and the other answer verbs are `inspect` unless their prose
 *   goes into the code or its docs ("explain in a JSDoc comment …") or a change follows;
 * - otherwise any change verb makes it a change, and a trailing question mark an answer;
 * - anything else counts as a change (guidance is advisory, so the safe side is to give it).
 */
export function taskKind(task: string): "change" | "inspect" {
  if (QUESTION.test(task)) return GOES_ON_TO_CHANGE.test(task) ? "change" : "inspect";
  if (INSPECT_START.test(task)) return INTO_PROSE.test(task) || GOES_ON_TO_CHANGE.test(task) ? "change" : "inspect";
  if (CHANGE_WORDS.test(task)) return "change";
  return /\?\s*$/.test(task) ? "inspect" : "change";
}

/** Whether a task asks for relations: who calls, uses, imports or implements something. Pure. */
export function asksRelations(task: string): boolean {
  const who = /\b(?:who|what|which(?: \w+)?)\s+(?:calls?|uses?|imports?|implements?|references?|depends? on)\b/i;
  const of = /\b(?:callers?|call sites?|usages?|uses|references|implementations?|importers?|dependents)\s+of\b/i;
  const where = /\bwhere\s+(?:is|are|does)\s+\S+\s+(?:used|called|imported|referenced|implemented)\b/i;
  return who.test(task) || of.test(task) || where.test(task);
}

/** Whether a task only writes prose: a comment, docstring or documentation, not code. Pure. */
export function documentationTask(task: string): boolean {
  return (
    /\b(?:comments?|docstrings?|jsdoc|tsdoc|javadoc|readme|changelog|documentation|docs?)\b/i.test(task) &&
    !/\b(?:and|then|also)\s+(?:fix|change|add|implement|refactor|rename)\b/i.test(task)
  );
}

/**
 * Whether a task asks only for tests ("add a test for compute_total", "write unit tests covering
 * parse"): its writes are test files, not the code under test. Not when it also asks to fix,
 * change or implement something ("add a test and fix the bug"), nor to fix a test. Pure.
 */
export function testOnlyTask(task: string): boolean {
  const kinds = "(?:(?:unit|integration|regression|property|e2e|end-to-end)\\s+)?";
  const writesTests = new RegExp(
    `^\\s*(?:please\\s+)?(?:add|write|create|extend)\\s+(?:a |an |some |more |the )?${kinds}(?:tests?|specs?|test cases?)\\b`,
    "i",
  );
  const covers = /^\s*(?:please\s+)?cover\b.*\bwith (?:a |more )?tests?\b/i;
  const alsoChanges = /\b(?:and|then|also)\s+(?:fix|change|add|implement|refactor|rename|remove|make|update)\b|\bfix(?:es)?\b/i;
  return (writesTests.test(task) || covers.test(task)) && !alsoChanges.test(task);
}

/** Files the state walks at most when the run has no index. */
const WALK_LIMIT = 50_000;

/** Whether a command is `git diff` (run directly, or as a shell line with nothing piped or chained). Pure. */
export function runsGitDiff(d: { line: string; argv?: string[] }): boolean {
  const argv = d.argv ?? (/[|;&<>`$()]/.test(d.line) ? [] : d.line.trim().split(/\s+/));
  if (argv.length === 0 || basename(argv[0]!) !== "git") return false;
  // git's own options before its command: -c name=value and -C dir take a value.
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith("-")) i += argv[i] === "-c" || argv[i] === "-C" ? 2 : 1;
  return argv[i] === "diff";
}

/** The bounds of the state a request is built from. */
const LIMITS = {
  /** A target's symbols are read from its first megabyte; its SHA is of the whole file. */
  symbolBytes: 1_000_000,
  /** The newest failure locations a request carries. */
  failuresShown: 10,
  /** The most mapped tests a request names. */
  testsMapped: 20,
};

/**
 * The one work state of a run: targets (read, SHA, fresh, dirty, body complete), symbols in play,
 * tests mapped and read, failure locations, retrieval counters, rules in force and budget used. It
 * is fed only by typed tool results (`details`, `refused`), never by parsing an action's text. The
 * DecisionRequest is a projection of it (`request`); the compiled context is another (the context
 * step reads `budgetUsed`).
 */
export class WorkState {
  private targets = new Map<string, Target>();
  private callersKnown = new Set<string>();
  private callers = new Map<string, Map<string, string[]> | undefined>();
  /** What git vouched for at the newest compile (`Gathered.vouched`), until a tool runs: caller resolution then needs no stat per file. */
  private vouched: (() => ReadonlyMap<string, string>) | undefined;
  private failures: DecisionRequest["failures"] = [];
  private rounds = 0;
  private navigations = 0;
  private seen = 0;
  private testsRead = new Set<string>();
  private compilerTests = new Set<string>();
  private notes: string[] = [];
  private dirty: Set<string> | undefined;
  private untracked: Set<string> | undefined;
  /** Dirty paths whose uncommitted changes the conversation showed whole (a diff, or an untracked file read whole). */
  private changesSeen = new Set<string>();
  private files: string[] | undefined;
  private fileSet: Set<string> | undefined;
  /** The workspace's documentation, joined (`isDocumentation`), read once a planned symbol asks. */
  private docs: string | undefined;
  private refusedTargets = 0;
  /** An edit the model proposed and weir has not applied yet (`propose`). */
  private proposal: Proposal | undefined;
  /** Per path and symbol, the caller files whose call sites were not all shown, from the newest request. */
  private unread = new Map<string, string[]>();
  /** Per path, the lines the conversation showed of it, and of which content (undefined: as the working set showed it). */
  private shown = new Map<string, { sha?: string; ranges: LineRange[] }>();
  /** Rules the compiled context admitted for the current task (AGENTS.md, .weir/rules/...). */
  rules: string[] = [];
  /** Tokens of the newest compiled request over the context window, 0..1. */
  budgetUsed = 0;
  /** The token budget of the goal this run works towards, and what it has spent (none outside a goal). */
  goalBudget: { spent: number; budget: number } | undefined;

  constructor(
    private root: string,
    private home: string,
    private ledger: Ledger,
    private verification: VerificationLedger,
    /** The run's context index: its walk and file texts are shared rather than read again. */
    private index?: ContextIndex,
  ) {}

  /**
   * Files with uncommitted changes weir did not make: git status as the run's first compile read it
   * (later compiles see weir's own edits, which are not the person's).
   */
  worktreeChanges(paths: string[], untracked: string[]): void {
    this.dirty ??= new Set(paths);
    this.untracked ??= new Set(untracked);
  }

  /** Paths whose uncommitted changes a working set showed whole. */
  changesShown(paths: string[]): void {
    for (const p of paths) this.changesSeen.add(p);
  }

  /** Paths named in a new task become targets; a named path the workspace refuses is a conflict with its constraints. */
  newTask(task: string): void {
    this.refusedTargets = 0;
    // A failure location the task names is a failure of the state, as test output's are.
    for (const f of parseFailureLocations(task, 10)) {
      const path = this.located(f.path);
      if (path && !this.failures.some((x) => x.path === path && x.line === f.line)) this.failures.push({ path, line: f.line, message: f.message });
    }
    for (const p of pathsIn(task)) {
      try {
        const r = resolveInWorkspace(this.root, p, { home: this.home });
        if (r.exists) {
          const t = this.target(r.relative);
          t.named_by_user = t.planned = true;
        }
      } catch (e) {
        if (e instanceof PathRefused) this.refusedTargets++;
      }
    }
  }

  /** Files the compiled context put in the floor are targets too, found by the compiler rather than named. */
  addTargets(paths: string[]): void {
    for (const p of paths) this.target(p).planned = true;
  }

  /** Tests the compiled context mapped to the targets, whatever their names. */
  mapTests(paths: string[]): void {
    for (const p of paths) this.compilerTests.add(p);
  }

  /** A file the compiled context showed at its full level counts as read (its SHA is in the ledger); one shown in part shows the lines it showed. */
  admitted(path: string, complete: boolean, sha: string, lines: readonly { start: number; end: number }[]): void {
    const t = this.target(path);
    t.read = true;
    t.body_complete ||= complete;
    if (complete) this.shown.set(path, { ranges: [[1, Infinity]] });
    else for (const r of lines) this.show(path, sha, [r.start, r.end]);
    if (this.isTest(path)) this.testsRead.add(path);
  }

  /** Records lines the conversation showed of `path` as it is at `sha`; another content's lines no longer count. */
  private show(path: string, sha: string, [from, to]: LineRange): void {
    const before = this.shown.get(path);
    const ranges = before && (before.sha === undefined || before.sha === sha) ? before.ranges : [];
    this.shown.set(path, { sha, ranges: addRange(ranges, [from, to]) });
  }

  /** The lines of a caller naming `name` that the conversation has not shown of its current content. */
  private unseenCallSites(caller: string, name: string): number[] {
    const text = textOf(this.root, caller, this.index);
    if (text === undefined) return [];
    const sites = linesNaming(text, name);
    const seen = this.shown.get(caller);
    if (!seen || (seen.sha !== undefined && seen.sha !== sha256(text))) return sites;
    return unseenLines(seen.ranges, sites);
  }

  private isTest(path: string): boolean {
    return isTestPath(path) || this.compilerTests.has(path);
  }

  /** Targets so far, for the context step's edit targets. */
  targetPaths(): string[] {
    return [...this.targets.keys()];
  }

  /** Targets this agent edited: what another agent's view of the work must show as it is now. */
  editedPaths(): string[] {
    return [...this.targets].filter(([, t]) => t.edited).map(([p]) => p);
  }

  private target(path: string): Target {
    let t = this.targets.get(path);
    if (!t) {
      t = { named_by_user: false, planned: false, read: false, body_complete: false, edited: false };
      this.targets.set(path, t);
    }
    return t;
  }

  /** A reported path inside the workspace (absolute or relative), whether or not it exists; undefined outside it. */
  private resolved(p: string): { relative: string; exists: boolean } | undefined {
    try {
      return resolveInWorkspace(this.root, isAbsolute(p) ? relative(this.root, p) : p, { home: this.home });
    } catch {
      return undefined; // outside the workspace as given: a CI machine's path may still name one of its files
    }
  }

  /** The workspace file a reported failure path names: itself when it is one, else as `locate` finds it. */
  private located(p: string, given = this.resolved(p)): string | undefined {
    if (given?.exists) return given.relative;
    this.fileSet ??= new Set(this.workspaceFiles());
    return locate(p, this.fileSet);
  }

  /** The files git vouched for at a compile just made: true until the next tool runs. */
  vouch(files: (() => ReadonlyMap<string, string>) | undefined): void {
    this.vouched = files;
  }

  /** Learns from one finished call, from its typed details only. */
  observe(call: ToolCallBlock, result: ToolResultBlock): void {
    // A tool may have changed any file: git's word from before it is no longer evidence.
    this.vouched = undefined;
    const d = result.details;
    if (!d) return;
    switch (d.kind) {
      case "read": {
        const t = this.target(d.path);
        t.read = true;
        t.body_complete ||= d.complete;
        // An untracked file read whole shows all of its change.
        if (d.complete && this.untracked?.has(d.path)) this.changesSeen.add(d.path);
        if (this.isTest(d.path)) this.testsRead.add(d.path);
        if (d.shown || d.complete) this.show(d.path, d.sha, d.complete ? [1, Infinity] : d.shown!);
        this.rounds++;
        break;
      }
      case "write": {
        const t = this.target(d.path);
        t.edited = t.read = t.body_complete = true;
        // The model knows what it wrote of a file it had seen whole; of one seen in part, line numbers moved.
        const before = this.shown.get(d.path);
        const whole = before?.ranges.length === 1 && before.ranges[0]![0] === 1 && before.ranges[0]![1] === Infinity;
        this.shown.set(d.path, whole ? { sha: d.sha, ranges: before!.ranges } : { sha: d.sha, ranges: [] });
        this.verification.markChanged(d.path);
        break;
      }
      case "search":
        this.rounds++;
        this.seen += d.hits;
        break;
      case "list":
        this.rounds++;
        this.seen += d.paths;
        break;
      case "references":
        this.callersKnown.add(d.symbol);
        this.navigations++;
        break;
      case "command":
      case "verify":
        // A git diff the model ran at the root shows the changes of each file its output holds whole.
        if (d.kind === "command" && d.exitCode !== null && d.exitCode <= 1 && runsGitDiff(d) && !(call.input as { cwd?: string })?.cwd)
          for (const p of diffShows(result.content)) this.changesSeen.add(p);
        for (const f of d.failures) {
          const given = this.resolved(f.path);
          const path = this.located(f.path, given) ?? given?.relative;
          if (path) this.failures.push({ path, line: f.line, message: f.message });
        }
        break;
    }
    if (this.failures.length > 20) this.failures = this.failures.slice(-20);
  }

  /** Failure locations seen so far (workspace-relative), newest last. */
  failureLocations(): readonly DecisionRequest["failures"][number][] {
    return this.failures;
  }

  /** Instruction-like text the firewall found: kept as untrusted notes, never evidence. */
  note(text: string): void {
    if (this.notes.length < 10) this.notes.push(text.slice(0, 200));
  }

  /** The firewall's verdict on a tool result: what it flagged (its first two findings) becomes untrusted notes. */
  noteVerdict(r: { verdict: string; findings: readonly { excerpt: string }[] }): void {
    if (r.verdict === "evidence") return;
    for (const f of r.findings.slice(0, 2)) this.note(f.excerpt);
  }

  /** The workspace's files: those the run's newest compile walked, when there was one. */
  private workspaceFiles(): string[] {
    this.files ??= this.index
      ? (this.index.walked ?? walkFiles(this.root, this.index.walk))
      : Array.from(walk(this.root, { limit: WALK_LIMIT }), (e) => e.path);
    return this.files;
  }

  private testsFor(paths: string[]): string[] {
    const files = this.workspaceFiles();
    const out = new Set<string>();
    for (const p of paths) for (const f of namedTestsOf(p, files)) out.add(f);
    return [...out].slice(0, 20);
  }

  /**
   * A target's symbols in play: those the task names (else its top-level ones) that other files can
   * reach (context/callers.ts, per language), at most eight, each with
   * whether its callers are known: found by find_references, or resolved by the compiler's import
   * graph with every caller file read (a caller file the working set showed whole counts as read;
   * tests are not callers here, they are the mapped tests).
   */
  private async symbolsOf(path: string, text: string, sha: string, task: string, proposal?: Proposal): Promise<DecisionRequest["symbols"]> {
    const all = (await outline(path, text).catch(() => undefined))?.symbols ?? [];
    const named = all.filter((x) => namedIn(task, x.name));
    // A proposed edit says which symbols are in play: those whose lines it touches.
    const candidates = (proposal ? all.filter((x) => proposal.touched.includes(x.name)) : named.length ? named : all.filter((x) => !x.parent)).slice(0, 30);
    const callers = await this.callersOf(path, sha, candidates.map((x) => x.name));
    const inPlay = candidates.filter((x) => reachableFromOtherFiles(path, x, (callers?.get(x.name)?.length ?? 0) > 0)).slice(0, 8);
    return inPlay.map((x) => {
      // A test that calls it is a mapped test, which retrieval reads (`tests`), not a caller to navigate to.
      const found = callers?.get(x.name)?.filter((f) => !this.isTest(f));
      // A caller is seen when the lines naming the symbol were shown, not when its file was touched.
      const unread = (found ?? []).flatMap((f) => {
        const lines = this.unseenCallSites(f, x.name);
        return lines.length ? [callerWithLines(f, lines)] : [];
      });
      this.unread.set(`${path}\0${x.name}`, unread);
      const resolved = found !== undefined && unread.length === 0;
      return {
        name: x.name,
        path,
        // In play means reachable from another file (`reachableFromOtherFiles`): exported, as @3 defines it.
        exported: true,
        callers_known: this.callersKnown.has(x.name) || resolved,
        kind: x.kind === "struct" || x.kind === "enum" || x.kind === "trait" ? "type" : x.kind === "impl" || x.kind === "module" ? "const" : x.kind,
        ...(proposal ? { signature_change: proposal.signatures.includes(x.name) } : {}),
      };
    });
  }

  /** Callers per name, resolved once per target content and write count (context/callers.ts). */
  private async callersOf(path: string, sha: string, names: string[]): Promise<Map<string, string[]> | undefined> {
    const key = `${path}\0${sha}\0${this.verification.changed.size}\0${names.join(",")}`;
    if (!this.callers.has(key)) {
      const files = this.workspaceFiles();
      // Only the files that name a symbol are decoded and kept: the sweep leaves nothing else behind.
      const read = (rel: string) => textNaming(this.root, rel, names, this.index);
      const callers = this.index?.callers;
      const vouched = this.vouched;
      this.callers.set(key, await resolveCallers(path, names, files, read, callers ? () => callers(path, names, files, vouched?.()) : undefined));
    }
    return this.callers.get(key);
  }

  /**
   * An edit call the model proposed, read before it is applied (agent/proposal.ts): until
   * `withdraw`, requests plan it — its file, the symbols it touches, whether it changes their
   * declarations and behaviour. Undefined for a call that edits no existing file.
   */
  async propose(call: { name: string; input: unknown }): Promise<Proposal | undefined> {
    const path = (call.input as { path?: unknown } | undefined)?.path;
    // Only an edit proposes anything: no other call's file is read for it.
    if (typeof path !== "string" || (call.name !== "edit_file" && call.name !== "write_file")) return undefined;
    let before: string;
    let relativePath: string;
    try {
      const r = resolveInWorkspace(this.root, path, { home: this.home });
      const text = r.exists ? wholeText(r.absolute) : undefined;
      if (text === undefined) return undefined;
      before = text;
      relativePath = r.relative;
    } catch {
      return undefined;
    }
    const after = textAfter(call, before);
    if (after === undefined) return undefined;
    this.proposal = await readProposal(relativePath, before, after);
    return this.proposal;
  }

  withdraw(): void {
    this.proposal = undefined;
  }

  /**
   * Whether a planned symbol is reachable from its package's entry points (`isPublicApi`): the
   * package's users call it, so a change to it is a public-API change before any edit is made.
   */
  private reachesEntry(symbols: DecisionRequest["symbols"]): boolean {
    if (symbols.length === 0) return false;
    const files = (this.fileSet ??= new Set(this.workspaceFiles()));
    const read = (rel: string) => textOf(this.root, rel, this.index);
    if (symbols.some((x) => isPublicApi(x.path, x.name, files, read))) return true;
    // What the documentation names is public too: a documented default or behaviour.
    const docs = this.documentation();
    return symbols.some((x) => documentedName(x.name, docs));
  }

  /** Whether a planned file is itself its package's surface (`isSurfaceFile`). */
  private isSurface(path: string): boolean {
    const files = (this.fileSet ??= new Set(this.workspaceFiles()));
    return isSurfaceFile(path, files, (rel) => textOf(this.root, rel, this.index));
  }

  /**
   * Whether a planned change alters what a party outside the code reads: a symbol the entry points
   * reach or the docs name, a name the task quotes that a planned file holds as a string (a flag, a
   * field, a key), or a value the task names that a planned file holds and the docs state (a default).
   */
  private externallyRead(task: string, planned: string[], symbols: DecisionRequest["symbols"]): boolean {
    if (this.reachesEntry(symbols.filter((x) => planned.includes(x.path)))) return true;
    const texts = planned.map((p) => textOf(this.root, p, this.index) ?? "");
    if (texts.some((t) => namesLiteral(task, t))) return true;
    return texts.some((t) => documentedValue(task, t, this.documentation()));
  }

  /** The workspace's documentation, read once (at most 40 files of 200,000 characters). */
  private documentation(): string {
    const files = (this.fileSet ??= new Set(this.workspaceFiles()));
    this.docs ??= [...files].filter(isDocumentation).slice(0, 40).map((f) => (textOf(this.root, f, this.index) ?? "").slice(0, 200_000)).join("\n");
    return this.docs;
  }

  /** Caller files of a symbol that were resolved and are not read yet (as of the newest request). */
  unreadCallers(path: string, name: string): string[] {
    return this.unread.get(`${path}\0${name}`) ?? [];
  }

  async request(task: string, questionSet: string): Promise<DecisionRequest> {
    const kind = taskKind(task);
    const proposal = this.proposal;
    if (proposal) this.target(proposal.path);
    const plan = this.plan(task, kind, proposal);
    const { targets, symbols } = await this.targetFacts(task, plan.planned, proposal);
    const behaviour = this.behaviourChanges(task, plan, proposal);
    const securityCode = await this.securityByCode(task, plan.planned, proposal);
    const files = this.workspaceFiles();
    return {
      question_set: questionSet,
      task,
      task_flags: { ambiguous: taskAmbiguous(task), conflicts_with_constraints: this.refusedTargets > 0, asks_relations: asksRelations(task) },
      task_kind: kind,
      targets,
      symbols,
      tests: this.testFacts(files),
      failures: this.failures.slice(-LIMITS.failuresShown),
      verification: await this.verificationFacts(),
      retrieval: {
        rounds: this.rounds,
        candidates_seen: this.seen,
        candidates_admitted: targets.filter((t) => t.read).length,
        budget_used_ratio: Math.min(1, Math.max(0, this.budgetUsed, this.goalBudget ? this.goalBudget.spent / this.goalBudget.budget : 0)),
        navigations: this.navigations,
        workspace_files: files.length,
      },
      change: this.changeFacts(task, plan.planned, behaviour, symbols, securityCode),
      untrusted_notes: [...this.notes],
    };
  }

  /**
   * What the change is planned to touch. Before the first edit, what the task and the compiler
   * planned; after it (or once an edit is proposed), what was edited. A task that asks only for
   * tests plans the tests (those there are, mapped to its targets), not the code they exercise: its
   * callers are not needed and its behaviour does not change.
   */
  private plan(task: string, kind: DecisionRequest["task_kind"], proposal: Proposal | undefined): { planned: string[]; edited: string[]; testsOnly: boolean } {
    const edited = [...this.targets].filter(([p, t]) => t.edited || p === proposal?.path).map(([p]) => p);
    const testsOnly = edited.length === 0 && kind === "change" && testOnlyTask(task);
    const plannedTargets = [...this.targets].filter(([, t]) => t.planned).map(([p]) => p);
    const testPlan = () => [...new Set([...plannedTargets.filter((p) => this.isTest(p)), ...this.testsFor(plannedTargets.filter((p) => !this.isTest(p)))])];
    const planned = edited.length > 0 ? edited : kind === "change" ? (testsOnly ? testPlan() : plannedTargets) : [];
    return { planned, edited, testsOnly };
  }

  /** Each target as it is on disk now (fresh against the ledger, dirty, shown), and the symbols in play of those planned. I/O: hashes each target. */
  private async targetFacts(task: string, planned: string[], proposal: Proposal | undefined): Promise<Pick<DecisionRequest, "targets" | "symbols">> {
    const targets: DecisionRequest["targets"] = [];
    const symbols: DecisionRequest["symbols"] = [];
    for (const [path, t] of this.targets) {
      const disk = this.onDisk(path);
      const dirty = this.dirty?.has(path) === true && !t.edited;
      const shown = dirty && this.changesSeen.has(path);
      targets.push({
        path,
        named_by_user: t.named_by_user,
        read: t.read,
        sha_fresh: disk.fresh,
        dirty_in_worktree: dirty,
        worktree_shown: shown,
        body_complete: t.body_complete,
      });
      if (disk.text !== undefined && (t.edited || t.named_by_user || planned.includes(path)))
        symbols.push(...(await this.symbolsOf(path, disk.text, disk.sha, task, proposal?.path === path ? proposal : undefined)));
    }
    return { targets, symbols };
  }

  /** A target's SHA (whole file) and text (its first `LIMITS.symbolBytes`), and whether the ledger's SHA is still it. I/O. */
  private onDisk(path: string): { fresh: boolean; text?: string; sha: string } {
    try {
      const abs = resolveInWorkspace(this.root, path, { home: this.home }).absolute;
      const read = hashWithHead(abs, LIMITS.symbolBytes);
      const seen = this.ledger.get(abs);
      return { fresh: seen === undefined || seen === read.sha, text: read.head.toString("utf8"), sha: read.sha };
    } catch {
      return { fresh: false, sha: "" }; // gone or refused since it became a target: not fresh
    }
  }

  /**
   * Whether the planned change alters behaviour: code is planned, not only tests, and (before an
   * edit) the task writes more than prose (a comment, a docstring, docs); an edit that is proposed,
   * not made, says for itself whether it changes code.
   */
  private behaviourChanges(task: string, plan: { planned: string[]; edited: string[]; testsOnly: boolean }, proposal: Proposal | undefined): boolean {
    const code = plan.planned.filter((p) => !/\.(md|txt|rst)$/i.test(p));
    const made = [...this.targets].some(([p, t]) => t.edited && code.includes(p));
    return code.length > 0 && !plan.testsOnly && (proposal ? proposal.behaviour || made : plan.edited.length > 0 || !documentationTask(task));
  }

  /** The mapped tests (by name and by the compiler), whether one was read, and whether the whole file list was searched for them. */
  private testFacts(files: string[]): DecisionRequest["tests"] {
    const byName = this.testsFor([...this.targets.keys()].filter((p) => !this.isTest(p)));
    const mapped = [...new Set([...byName, ...this.compilerTests])].slice(0, LIMITS.testsMapped);
    const read = mapped.length > 0 ? mapped.some((m) => this.testsRead.has(m)) : this.testsRead.size > 0;
    // The whole file list was searched by name (and the compiler's import graph) unless a walk without the index stopped at its limit.
    return { mapped, read, searched: this.index !== undefined || files.length < WALK_LIMIT };
  }

  /** The last check's evidence against the current revision. I/O: asks git the revision when there is evidence. */
  private async verificationFacts(): Promise<DecisionRequest["verification"]> {
    const last = this.verification.evidence.at(-1);
    const revisionNow = last ? await this.verification.revision() : "";
    return {
      files_changed_since_last_pass: this.verification.changed.size > 0 && !(last?.passed && last.revision === revisionNow),
      last_run: last ? { level: last.level, passed: last.passed, revision_current: last.revision === revisionNow } : null,
    };
  }

  /**
   * Whether the code a change plans touches a security surface (context/security-surface.ts), or a
   * review that still holds found a security problem there (`weir index --review`): in each planned
   * file, the functions the edit touches or the task names, else the whole file. I/O: reads the
   * planned files.
   */
  private async securityByCode(task: string, planned: string[], proposal: Proposal | undefined): Promise<boolean> {
    for (const path of planned) {
      const text = textOf(this.root, path, this.index);
      if (text === undefined) continue;
      const bindings = securityBindings(text);
      const symbols = (await outline(path, text).catch(() => undefined))?.symbols ?? [];
      const named = symbols.filter((x) => (proposal?.path === path ? proposal.touched.includes(x.name) : namedIn(task, x.name)));
      const lines = text.split("\n");
      const spans = named.length ? named.map((x) => [x.line, x.endLine] as const) : [[1, lines.length] as const];
      if (spans.some(([from, to]) => touchesSecurity(lines.slice(from - 1, to).join("\n"), bindings))) return true;
      if (this.reviewedSecurity(path).some((line) => spans.some(([from, to]) => from <= line && line <= to))) return true;
    }
    return false;
  }

  /** The lines of `path` a stored review found a security problem at, while every file it read is unchanged. */
  private reviewedSecurity(path: string): number[] {
    const sha = (p: string) => {
      try {
        return hashWithHead(join(this.root, p), 0).sha;
      } catch {
        return undefined;
      }
    };
    return (this.index?.reviewed?.([path]) ?? [])
      .filter((r) => r.findings.some((f) => f.kind === "security") && reviewHolds(r, sha))
      .flatMap((r) => r.findings.filter((f) => f.kind === "security" && f.path === path).map((f) => f.line));
  }

  /** The planned change's scope and surfaces, from its paths, the symbols in play and what its code touches. */
  private changeFacts(
    task: string,
    planned: string[],
    behaviour: boolean,
    symbols: DecisionRequest["symbols"],
    securityCode: boolean,
  ): DecisionRequest["change"] {
    return {
      planned_scope: changeScope(planned),
      security_sensitive: planned.some(securityPath) || (planned.length > 0 && securityTask(task)) || securityCode,
      // A change that leaves behaviour as it is (a comment) changes no API its users depend on. A name the
      // task quotes that a planned file holds as a string (a flag, a field, a key) is one other programs read.
      public_api: planned.some((p) => this.isSurface(p)) || (behaviour && this.externallyRead(task, planned, symbols)),
      behaviour_change: behaviour,
      persistence: planned.some((p) => /(?:migrations?|schema|\.sql$)/i.test(p)),
    };
  }

}
