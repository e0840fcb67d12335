import { visibleEvent } from "./visible.ts";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { Approver } from "../actions/executor.ts";
import { RUN_MODES, type RunMode } from "../config/options.ts";
import { expandCommand, matchCommand, type SlashCommand } from "../context/slash-commands.ts";
import { quoteData } from "../context/render.ts";
import type { AgentEvent, Display } from "../core/events.ts";
import { addUsage, cacheHitRate, costOf, emptyUsage, type Price, promptTokens, type Usage } from "../core/usage.ts";
import { isCancel, select } from "@clack/prompts";
import { terminalApprover } from "./approve.ts";
import { plainDisplay } from "./plain.ts";
import { LivePane, type StatusView, statusSegments } from "./pane.ts";
import { foldForReview, openReview, type ReviewItem } from "./review.ts";
import { waitingFor } from "./spinner.ts";
import type { Style } from "./style.ts";

/** What the REPL drives; the CLI supplies it so this frontend never learns about stores or providers. */
interface ReplHost {
  /** Runs one task; resolves when the run ends (cancelled runs included). */
  send(task: string, display: Display, signal: AbortSignal, typed: string): Promise<unknown>;
  /** `/goal ...`: starts, resumes or lists goals (cli/commands/goal.ts); resolves to the line that says how it ended. */
  goal(words: string[], display: Display, signal: AbortSignal): Promise<string>;
  /** `/graph ...`: starts, resumes, lists or shows goal graphs (cli/commands/graph.ts); resolves to the line that says how it ended. */
  graph(words: string[], display: Display, signal: AbortSignal): Promise<string>;
  clear(): void;
  /** The person is reading an answer: background work that must not delay a request may start (the symbol index's refresh). */
  idle?(): void;
  /** Switches model; returns a line to show. */
  setModel(model: string): Promise<string>;
  sessions(): string;
  /** The model's plan (its todo action), one line a step; empty when it keeps none. */
  plan(): string[];
  /** An estimate of the tokens the conversation's history takes (a resumed session's, before its next request). */
  historyTokens(): number;
  /** `/changes [show|apply|drop ID]`: what weir held of commands' changes; returns the text to show. */
  changes(words: string[]): string;
  /** `/undo [N]`: the last N tasks of this workspace undone; returns what was restored. */
  undo(words: string[]): string;
  /** `/mcp [list|enable|disable|reconnect|disconnect NAME]`; returns the text to show. */
  mcp(words: string[]): Promise<string>;
  /** `/calls`: in-flight calls with their verdicts. */
  calls(): string;
  /** `/stop ID` or `/stop stuck`. */
  stop(target: string): string;
  /** Workspace files, for `@path` completion. */
  files(): string[];
  /** `/resume` (list) or `/resume ID` (switch to that session; returns its conversation in brief). */
  resume(id: string | undefined): string;
  /** `!cmd`: runs a shell line the person typed, in the sandbox, without asking (a deny rule still holds); its output. */
  shell(line: string, signal: AbortSignal): Promise<{ output: string; ran: boolean }>;
  /** Custom slash commands (`.weir/commands/*.md`, the user's `commands/`), read when asked. */
  commands(): SlashCommand[];
  /** `/agents` (the workers) and `/agents stop ID`; works while a turn runs. */
  agents(words: string[]): Promise<string>;
  /** The models the endpoint lists (undefined where it has no list). */
  models(): Promise<string[] | undefined>;
  /** The other roles' models and the router's state, one line (`/model`); empty when main is the only one. */
  roles(): string;
  /** `/compact`: demote the tool output so far; says what it did. */
  compact(): string;
  /** The run's mode (`/mode`, Shift-Tab): set when `next` is given; returns the mode in force. */
  mode(next?: RunMode): RunMode;
  /** `/go`: leaves plan mode and returns what tells the model to carry its plan out; undefined when no plan waits. */
  acceptPlan(): string | undefined;
  status(): {
    model: string;
    effort?: string;
    contextSize: number;
    sessionId?: string;
    workerTokens?: number;
    graph?: string;
    /** A model's price, where known (config `prices`, else the published list). */
    priceOf: (model: string) => Price | undefined;
  };
}

/** What each model of a session used, and the role it served in. */
type Spend = Map<string, { role: string; usage: Usage }>;

/** Dollars a session's spend cost, or undefined when a model of it has no known price. Pure. */
function spendCost(spend: Spend, priceOf: (model: string) => Price | undefined): number | undefined {
  let sum = 0;
  for (const [model, m] of spend) {
    const p = priceOf(model);
    if (!p) return undefined;
    sum += costOf(m.usage, p);
  }
  return sum;
}

/** A session's spend, by kind of token, and in dollars where the prices are known; by model where there were several. Pure. */
function costLines(spend: Spend, priceOf: (model: string) => Price | undefined): string {
  const n = (x: number) => x.toLocaleString("en");
  const tokens = (u: Usage) => `input ${n(u.input)} · cache read ${n(u.cacheRead)} · cache write ${n(u.cacheWrite)} · output ${n(u.output)} tokens`;
  const u = [...spend.values()].reduce((a, m) => addUsage(a, m.usage), emptyUsage());
  const lines = [tokens(u)];
  const cost = spendCost(spend, priceOf);
  const unknown = "no price known for this model (prices in your config give dollars)";
  lines.push(cost !== undefined ? `$${cost.toFixed(4)} at the configured or published prices` : unknown);
  if (spend.size > 1)
    for (const [model, m] of spend) {
      const p = priceOf(model);
      lines.push(`  ${m.role} ${model}: ${tokens(m.usage)}${p ? ` · $${costOf(m.usage, p).toFixed(4)}` : ""}`);
    }
  return lines.join("\n");
}

const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

/**
 * Counts the line breaks inside bracketed pastes (ESC[200~ … ESC[201~) as they arrive, before the line
 * editor splits them into lines: each such line is then a continuation of the prompt, not a prompt
 * of its own. The markers themselves are read by the editor as unknown keys and dropped.
 */
function watchPaste(input: NodeJS.ReadStream): { takeLine(): boolean; stop(): void } {
  let pasting = false;
  let lines = 0;
  const onData = (chunk: Buffer | string) => {
    let text = chunk.toString();
    while (text.length > 0) {
      if (!pasting) {
        const at = text.indexOf("\x1b[200~");
        if (at < 0) return;
        pasting = true;
        text = text.slice(at + 6);
      } else {
        const end = text.indexOf("\x1b[201~");
        const body = end < 0 ? text : text.slice(0, end);
        lines += (body.match(/\r\n|\r|\n/g) ?? []).length;
        if (end < 0) return;
        pasting = false;
        text = text.slice(end + 6);
      }
    }
  };
  input.prependListener("data", onData);
  return {
    takeLine: () => (lines > 0 ? (lines--, true) : false),
    stop: () => void input.off("data", onData),
  };
}

export const REPL_HELP = [
  "/help              this list",
  "/model [ID]        pick from the models the endpoint offers, or switch to one by id (the conversation carries over)",
  "/clear             start a new session",
  "/sessions          this workspace's sessions",
  "/changes           what weir held of commands' changes, and why (show, apply or drop ID)",
  "/undo [N]          put the workspace back as it was before the last N tasks, and say what came back",
  "/status            model, context used, cache hit rate, session, spend, and the model's plan",
  "/cost              this session's tokens by kind and by model, and dollars where the prices are known",
  "/compact           show the model the tool output so far as summaries from now on (no model call)",
  "/mcp [list]        MCP servers and their tools; /mcp enable|disable|reconnect|disconnect NAME",
  "/calls             tool calls in flight, with verdicts (slow, stuck, ...); works while a turn runs",
  "/stop ID|stuck     stop one call (its whole process tree) or every stuck one; the rest go on",
  "/agents [stop ID]  background workers: state, calls, spend; stop one (what it wrote stays); works while a turn runs",
  "/init              ask the model to write an AGENTS.md for this repository",
  "/resume [ID]       list this workspace's sessions, or continue one (its conversation is shown in brief)",
  "/mode [MODE]       default, plan (investigate and plan, change nothing) or accept-edits; Shift-Tab cycles them",
  "/go                carry out the plan plan mode ended with (back to the default mode)",
  "/goal OBJECTIVE    work towards it until the project's tests pass; /goal resume ID [TOKENS], /goal list",
  "/graph OBJECTIVE   plan steps, each a goal in its own worktree, merged; also status [ID], resume ID [TOKENS], list",
  "!COMMAND           run a shell command yourself: in the sandbox, without asking (you typed it); the model sees it next",
  "@path              mention a file (Tab completes): it is put in the model's working set",
  "/exit              leave (or Ctrl-D)",
  "Ctrl-O             review everything the log folded (whole reasoning, command output, diffs); q closes",
  "End a line with \\ to continue on the next line. Esc or Ctrl-C cancels the running turn; Ctrl-C clears the line.",
].join("\n");

const BUILTIN_COMMANDS = new Set([
  "/help", "/model", "/clear", "/sessions", "/changes", "/undo", "/status", "/cost", "/compact", "/mcp",
  "/calls", "/stop", "/agents", "/init", "/resume", "/goal", "/graph", "/mode", "/go", "/exit", "/quit",
]);

/** Tab completion of the `@path` being typed: workspace files that start with it. Pure. */
export function completeMention(line: string, files: readonly string[], max = 50): [string[], string] {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(line);
  if (!m) return [[], line];
  const partial = m[1]!;
  const hits = files.filter((f) => f.startsWith(partial));
  // Past a directory, offer the next level only, so a large tree stays navigable.
  const next = [
    ...new Set(
      hits.map((f) => {
        const rest = f.slice(partial.length);
        const slash = rest.indexOf("/");
        return slash >= 0 ? f.slice(0, partial.length + slash + 1) : f;
      }),
    ),
  ]
    .sort()
    .slice(0, max);
  return [next.map((f) => `@${f}`), `@${partial}`];
}

/** What `/init` asks: an AGENTS.md a coding agent (weir or another) can follow, written from the repository itself. */
const INIT_TASK =
  "Write an AGENTS.md at the root of this repository for coding agents: how to install, build, test " +
  "and lint (the exact commands, found in the project files, not guessed), the layout of the source " +
  "tree, the conventions the code follows, and what must not be done. " +
  "Read the project's manifest, README and a few source files first. " +
  "If an AGENTS.md exists, improve it instead of replacing what is still true. Keep it under 80 lines.";

function loadHistory(path: string): string[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string)
      .reverse()
      .slice(0, 1000);
  } catch {
    return [];
  }
}

/**
 * The interactive frontend: line editing and history (node:readline), multi-line input, slash
 * commands, Ctrl-C to cancel a turn, and a status line after each run.
 */
export async function runRepl(host: ReplHost, opts: { historyFile: string; style: Style; verbose: boolean; banner: string }): Promise<number> {
  const out = process.stdout;
  let files: string[] | undefined;
  // readline edits the line but draws nothing: its output is a silent sink the size of the terminal,
  // and the live pane draws the input line (Bun's readline leaves the first row of a wrapped line
  // behind when it shrinks, and two writers on one screen never agree on where the cursor is).
  // (A plain object, not a node:stream Writable: loading node:stream costs the REPL's start ~4 ms.)
  const none = () => silent;
  const silent = {
    isTTY: true,
    write: () => true,
    on: none,
    once: none,
    off: none,
    removeListener: none,
    get columns() {
      return out.columns ?? 80;
    },
    get rows() {
      return out.rows ?? 24;
    },
  } as unknown as NodeJS.WritableStream;
  const rl: Interface = (current = createInterface({
    input: process.stdin,
    output: silent,
    terminal: true,
    history: loadHistory(opts.historyFile),
    historySize: 1000,
    removeHistoryDuplicates: true,
    prompt: "› ",
    completer: (line: string) => {
      const [hits, partial] = completeMention(line, (files ??= host.files()));
      // Several candidates: readline would list them on its (silent) output; the pane shows them.
      if (hits.length > 1) thePane?.print(`${hits.join("  ")}\n`);
      return [hits, partial];
    },
  }));
  // The line editor's key handling, so an approval prompt can take the keys from it for a while.
  editorKeys = process.stdin.listeners("keypress") as ((...a: unknown[]) => void)[];
  const remember = (line: string) => {
    try {
      mkdirSync(dirname(opts.historyFile), { recursive: true });
      appendFileSync(opts.historyFile, `${JSON.stringify(line)}\n`);
    } catch {
      // history is a convenience; never fail a session over it
    }
  };
  out.write(`${opts.banner}\n${opts.style.dim("/help for commands, Ctrl-O reviews what was folded, Ctrl-D to leave")}\n`);
  // Bracketed paste: the terminal marks pasted text, so its newlines join one prompt instead of sending each line.
  const paste = watchPaste(process.stdin);
  out.write(PASTE_ON);

  let running: AbortController | undefined;
  let runStarted = 0;
  let lastRunMs: number | undefined;
  // What the person ran with !cmd: shown to the model with their next message.
  let userRan: string[] = [];
  let pending: string[] = [];
  let lastUsage: Usage = emptyUsage();
  let total: Usage = emptyUsage();
  const spend: Spend = new Map();
  const folded: ReviewItem[] = [];

  const status = (): StatusView => {
    const s = host.status();
    return {
      model: s.model,
      ...(s.effort ? { effort: s.effort } : {}),
      used: promptTokens(lastUsage) + lastUsage.output,
      contextSize: s.contextSize,
      cacheRate: cacheHitRate(total),
      ...(s.workerTokens ? { workerTokens: s.workerTokens } : {}),
      ...(s.graph ? { graph: s.graph } : {}),
      ...(host.mode() !== "default" ? { mode: host.mode() } : {}),
      ...(s.sessionId ? { sessionId: s.sessionId } : {}),
      ...(spend.size && spendCost(spend, s.priceOf) !== undefined ? { costUsd: spendCost(spend, s.priceOf)! } : {}),
      ...(running ? { elapsedMs: Date.now() - runStarted } : lastRunMs !== undefined ? { elapsedMs: lastRunMs } : {}),
    };
  };
  // The live pane owns the bottom rows; everything else is printed above it.
  const pane = new LivePane(out, { prompt: () => rl.getPrompt(), line: () => rl.line, cursor: () => rl.getCursorPos() }, opts.style, () =>
    statusSegments(status()),
  );
  thePane = pane;
  const say = (s: string) => pane.print(s.endsWith("\n") ? s : `${s}\n`);
  // readline's prompt (its state; it draws into the silent sink), then the pane draws it; a line
  // typed ahead keeps its cursor.
  const prompt = () => {
    rl.prompt(true);
    pane.redraw();
  };
  out.on("resize", () => pane.resized());

  const cancel = () => {
    running?.abort();
    pane.spin(undefined);
    say(opts.style.yellow("cancelling…"));
  };
  // Esc cancels the running turn, as Ctrl-C does; Ctrl-O opens the review (readline reports keys on its
  // input). After readline has applied a key, the pane draws the line as it now is.
  process.stdin.on("keypress", (_s: string, key: { name?: string; ctrl?: boolean; shift?: boolean } | undefined) => {
    if (approving || reviewing) return;
    if (key?.name === "escape" && running && !running.signal.aborted) cancel();
    if (key?.ctrl && key.name === "o") return void review();
    if (key?.ctrl && key.name === "l") out.write("\x1b[2J\x1b[H");
    // Shift-Tab cycles the mode, as in Claude Code: default → plan → accept-edits.
    if (key?.name === "tab" && key.shift && !running) {
      const next = RUN_MODES[(RUN_MODES.indexOf(host.mode()) + 1) % RUN_MODES.length]!;
      say(`mode: ${host.mode(next)}${next === "plan" ? " (investigate and plan; nothing changes until you say /go)" : ""}\n`);
    }
    // Enter is drawn by the line handler (the line is gone from the editor by then).
    if (key?.name !== "return" && key?.name !== "enter") queueMicrotask(() => pane.redraw());
  });
  const review = async () => {
    reviewing = true;
    for (const l of editorKeys) process.stdin.off("keypress", l);
    pane.hold(true);
    try {
      await openReview(out, process.stdin, folded, opts.style);
    } finally {
      for (const l of editorKeys) process.stdin.on("keypress", l);
      reviewing = false;
      pane.hold(false);
    }
  };
  rl.on("SIGINT", () => {
    if (running) cancel();
    else {
      pending = [];
      rl.write(null, { ctrl: true, name: "u" });
      rl.setPrompt("› ");
      pane.redraw();
    }
  });

  // The log as plain lines, committed above the pane; what the run waits for is the pane's spinner.
  const sink = { write: (t: string) => pane.print(t) };
  const base = plainDisplay(sink, sink, opts.style, opts.verbose, { markdown: opts.style.on, columns: out.columns ?? 80 });
  let waiting: string | undefined;
  let turns = 0;
  const display: Display = {
    emit(raw: AgentEvent) {
      const e = visibleEvent(raw);
      if (e.type === "turn_end") {
        lastUsage = e.usage;
        total = addUsage(total, e.usage);
        const model = e.model ?? host.status().model;
        const was = spend.get(model);
        const role = e.role ?? "main";
        const roles = !was || was.role.split("+").includes(role) ? (was?.role ?? role) : `${was.role}+${role}`;
        spend.set(model, { role: roles, usage: addUsage(was?.usage ?? emptyUsage(), e.usage) });
      }
      foldForReview(folded, e);
      // A blank line between one turn's answer and the next, so a queued follow-up does not run on.
      if (e.type === "run_start") {
        if (turns++ > 0) sink.write("\n");
        return;
      }
      if (e.type === "tool_call") pane.endLine();
      // Reasoning streams live in the pane; the log keeps it folded to one line once it closes.
      if (e.type === "reasoning_delta") {
        if (!opts.verbose) pane.think(e.text);
      }
      else if (e.type !== "agent") pane.think(undefined);
      base.emit(e);
      // "cancelling…" ends: the run says it is over, and what the model had answered stays above.
      if (e.type === "run_end" && e.stop === "cancelled") say(opts.style.dim("cancelled"));
      // What the Markdown renderer still holds shows plainly in the pane until its block is printed.
      if (e.type === "text_delta" || e.type === "run_end" || e.type === "tool_call") pane.draft(base.held());
      if (e.type !== "agent") pane.spin((waiting = waitingFor(e, waiting)));
    },
  };

  // While a turn runs the loop below is waiting, so /calls, /stop and /agents are answered here (the
  // loop then skips them); anything else typed is type-ahead: the loop takes it, in order, once the
  // turn is over.
  const handled: string[] = [];
  rl.on("line", (line) => {
    // Keys meant for an approval prompt also reach the line editor: what it makes of them is no input.
    if (approving) {
      handled.push(line);
      return;
    }
    const typed = `${rl.getPrompt()}${line}`;
    if (!running) {
      pane.submitted(opts.style.dim(typed));
      return;
    }
    const t = line.trim();
    pane.submitted(t === "" ? undefined : opts.style.dim(typed));
    if (t === "/calls") say(host.calls());
    else if (t.startsWith("/stop")) say(host.stop(t.slice(5).trim()));
    else if (t === "/agents" || t.startsWith("/agents ")) void host.agents(t.split(/\s+/).slice(1)).then((r) => say(r));
    else {
      if (t !== "") say(opts.style.dim(`(queued for after this turn: ${t.length > 60 ? `${t.slice(0, 57)}...` : t}; Esc cancels the turn)`));
      return;
    }
    handled.push(line);
  });

  pane.redraw();
  for await (const raw of rl) {
    if (handled.length && handled[0] === raw) {
      handled.shift();
      continue;
    }
    if (raw.endsWith("\\") || paste.takeLine()) {
      pending.push(raw.endsWith("\\") ? raw.slice(0, -1) : raw);
      rl.setPrompt("… ");
      prompt();
      continue;
    }
    let line = [...pending, raw].join("\n").trim();
    pending = [];
    rl.setPrompt("› ");
    if (line === "") {
      prompt();
      continue;
    }
    remember(line);
    // What the person typed, before a template, /go or /init makes the task: their own image paths are in it.
    const typed = line;
    if (line.startsWith("!") && line.length > 1) {
      const cmd = line.slice(1).trim();
      running = new AbortController();
      try {
        const r = await host.shell(cmd, running.signal);
        say(r.output);
        if (r.ran) userRan.push(`$ ${cmd}\n${r.output.length > 4_000 ? `${r.output.slice(0, 4_000)}\n[… cut]` : r.output}`);
      } finally {
        running = undefined;
      }
      prompt();
      continue;
    }
    // /go accepts the plan plan mode ended with: back to the default mode, and the model carries it out.
    if (line === "/go") {
      const accepted = host.acceptPlan();
      if (!accepted) {
        say("nothing to carry out: /go follows an answer given in plan mode (/mode plan or Shift-Tab)\n");
        prompt();
        continue;
      }
      say("mode: default (carrying out the plan)\n");
      line = accepted;
    }
    // /init is a task of its own: the model studies the repository and writes AGENTS.md.
    if (line === "/init" || line.startsWith("/init ")) line = `${INIT_TASK}${line.slice(5).trim() ? `\nAlso: ${line.slice(5).trim()}` : ""}`;
    // A custom command (not shadowing a built-in one) becomes the task its template says.
    const custom = line.startsWith("/") && !BUILTIN_COMMANDS.has(line.split(/\s+/)[0]!) ? matchCommand(line, host.commands()) : undefined;
    // /goal and /graph run like a task (live pane, Esc stops them), so they are not answered here.
    const words = (cmd: string) => (line === cmd || line.startsWith(`${cmd} `) ? line.slice(cmd.length).trim().split(/\s+/).filter(Boolean) : undefined);
    const goalWords = words("/goal");
    const graphWords = goalWords ? undefined : words("/graph");
    if (custom) line = expandCommand(custom.command, custom.args);
    else if (line.startsWith("/") && !goalWords && !graphWords) {
      const [cmd, ...rest] = line.split(/\s+/);
      if (cmd === "/exit" || cmd === "/quit") break;
      if (cmd === "/help") {
        const mine = host.commands();
        const entry = (c: (typeof mine)[number]) =>
          `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`.padEnd(19) + ` ${c.description} (${c.origin}: ${c.file})`;
        say(`${REPL_HELP}\n${mine.length ? `\nCustom commands:\n${mine.map(entry).join("\n")}\n` : ""}`);
      } else if (cmd === "/clear") {
        host.clear();
        lastUsage = emptyUsage();
        say(opts.style.dim("new session\n"));
      } else if (cmd === "/model" && rest.length === 0 && process.stdin.isTTY) {
        // No id: pick from what the endpoint offers.
        const offered = await host.models();
        const now = host.status().model;
        if (host.roles()) say(`${host.roles()}\n`);
        if (!offered?.length) say(`model: ${now} (the endpoint gives no list; /model ID switches)\n`);
        else {
          const options = offered.map((m) => ({ value: m, label: m === now ? `${m} (current)` : m }));
          const picked = await promptInRepl(() => select({ message: "model", options, initialValue: offered.includes(now) ? now : offered[0]! }));
          say(`${isCancel(picked) || picked === now ? `model: ${now}` : await host.setModel(picked)}\n`);
        }
      } else if (cmd === "/model") say(`${await host.setModel(rest.join(" "))}\n`);
      else if (cmd === "/sessions") say(`${host.sessions()}\n`);
      else if (cmd === "/mode") {
        const next = rest[0] as RunMode | undefined;
        if (next !== undefined && !RUN_MODES.includes(next)) say(`no mode ${next}; the modes are ${RUN_MODES.join(", ")}\n`);
        else say(`mode: ${host.mode(next)}\n`);
      }
      else if (cmd === "/changes") say(`${host.changes(rest)}\n`);
      else if (cmd === "/undo") say(`${host.undo(rest)}\n`);
      else if (cmd === "/status") {
        const plan = host.plan();
        say(`${statusSegments(status()).join("\n")}${plan.length ? `\nplan:\n${plan.map((l) => `  ${l}`).join("\n")}` : ""}\n`);
      }
      else if (cmd === "/cost") say(`${costLines(spend, host.status().priceOf)}\n`);
      else if (cmd === "/compact") say(`${host.compact()}\n`);
      else if (cmd === "/mcp") say(`${await host.mcp(rest)}\n`);
      else if (cmd === "/calls") say(`${host.calls()}\n`);
      else if (cmd === "/stop") say(`${host.stop(rest.join(" "))}\n`);
      else if (cmd === "/agents") say(`${await host.agents(rest)}\n`);
      else if (cmd === "/resume") {
        say(`${host.resume(rest[0])}\n`);
        // The resumed conversation fills the context before any request: the status bar shows its estimate, not 0.
        if (rest[0]) lastUsage = { ...emptyUsage(), input: host.historyTokens() };
      }
      else say(`unknown command ${cmd}; /help lists them\n`);
      prompt();
      continue;
    }
    // Commands the person ran go first, quoted as the data they are (their output is not theirs).
    if (userRan.length && !goalWords && !graphWords) {
      line = `[commands I ran myself in the terminal, with their output]\n${quoteData(userRan.join("\n\n"))}\n\n${line}`;
      userRan = [];
    }
    running = new AbortController();
    runStarted = Date.now();
    pane.live(true);
    try {
      if (goalWords) say(`${await host.goal(goalWords, display, running.signal)}\n`);
      else if (graphWords) say(`${await host.graph(graphWords, display, running.signal)}\n`);
      else await host.send(line, display, running.signal, typed);
    } catch (e) {
      // An error that escaped the run (a store failure): report it and stay up.
      say(opts.style.red(`weir: ${(e as Error).message}\n`));
    } finally {
      lastRunMs = Date.now() - runStarted;
      running = undefined;
      waiting = undefined;
      pane.live(false);
    }
    host.idle?.();
    prompt();
  }
  // The last status stays in the scrollback; the pane goes.
  out.write(PASTE_OFF);
  paste.stop();
  pane.close(opts.style.dim(statusSegments(status()).join(" · ")));
  rl.close();
  current = undefined;
  thePane = undefined;
  return 0;
}

/** The REPL's line editor while it runs, so an approval prompt can take the terminal from it. */
let current: Interface | undefined;

/** While an approval prompt owns the terminal: the line editor's lines are swallowed. */
let approving = false;
/** While Ctrl-O's review owns the terminal. */
let reviewing = false;
let editorKeys: ((...a: unknown[]) => void)[] = [];
let thePane: LivePane | undefined;

/**
 * Approval inside the REPL: line editing pauses while the prompt owns the terminal, and what the
 * line editor made of the prompt's keys (history recalled by the arrows, the Enter) is discarded.
 */
export const replApprover: Approver = (req) => promptInRepl(() => terminalApprover(req));

/**
 * A prompt (an approval, the model picker) inside the REPL: line editing pauses while the prompt owns
 * the terminal, and what the line editor made of the prompt's keys (history recalled by the arrows,
 * the Enter) is discarded; the terminal is raw again afterwards.
 */
async function promptInRepl<T>(ask: () => Promise<T>): Promise<T> {
  const rl = current;
  rl?.pause();
  approving = true;
  thePane?.hold(true);
  // The prompt's arrows must not also walk the line editor's history (the editor would redraw).
  const keys = rl ? editorKeys : [];
  for (const l of keys) process.stdin.off("keypress", l);
  // What the person had typed ahead survives the prompt; anything the editor made of the prompt's keys does not.
  const typed = rl?.line ?? "";
  // The prompt leaves the terminal in line mode when it ends: Esc, Ctrl-C and Ctrl-O need raw keys back.
  const raw = process.stdin.isTTY ? process.stdin.isRaw : false;
  try {
    return await ask();
  } finally {
    if (process.stdin.isTTY && process.stdin.isRaw !== raw) process.stdin.setRawMode(raw);
    for (const l of keys) process.stdin.on("keypress", l);
    approving = false;
    if (rl && rl.line !== typed) {
      rl.write(null, { ctrl: true, name: "u" });
      rl.write(typed);
    }
    rl?.resume();
    thePane?.hold(false);
  }
}
