import type { ConfigValues } from "../config/options.ts";
import { normaliseCommand, type ShellParse } from "./shell-line.ts";
import defaults from "../../policies/permissions.json" with { type: "json" };

export type Decision = "allow" | "ask" | "deny";
export type PermissionsConfig = NonNullable<ConfigValues["permissions"]>;

export interface Policy {
  actions: Record<string, Decision>;
  commands: { pattern: string; decision: Decision; source: string }[];
}

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
const stricter = (a: Decision, b: Decision): Decision => (RANK[a] >= RANK[b] ? a : b);

/** The shipped defaults (policies/permissions.json). */
export function defaultPolicy(): Policy {
  return {
    actions: { ...(defaults.actions as Record<string, Decision>) },
    commands: (defaults.commands as { pattern: string; decision: Decision }[]).map((c) => ({ ...c, source: "weir's defaults; weir config show lists them" })),
  };
}

/**
 * Layers config over the defaults. The user's config may change anything; a project config (a
 * cloned repository) may only make a decision stricter, never widen one.
 */
export function layerPolicy(base: Policy, layer: PermissionsConfig | undefined, source: "user" | "project"): Policy {
  if (!layer) return base;
  const actions = { ...base.actions };
  for (const [name, d] of Object.entries(layer.actions ?? {})) actions[name] = source === "user" ? d : stricter(actions[name] ?? "allow", d);
  const extra = (layer.commands ?? []).filter((c) => source === "user" || c.decision !== "allow").map((c) => ({ ...c, source: `${source} config` }));
  // User rules come first so that, among equally strict matches, the user's is the one named.
  return { actions, commands: source === "user" ? [...extra, ...base.commands] : [...base.commands, ...extra] };
}

/** `*` matches any run of characters; everything else is literal. Whole-string match. */
export function globMatch(pattern: string, text: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*")}$`);
  return re.test(text);
}

/**
 * Programs that run code or other programs from their arguments: through run_command they are a
 * shell by another name. Combined short flags count (`-ce`, `-pe`, `-lc`).
 */
const CODE_RUNNERS: [RegExp, RegExp][] = [
  [/^(ba|z|da|k|fi|a)?sh$|^cmd(\.exe)?$|^(powershell|pwsh)(\.exe)?$/i, /^(-[a-z]*c[a-z]*|\/c|-command|-Command|-EncodedCommand|-e)$/],
  [/^python[\d.]*$|^node$|^bun$|^deno$|^perl$|^ruby$|^php$|^lua[\d.]*$|^Rscript$/i, /^(-[A-Za-z]*[ceEpr][A-Za-z]*|--eval|--print|eval|-r)$/],
  [/^[gnm]?awk$/, /system|\||getline|print\s*>/],
  [/^find$/, /^-(exec|execdir|ok|okdir|fprint|fprintf|fls|delete)$/],
  [/^tar$/, /^(--to-command|--checkpoint-action|--use-compress-program|-I|--info-script|--new-volume-script|-F)(=|$)/],
  [/^sed$/, /(^|;|\s)e(\s|$)|\/e$|\/w\s/],
  [/^git$/, /^(-c|--config-env)$|^alias\.|^!|--upload-pack|--receive-pack|^-u$|--exec=/],
  [/^(parallel|watch|script|expect|flock|strace|ltrace|gdb|vim?|nvim|emacs)$/, /./],
];

export interface CommandRequest {
  /** Program and arguments, for run_command; undefined for shell. */
  argv?: string[];
  /** The command line as a person would read it. */
  line: string;
  shell: boolean;
  /** The call asks to run with network access (a sandbox widening). */
  network?: boolean;
  /** The call asks to write one directory outside the workspace (a sandbox widening). */
  widenDir?: string;
}

/** Splits a shell command into the simple commands it would run; undefined when it cannot tell. */
export function shellSegments(line: string): string[] | undefined {
  if (/`|\$\(|<\(|>\(/.test(line)) return undefined; // command substitution hides what runs
  return line
    .split(/&&|\|\||[;|&\n]/)
    .map((s) => s.trim().replace(/^(\w+=\S*\s+)+/, ""))
    .filter((s) => s !== "");
}

export interface Verdict {
  decision: Decision;
  /** What decided it, for the user and the model: a rule pattern with its source, or the action default. */
  rule: string;
}

function commandVerdict(policy: Policy, line: string): Verdict | undefined {
  let best: Verdict | undefined;
  for (const c of policy.commands)
    if (globMatch(c.pattern, line) && (!best || RANK[c.decision] > RANK[best.decision])) best = { decision: c.decision, rule: `"${c.pattern}" (${c.source})` };
  return best;
}

/**
 * The decision for an action by name: an exact entry, else the strictest matching glob entry (e.g.
 * `mcp__github__*`), else by risk: reads are allowed, anything else asks.
 */
function actionVerdict(policy: Policy, action: string, risk?: string): Verdict {
  const exact = policy.actions[action];
  if (exact) return { decision: exact, rule: `the setting for ${action}` };
  let best: Verdict | undefined;
  for (const [pattern, d] of Object.entries(policy.actions))
    if (pattern.includes("*") && globMatch(pattern, action) && (!best || RANK[d] > RANK[best.decision]))
      best = { decision: d, rule: `the setting "${pattern}"` };
  return best ?? { decision: risk === "read" ? "allow" : "ask", rule: `the default for ${risk ?? "unknown"} actions` };
}

/** Whether a normalised command runs code or other programs from its arguments. */
function runsCode(words: readonly string[]): string | undefined {
  const [name = "", ...args] = words;
  for (const [prog, flag] of CODE_RUNNERS)
    if (prog.test(name) && args.some((a) => flag.test(a))) return `${name} running code or another program counts as shell`;
  return undefined;
}

/**
 * Decides whether an action call may run. Pure. For commands, the rules that match the command
 * decide (the strictest wins), after the program is normalised (its basename, wrappers such as env,
 * timeout or nohup removed, git's global options skipped). A shell line is judged by its parse
 * (`parsed`, from tree-sitter-bash): a line that is not word-only (redirects, substitutions,
 * expansions, subshells) is never more than `ask`, and each simple command must pass on its own.
 * Without a parse the line is split on its operators. An interpreter or launcher running code is
 * never more than `ask`.
 */
export function decide(policy: Policy, action: string, command?: CommandRequest, risk?: string, parsed?: ShellParse): Verdict {
  const base = actionVerdict(policy, action, risk);
  if (!command) return base;
  if (command.shell) {
    if (parsed && !parsed.wordOnly) return { decision: stricter(base.decision, "ask"), rule: `a shell line with ${parsed.why} (not word-only)` };
    const segments = parsed ? parsed.commands.map((c) => normaliseCommand(c).join(" ")) : shellSegments(command.line);
    if (!segments) return { decision: stricter(base.decision, "ask"), rule: "command substitution in a shell line (cannot tell what runs)" };
    // Each simple command is judged alone (a command no rule covers gets the shell default); the strictest wins.
    let verdict: Verdict | undefined;
    for (const seg of segments) {
      const v = commandVerdict(policy, seg) ?? base;
      if (!verdict || RANK[v.decision] > RANK[verdict.decision]) verdict = v;
    }
    return verdict ?? base;
  }
  const [name = "", ...args] = normaliseCommand(command.argv ?? []);
  const v = commandVerdict(policy, [name, ...args].join(" "));
  // git's own options can launch programs (-c alias.x=!cmd), so the launcher check sees them.
  const launcher = runsCode([name, ...args]) ?? runsCode(normaliseCommand(command.argv ?? [], { keepGitOptions: true }));
  if (launcher) return { decision: stricter(v?.decision ?? "allow", stricter(policy.actions.shell ?? "ask", "ask")), rule: launcher };
  return v ?? base;
}
