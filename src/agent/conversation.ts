import { BudgetSpent, UserError } from "../core/errors.ts";
import type { Display } from "../core/events.ts";
import { middleCut } from "../core/text-fit.ts";
import type { ImageBlock, Message, ToolSpec } from "../core/messages.ts";
import { CancelledError } from "../providers/errors.ts";
import type { ModelProvider, ModelRequest } from "../providers/port.ts";
import type { SessionStore } from "../store/sessions.ts";
import { type RunResult, runTask, type Seams, type ToolExecutor } from "./run.ts";

interface ConversationDeps {
  store: SessionStore;
  workspace: string;
  provider: ModelProvider;
  system: string;
  tools: readonly ToolSpec[];
  execute: ToolExecutor;
  maxTurns: number;
  maxTokens: number;
  /** Characters a task may take (a quarter of the window, four to a token); past it, its middle is cut. */
  taskRoom?: number;
  seams?: Seams;
  /** Called with each new task before its run (the action router pre-loads from it). */
  onTask?: (task: string) => void;
  /** A worker's conversation: its session is stored under the spawning session, with its label. */
  parent?: () => { sessionId: string; label: string } | undefined;
  /**
   * Keeps what a session's requests must repeat byte for byte in any process (its quote marker, its
   * loaded tools): told when a session is opened (made, or resumed) and after each of its runs.
   */
  prefix?: { opened(sessionId: string, resumed: boolean): void; ran(sessionId: string): void };
  /**
   * The images a task attaches (`@shot.png`) for a model, or the one line why they cannot go; `typed`
   * is what the person typed of it (their own image paths outside the workspace may be read).
   */
  images?: (task: string, model: string, typed: string) => { images: ImageBlock[] } | { problem: string };
}

/**
 * A session across runs: each `send` is one run whose task is recorded before the model is called
 * and whose messages are committed at its end. Follow-ups see everything earlier runs said.
 */
/** Appended to a prompt the person cancelled before the model answered. */
const INTERRUPTED = "[weir] The person interrupted this request before you answered; their next message says what they want now.";

/** Appended instead when a token budget stopped the request: the person did not interrupt it. */
const stoppedBy = (why: BudgetSpent) => `[weir] This request was stopped before you answered: ${why.message}. The next message says how to go on.`;

export class Conversation {
  private history: Message[];

  constructor(
    private deps: ConversationDeps,
    public sessionId: string | undefined,
  ) {
    this.history = sessionId ? deps.store.history(sessionId) : [];
    if (sessionId) deps.prefix?.opened(sessionId, true);
  }

  get messages(): readonly Message[] {
    return this.history;
  }

  get provider(): ModelProvider {
    return this.deps.provider;
  }

  /** Switches the model for the next runs (`/model`); the history carries over. */
  setProvider(provider: ModelProvider): void {
    this.deps.provider = provider;
  }

  /** Continues another stored session from the next run on (`/resume`). */
  resume(sessionId: string): void {
    this.history = this.deps.store.history(sessionId);
    this.sessionId = sessionId;
    this.deps.prefix?.opened(sessionId, true);
  }

  /** Starts a new, empty session for the next run (`/clear`). */
  clear(): void {
    this.sessionId = undefined;
    this.history = [];
  }

  /** The loop's input for a run of this conversation: the one place send and preview build it. */
  private input(task: string, provider: ModelProvider, display: Display, signal: AbortSignal, maxTurns: number): Parameters<typeof runTask>[0] {
    return {
      provider,
      system: this.deps.system,
      history: this.history,
      task,
      tools: this.deps.tools,
      execute: this.deps.execute,
      maxTurns,
      maxTokens: this.deps.maxTokens,
      display,
      signal,
      ...(this.deps.seams ? { seams: this.deps.seams } : {}),
    };
  }

  /**
   * The first request a run of `task` would send, built by the same loop and seams, without calling
   * the model or recording anything in the session (`weir context`).
   */
  async preview(task: string): Promise<ModelRequest> {
    let captured: ModelRequest | undefined;
    const real = this.deps.provider;
    const provider: ModelProvider = {
      settings: real.settings,
      wireBody: (r) => real.wireBody(r),
      listModels: (signal) => real.listModels(signal),
      stream(req) {
        captured = req;
        throw new CancelledError();
      },
    };
    this.deps.onTask?.(task);
    await runTask(this.input(task, provider, { emit() {} }, new AbortController().signal, 1));
    if (!captured) throw new Error("the run sent no request");
    return captured;
  }

  /**
   * Runs one task. `typed` is what the person typed of it (before a command template or piped input
   * made the rest): only there may an image path lead outside the workspace. Default: nothing.
   */
  async send(prompt: string, display: Display, signal: AbortSignal, typed = ""): Promise<RunResult> {
    const { store, provider } = this.deps;
    // A task longer than its share of the window (a pasted log) keeps its two ends, and says so.
    const task = this.deps.taskRoom === undefined ? prompt : middleCut(prompt, this.deps.taskRoom).text;
    const { preset, model } = provider.settings;
    // Images go with the task, or the task does not go: nothing attached is dropped without a word.
    const attached = this.deps.images?.(task, model, typed) ?? { images: [] };
    if ("problem" in attached) throw new UserError(attached.problem);
    if (!this.sessionId) {
      this.sessionId = store.createSession(this.deps.workspace, task.split("\n")[0]!, preset, model, Date.now(), this.deps.parent?.());
      this.deps.prefix?.opened(this.sessionId, false);
    }
    const runId = store.startRun(this.sessionId, task, preset, model);
    this.deps.onTask?.(task);
    display.emit({ type: "run_start", provider: preset, model, sessionId: this.sessionId, task });
    const images = attached.images.length ? { images: attached.images } : {};
    const result = await runTask({ ...this.input(task, provider, display, signal, this.deps.maxTurns), sessionId: this.sessionId, ...images });
    // A prompt cancelled before any answer stays in the history; the model is told once why it was stopped.
    const last = result.added.at(-1);
    const why = signal.reason instanceof BudgetSpent ? stoppedBy(signal.reason) : INTERRUPTED;
    if (result.stop === "cancelled" && last?.role === "user") last.content.push({ type: "text", text: why });
    store.finishRun(this.sessionId, runId, result.added, {
      status: result.stop,
      turns: result.turns,
      usage: result.usage,
      ...(result.error ? { error: result.error } : {}),
      provider: preset,
      model,
    });
    this.deps.prefix?.ran(this.sessionId);
    this.history = [...this.history, ...result.added];
    return result;
  }
}
