import type { AgentEvent, Display } from "../core/events.ts";
import { killTree } from "../workspace/process.ts";
import { redactPreview } from "./redact.ts";
import { DEFAULT_RULES, type RuleConfig, severityOf, type Verdict, type VerdictId, verdictsFor } from "./verdicts.ts";

interface InFlight {
  id: string;
  action: string;
  preview: string;
  startedAt: number;
  lastOutputAt: number;
  pid?: number;
  awaitingSince?: number;
  controller: AbortController;
  /** The call can be stopped: it has a subprocess, or it honours its abort signal. */
  stoppable: boolean;
}

interface CallRecord {
  callId: string;
  action: string;
  preview: string;
  startedAt: number;
  durationMs: number;
  resultClass: "ok" | "error" | "refused" | "stopped";
  errorClass?: string;
}

interface CallView {
  id: string;
  action: string;
  preview: string;
  ageMs: number;
  pid?: number;
  severity: string;
  verdicts: Verdict[];
  stoppable: boolean;
}

/**
 * Tracks every in-flight call (and the model stream) and judges it with the verdict rules; stops one
 * call by id, ending its whole process tree, while the others go on. Costs no model tokens.
 */
export class Supervisor {
  private calls = new Map<string, InFlight>();
  private failures = new Map<string, number>();
  /** Failed calls in a row, of any action: an agent caught in an error storm. */
  private streak = 0;
  private rss: number[] = [];
  private model: { startedAt: number; lastOutputAt: number } | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private opts: { rules?: Record<VerdictId, RuleConfig>; onRecord?: (r: CallRecord) => void; now?: () => number; heartbeatMs?: number } = {},
  ) {
    if (opts.heartbeatMs !== 0) {
      this.timer = setInterval(() => {
        this.rss.push(process.memoryUsage().rss);
        if (this.rss.length > 20) this.rss.shift();
      }, opts.heartbeatMs ?? 5_000);
      this.timer.unref?.();
    }
  }

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
  }

  begin(id: string, action: string, input: unknown, stoppable: boolean): InFlight {
    const t = this.now();
    const c: InFlight = { id, action, preview: redactPreview(input), startedAt: t, lastOutputAt: t, controller: new AbortController(), stoppable };
    this.calls.set(id, c);
    return c;
  }

  output(id: string): void {
    const c = this.calls.get(id);
    if (c) c.lastOutputAt = this.now();
  }

  setPid(id: string, pid: number | undefined): void {
    const c = this.calls.get(id);
    if (c && pid !== undefined) {
      c.pid = pid;
      c.stoppable = true;
    }
  }

  awaiting(id: string, waiting: boolean): void {
    const c = this.calls.get(id);
    if (c) c.awaitingSince = waiting ? this.now() : undefined;
  }

  end(id: string, resultClass: CallRecord["resultClass"], errorClass?: string): void {
    const c = this.calls.get(id);
    if (!c) return;
    this.calls.delete(id);
    this.failures.set(c.action, resultClass === "error" ? (this.failures.get(c.action) ?? 0) + 1 : 0);
    this.streak = resultClass === "error" || resultClass === "refused" ? this.streak + 1 : 0;
    const durationMs = this.now() - c.startedAt;
    const { action, preview, startedAt } = c;
    this.opts.onRecord?.({ callId: id, action, preview, startedAt, durationMs, resultClass, ...(errorClass ? { errorClass } : {}) });
  }

  /** The model stream: any event counts as activity; silence is judged like a call's. */
  modelActivity(streaming: boolean): void {
    const t = this.now();
    if (!streaming) this.model = undefined;
    else if (!this.model) this.model = { startedAt: t, lastOutputAt: t };
    else this.model.lastOutputAt = t;
  }

  /** Wraps a display so the model stream's activity reaches this supervisor (its silent verdict). */
  watch(display: Display): Display {
    return {
      emit: (e: AgentEvent) => {
        if (e.type === "turn_start" || e.type === "text_delta" || e.type === "reasoning_delta" || e.type === "retry") this.modelActivity(true);
        else if (e.type === "turn_end" || e.type === "run_end") this.modelActivity(false);
        display.emit(e);
      },
    };
  }

  list(): CallView[] {
    const t = this.now();
    const rules = this.opts.rules ?? DEFAULT_RULES;
    const views: CallView[] = [...this.calls.values()].map((c) => {
      const awaiting = c.awaitingSince !== undefined ? { awaitingSince: c.awaitingSince } : {};
      const activity = { startedAt: c.startedAt, lastOutputAt: c.lastOutputAt, ...awaiting, consecutiveFailures: this.failures.get(c.action) ?? 0 };
      const v = verdictsFor(activity, t, rules, this.rss);
      const pid = c.pid !== undefined ? { pid: c.pid } : {};
      return { id: c.id, action: c.action, preview: c.preview, ageMs: t - c.startedAt, ...pid, severity: severityOf(v), verdicts: v, stoppable: c.stoppable };
    });
    if (this.model) {
      const { startedAt, lastOutputAt } = this.model;
      const v = verdictsFor({ startedAt, lastOutputAt, consecutiveFailures: 0, model: true }, t, rules, this.rss);
      views.push({ id: "model", action: "model stream", preview: "", ageMs: t - this.model.startedAt, severity: severityOf(v), verdicts: v, stoppable: false });
    }
    return views;
  }

  /**
   * The health of the agent this supervisor watches (a worker's): the worst verdict of its calls in
   * flight and its model stream (stuck, silent, ...), plus an error storm when its last calls all
   * failed, even with none in flight.
   */
  health(): { severity: string; verdicts: string[] } {
    const rules = this.opts.rules ?? DEFAULT_RULES;
    const views = this.list();
    const verdicts = new Set(views.flatMap((v) => v.verdicts.map((x) => x.id)));
    if (rules.error_storm.enabled && this.streak >= rules.error_storm.threshold) verdicts.add("error_storm");
    const order = ["stalled", "erroring", "degraded"];
    const severities = [...views.map((v) => v.severity), ...(verdicts.has("error_storm") ? ["erroring"] : [])];
    const worst = order.find((o) => severities.includes(o));
    return { severity: worst ?? (views.length ? "busy" : "idle"), verdicts: [...verdicts] };
  }

  /** Stops one call: aborts its signal and ends its process tree. Says so when it cannot. */
  stop(id: string): string {
    const c = this.calls.get(id);
    if (!c) return `no call ${id} in flight`;
    if (!c.stoppable) return `${id} (${c.action}) runs inside weir's process and cannot be interrupted; it will finish on its own`;
    c.controller.abort();
    if (c.pid !== undefined) killTree(c.pid);
    return `stopped ${id} (${c.action})`;
  }

  /** Stops every call in a scope: `stuck` (stalled verdicts) or `all`. */
  stopScope(scope: "stuck" | "all"): string[] {
    return this.list()
      .filter((v) => v.id !== "model" && (scope === "all" || v.severity === "stalled"))
      .map((v) => this.stop(v.id));
  }
}
