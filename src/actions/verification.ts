import { existsSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { isTestPath } from "../context/sources.ts";
import { gitOutput } from "../workspace/git.ts";
import { sha256 } from "../workspace/ledger.ts";

/** Verification evidence: a check's result bound to the revision it ran on. */
export interface Evidence {
  /** The action that produced it: verify, or a project check run through run_command / shell. */
  producer: "verify" | "run_command" | "shell";
  check: string;
  command: string;
  level: "quick" | "full";
  exitCode: number | null;
  passed: boolean;
  /** A run that was cut short (timeout, cancel) is never called complete. */
  complete: boolean;
  revision: string;
  at: number;
}

type EvidenceState = "none" | "passed" | "failed" | "stale" | "not_needed";

/**
 * What has been verified, on which revision. The revision is git HEAD plus a hash of the worktree
 * diff (or, outside git, a counter of weir's own writes), so any later change makes evidence stale.
 */
/** Prose and pictures no check runs: a change to them alone needs no verification. Pure. */
export function isDocumentation(path: string): boolean {
  const name = path.split("/").pop() ?? "";
  if (/^(?:LICEN[CS]E|COPYING|AUTHORS|CHANGELOG|CHANGES|NOTICE)(?:\.\w+)?$/i.test(name)) return true;
  return /\.(?:md|mdx|markdown|txt|rst|adoc|png|jpe?g|gif|svg|webp)$/i.test(name) || path.startsWith("docs/");
}

export class VerificationLedger {
  evidence: Evidence[] = [];
  /** Paths weir changed in this session. */
  changed = new Set<string>();
  private writes = 0;
  /**
   * By check: the test files its failures since its last pass named, and what weir had changed by
   * the first of them (a check's own pass ends them; another check's pass says nothing of them).
   */
  private failing = new Map<string, { tests: Set<string>; changedBefore: Set<string> }>();
  /**
   * Told when tests a check saw fail pass again after weir changed these source files: the test
   * map's recorded part (store/test-links.ts).
   */
  onFixed?: (sources: string[], tests: string[]) => void;

  constructor(private root: string) {}

  markChanged(path: string): void {
    this.changed.add(path);
    this.writes++;
  }

  async revision(): Promise<string> {
    const head = (await gitOutput(this.root, ["rev-parse", "HEAD"]))?.trim();
    if (!head) return `writes:${this.writes}`;
    const diff = (await gitOutput(this.root, ["diff", "HEAD", "--relative", "--no-color", "--no-ext-diff"])) ?? "";
    const untracked = (await gitOutput(this.root, ["ls-files", "--others", "--exclude-standard"])) ?? "";
    return `${head}:${sha256(diff + untracked).slice(0, 16)}`;
  }

  /**
   * Records a check's result. A complete pass after failures whose locations named test files links
   * those tests to the source files weir changed in between (tests and prose aside).
   */
  record(e: Evidence): void {
    this.evidence.push(e);
    const failed = this.failing.get(e.check);
    if (!e.passed || !e.complete || !failed) return;
    const { tests, changedBefore } = failed;
    this.failing.delete(e.check);
    const sources = [...this.changed].map((p) => this.inWorkspace(p)).filter((p) => p && !changedBefore.has(p) && !isTestPath(p) && !isDocumentation(p));
    if (sources.length) this.onFixed?.(sources as string[], [...tests]);
  }

  /** `check` failed at these locations (paths as its output printed them): its test files are kept until it passes. */
  failedAt(check: string, paths: readonly string[]): void {
    const tests = paths.map((p) => this.inWorkspace(p)).filter((p) => p && isTestPath(p) && existsSync(join(this.root, p))) as string[];
    if (tests.length === 0) return;
    const failed = this.failing.get(check) ?? { tests: new Set<string>(), changedBefore: new Set([...this.changed].map((p) => this.inWorkspace(p))) };
    for (const t of tests) failed.tests.add(t);
    this.failing.set(check, failed);
  }

  /** A path relative to the workspace, or "" for one outside it. */
  private inWorkspace(path: string): string {
    const rel = relative(this.root, isAbsolute(path) ? path : join(this.root, path));
    return rel.startsWith("..") || isAbsolute(rel) ? "" : rel.split("\\").join("/");
  }

  /** The state at the current revision: the latest complete run decides, and a failure is never shown as a pass. */
  async state(): Promise<{ state: EvidenceState; latest?: Evidence }> {
    if (this.changed.size === 0 && this.evidence.length === 0) return { state: "not_needed" };
    const latest = this.evidence.at(-1);
    if (!latest) return { state: "none" };
    if (latest.revision !== (await this.revision())) return { state: "stale", latest };
    return { state: latest.passed && latest.complete ? "passed" : "failed", latest };
  }
}
