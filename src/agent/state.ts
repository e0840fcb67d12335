import { readFileSync } from "node:fs";
import type { ToolCallBlock, ToolResultBlock } from "../core/messages.ts";
import type { VerificationLedger } from "../actions/verification.ts";
import { parseFailureLocations } from "../context/failures.ts";
import { outline } from "../context/outline.ts";
import { isTestPath, pathsIn, testNamesFor } from "../context/sources.ts";
import type { DecisionRequest } from "../decision/request.ts";
import { resolveInWorkspace } from "../workspace/containment.ts";
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
 * What the loop has learned this session, fed by every tool call and result, from which a
 * DecisionRequest is built at each turn boundary. Building reads the disk (SHA freshness) but the
 * decision itself stays pure.
 */
export class LoopState {
  private targets = new Map<string, Target>();
  private callersKnown = new Set<string>();
  private failures: DecisionRequest["failures"] = [];
  private rounds = 0;
  private seen = 0;
  private testsRead = false;
  private notes: string[] = [];
  private dirty = new Set<string>();
  private files: string[] | undefined;

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

  /** Paths named in a new task become targets. */
  newTask(task: string): void {
    for (const p of pathsIn(task)) {
      try {
        const r = resolveInWorkspace(this.root, p, { home: this.home });
        if (r.exists) this.target(r.relative).named_by_user = true;
      } catch {
        // a refused path is not a target
      }
    }
  }

  private target(path: string): Target {
    let t = this.targets.get(path);
    if (!t) {
      t = { named_by_user: false, read: false, body_complete: false, edited: false };
      this.targets.set(path, t);
    }
    return t;
  }

  private rel(p: unknown): string | undefined {
    if (typeof p !== "string") return undefined;
    try {
      return resolveInWorkspace(this.root, p, { home: this.home }).relative;
    } catch {
      return undefined;
    }
  }

  /** Learns from one finished call. */
  observe(call: ToolCallBlock, result: ToolResultBlock): void {
    const input = (call.input ?? {}) as Record<string, unknown>;
    const path = this.rel(input.path);
    if (call.name === "read_file" && path && !result.isError) {
      const t = this.target(path);
      t.read = true;
      const whole = !/ lines \d+-\d+ of \d+\)/.test(result.content.split("\n")[0] ?? "");
      t.body_complete ||= whole;
      if (isTestPath(path)) this.testsRead = true;
      this.rounds++;
    } else if ((call.name === "edit_file" || call.name === "write_file") && path && !result.isError) {
      const t = this.target(path);
      t.edited = true;
      t.read = true;
      t.body_complete = true;
      this.verification.markChanged(path);
    } else if (call.name === "search" || call.name === "list_files") {
      this.rounds++;
      this.seen += (result.content.match(/\n/g) ?? []).length;
    } else if (call.name === "find_references" && !result.isError && typeof input.symbol === "string") {
      this.callersKnown.add(input.symbol.split(".").pop()!);
    }
    if (call.name === "run_command" || call.name === "shell" || call.name === "verify")
      for (const f of parseFailureLocations(result.content, 10)) if (result.isError) this.failures.push({ path: f.path, line: f.line, message: f.message });
    if (this.failures.length > 20) this.failures = this.failures.slice(-20);
  }

  /** Instruction-like text the firewall found: kept as untrusted notes, never evidence. */
  note(text: string): void {
    if (this.notes.length < 10) this.notes.push(text.slice(0, 200));
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
    const mapped = this.testsFor([...this.targets.keys()]);
    const last = this.verification.evidence.at(-1);
    const revisionNow = last ? await this.verification.revision() : "";
    return {
      question_set: questionSet,
      task,
      task_flags: { ambiguous: false, conflicts_with_constraints: false },
      targets,
      symbols,
      tests: { mapped, read: this.testsRead },
      failures: this.failures.slice(-10),
      verification: {
        files_changed_since_last_pass: this.verification.changed.size > 0 && !(last?.passed && last.revision === revisionNow),
        last_run: last ? { level: last.level, passed: last.passed, revision_current: last.revision === revisionNow } : null,
      },
      retrieval: { rounds: this.rounds, candidates_seen: this.seen, candidates_admitted: targets.filter((t) => t.read).length, budget_used_ratio: 0 },
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
