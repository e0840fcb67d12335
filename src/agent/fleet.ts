import type { Usage } from "../core/usage.ts";
import { emptyUsage } from "../core/usage.ts";
import { writeOverlap } from "../workspace/scope.ts";
import { movedPaths, type Revision } from "./revision.ts";
import { checkResult, compileOutputSchema, type SpawnRequest, type Subgoal, subgoalOf } from "./subgoal.ts";

type AgentState = "running" | "done" | "invalid" | "failed" | "stopped" | "timeout" | "over_budget";

/** How a worker's run ended, as the worker runner reports it. */
export interface WorkerEnd {
  stop: string;
  text: string;
  turns: number;
  usage: Usage;
  error?: string;
  /** Workspace paths the worker wrote. */
  wrote: string[];
  /** The worker's own session (its transcript), under the parent's. */
  sessionId?: string;
}

/** A running worker, as the runner hands it to the fleet. */
export interface WorkerHandle {
  done: Promise<WorkerEnd>;
  /** Live figures: model turns, tool calls, usage so far. */
  stats(): { turns: number; calls: number; usage: Usage };
  /** The worker's in-flight calls with their verdicts, and its health (stuck, silent, error storm). */
  calls(): { id: string; action: string; ageMs: number; severity: string; verdicts: string[] }[];
  health(): { severity: string; verdicts: string[] };
  /** Stops one of its calls by id (the supervisor's stop). */
  stopCall(id: string): string;
}

export type WorkerStart = (s: Subgoal, o: { signal: AbortSignal; parentCallId: string; overBudget: () => void; firstTurn: () => void }) => WorkerHandle;

/** What the main agent gets back for a finished worker. Delivered once. */
export interface AgentReport {
  id: string;
  label: string;
  state: AgentState;
  /** The validated result (state done). */
  result?: unknown;
  /** Why the result was refused, or why the worker failed. */
  error?: string;
  /** The worker's last answer, as it gave it (always, so a refused result is not lost). */
  answer: string;
  wrote: string[];
  revision: { started: string; finished: string };
  /** The workspace moved past the revision this result was computed at. */
  stale: boolean;
  moved?: string[];
  turns: number;
  calls: number;
  usage: Usage;
  elapsedMs: number;
  sessionId?: string;
}

/** One line per worker, for list_agents and the REPL's /agents. Pure. */
export function formatAgentRow(r: AgentRow): string {
  return (
    `${r.id}  ${r.label}  ${r.state}  ${(r.elapsedMs / 1000).toFixed(1)}s  ${r.turns} turns  ${r.calls} ` +
    `calls  ${r.usage.input + r.usage.cacheRead + r.usage.cacheWrite}/${r.usage.output} tokens in/out` +
    `${r.health !== "-" ? `  health: ${r.health}` : ""}  (${r.scope})`
  );
}

export interface AgentRow {
  id: string;
  label: string;
  state: AgentState;
  elapsedMs: number;
  turns: number;
  calls: number;
  usage: Usage;
  health: string;
  scope: string;
}

/** A spawn the fleet refuses, with the reason the model reads. */
export class FleetRefused extends Error {}

interface Entry {
  subgoal: Subgoal;
  handle: WorkerHandle;
  controller: AbortController;
  startedAt: number;
  startRevision: Promise<Revision>;
  state: AgentState;
  end?: WorkerEnd;
  endRevision?: Revision;
  /** Why the fleet stopped it (stop_agent, the deadline, the budget, the run's end). */
  stoppedBy?: "user" | "timeout" | "budget" | "run_end";
  settled: Promise<void>;
  delivered: boolean;
  elapsedMs?: number;
}

interface FleetOptions {
  /** Live workers at most (`--max-agents`); 0 disables spawning. */
  max: number;
  /** How long wait_agents waits when the call gives no timeout (`--agent-wait-ms`). */
  waitMs: number;
  start: WorkerStart;
  revision: () => Promise<Revision>;
  /** The workspace's files, for the write-overlap check. */
  files: () => string[];
  /** Told of each worker's end (the main agent's verification learns its writes). */
  onEnd?: (s: Subgoal, end: WorkerEnd) => void;
  now?: () => number;
}

const ANSWER_CAP = 4_000;

/**
 * The main agent's workers: spawn (a subgoal in, an id out), wait (reports delivered once), stop
 * (what the worker produced is kept and reported), list. It validates every result against the
 * subgoal's output schema, marks a result stale once the workspace moves past the revision it was
 * computed at, and refuses two live workers whose write globs overlap. It knows nothing of how a
 * worker runs (the runner is injected).
 */
export class Fleet {
  private entries = new Map<string, Entry>();
  private seq = 0;

  constructor(private o: FleetOptions) {}

  private now() {
    return (this.o.now ?? Date.now)();
  }

  get enabled(): boolean {
    return this.o.max > 0;
  }

  live(): Subgoal[] {
    return [...this.entries.values()].filter((e) => e.state === "running").map((e) => e.subgoal);
  }

  /** Starts a worker; refuses (FleetRefused) at the limit, on a bad output schema, or on overlapping writes. */
  spawn(req: SpawnRequest, parentCallId: string): Subgoal {
    if (!this.enabled) throw new FleetRefused("workers are disabled (--max-agents 0); do the work yourself");
    const live = this.live();
    if (live.length >= this.o.max)
      throw new FleetRefused(`${live.length} workers are running, the limit (--max-agents ${this.o.max}); wait_agents for one to finish, or stop_agent one`);
    if (req.output_schema) {
      const c = compileOutputSchema(req.output_schema);
      if (!c.ok) throw new FleetRefused(c.error);
    }
    if (req.writes?.length) {
      const files = this.o.files();
      for (const other of live) {
        const clash = writeOverlap(req.writes, other.writes, files);
        if (clash)
          throw new FleetRefused(
            `its writes overlap ${other.id} (${other.label})'s: ${clash}; two workers never write one file. Narrow the globs, or wait for ${other.id} first`,
          );
      }
    }
    const id = `w${++this.seq}`;
    // The revision is taken once the worker's first turn is under way (its git calls would only delay
    // the first request); it cannot have written anything before its first answer arrives.
    let takeRevision!: () => void;
    const startRevision = new Promise<Revision>((resolve, reject) => {
      takeRevision = () => void this.o.revision().then(resolve, reject);
    });
    let taken = false;
    const firstTurn = () => {
      if (taken) return;
      taken = true;
      takeRevision();
    };
    const subgoal = subgoalOf(req, { id, parent: "main", revision: "pending", now: this.now() });
    const controller = new AbortController();
    const entry: Entry = {
      subgoal,
      controller,
      startedAt: this.now(),
      startRevision,
      state: "running",
      delivered: false,
      settled: Promise.resolve(),
      handle: undefined as unknown as WorkerHandle,
    };
    const stopFor = (why: Entry["stoppedBy"]) => {
      if (entry.state !== "running" || controller.signal.aborted) return;
      entry.stoppedBy = why;
      controller.abort();
    };
    const deadline = setTimeout(() => stopFor("timeout"), Math.max(0, subgoal.deadline - this.now()));
    deadline.unref?.();
    entry.handle = this.o.start(subgoal, { signal: controller.signal, parentCallId, overBudget: () => stopFor("budget"), firstTurn });
    entry.settled = entry.handle.done
      .catch((e): WorkerEnd => ({ stop: "error", text: "", turns: 0, usage: emptyUsage(), error: `the worker failed: ${(e as Error).message}`, wrote: [] }))
      .then(async (end) => {
        clearTimeout(deadline);
        firstTurn();
        entry.end = end;
        entry.elapsedMs = this.now() - entry.startedAt;
        entry.state = this.stateOf(entry, end);
        this.o.onEnd?.(subgoal, end);
        subgoal.revision = (await startRevision).id;
        entry.endRevision = await this.o.revision();
      });
    this.entries.set(id, entry);
    return subgoal;
  }

  private stateOf(e: Entry, end: WorkerEnd): AgentState {
    if (e.stoppedBy === "timeout") return "timeout";
    if (e.stoppedBy === "budget") return "over_budget";
    if (e.stoppedBy) return "stopped";
    if (end.stop !== "end_turn") return "failed";
    return checkResult(end.text, e.subgoal.outputSchema).ok ? "done" : "invalid";
  }

  private async report(e: Entry, current?: Revision): Promise<AgentReport> {
    const end = e.end!;
    const now = current ?? (await this.o.revision());
    const moved = e.endRevision ? movedPaths(e.endRevision, now) : [];
    const check = e.state === "done" || e.state === "invalid" ? checkResult(end.text, e.subgoal.outputSchema) : undefined;
    const why =
      e.state === "timeout"
        ? `stopped at its deadline`
        : e.state === "over_budget"
          ? `stopped: it spent its budget of ${e.subgoal.budget.tokens} tokens`
          : e.state === "stopped"
            ? e.stoppedBy === "run_end"
              ? "stopped because the main run ended"
              : "stopped by stop_agent"
            : e.state === "failed"
              ? (end.error ?? `its run ended with ${end.stop}`)
              : check && !check.ok
                ? check.error
                : undefined;
    return {
      id: e.subgoal.id,
      label: e.subgoal.label,
      state: e.state,
      ...(check?.ok ? { result: check.value } : {}),
      ...(why ? { error: why } : {}),
      answer: end.text.length > ANSWER_CAP ? `${end.text.slice(0, ANSWER_CAP)}… [cut]` : end.text,
      wrote: end.wrote,
      revision: { started: e.subgoal.revision, finished: e.endRevision?.id ?? "?" },
      stale: moved.length > 0,
      ...(moved.length ? { moved: moved.slice(0, 20) } : {}),
      turns: end.turns,
      calls: e.handle.stats().calls,
      usage: end.usage,
      elapsedMs: e.elapsedMs ?? 0,
      ...(end.sessionId ? { sessionId: end.sessionId } : {}),
    };
  }

  /**
   * Waits until every named worker (default: every undelivered one) has finished, or the timeout.
   * Finished workers are reported once; a second wait names them as already reported; workers
   * still running come back as such.
   */
  async wait(
    ids: string[] | undefined,
    timeoutMs: number | undefined,
    signal: AbortSignal,
  ): Promise<{ reports: AgentReport[]; running: AgentRow[]; unknown: string[]; already: string[] }> {
    const unknown = (ids ?? []).filter((id) => !this.entries.has(id));
    const chosen = ids ? ids.filter((id) => this.entries.has(id)).map((id) => this.entries.get(id)!) : [...this.entries.values()].filter((e) => !e.delivered);
    const limit = timeoutMs ?? this.o.waitMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, limit)));
    const aborted = new Promise<void>((r) => signal.addEventListener("abort", () => r(), { once: true }));
    await Promise.race([Promise.all(chosen.map((e) => e.settled)), timeout, aborted]);
    clearTimeout(timer);
    const running = chosen.filter((e) => !e.end || !e.endRevision).map((e) => this.row(e));
    const already = chosen.filter((e) => e.endRevision && e.delivered).map((e) => e.subgoal.id);
    const reports = await this.deliver(chosen);
    return { reports, running, unknown, already };
  }

  /** Reports of the finished, undelivered ones among `entries`, marked delivered; one look at the workspace serves them all. */
  private async deliver(entries: Entry[]): Promise<AgentReport[]> {
    const due = entries.filter((e) => e.end && e.endRevision && !e.delivered);
    if (!due.length) return [];
    const current = await this.o.revision();
    const out: AgentReport[] = [];
    for (const e of due) {
      e.delivered = true;
      out.push(await this.report(e, current));
    }
    return out;
  }

  /**
   * Stops a worker; what it wrote stays. Its report is delivered now (stop_agent), or, when the
   * person stopped it (`/agents stop`), kept for the main agent's next wait_agents.
   */
  async stop(id: string, deliver = true): Promise<AgentReport | string> {
    const e = this.entries.get(id);
    if (!e) return `no worker ${id}; list_agents shows them`;
    if (e.state === "running" && !e.controller.signal.aborted) {
      e.stoppedBy = "user";
      e.controller.abort();
    }
    await e.settled;
    if (!deliver) return `${id} (${e.subgoal.label}): ${e.state}${e.end?.wrote.length ? `; it wrote ${e.end.wrote.join(", ")}` : ""}`;
    if (e.delivered) return `${id} had already finished (${e.state}) and was reported`;
    e.delivered = true;
    return this.report(e);
  }

  /** At the end of the main run: every live worker is stopped; returns their ids. */
  async stopAll(): Promise<string[]> {
    const all = [...this.entries.values()];
    const running = all.filter((e) => e.state === "running");
    for (const e of running) {
      e.stoppedBy = "run_end";
      e.controller.abort();
    }
    // Workers just finishing are waited for too, so nothing of theirs outlives the run.
    await Promise.all(all.map((e) => e.settled));
    return running.map((e) => e.subgoal.id);
  }

  private row(e: Entry): AgentRow {
    const s = e.handle.stats();
    return {
      id: e.subgoal.id,
      label: e.subgoal.label,
      state: e.state,
      elapsedMs: e.elapsedMs ?? this.now() - e.startedAt,
      turns: s.turns,
      calls: s.calls,
      usage: s.usage,
      health: e.state === "running" ? [e.handle.health().severity, ...e.handle.health().verdicts].join(" ") : "-",
      scope: `reads ${e.subgoal.reads.join(",")}; writes ${e.subgoal.writes.join(",") || "none"}`,
    };
  }

  list(): AgentRow[] {
    return [...this.entries.values()].map((e) => this.row(e));
  }

  /** In-flight calls of every live worker, by agent. */
  calls(): { agent: string; label: string; calls: ReturnType<WorkerHandle["calls"]> }[] {
    return [...this.entries.values()]
      .filter((e) => e.state === "running")
      .map((e) => ({ agent: e.subgoal.id, label: e.subgoal.label, calls: e.handle.calls() }));
  }

  /** `/stop ID` for a worker's call: `w2:call_id`. */
  stopCall(agent: string, call: string): string {
    const e = this.entries.get(agent);
    return e && e.state === "running" ? e.handle.stopCall(call) : `no running worker ${agent}`;
  }

  /** Usage spent by workers, per worker (never counted as the main agent's). */
  usage(): { id: string; label: string; state: AgentState; usage: Usage }[] {
    return [...this.entries.values()].map((e) => ({ id: e.subgoal.id, label: e.subgoal.label, state: e.state, usage: e.end?.usage ?? e.handle.stats().usage }));
  }

  /** Reports of finished workers nobody collected (the run ended first); marks them delivered. */
  uncollected(): Promise<AgentReport[]> {
    return this.deliver([...this.entries.values()]);
  }

  /** Forgets finished workers (a new session in the REPL). */
  clear(): void {
    for (const [id, e] of this.entries) if (e.state !== "running") this.entries.delete(id);
  }
}
