import { z } from "zod";
import { runCommandIn } from "../../workspace/sandbox.ts";
import { parseFailureLocations } from "../../context/failures.ts";
import { defineAction, ToolFailure } from "../action.ts";
import { detectChecks } from "../../workspace/checks.ts";
import type { Evidence, VerificationLedger } from "../verification.ts";

/** `verify`: runs the project's own checks at a level and records evidence bound to the revision. */
export function verifyAction(ledger: VerificationLedger) {
  return defineAction({
    id: "verify",
    capability: "verification",
    hint: "run the project's own checks (tests; at level full also typecheck, lint, build)",
    description:
      "Run the project's own checks, detected from its root: package.json scripts, Makefile targets, Cargo, Go, pytest, " +
      "Maven, Gradle, Rake or RSpec, Composer, .NET, Mix, Swift or Deno. level quick runs the tests; full adds typecheck, lint and build " +
      "where they exist. Each result is evidence bound to the current revision; any later change makes it stale.",
    input: z.object({ level: z.enum(["quick", "full"]).default("quick"), timeout_ms: z.number().int().min(1000).max(1_800_000).optional() }).strict(),
    risk: "execute",
    source: "builtin",
    readOnly: false,
    summary: (i) => `level ${i.level}`,
    async run(i, ctx) {
      const checks = detectChecks(ctx.workspace.root).filter((c) => i.level === "full" || c.level === "quick");
      if (checks.length === 0)
        throw new ToolFailure(
          "no checks found at the workspace root (no test script, test target or build file weir knows); weir " +
            "will not guess a command: run the project's tests with run_command",
        );
      const revision = await ledger.revision();
      const lines: string[] = [];
      const failures: { path: string; line: number; message: string }[] = [];
      let allPassed = true;
      for (const c of checks) {
        const r = await runCommandIn(ctx.sandbox, {
          argv: [c.program, ...c.args],
          cwd: ctx.workspace.root,
          onOutput: ctx.onOutput,
          timeoutMs: i.timeout_ms ?? 600_000,
          outputCap: 40_000,
          env: ctx.env,
          signal: ctx.signal,
          onStart: ctx.onProcess,
        });
        const complete = !r.timedOut && !r.cancelled && r.exitCode !== null;
        const passed = complete && r.exitCode === 0;
        allPassed &&= passed;
        const e: Evidence = {
          producer: "verify",
          check: c.name,
          command: [c.program, ...c.args].join(" "),
          level: i.level,
          exitCode: r.exitCode,
          passed,
          complete,
          revision,
          at: Date.now(),
        };
        ledger.record(e);
        const tail = passed ? r.output.split("\n").slice(-TAIL_LINES).join("\n") : failureView(r.output);
        if (!passed) {
          const located = parseFailureLocations(r.output);
          failures.push(...located.slice(0, 10).map((f) => ({ path: f.path, line: f.line, message: f.message })));
          // The test files a failure names: a later pass links them to what changed (the test map).
          if (complete) ledger.failedAt(c.name, located.map((f) => f.path));
        }
        // A check the sandbox stopped (no network for a download, a cache it may not write) says so.
        const blocked = passed ? undefined : ctx.sandbox?.explain(r.output, undefined, { program: c.program, exitCode: r.exitCode });
        const status = passed ? "PASSED" : complete ? `FAILED (exit ${r.exitCode})` : r.timedOut ? "INCOMPLETE: timed out" : "INCOMPLETE: stopped";
        lines.push(`$ ${e.command}\n${tail}\n[${status}]${blocked ? `\n[${blocked}]` : ""}`);
        if (!complete) break;
      }
      const summary = `verification ${i.level} at revision ${revision.slice(0, 20)}: ${allPassed ? "all checks passed" : "NOT passed"}`;
      if (!allPassed) throw new ToolFailure(`${lines.join("\n\n")}\n${summary}`, undefined, { kind: "verify", passed: false, failures });
      return { content: `${lines.join("\n\n")}\n${summary}`, details: { kind: "verify", passed: true, failures: [] } };
    },
  });
}

/** The lines of a check's output the model is shown: the end, where runners print their summary. */
const TAIL_LINES = 25;

/** Lines shown from above the tail: those that say what failed, each with the lines after it. */
const ABOVE_LINES = 40;
const AFTER_SIGNAL = 3;
/** A line that says something failed, in the words test runners and compilers print. */
const FAILURE_LINE = /\b(?:FAIL(?:ED|URE)?|ERROR|[Ee]rror|panicked|[Ff]ail(?:ed|ures?)|[Aa]ssert\w*|[Ee]xpected|not ok)\b|[✗✕]/;

/**
 * What the model is shown of a failed check's output: its last lines, where runners print their
 * summary, and, from above them, the lines that say what failed (each with the few after it, where
 * the expected and actual values go), first ones first, so a runner that prints a failure's detail
 * long before its summary (node's, bun's, a Rust backtrace, Maven's boilerplate) still shows it. Pure.
 */
export function failureView(output: string): string {
  const lines = output.split("\n");
  const start = Math.max(0, lines.length - TAIL_LINES);
  const keep = new Set<number>();
  for (let i = 0; i < start && keep.size < ABOVE_LINES; i++)
    if (FAILURE_LINE.test(lines[i]!)) for (let k = i; k <= Math.min(i + AFTER_SIGNAL, start - 1) && keep.size < ABOVE_LINES; k++) keep.add(k);
  const above: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i !== last + 1) above.push("…");
    above.push(lines[i]!);
    last = i;
  }
  if (above.length && last !== start - 1) above.push("…");
  return [...above, ...lines.slice(start)].join("\n");
}
