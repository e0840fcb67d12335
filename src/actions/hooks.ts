import { existsSync, statSync } from "node:fs";
import { type CommandSandbox, runCommandIn } from "../workspace/sandbox.ts";

/**
 * Hooks in Claude Code's format: `hooks` in the config maps an event (PreToolUse, PostToolUse,
 * UserPromptSubmit, Stop, SessionStart) to matchers, each with command hooks. A command hook gets
 * the event as JSON on stdin and runs in the same OS sandbox as every other command. Exit 0 passes
 * (its stdout may be JSON with `decision: "block"` and a `reason`, or `additionalContext`); exit 2
 * blocks, and its stderr is what the model reads; any other exit is reported and ignored.
 */
type HookEvent = "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "Stop" | "SessionStart";
export const HOOK_EVENTS: readonly HookEvent[] = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"];

interface HookCommand {
  type: "command";
  command: string;
  /** Seconds (Claude Code's unit); default 60. */
  timeout?: number;
  /** From the user's own config (set by mergeHooks): the files its command names are readable inside. */
  own?: boolean;
}

type HooksConfig = Partial<Record<HookEvent, { matcher?: string; hooks: HookCommand[] }[]>>;

/** The user's hooks, then a project's (once approved): per event, the user's groups run first. Pure. */
export function mergeHooks(user: HooksConfig, project: HooksConfig | undefined): HooksConfig {
  const out: HooksConfig = {};
  for (const e of HOOK_EVENTS) {
    const own = (user[e] ?? []).map((g) => ({ ...g, hooks: g.hooks.map((h) => ({ ...h, own: true })) }));
    const all = [...own, ...(project?.[e] ?? [])];
    if (all.length) out[e] = all;
  }
  return out;
}

/**
 * The files a user's hook command names (`~/.config/weir/hooks/guard.sh`, `/opt/hooks/x.sh`): it is
 * the user's own code, so the sandbox shows it (read-only) wherever it lives. Pure but for existence.
 */
function namedFiles(command: string, home: string): string[] {
  return command
    .split(/\s+/)
    .map((w) => w.replace(/^["']|["']$/g, ""))
    .filter((w) => w.startsWith("/") || w.startsWith("~/"))
    .map((w) => (w.startsWith("~/") ? `${home}${w.slice(1)}` : w))
    .filter((p) => existsSync(p) && statSync(p).isFile());
}

/**
 * Why a hook's command cannot start, or undefined: its program (the first word) is a path that is
 * missing or not executable, or a name not on PATH. Shell syntax beyond that is the shell's to judge.
 */
export function hookStartProblem(command: string, home: string, onPath: (name: string) => boolean): string | undefined {
  const first = command.trim().split(/\s+/)[0]?.replace(/^["']|["']$/g, "") ?? "";
  if (first === "" || /[;&|<>()$`=]/.test(first)) return undefined;
  if (first.startsWith("/") || first.startsWith("~/") || first.startsWith("./")) {
    const path = first.startsWith("~/") ? `${home}${first.slice(1)}` : first;
    if (!existsSync(path)) return `${first} does not exist`;
    return (statSync(path).mode & 0o111) === 0 ? `${first} is not executable (chmod +x it)` : undefined;
  }
  return onPath(first) ? undefined : `${first} is not on PATH`;
}

/** Each command a hooks config would run, as one line a person can judge. Pure. */
function describeHooks(config: HooksConfig): string[] {
  return HOOK_EVENTS.flatMap((e) => (config[e] ?? []).flatMap((g) => g.hooks.map((h) => `${e}${g.matcher ? ` [${g.matcher}]` : ""}: ${h.command}`)));
}

/** What an approval of a project's hooks covers: exactly this configuration. */
function hooksFingerprint(config: HooksConfig): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(config)).digest("hex").slice(0, 16);
}

interface HookOutcome {
  /** The hook asked to stop what was about to happen (exit 2, or decision "block"). */
  block: boolean;
  /** What the model should read: the reason for a block, or context a hook added. */
  message?: string;
}

/** Whether a matcher (empty or `*`: all; else a regular expression or `|` list on the action id) applies. Pure. */
export function matches(matcher: string | undefined, subject: string): boolean {
  if (!matcher || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(subject);
  } catch {
    return matcher === subject;
  }
}

export class Hooks {
  constructor(
    private config: HooksConfig,
    private o: {
      root: string;
      env: Record<string, string>;
      sandbox?: CommandSandbox;
      sessionId: () => string | undefined;
      /** Told when a hook cannot start, so the person sees it (a guard that does not run protects nothing). */
      onProblem?: (line: string) => void;
    },
  ) {}

  has(event: HookEvent): boolean {
    return (this.config[event] ?? []).length > 0;
  }

  /** Runs the event's matching hooks in order; the first block wins. Never throws. */
  async run(event: HookEvent, subject: string, payload: Record<string, unknown>, signal?: AbortSignal): Promise<HookOutcome> {
    const context: string[] = [];
    for (const group of this.config[event] ?? []) {
      if (!matches(group.matcher, subject)) continue;
      for (const h of group.hooks) {
        const input = JSON.stringify({ session_id: this.o.sessionId() ?? null, hook_event_name: event, cwd: this.o.root, ...payload });
        const argv = ["/bin/sh", "-c", h.command];
        const readable = h.own ? namedFiles(h.command, this.o.env.HOME ?? "") : [];
        const limits = { timeoutMs: (h.timeout ?? 60) * 1000, outputCap: 64_000 };
        const r = await runCommandIn(this.o.sandbox, {
          argv,
          cwd: this.o.root,
          ...limits,
          env: this.o.env,
          stdin: input,
          ...(signal ? { signal } : {}),
          separateStderr: true,
          readable,
        });
        // 126/127: the shell could not run it (not found, not executable). A guard that cannot run fails closed.
        if (r.exitCode === 126 || r.exitCode === 127 || (r.exitCode === null && !r.timedOut && !r.cancelled)) {
          const why =
            `the ${event} hook "${h.command.slice(0, 80)}" could not start: ` + `${(r.stderr || r.output).trim().split("\n").pop() || `exit ${r.exitCode}`}`;
          this.o.onProblem?.(why);
          if (event === "PreToolUse") return { block: true, message: `${why}; the call was not run (a guard that cannot run blocks)` };
          context.push(`[${why}]`);
          continue;
        }
        if (r.exitCode === 2) return { block: true, message: (r.stderr ?? r.output).trim() || `blocked by the ${event} hook` };
        // Any other failure does not block (Claude Code's contract): the person is told, the model is not.
        if (r.exitCode !== 0) {
          const said = (r.stderr ?? r.output).trim().split("\n").pop();
          const exit = `exit ${r.exitCode}${said ? `: ${said.slice(0, 200)}` : ""}`;
          const how = r.timedOut ? `timed out after ${h.timeout ?? 60}s` : r.cancelled ? "was stopped" : exit;
          const went = event === "PreToolUse" ? "the call went on" : "weir went on";
          this.o.onProblem?.(`the ${event} hook "${h.command.slice(0, 80)}" failed (${how}); it does not block, so ${went}`);
          continue;
        }
        const out = r.output.trim();
        if (!out) continue;
        try {
          const j = JSON.parse(out) as {
            decision?: string;
            reason?: string;
            additionalContext?: string;
            hookSpecificOutput?: { additionalContext?: string; permissionDecision?: string; permissionDecisionReason?: string };
          };
          if (j.decision === "block" || j.hookSpecificOutput?.permissionDecision === "deny")
            return { block: true, message: j.reason ?? j.hookSpecificOutput?.permissionDecisionReason ?? `blocked by the ${event} hook` };
          const add = j.additionalContext ?? j.hookSpecificOutput?.additionalContext;
          if (add) context.push(add);
        } catch {
          // Plain stdout is context for the prompt and session events, as in Claude Code.
          if (event === "UserPromptSubmit" || event === "SessionStart") context.push(out);
        }
      }
    }
    return context.length ? { block: false, message: context.join("\n") } : { block: false };
  }
}

/** Where approvals of a project's hooks are kept (the session store). */
interface HookApprovals {
  areProjectHooksApproved(workspace: string, fingerprint: string): boolean;
  approveProjectHooks(workspace: string, fingerprint: string): void;
}

/**
 * A project's hooks if the user approved exactly these for the workspace (asked now where someone
 * can answer: `ask` gets the file and one line per command); else none, said in `notices`.
 */
export async function approvedProjectHooks(
  approvals: HookApprovals,
  workspace: string,
  project: HooksConfig | undefined,
  ask: ((file: string, commands: string[]) => Promise<boolean>) | undefined,
  notices: string[],
): Promise<HooksConfig | undefined> {
  if (!project) return undefined;
  const fingerprint = hooksFingerprint(project);
  if (approvals.areProjectHooksApproved(workspace, fingerprint)) return project;
  const file = ".weir/config.json";
  if (ask && (await ask(file, describeHooks(project)))) {
    approvals.approveProjectHooks(workspace, fingerprint);
    return project;
  }
  notices.push(
    `${file} declares hooks that are not approved for this workspace, so they do not run (${ask ? "declined" : "run weir in a terminal to be asked"})`,
  );
  return undefined;
}
