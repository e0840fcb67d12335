import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

  constructor(private root: string) {}

  markChanged(path: string): void {
    this.changed.add(path);
    this.writes++;
  }

  async revision(): Promise<string> {
    const head = (await gitOutput(this.root, ["rev-parse", "HEAD"]))?.trim();
    if (!head) return `writes:${this.writes}`;
    const diff = (await gitOutput(this.root, ["diff", "HEAD", "--no-color", "--no-ext-diff"])) ?? "";
    const untracked = (await gitOutput(this.root, ["ls-files", "--others", "--exclude-standard"])) ?? "";
    return `${head}:${sha256(diff + untracked).slice(0, 16)}`;
  }

  record(e: Evidence): void {
    this.evidence.push(e);
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

export interface Check {
  name: string;
  program: string;
  args: string[];
  level: "quick" | "full";
}

function runnerFor(root: string): string {
  if (existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb"))) return "bun";
  if (existsSync(join(root, "pnpm-lock.yaml"))) return "pnpm";
  if (existsSync(join(root, "yarn.lock"))) return "yarn";
  return "npm";
}

/**
 * The project's own checks, detected from what exists: package.json scripts, Makefile targets,
 * Cargo, Go, pytest configuration. Never a command that is not there.
 */
export function detectChecks(root: string): Check[] {
  const checks: Check[] = [];
  const pkgPath = join(root, "package.json");
  if (existsSync(pkgPath)) {
    let scripts: Record<string, string> = {};
    try {
      scripts = (JSON.parse(readFileSync(pkgPath, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
    } catch {
      // a broken package.json has no scripts we can trust
    }
    const runner = runnerFor(root);
    const script = (name: string, level: Check["level"]) =>
      scripts[name] && checks.push({ name: `${runner} run ${name}`, program: runner, args: runner === "yarn" ? [name] : ["run", name], level });
    script("test", "quick");
    for (const name of ["typecheck", "check", "lint", "build"]) script(name, "full");
  }
  const makefile = join(root, "Makefile");
  if (existsSync(makefile)) {
    const targets = new Set([...readFileSync(makefile, "utf8").matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]!));
    if (targets.has("test") && !checks.some((c) => c.level === "quick")) checks.push({ name: "make test", program: "make", args: ["test"], level: "quick" });
    for (const t of ["check", "lint"]) if (targets.has(t)) checks.push({ name: `make ${t}`, program: "make", args: [t], level: "full" });
  }
  if (existsSync(join(root, "Cargo.toml"))) {
    checks.push({ name: "cargo test", program: "cargo", args: ["test"], level: "quick" });
    checks.push({ name: "cargo clippy", program: "cargo", args: ["clippy", "--all-targets"], level: "full" });
  }
  if (existsSync(join(root, "go.mod"))) {
    checks.push({ name: "go test ./...", program: "go", args: ["test", "./..."], level: "quick" });
    checks.push({ name: "go vet ./...", program: "go", args: ["vet", "./..."], level: "full" });
  }
  const pyproject = join(root, "pyproject.toml");
  const pytest =
    existsSync(join(root, "pytest.ini")) ||
    (existsSync(pyproject) && readFileSync(pyproject, "utf8").includes("[tool.pytest")) ||
    (existsSync(join(root, "setup.cfg")) && readFileSync(join(root, "setup.cfg"), "utf8").includes("[tool:pytest]")) ||
    (existsSync(join(root, "tox.ini")) && readFileSync(join(root, "tox.ini"), "utf8").includes("[pytest]"));
  if (pytest) checks.push({ name: "pytest", program: "python3", args: ["-m", "pytest", "-q"], level: "quick" });
  return checks;
}
