import { readFileSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import type { ToolCallBlock, ToolResultBlock } from "../core/messages.ts";
import type { VerificationLedger } from "../actions/verification.ts";
import { parseFailureLocations } from "../context/failures.ts";
import { outline } from "../context/outline.ts";
import { goalWords, isTestPath, pathsIn, testNamesFor } from "../context/sources.ts";
import type { DecisionRequest } from "../decision/request.ts";
import { PathRefused, resolveInWorkspace } from "../workspace/containment.ts";
import { gitOutput } from "../workspace/git.ts";
import { type Ledger, sha256 } from "../workspace/ledger.ts";
import { walk } from "../workspace/walker.ts";

interface Target {
  named_by_user: boolean;
  read: boolean;
  body_complete: boolean;
  edited: boolean;
}

const SECURITY = /(?:^|\/)(?:auth|authn|authz|security|crypto|secrets?|passwords?|tokens?|permissions?|sandbox|acl|oauth|session)s?(?:[./_-]|$)/i;

/**
 * Whether a task names anything to work on. Pure. A task is ambiguous only when it has almost no
 * words of its own and names no path, symbol or failure ("fix it", "do the thing"): the
 * deterministic reading of "the request is unclear" in the question set's other_review.
 */
export function taskAmbiguous(task: string): boolean {
  if (pathsIn(task, true).length > 0) return false;
  if (/`[^`]+`|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|:\d+\b/.test(task)) return false;
  // No word of its own at all: "fix it", "do the thing". A short real task ("fix lint") is not ambiguous.
  return goalWords(task).filter((w) => !["it", "thing", "things", "stuff", "something", "this", "that", "again", "now", "issue", "problem", "bug"].includes(w)).length === 0;
}

const CHANGE_WORDS = /\b(?:fix|add|implement|change|update|refactor|rename|remove|delete|write|create|make|migrate|convert|bump|replace|port|move|edit|improve|optimi[sz]e|support|handle|upgrade|set ?up|install|generate|patch|correct|clean ?up)\b/i;
const QUESTION = /^\s*(?:what|why|how|where|which|who|when|is|are|does|do|did|should|was|were)\b/i;
const INSPECT_START = /^\s*(?:please\s+|can you\s+|could you\s+)?(?:summari[sz]e|explain|describe|what|why|how|where|which|who|when|list|show|find|review|read|tell|look|check|is|are|does|do|compare|count)\b/i;

/**
 * Whether a task asks for a change or only for an answer about the code. Deterministic: a question
 * is `inspect` unless it goes on to ask for a change; else any change verb makes it a change; else a question or an inspect verb at its start makes it `inspect`;
 * anything else counts as a change (guidance is advisory, so the safe side is to give it). Pure.
 */
export function taskKind(task: string): "change" | "inspect" {
  // A question is a question ("is the cache invalidated on write?") unless it goes on to ask for a change.
  if (QUESTION.test(task) && !new RegExp(String.raw`\b(?:and|then)\s+(?:please\s+)?${CHANGE_WORDS.source}`, "i").test(task)) return "inspect";
  if (CHANGE_WORDS.test(task)) return "change";
  return INSPECT_START.test(task) || /\?\s*$/.test(task) ? "inspect" : "change";
}

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
  private failures: DecisionRequest["failures"] = [];
  private rounds = 0;
  private seen = 0;
  private testsRead = new Set<string>();
  private notes: string[] = [];
  private dirty = new Set<string>();
  private files: string[] | undefined;
  private refusedTargets = 0;
  /** Rules the compiled context admitted for the current task (AGENTS.md, .weir/rules/...). */
  rules: string[] = [];
  /** Tokens of the newest compiled request over the context window, 0..1. */
  budgetUsed = 0;

  constructor(
    private root: string,
    private home: string,
    private ledger: Ledger,
    private verification: VerificationLedger,
  ) {}

  /** Files with uncommitted changes weir did not make, from git status at session start. */
  setDirty(paths: string[]): void {
    this.dirty = new Set(paths);
  }

  /** Paths named in a new task become targets; a named path the workspace refuses is a conflict with its constraints. */
  newTask(task: string): void {
    this.refusedTargets = 0;
    // A failure location the task names is a failure of the state, as test output's are.
    for (const f of parseFailureLocations(task, 10)) {
      let path: string | undefined;
      try {
        const r = resolveInWorkspace(this.root, f.path, { home: this.home });
        if (r.exists) path = r.relative;
      } catch {
        path = undefined;
      }
      if (path && !this.failures.some((x) => x.path === path && x.line === f.line)) this.failures.push({ path, line: f.line, message: f.message });
    }
    for (const p of pathsIn(task)) {
      try {
        const r = resolveInWorkspace(this.root, p, { home: this.home });
        if (r.exists) this.target(r.relative).named_by_user = true;
      } catch (e) {
        if (e instanceof PathRefused) this.refusedTargets++;
      }
    }
  }

  /** Files the compiled context put in the floor are targets too, found by the compiler rather than named. */
  addTargets(paths: string[]): void {
    for (const p of paths) this.target(p);
  }

  /** A file the compiled context showed in full counts as read (its SHA is in the ledger). */
  admitted(path: string, complete: boolean): void {
    const t = this.target(path);
    t.read = true;
    t.body_complete ||= complete;
    if (isTestPath(path)) this.testsRead.add(path);
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
      t = { named_by_user: false, read: false, body_complete: false, edited: false };
      this.targets.set(path, t);
    }
    return t;
  }

  private rel(p: string): string | undefined {
    try {
      return resolveInWorkspace(this.root, isAbsolute(p) ? relative(this.root, p) : p, { home: this.home }).relative;
    } catch {
      return undefined;
    }
  }

  /** Learns from one finished call, from its typed details only. */
  observe(call: ToolCallBlock, result: ToolResultBlock): void {
    const d = result.details;
    if (!d) return;
    switch (d.kind) {
      case "read": {
        const t = this.target(d.path);
        t.read = true;
        t.body_complete ||= d.complete;
        if (isTestPath(d.path)) this.testsRead.add(d.path);
        this.rounds++;
        break;
      }
      case "write": {
        const t = this.target(d.path);
        t.edited = t.read = t.body_complete = true;
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
        break;
      case "command":
      case "verify":
        for (const f of d.failures) {
          const path = this.rel(f.path);
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

  /** The worktree's changed files, from git (none outside a repository). */
  async readDirty(): Promise<void> {
    const porcelain = (await gitOutput(this.root, ["status", "--porcelain=v1"])) ?? "";
    this.setDirty(porcelain.split("\n").filter(Boolean).map((l) => l.slice(3)));
  }

  private testsFor(paths: string[]): string[] {
    this.files ??= Array.from(walk(this.root, { limit: 50_000 }), (e) => e.path);
    const out = new Set<string>();
    for (const p of paths) {
      const re = testNamesFor(p);
      for (const f of this.files) if (f !== p && re.test(f)) out.add(f);
    }
    return [...out].slice(0, 20);
  }

  async request(task: string, questionSet: string): Promise<DecisionRequest> {
    const targets: DecisionRequest["targets"] = [];
    const symbols: DecisionRequest["symbols"] = [];
    for (const [path, t] of this.targets) {
      let fresh = true;
      let text: string | undefined;
      try {
        const abs = resolveInWorkspace(this.root, path, { home: this.home }).absolute;
        const bytes = readFileSync(abs);
        text = bytes.toString("utf8");
        const seen = this.ledger.get(abs);
        fresh = seen === undefined || seen === sha256(bytes);
      } catch {
        fresh = false;
      }
      targets.push({ path, named_by_user: t.named_by_user, read: t.read, sha_fresh: fresh, dirty_in_worktree: this.dirty.has(path) && !t.edited, body_complete: t.body_complete });
      if (text !== undefined && (t.edited || t.named_by_user)) {
        const o = await outline(path, text).catch(() => undefined);
        for (const s of (o?.symbols ?? []).filter((x) => x.exported && !x.parent).slice(0, 8))
          symbols.push({
            name: s.name,
            path,
            exported: true,
            callers_known: this.callersKnown.has(s.name),
            kind: s.kind === "struct" || s.kind === "enum" || s.kind === "trait" ? "type" : s.kind === "impl" || s.kind === "module" ? "const" : s.kind,
          });
      }
    }
    const edited = [...this.targets].filter(([, t]) => t.edited).map(([p]) => p);
    const tops = new Set(edited.map((p) => p.split("/")[0]));
    const dirs = new Set(edited.map((p) => p.split("/").slice(0, -1).join("/")));
    const code = edited.filter((p) => !/\.(md|txt|rst)$/i.test(p));
    const mapped = this.testsFor([...this.targets.keys()].filter((p) => !isTestPath(p)));
    const last = this.verification.evidence.at(-1);
    const revisionNow = last ? await this.verification.revision() : "";
    return {
      question_set: questionSet,
      task,
      task_flags: { ambiguous: taskAmbiguous(task), conflicts_with_constraints: this.refusedTargets > 0 },
      task_kind: taskKind(task),
      targets,
      symbols,
      tests: { mapped, read: mapped.length > 0 ? mapped.some((m) => this.testsRead.has(m)) : this.testsRead.size > 0 },
      failures: this.failures.slice(-10),
      verification: {
        files_changed_since_last_pass: this.verification.changed.size > 0 && !(last?.passed && last.revision === revisionNow),
        last_run: last ? { level: last.level, passed: last.passed, revision_current: last.revision === revisionNow } : null,
      },
      retrieval: { rounds: this.rounds, candidates_seen: this.seen, candidates_admitted: targets.filter((t) => t.read).length, budget_used_ratio: Math.min(1, Math.max(0, this.budgetUsed)) },
      change: {
        planned_scope: edited.length === 0 ? "none" : tops.size > 1 ? "cross_module" : dirs.size > 1 || edited.length > 2 ? "module" : "local",
        security_sensitive: edited.some((p) => SECURITY.test(p)),
        public_api: edited.some((p) => /(?:^|\/)(?:index\.[jt]sx?|api\/|public\/|[^/]+\.d\.ts$|lib\.rs$|__init__\.py$)/.test(p)),
        behaviour_change: code.length > 0,
        persistence: edited.some((p) => /(?:migrations?|schema|\.sql$)/i.test(p)),
      },
      untrusted_notes: [...this.notes],
    };
  }
}
