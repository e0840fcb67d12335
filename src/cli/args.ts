import { usageError } from "../core/errors.ts";
import {
  CACHE_MODES,
  type ConfigValues as ConfigFile,
  EFFORTS,
  JUDGMENT_MODES,
  OUTPUT_FORMATS,
  RUN_MODES,
  SANDBOX_MODES,
  THINKING_MODES,
  VERIFY_FLOORS,
} from "../config/options.ts";
import { ROUTER_MODES } from "../config/options.ts";
import { PRESET_IDS } from "../providers/presets.ts";

interface FlagSpec {
  name: string;
  short?: string;
  kind: "string" | "boolean" | "int" | "count" | "number" | "enum" | "list";
  values?: readonly string[];
  /** The config key the flag sets, if it is a setting. */
  key?: keyof ConfigFile;
  arg?: string;
  help: string;
}

/** Every flag weir takes. The help text and the parser are both generated from this table. */
export const FLAGS: readonly FlagSpec[] = [
  {
    name: "provider",
    kind: "enum",
    values: PRESET_IDS,
    key: "provider",
    arg: "NAME",
    help: "model vendor or wire preset (weir eval run: baseline, learned, replay, or judgment; weir eval firewall: firewall, judgment or replay)",
  },
  { name: "model", short: "m", kind: "string", key: "model", arg: "ID", help: "model id (default: the preset's flagship); the main role's model" },
  {
    name: "fast-model",
    kind: "string",
    arg: "ID",
    help: "the fast role's model: small views that inspect or change one file with tests go to it (its provider: models.fast's, else the main one)",
  },
  {
    name: "router",
    kind: "enum",
    values: ROUTER_MODES,
    key: "router",
    arg: "on|off",
    help: "on: each request goes to the model its view needs; off: all go to the main model",
  },
  { name: "base-url", kind: "string", key: "baseUrl", arg: "URL", help: "API endpoint (needed by openai-compatible, anthropic-compatible)" },
  { name: "api-key", kind: "string", key: "apiKey", arg: "KEY", help: "API key (else the vendor's variable, e.g. ANTHROPIC_API_KEY, or WEIR_API_KEY)" },
  { name: "max-tokens", kind: "int", key: "maxTokens", arg: "N", help: "output token limit per model turn (default 16384)" },
  { name: "context-size", kind: "int", key: "contextSize", arg: "N", help: "context window to budget against (default 200000)" },
  { name: "max-turns", kind: "int", key: "maxTurns", arg: "N", help: "stop after N model turns (default 100)" },
  { name: "effort", kind: "enum", values: EFFORTS, key: "effort", help: "reasoning effort" },
  { name: "thinking", kind: "enum", values: THINKING_MODES, key: "thinking", help: "send reasoning back to the model or strip it" },
  { name: "cache", kind: "enum", values: CACHE_MODES, key: "cache", help: "prompt caching: vendor default, or explicit breakpoints" },
  { name: "output-format", kind: "enum", values: OUTPUT_FORMATS, key: "outputFormat", help: "how a one-shot run prints" },
  {
    name: "verify-floor",
    kind: "enum",
    values: VERIFY_FLOORS,
    key: "verifyFloor",
    help: "when files changed without passing checks: nothing, remind once, or keep asking",
  },
  { name: "judgment", kind: "enum", values: JUDGMENT_MODES, help: "the configured judgment provider: off, shadow (record only) or increase-only" },
  { name: "cwd", kind: "string", arg: "DIR", help: "workspace root (default: the current directory)" },
  { name: "continue", short: "c", kind: "boolean", help: "continue this workspace's newest session" },
  { name: "list", kind: "boolean", help: "list this workspace's sessions, newest first" },
  { name: "all", kind: "boolean", help: "with --list: every workspace's sessions (weir eval capture: also the states no outcome rule labelled)" },
  {
    name: "mode",
    kind: "enum",
    values: RUN_MODES,
    arg: "MODE",
    help: "plan: investigate and plan, change nothing, then ask to carry the plan out; accept-edits: approve file edits (Shift-Tab cycles in the REPL)",
  },
  { name: "yes", short: "y", kind: "boolean", help: "approve every action that would ask (denied ones stay denied)" },
  { name: "allow", kind: "list", arg: "PATTERN", help: "approve commands matching PATTERN (* wildcard) or an action id; repeatable" },
  {
    name: "sandbox",
    kind: "enum",
    values: SANDBOX_MODES,
    arg: "MODE",
    help: "the OS sandbox commands run in (default workspace-write; off only by your own flag or user config)",
  },
  { name: "allow-network", kind: "boolean", help: "let a command that asks for network access (widen.network) have it without asking" },
  { name: "add-dir", kind: "list", arg: "DIR", help: "a directory outside the workspace commands may write; repeatable" },
  { name: "max-agents", kind: "count", arg: "N", help: "background workers the agent may run at once (default 4; 0: none)" },
  { name: "agent-wait-ms", kind: "int", arg: "MS", help: "how long wait_agents waits when the model gives no timeout (default 300000)" },
  { name: "tools", kind: "enum", values: ["auto", "all"], arg: "MODE", help: "auto: short hints, full schemas on demand; all: the whole catalog every turn" },
  { name: "concurrency", kind: "int", arg: "N", help: "weir eval run: cases in flight at once (default 4; weir eval firewall: judgment calls, default 2)" },
  { name: "batch", kind: "int", arg: "N", help: "weir eval firewall: texts per judgment call (default 8)" },
  { name: "limit", kind: "int", arg: "N", help: "weir eval run, firewall: only the first N cases" },
  { name: "shard", kind: "string", arg: "I/N", help: "weir eval run: every N-th case starting at I" },
  {
    name: "run",
    kind: "string",
    arg: "ID",
    help: "weir eval: name the run (an existing one is replaced), or the run to calibrate or report (default: the newest)",
  },
  { name: "resume", kind: "string", arg: "ID", help: "continue a session (or, with weir eval run, an interrupted run) by id prefix" },
  { name: "record", kind: "string", arg: "FILE", help: "weir eval run, firewall: write the suite with the live provider's answers recorded" },
  { name: "strict", kind: "boolean", help: "weir eval: stop at the first bad suite line" },
  { name: "db", kind: "string", arg: "FILE", help: "weir eval: the results database (default: eval.db in the data dir)" },
  { name: "folds", kind: "int", arg: "K", help: "weir eval: cross-validation folds (default 5)" },
  { name: "max-false-stop", kind: "number", arg: "X", help: "weir eval calibrate: largest false-stop rate allowed (default 0.02)" },
  { name: "max-false-continue", kind: "number", arg: "X", help: "weir eval calibrate: largest false-continue rate allowed (default 0.2)" },
  { name: "html", kind: "string", arg: "FILE", help: "weir eval report: also write a self-contained HTML report" },
  { name: "session", kind: "string", arg: "ID", help: "weir decisions, weir eval capture, routing: only this session (id prefix)" },
  { name: "since", kind: "string", arg: "DATE", help: "weir eval capture: only decisions from DATE on (e.g. 2026-11-30)" },
  { name: "output", short: "o", kind: "string", arg: "FILE", help: "weir eval capture: the suite file to write" },
  { name: "include-untrusted", kind: "boolean", help: "weir eval capture: keep the states' untrusted notes (text from files and tools; dropped by default)" },
  { name: "port", kind: "int", arg: "PORT", help: "weir eval label: serve the page on this loopback port (default: any free one)" },
  {
    name: "budget",
    kind: "int",
    arg: "N",
    help: "tokens the whole compiled working set may cost, floor included (default: --context-size / 50, 1000 to 4000); weir goal or graph: its budget",
  },
  {
    name: "check",
    kind: "string",
    arg: "CMD",
    help: "weir goal: the command whose success completes the goal (default: the project's tests); weir graph: the check of the merged result",
  },
  { name: "plan", kind: "string", arg: "FILE", help: "weir graph: the plan as a JSON file instead of a planner call" },
  { name: "concurrency", kind: "int", arg: "N", help: "weir graph: nodes run at once (1 to 8, default 3)" },
  { name: "from-worktree", kind: "boolean", help: "weir graph: start from the working tree as it is, uncommitted changes included (default: refuse them)" },
  { name: "keep-worktrees", kind: "boolean", help: "weir graph: keep a finished graph's worktrees and node branches (weir graph clean removes them)" },
  {
    name: "status-port",
    kind: "string",
    arg: "PORT",
    help: "serve GET /status and POST /stop on 127.0.0.1:PORT (0: any free port; WEIR_STATUS_TOKEN adds a token)",
  },
  { name: "export", kind: "string", arg: "FILE", help: "weir events: write finished calls as JSON lines to FILE (rotated at 10 MiB)" },
  { name: "status", kind: "boolean", help: "weir index: what is fresh, stale or not indexed, and the last refresh" },
  {
    name: "review",
    kind: "boolean",
    help: "weir index: review files (those named, else those changed against HEAD) with models.review for security problems and test gaps",
  },
  { name: "mcp", kind: "boolean", help: "weir serve: speak MCP on stdin and stdout (the tools another agent calls weir through)" },
  { name: "json", kind: "boolean", help: "machine-readable output for commands (actions, mcp list, ...)" },
  { name: "no-color", kind: "boolean", help: "no colour (also NO_COLOR)" },
  { name: "verbose", kind: "boolean", key: "verbose", help: "print retries, usage and timings" },
  { name: "print", short: "p", kind: "boolean", help: "one-shot: run the task and print the answer (the default with a task; Claude Code's flag)" },
  { name: "version", short: "v", kind: "boolean", help: "print version and commit" },
  { name: "help", short: "h", kind: "boolean", help: "this help" },
];

export interface ParsedArgs {
  /** Words before any flag that name a subcommand, e.g. ["config", "show"]; empty for a task run. */
  command: string[];
  /** The task text: all positionals joined by spaces (empty for the REPL). */
  task: string;
  config: ConfigFile;
  cwd?: string;
  help: boolean;
  version: boolean;
  continue: boolean;
  resume?: string;
  list: boolean;
  all: boolean;
  yes: boolean;
  allow: string[];
  tools: "auto" | "all";
  json: boolean;
  strict: boolean;
  /** Raw values of the command flags (eval and friends), by flag name. */
  flags: Record<string, string | number | boolean | string[]>;
  budget?: number;
  judgment?: (typeof JUDGMENT_MODES)[number];
  session?: string;
}

/** Subcommands; a task that starts with one of these words must be quoted after `--`. */
export const COMMANDS = [
  "config", "actions", "mcp", "context", "firewall", "decisions", "eval", "events", "help", "version",
  "doctor", "init", "auth", "exec", "goal", "graph", "changes", "undo", "completion", "index", "serve", "drift",
] as const;

/** Commands people reach for that weir does not have, and what to do instead. */
const NOT_COMMANDS: Readonly<Record<string, string>> = {
  update: "it does not update itself; download the new binary from a release and put it where this one is",
  upgrade: "it does not update itself; download the new binary from a release and put it where this one is",
  login: "store a key with weir auth login",
  logout: "remove the stored key with weir auth logout",
};

/** Levenshtein distance between two short words. Pure. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The command a lone lowercase word is a typo of (`doctr`, `changs`): one letter off, or two where
 * both are six letters or longer, so a short task word (`hello`, `test`) is never taken for one. Pure.
 */
export function nearCommand(word: string): string | undefined {
  if (!/^[a-z]{3,}$/.test(word)) return undefined;
  return COMMANDS.find((c) => {
    const d = distance(word, c);
    return d === 1 || (d === 2 && word.length >= 6 && c.length >= 6);
  });
}

function describe(spec: FlagSpec): string {
  return spec.values
    ? `${spec.values.join(", ")}`
    : spec.kind === "int"
      ? "a positive whole number"
      : spec.kind === "count"
        ? "a whole number"
        : spec.kind === "number"
          ? "a number"
          : "a value";
}

interface Tokens {
  values: Record<string, string | boolean | string[]>;
  positionals: string[];
  /** Index in argv of the first positional, or -1. */
  firstPositional: number;
  afterDashDash: boolean;
}

/**
 * Splits argv into flag values and positionals: `--name value`, `--name=value`, `-x value`, `--` ends
 * flags. Hand-written rather than node:util's parseArgs, which costs the compiled binary ~9 ms of
 * start-up (bench/startup.ts) and words its errors for programmers, not users.
 */
function tokenize(argv: readonly string[]): Tokens {
  const values: Tokens["values"] = {};
  const positionals: string[] = [];
  let firstPositional = -1;
  let afterDashDash = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (afterDashDash || a === "-" || !a.startsWith("-")) {
      if (firstPositional === -1) firstPositional = i;
      positionals.push(a);
      continue;
    }
    if (a === "--") {
      afterDashDash = true;
      if (firstPositional === -1) firstPositional = i + 1;
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? a.slice(2, eq === -1 ? undefined : eq) : a.slice(1);
    const spec = a.startsWith("--") ? FLAGS.find((f) => f.name === name) : FLAGS.find((f) => f.short === name);
    if (!spec) throw usageError(`unknown flag ${a.startsWith("--") ? `--${name}` : a}; see weir --help`);
    if (spec.kind === "boolean") {
      if (eq !== -1) throw usageError(`--${spec.name} takes no value`);
      values[spec.name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1 && a.startsWith("--")) value = a.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith("-") && next !== "-" && !/^-\d/.test(next))) throw usageError(`--${spec.name} needs ${describe(spec)}`);
      value = next;
      i++;
    }
    if (spec.kind === "list") ((values[spec.name] as string[] | undefined) ?? (values[spec.name] = [])).push(value);
    else values[spec.name] = value;
  }
  return { values, positionals, firstPositional, afterDashDash };
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw usageError(`--status-port ${v} is not valid; use a port number (0 picks a free one)`);
  return n;
}

/** Parses argv (without the program name). Pure; throws a usage error (exit 2) naming the flag. */
export function parseArgv(argv: readonly string[]): ParsedArgs {
  const parsed = tokenize(argv);
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  // `weir eval run --provider learned` names an eval source, not a model vendor.
  const isEval = parsed.positionals[0] === "eval" && (argv.indexOf("--") === -1 || parsed.firstPositional < argv.indexOf("--"));
  const config: Record<string, unknown> = {};
  const lists: Record<string, string[]> = {};
  for (const f of FLAGS) {
    const v = values[f.name];
    if (v === undefined) continue;
    if (f.kind === "list") {
      lists[f.name] = v as string[];
      continue;
    }
    if (f.kind === "string" && v === "") throw usageError(`--${f.name} needs ${describe(f)}`);
    if (isEval && f.name === "provider") continue;
    if (f.kind === "enum" && !f.values!.includes(v as string)) throw usageError(`--${f.name} ${v} is not valid; use one of ${f.values!.join(", ")}`);
    let value: unknown = v;
    if (f.kind === "int") {
      const n = Number(v);
      if (!/^\d+$/.test(v as string) || n <= 0) throw usageError(`--${f.name} ${v} is not valid; use a positive whole number`);
      value = n;
    }
    if (f.kind === "count") {
      if (!/^\d+$/.test(v as string)) throw usageError(`--${f.name} ${v} is not valid; use a whole number (0 or more)`);
      value = Number(v);
    }
    if (f.kind === "number") {
      const n = Number(v);
      if (!/^\d*\.?\d+$/.test(v as string) || !Number.isFinite(n)) throw usageError(`--${f.name} ${v} is not valid; use a number such as 0.05`);
      value = n;
    }
    if (f.key) config[f.key] = value;
  }
  if (values["no-color"]) config.color = false;
  if (typeof values.sandbox === "string") config.sandbox = { mode: values.sandbox as (typeof SANDBOX_MODES)[number] };
  if (typeof values["fast-model"] === "string") config.models = { fast: values["fast-model"] };
  const positionals = parsed.positionals;
  const dashDash = argv.indexOf("--");
  const firstWordIsCommand =
    positionals.length > 0 && (COMMANDS as readonly string[]).includes(positionals[0]!) && (dashDash === -1 || parsed.firstPositional < dashDash);
  // A lone word a letter or two from a command is a typo of it, not a task for the model.
  const lone = !firstWordIsCommand && positionals.length === 1 && dashDash === -1 ? positionals[0]! : undefined;
  const missing = lone ? NOT_COMMANDS[lone] : undefined;
  if (missing) throw usageError(`weir has no "${lone}" command: ${missing}. To give it to the model as a task: weir -- ${lone}`);
  const near = lone ? nearCommand(lone) : undefined;
  if (near) throw usageError(`unknown command "${lone}"; did you mean weir ${near}? To give it to the model as a task: weir -- ${lone}`);
  // `weir exec "task"` (Codex's word for a one-shot run) is the task itself.
  const exec = firstWordIsCommand && positionals[0] === "exec";
  const written = exec ? positionals.slice(1).join(" ") : firstWordIsCommand ? "" : positionals.join(" ");
  // A task given but blank ("   ") is a mistake, not a request for the REPL.
  if ((exec || (!firstWordIsCommand && positionals.length > 0)) && written.trim() === "")
    throw usageError('the task is blank; pass what weir should do (weir "fix the failing test")');
  return {
    command: firstWordIsCommand && !exec ? [...positionals] : [],
    task: written.trim(),
    config: config as ConfigFile,
    ...(typeof values.cwd === "string" ? { cwd: values.cwd } : {}),
    help: values.help === true,
    version: values.version === true,
    continue: values.continue === true,
    ...(typeof values.resume === "string" ? { resume: values.resume } : {}),
    list: values.list === true,
    all: values.all === true,
    yes: values.yes === true,
    allow: lists.allow ?? [],
    tools: values.tools === "all" ? "all" : "auto",
    json: values.json === true,
    strict: values.strict === true,
    flags: {
      ...(values as Record<string, string | boolean | string[]>),
      ...(typeof values["status-port"] === "string" ? { "status-port": parsePort(values["status-port"]) } : {}),
      ...Object.fromEntries(
        FLAGS.filter((f) => (f.kind === "int" || f.kind === "count" || f.kind === "number") && values[f.name] !== undefined).map((f) => [
          f.name,
          Number(values[f.name]),
        ]),
      ),
    },
    ...(typeof values.budget === "string" ? { budget: Number(values.budget) } : {}),
    ...(typeof values.judgment === "string" ? { judgment: values.judgment as (typeof JUDGMENT_MODES)[number] } : {}),
    ...(typeof values.session === "string" ? { session: values.session } : {}),
  };
}

/** Flags that only weir eval reads: shown by `weir eval --help`, not with the run flags. */
const isEvalFlag = (f: FlagSpec) => /^weir eval/.test(f.help);

export function helpText(topic: "run" | "eval" = "run"): string {
  const shown = FLAGS.filter((f) => (topic === "eval" ? isEvalFlag(f) || ["provider", "resume", "json", "session", "all"].includes(f.name) : !isEvalFlag(f)));
  if (topic === "eval")
    return [
      "weir eval — replay labeled suites through the baseline and a judgment provider",
      "",
      "Usage:",
      "  weir eval run SUITE... [--provider baseline|learned|replay|judgment] [--shard I/N] [--resume RUN]",
      "  weir eval train SUITE...        fit the learned provider's models",
      "  weir eval calibrate [--run ID]  thresholds and bands into the workspace's policies/decision-policy.json",
      "  weir eval report [--run ID] [--html FILE] [--json]",
      "  weir eval merge A.db B.db... --db OUT.db   merge shard databases",
      "  weir eval runs                  the runs in the results database",
      "  weir eval capture -o FILE [--since DATE] [--session ID] [--all] [--include-untrusted]",
      "                                  this workspace's recorded decisions as a suite, labelled by what happened next",
      "  weir eval label FILE [--port N] a loopback page to confirm or correct a suite's labels",
      "  weir eval routing [--session ID]  a session's requests replayed under the router and all-on-main, priced",
      "  weir eval firewall TEXTS... [--provider judgment|replay[:KEY]] [--batch N] [--record FILE] [--json]",
      "                                  labeled texts through the firewall, and the judge's chunk check on what it passed",
      "",
      "Flags:",
      ...shown.map(flagRow),
      "",
      "The suite format and the metrics: docs/eval.md.",
    ].join("\n");
  const rows = shown.map(flagRow);
  return helpRun(rows);
}

function flagRow(f: FlagSpec): string {
  const arg = f.values ? `<${f.values.join("|")}>` : f.arg ? `<${f.arg}>` : "";
  const left = `  ${f.short ? `-${f.short}, ` : "    "}--${f.name}${arg ? ` ${arg}` : ""}`;
  return left.length >= 34 ? `${left}\n${" ".repeat(34)}${f.help}` : `${left.padEnd(34)}${f.help}`;
}

function helpRun(rows: string[]): string {
  return [
    "weir — a coding agent",
    "",
    "Usage:",
    '  weir "task"            run one task and exit',
    '  weir exec "task"       the same (also weir -p "task"); input piped to weir joins the task as data',
    "  weir                   open the REPL",
    '  weir goal "objective"  work towards it across runs until its check passes (--budget TOKENS, --check CMD)',
    "  weir goal resume ID [--budget N]  carry on a paused or budget-limited goal (N more tokens)",
    "  weir goal list | status ID  this workspace's goals; one goal's transitions",
    '  weir graph "objective"  plan steps, run each as a goal in its own worktree, merge them (--plan FILE, --concurrency N, --budget N, --check CMD)',
    "  weir graph resume ID [--budget N] | list | status [ID]  carry on a stopped graph; this workspace's graphs; one graph's nodes",
    "  weir graph clean [ID]  remove a finished graph's worktrees and node branches (all finished graphs without ID)",
    "  weir init              set up: provider, key, model (from the endpoint's list), one test request",
    "  weir auth login|logout|status  store a checked key (stdin or prompt), remove it, say where it comes from",
    "  weir config show       print the resolved configuration and where each value came from",
    "  weir changes [show|apply|drop ID]  what commands changed that weir held from the workspace, and why; its diff; apply or discard it",
    "  weir undo [N] [--session ID]  put the workspace back as it was before the last N tasks (files and commands alike)",
    "  weir completion bash|zsh|fish  a completion script for commands, their words, flags and values",
    "  weir doctor [--json]   check the key, endpoint and model, sandbox, data dir, MCP servers; each line with its fix",
    "  weir actions [--json]  list every action: capability, id, risk, source, schema tokens",
    "  weir actions forget    clear the tool memory (the tools earlier tasks called, by their words)",
    "  weir index [--status]  refresh the symbol index (names defined in source, found in any repository size), or say how fresh it is",
    "  weir index --review [PATH...]  review files with models.review (security, test gaps); findings reach runs while the files are unchanged",
    "  weir mcp list          configured MCP servers, their state and tools",
    "  weir mcp approve NAME  allow a project's MCP server (.mcp.json) to start in this workspace",
    '  weir context "goal"    the exact first request a run would send, each chunk explained (--budget N, --json)',
    "  weir firewall check [FILE...]  classify untrusted text (stdin if no file); exit 1 if instruction-like",
    "  weir decisions [--session ID] [--json]  baseline vs judgment provider: disagreement per signal",
    "  weir events --export FILE [--session ID]  finished tool calls (action, redacted preview, duration, result)",
    "  weir eval ...          replay labeled suites, calibrate, report: see weir eval --help",
    "  weir help [eval], weir version",
    "",
    "Flags:",
    ...rows,
    "",
    "Config: ~/.config/weir/config.json (user), <workspace>/.weir/config.json (project).",
    "Precedence: flags > environment (WEIR_*) > project > user. Exit codes: 0 ok, 1 failed, 2 usage, 130 interrupted.",
  ].join("\n");
}
