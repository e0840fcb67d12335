import type { RunMode } from "../config/options.ts";
import type { ToolCallBlock } from "../core/messages.ts";
import { normaliseCommand, parseShell, type ShellParse } from "./shell-line.ts";
import {
  autorunReason,
  configReason,
  dottedReason,
  reviewFileReason,
  dependencyEnvironment,
  gitDirectoryReason,
  installScripts,
  PathRefused,
  type ResolvedPath,
  wholeText,
} from "../workspace/containment.ts";
import { gitConfigReason } from "../workspace/gitconfig.ts";
import { homeReadReason, pathReason } from "../workspace/home-reads.ts";
import { createPatch } from "diff";
import { textAfter } from "./edit-match.ts";
import { type CommandSandbox, widenableDir } from "../workspace/sandbox.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Action } from "./action.ts";
import type { Approver, CallTracker } from "./executor.ts";
import { type CommandRequest, decide, globMatch, type Policy } from "./permissions.ts";

interface GateOptions {
  /** The layered policy: the shipped defaults, then the user's config, then the project's (stricter only). */
  policy: Policy;
  /** Asks a person; absent where no one can answer. */
  approver?: Approver;
  /** --yes: every `ask` is allowed (a `deny` stays). */
  yes?: boolean;
  /** --allow patterns: command lines or action ids they match are allowed instead of asked. */
  allow?: string[];
  /** --allow-network: a command that asks for the network gets it without asking. */
  allowNetwork?: boolean;
  /** `--sandbox read-only`: the workspace is read-only to the file actions too, whatever answers an ask. */
  readOnly?: boolean;
  /**
   * The run's mode (`--mode`, Shift-Tab in the REPL), changed as the run goes: `plan` changes nothing
   * (file actions, tools that act on the world and workers given files to write are refused;
   * commands run in a read-only sandbox), `accept-edits` approves file edits that would ask (not a
   * write to a file another tool runs later, not a command).
   */
  mode?: RunMode;
  /** A worker's gate: it can ask no one, and runs commands only inside an active OS sandbox. */
  worker?: string;
  /** Told while a call waits for a person (the supervisor's awaiting_approval verdict). */
  tracker?: Pick<CallTracker, "awaiting">;
  /** Where the files that run code later or instruct agents written this run are listed, for the run's summary. */
  autorunWrites?: string[];
}

/**
 * The one permission gate every call passes: the policy's verdict (defaults, user, project), then the
 * layers that can only turn an `ask` into an answer — the session's approvals, --yes, --allow, the
 * person — while the sandbox widenings (network, a directory outside) are the user's alone (a flag
 * or a person, never --yes or a rule). A `deny` is never overturned. The executor only asks `check`.
 */
export class PermissionGate {
  private sessionApprovals = new Set<string>();

  constructor(
    private ctx: { workspace: Workspace; sandbox?: CommandSandbox },
    private opts: GateOptions,
  ) {}

  /**
   * `--allow PATTERN`: an action id, or a command. A shell line is approved only when it is word-only
   * and every simple command in it matches a pattern on its own (never the line as a whole).
   */
  private allowedByPattern(id: string, command: CommandRequest | undefined, subject: string, parsed: ShellParse | undefined): boolean {
    const patterns = this.opts.allow ?? [];
    if (patterns.includes(id)) return true;
    if (!command?.shell) return patterns.some((p) => globMatch(p, subject) || (command?.argv ? globMatch(p, normaliseCommand(command.argv).join(" ")) : false));
    if (!parsed?.wordOnly || parsed.commands.length === 0) return false;
    return parsed.commands.every((c) => patterns.some((p) => globMatch(p, c.join(" ")) || globMatch(p, normaliseCommand(c).join(" "))));
  }

  /**
   * A program's arguments can name files the file guards never see (`cat ~/.ssh/id_rsa`). An argument
   * that resolves outside the workspace or to a protected path makes the call at least `ask`.
   */
  private argumentGuard(argv: string[] | undefined): string | undefined {
    for (const raw of argv?.slice(1) ?? []) {
      for (const arg of new Set([raw, raw.split(/[=@]/).pop()!])) {
        if (!/^(?:\/|~|\.\.)|\/\.\.(?:\/|$)|(?:^|\/)\.(?:env|ssh|aws|git|netrc|npmrc)\b|id_rsa|id_ed25519/.test(arg)) continue;
        try {
          this.ctx.workspace.resolve(arg);
        } catch (e) {
          if (e instanceof PathRefused) return `argument "${raw}" is ${e.rule === "protected" ? "a protected path" : "outside the workspace"}`;
        }
      }
    }
    return undefined;
  }

  /**
   * The workspace file a write action targets when it runs code later or instructs agents
   * (`AUTORUN_PATHS` at any depth, a dependency environment, a part of a git directory outside
   * `.git`, what the repository's git config names, what the person's home links to, a directory on
   * their PATH, a dotted name but an inert one), or when the write changes a package.json's install
   * scripts. The same rules decide what of a command's change set is held (`classifyChange`).
   */
  private autorunTarget(action: Action, input: unknown): { rel: string; reason: string } | undefined {
    const path = action.risk === "write" && input && typeof input === "object" ? (input as { path?: unknown }).path : undefined;
    if (typeof path !== "string") return undefined;
    try {
      const { root, home } = this.ctx.workspace;
      const target = this.ctx.workspace.resolve(path, "write");
      const env = dependencyEnvironment(root, target.relative);
      const installed = env
        ? `${target.relative} is in ${env}, installed dependencies whose code runs at the next command and which git does not show`
        : undefined;
      const reason =
        // The list's own words at the top, the same entry found a directory down after.
        autorunReason(target.relative) ??
        configReason(target.relative) ??
        installed ??
        gitDirectoryReason(root, target.relative) ??
        gitConfigReason(root, target.relative, home) ??
        homeReadReason(root, target.relative, home) ??
        pathReason(root, target.relative) ??
        this.installScriptsChange(action, input, target) ??
        reviewFileReason(target.relative) ??
        (env ? undefined : dottedReason(target.relative));
      return reason ? { rel: target.relative, reason } : undefined;
    } catch {
      return undefined; // refused paths are the action's to report
    }
  }

  /** The workspace file a write action targets, resolved, or undefined. */
  private writeTarget(action: Action, input: unknown): ResolvedPath | undefined {
    const path = action.risk === "write" && input && typeof input === "object" ? (input as { path?: unknown }).path : undefined;
    if (typeof path !== "string") return undefined;
    try {
      return this.ctx.workspace.resolve(path, "write");
    } catch {
      return undefined;
    }
  }

  /**
   * What a write would change, whole, for the person asked to approve it: the content is what runs
   * later, so none of it is left out (the approver shows what does not fit the screen in a file, never
   * in part). A unified diff's hunks; past 400 KB, where a diff could take long, the whole new text.
   * Undefined for other actions or when the change cannot be worked out (the action then reports why).
   */
  private changePreview(action: Action, input: unknown, target: ResolvedPath | undefined): string | undefined {
    if (!target) return undefined;
    const rel = target.relative;
    const before = target.exists ? wholeText(target.absolute) : undefined;
    const after = textAfter({ name: action.id, input }, before);
    if (after === undefined) return undefined;
    if ((before?.length ?? 0) + after.length > 400_000) return `the whole of ${rel} as it would be written:\n${after}`;
    const hunks = createPatch(rel, before ?? "", after, "", "", { context: 2 }).split("\n").slice(4).filter((l) => l !== "\\ No newline at end of file");
    while (hunks.at(-1) === "") hunks.pop();
    return hunks.join("\n");
  }

  /** Why a write to a package.json needs a yes: it changes the scripts (or the workspaces) the next install runs. */
  private installScriptsChange(action: Action, input: unknown, target: { relative: string; absolute: string; exists: boolean }): string | undefined {
    if (target.relative.split("/").pop() !== "package.json") return undefined;
    const before = target.exists ? wholeText(target.absolute) : undefined;
    const after = textAfter({ name: action.id, input }, before);
    if (after === undefined || installScripts(after) === installScripts(before)) return undefined;
    return `${target.relative} would change what the next npm install runs (install scripts such as postinstall and prepare, or workspaces)`;
  }

  /**
   * The gate's verdict for one call: undefined to run it, else why not. A write to a file that runs
   * code later or instructs agents asks even where writes are allowed; --yes answers it, and the
   * file is listed for the run's summary.
   */
  async check(call: ToolCallBlock, action: Action, input: unknown, byPerson = false): Promise<{ message: string; rule: string } | undefined> {
    const autorun = this.autorunTarget(action, input);
    const refused = await this.verdict(call, action, input, autorun?.reason, byPerson);
    if (!refused && autorun && !this.opts.autorunWrites?.includes(autorun.rel)) this.opts.autorunWrites?.push(autorun.rel);
    return refused;
  }

  private async verdict(
    call: ToolCallBlock,
    action: Action,
    input: unknown,
    autorun: string | undefined,
    byPerson: boolean,
  ): Promise<{ message: string; rule: string } | undefined> {
    const command = action.command?.(input);
    const parsed = command?.shell ? await parseShell(command.line) : undefined;
    let verdict = decide(this.opts.policy, action.id, command, action.risk, parsed);
    if (autorun && verdict.decision === "allow") verdict = { decision: "ask", rule: autorun };
    const argProblem = this.argumentGuard(command?.argv);
    if (argProblem && verdict.decision === "allow") verdict = { decision: "ask", rule: argProblem };
    // What an approval shows is the whole call; the refusals the model reads name it in a line.
    const whole = action.summary(input);
    const summary = whole.length > 300 ? `${whole.slice(0, 297)}...` : whole;
    if (this.opts.readOnly && action.risk === "write")
      return {
        rule: "sandbox",
        message:
          `refused: the workspace is read-only in this run (--sandbox read-only), so ${action.id} ${summary} was not run. ` +
          "Report the change you would make instead.",
      };
    // Planning changes nothing: no file action writes, no tool acts on the world, no worker is given
    // files to write (its commands would run in a sandbox of its own); commands run, read-only.
    const givesWrites = Array.isArray((input as { writes?: unknown } | undefined)?.writes) && (input as { writes: unknown[] }).writes.length > 0;
    if (this.opts.mode === "plan" && (action.risk === "write" || action.risk === "network" || action.risk === "destructive" || givesWrites))
      return {
        rule: "plan mode",
        message:
          `refused: this is plan mode, where nothing is written until the person accepts the plan, so ${action.id} ${summary} was not run. ` +
          "Put the change in your plan instead.",
      };
    const sandbox = this.ctx.sandbox;
    // A worker's scope reaches its commands only through the kernel: without a sandbox it runs none.
    if (this.opts.worker && action.risk === "execute" && !sandbox?.active)
      return {
        rule: "sandbox",
        message:
          `refused: a worker runs commands only inside the OS sandbox, and there is none here; ${action.id} ` +
          `${summary} was not run. Report what you need run instead.`,
      };
    // Without an OS sandbox the kernel cannot hold a command in: every command asks instead.
    if (command && action.risk === "execute" && sandbox && !sandbox.active && sandbox.mode !== "off" && verdict.decision === "allow")
      verdict = { decision: "ask", rule: "no OS sandbox on this machine" };
    // A sandbox widening is the user's to give: --allow-network or a person, never --yes or a rule.
    if (command?.network && sandbox?.active && !this.opts.allowNetwork && verdict.decision !== "deny") {
      if (!this.opts.approver)
        return {
          rule: "sandbox",
          message:
            `refused: ${action.id} ${summary} asks for network access, which only the user can give (rerun with ` +
            `--allow-network, or approve it in the REPL). Do it without the network or explain what you need.`,
        };
      this.opts.tracker?.awaiting(call.id, true);
      const answer = await this.opts
        .approver({ action: action.id, summary: `${whole} WITH NETWORK ACCESS`, risk: "network", rule: "sandbox widening: network" })
        .finally(() => this.opts.tracker?.awaiting(call.id, false));
      if (answer === "deny")
        return { rule: "user", message: `refused by the user: ${action.id} ${summary} may not use the network. Do not retry it with widen.network.` };
      return undefined;
    }
    // A directory outside the workspace is the user's to open: --add-dir, or a person; never --yes.
    if (command?.widenDir && sandbox?.active && verdict.decision !== "deny") {
      const dir = widenableDir(command.widenDir, this.ctx.workspace.home);
      if (!dir) return { rule: "sandbox", message: `refused: widen.dir ${command.widenDir} must be an existing absolute directory other than / or your home` };
      if (!sandbox.writable.includes(dir)) {
        if (!this.opts.approver)
          return {
            rule: "sandbox",
            message:
              `refused: ${action.id} ${summary} asks to write ${dir}, outside the workspace; only the user can ` +
              `allow that (rerun with --add-dir ${dir}). Do it inside the workspace or explain what you need.`,
          };
        this.opts.tracker?.awaiting(call.id, true);
        const answer = await this.opts
          .approver({ action: action.id, summary: `${whole} WITH WRITE ACCESS TO ${dir}`, risk: "write", rule: "sandbox widening: directory" })
          .finally(() => this.opts.tracker?.awaiting(call.id, false));
        if (answer === "deny") return { rule: "user", message: `refused by the user: ${action.id} may not write ${dir}. Do not retry it with widen.dir.` };
        return undefined;
      }
    }
    // The person asking need not be asked: their own command runs (in the sandbox); a deny rule still holds.
    if (verdict.decision === "allow" || (byPerson && verdict.decision === "ask")) return undefined;
    // Accepting edits approves a file action's write, never a command or a file another tool runs later.
    if (this.opts.mode === "accept-edits" && verdict.decision === "ask" && action.risk === "write" && !command && !autorun && !argProblem) return undefined;
    if (verdict.decision === "deny") {
      return {
        rule: "permissions",
        message:
          `refused by permission policy: ${action.id} ${summary} is denied by rule ${verdict.rule}; do not ` +
          `retry it. The user can change the rule in their config.`,
      };
    }
    // "For this session" is for this command line, or for writes to this one file, never for the action whole.
    const target = command ? undefined : this.writeTarget(action, input);
    const key = `${action.id}\u0000${command?.line ?? target?.relative ?? ""}`;
    const subject = command?.line ?? action.id;
    if (this.sessionApprovals.has(key) || this.opts.yes || this.allowedByPattern(action.id, command, subject, parsed)) return undefined;
    if (!this.opts.approver || this.opts.worker) {
      if (this.opts.worker)
        return {
          rule: "approval",
          message:
            `refused: ${action.id} ${summary} needs the user's approval (rule ${verdict.rule}), and a worker ` +
            `cannot ask; report what you need and the main agent can do it.`,
        };
      return {
        rule: "approval",
        message:
          `refused: ${action.id} ${summary} needs the user's approval (rule ${verdict.rule}) and no one can ` +
          `approve in this mode; the user can rerun with --yes or --allow '<pattern>'. Try another way or ` +
          `explain what you need.`,
      };
    }
    this.opts.tracker?.awaiting(call.id, true);
    const change = this.changePreview(action, input, target);
    const asked = { action: action.id, summary: change ? `${whole}\n${change}` : whole, risk: action.risk, rule: verdict.rule };
    const answer = await this.opts.approver(asked).finally(() => this.opts.tracker?.awaiting(call.id, false));
    if (answer === "deny") {
      return { rule: "user", message: `refused by the user: ${action.id} ${summary} was not approved. Do not retry it; ask or take another way.` };
    }
    if (answer === "session") this.sessionApprovals.add(key);
    return undefined;
  }
}
