import type { ToolCallBlock, ToolResultBlock } from "../core/messages.ts";
import type { Price, Usage } from "../core/usage.ts";
import type { DecisionRequest } from "./request.ts";
import { changeScope, widerScope } from "./scope.ts";

/**
 * The model router: which model each request goes to, read from the request's compiled view and the
 * decision state, never from the task's words. Two roles take a run's turns: `main`, and `fast` for
 * small views whose work is to inspect, or to change one file, or two in one directory, whose tests
 * are mapped. Anything wider, riskier or already failed goes to `main`. A switch made only to save
 * money happens when the turn costs less on the other model counting the cache it would lose: a
 * warm prefix is not thrown away for a saving it does not pay for.
 */
export type RouteRole = "main" | "fast";

/** What the router reads of the decision state. */
export interface RouteFacts {
  kind: "change" | "inspect";
  /** Files the change is planned to edit (tests and the files read beside them aside). */
  targets: number;
  scope: DecisionRequest["change"]["planned_scope"];
  securitySensitive: boolean;
  publicApi: boolean;
  testsMapped: number;
  /** An attempt went wrong: failure locations are known, or the last check failed. */
  failed: boolean;
}

/**
 * The code files a change is planned to edit: those the person named (`named`), and every code
 * target the compiler planned (`all`). Mapped tests, and callers read beside a named file, are what
 * the change is checked and read against, not what it edits. Pure.
 */
function editTargets(r: DecisionRequest): { named: string[]; all: string[] } {
  const code = r.targets.filter((t) => !r.tests.mapped.includes(t.path));
  return { named: code.filter((t) => t.named_by_user).map((t) => t.path), all: code.map((t) => t.path) };
}

/**
 * The router's facts, projected from a decision request. Pure. The scope is at least that of the
 * code files the person named: once a file is edited the decision state scopes what was edited,
 * and a change named across modules is still one after its first file.
 */
export function routeFacts(r: DecisionRequest): RouteFacts {
  const { named, all } = editTargets(r);
  return {
    kind: r.task_kind,
    // The files the person named, or where they named none, every code target the compiler planned.
    targets: (named.length ? named : all).length,
    scope: r.task_kind === "change" ? widerScope(r.change.planned_scope, changeScope(named)) : r.change.planned_scope,
    securitySensitive: r.change.security_sensitive,
    publicApi: r.change.public_api,
    testsMapped: r.tests.mapped.length,
    failed: r.failures.length > 0 || r.verification.last_run?.passed === false,
  };
}

/**
 * Views up to this many tokens may go to `fast`. Past it the work is no longer small, whatever the
 * task says; and a long conversation's re-prefill on another model seldom pays.
 */
export const FAST_VIEW_LIMIT = 24_000;

/** One model as the router prices it: its price, and how much of this conversation its cache holds. */
export interface ModelSide {
  price: Price | undefined;
  /** Tokens of this conversation's prefix the model's prompt cache holds now (0: cold). */
  warm: number;
  /** Whether the endpoint caches prompts at all (`--cache off`: no). */
  caches: boolean;
}

export interface RouteInput {
  facts: RouteFacts | undefined;
  /** Tokens of this request as compiled (system, tools, messages). */
  view: number;
  /** Output tokens a turn is expected to take. */
  output: number;
  /** Why a failed `fast` turn handed this run to `main`. */
  escalated?: string;
  /** The role when the facts ask for neither: `main` for the agent, `fast` for a worker or graph node. */
  prefer: RouteRole;
  /** The role that served this conversation's previous request. */
  last?: RouteRole;
  main: ModelSide;
  fast: ModelSide;
}

export interface Route {
  role: RouteRole;
  /** One line: why this request went where it did. */
  reason: string;
}

/**
 * Dollars a request of `view` prompt tokens and `output` output tokens costs on a model: its cached
 * prefix read at the cache price, the rest written (at the write price where the vendor has one,
 * else input), the output at the output price. Undefined without a price. Pure.
 */
export function requestCost(side: ModelSide, view: number, output: number): number | undefined {
  const p = side.price;
  if (!p) return undefined;
  const cached = side.caches ? Math.min(side.warm, view) : 0;
  const fresh = view - cached;
  const write = side.caches ? (p.cacheWrite ?? p.input) : p.input;
  return (cached * (p.cacheRead ?? p.input) + fresh * write + output * p.output) / 1_000_000;
}

/** Why the facts need `main`, or undefined when they do not. Pure. */
function needsMain(i: RouteInput): string | undefined {
  const f = i.facts;
  if (i.escalated) return `escalated: ${i.escalated}`;
  if (i.view > FAST_VIEW_LIMIT) return `the view is ${i.view} tokens, over ${FAST_VIEW_LIMIT}`;
  if (!f) return undefined;
  if (f.failed) return "an attempt failed (a failing check or failure locations)";
  if (f.securitySensitive) return "the change touches security-sensitive paths";
  if (f.publicApi) return "the change touches a public API";
  if (f.scope === "cross_module") return "the change spans modules";
  return undefined;
}

/** Why the facts fit `fast`, or undefined. Pure. */
function fitsFast(i: RouteInput): string | undefined {
  const f = i.facts;
  if (!f) return undefined;
  if (f.kind === "inspect") return `an inspect task in a ${i.view}-token view`;
  if (f.testsMapped === 0) return undefined;
  if (f.targets <= 1) return `a one-file change with its tests mapped, in a ${i.view}-token view`;
  // Two files in one directory (the plan's "local" scope): most multi-file fixes are this narrow.
  if (f.targets <= 2 && f.scope === "local")
    return `a change to ${f.targets} files in one directory with its tests mapped, in a ${i.view}-token view`;
  return undefined;
}

const dollars = (n: number) => `$${n.toFixed(4)}`;

/**
 * Where a request goes. `main` when the facts need it (an escalation, a large view, a failed
 * attempt, security-sensitive paths, a public API, a cross-module change); `fast` when they fit it;
 * else the preferred role. A move from a warm `main` to `fast` is made only when the turn costs
 * less on `fast` with everything it must prefill than on `main` with its cache; unpriced models
 * never leave a warm `main`. Pure, and a handful of comparisons (well under a millisecond).
 */
export function chooseRoute(i: RouteInput): Route {
  const must = needsMain(i);
  if (must) return { role: "main", reason: must };
  const fits = fitsFast(i);
  const role: RouteRole = fits ? "fast" : i.prefer;
  const f = i.facts;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const wide = f ? `a change planned to ${plural(f.targets, "file")} with ${plural(f.testsMapped, "test")} mapped` : "no decision state yet";
  const why = fits ?? (i.prefer === "fast" ? "a worker's scoped task" : wide);
  if (role === "main") return { role, reason: why };
  // Leaving a warm main only to save money: the saving must pay for the prefill it causes.
  if (i.last !== "main" || !i.main.caches || i.main.warm === 0) return { role, reason: why };
  const onMain = requestCost(i.main, i.view, i.output);
  const onFast = requestCost(i.fast, i.view, i.output);
  if (onMain === undefined || onFast === undefined) return { role: "main", reason: `${why}, but main's prefix is warm and a price is unknown, so staying` };
  if (onFast < onMain) return { role, reason: `${why}; ${dollars(onFast)} on fast against ${dollars(onMain)} on warm main` };
  return { role: "main", reason: `${why}, but main's warm prefix makes it ${dollars(onMain)} there against ${dollars(onFast)} on fast` };
}

/** Whether a result shows a `fast` turn went wrong, and how; undefined when it did not. Pure. */
export function fastTurnFailure(call: ToolCallBlock, result: ToolResultBlock, edits: (name: string) => boolean): string | undefined {
  // A person's refusal says nothing of the model; a guard's does.
  if (result.refused) return ["user", "approval"].includes(result.refused.rule) ? undefined : `${call.name} was refused (${result.refused.rule})`;
  if (result.isError && result.origin === "weir" && !result.refused) return `${call.name}'s call was not valid`;
  if (result.isError && edits(call.name)) return `${call.name} did not apply`;
  const d = result.details;
  if (d?.kind === "verify" && !d.passed) return "the checks failed";
  if (d?.kind === "command" && d.failures.length > 0) return "a command reported failures";
  return undefined;
}

interface RouterOptions {
  price: Record<RouteRole, Price | undefined>;
  caches: Record<RouteRole, boolean>;
  prefer: RouteRole;
  /** How long a vendor keeps a prompt cache warm (Anthropic's and OpenAI's default: five minutes). */
  ttlMs?: number;
  now?: () => number;
  /** Whether an action writes files (its failure is an edit that did not apply). */
  edits: (name: string) => boolean;
  /** Told of each answered request: where it went, why, on what view and facts, for what usage. */
  onServed?: (r: { role: RouteRole; reason: string; view: number; facts: RouteFacts | undefined; usage: Usage; at: number }) => void;
}

/** What a router remembers of a conversation across processes (a session continued with -c). */
export interface RouterMemory {
  last?: RouteRole;
  warm: Partial<Record<RouteRole, { tokens: number; at: number }>>;
  outputs: number[];
}

/** Output tokens a turn is expected to take before any was seen. */
const FIRST_OUTPUT = 400;

/**
 * The router of one conversation: what each model's cache holds of it, who served the last request,
 * and the run's escalation. Holds no I/O; the run's seams feed it and ask it.
 */
export class ModelRouter {
  private warm = new Map<RouteRole, { tokens: number; at: number }>();
  private last: RouteRole | undefined;
  private escalation: string | undefined;
  private outputs: number[] = [];
  private now: () => number;
  private chosen: { route: Route; facts: RouteFacts | undefined } | undefined;

  constructor(private o: RouterOptions) {
    this.now = o.now ?? Date.now;
  }

  /** A new run starts: an escalation lasts for the run it happened in. */
  newRun(): void {
    this.escalation = undefined;
  }

  private side(role: RouteRole): ModelSide {
    const w = this.warm.get(role);
    const fresh = w && this.now() - w.at < (this.o.ttlMs ?? 300_000);
    return { price: this.o.price[role], warm: fresh ? w.tokens : 0, caches: this.o.caches[role] };
  }

  choose(facts: RouteFacts | undefined, view: number): Route {
    const sorted = [...this.outputs].sort((a, b) => a - b);
    const output = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : FIRST_OUTPUT;
    const route = chooseRoute({
      facts, view, output, prefer: this.o.prefer, main: this.side("main"), fast: this.side("fast"),
      ...(this.escalation ? { escalated: this.escalation } : {}),
      ...(this.last ? { last: this.last } : {}),
    });
    this.chosen = { route, facts };
    return route;
  }

  /** A request of `view` tokens was answered by `role`: its cache holds the request now. */
  served(role: RouteRole, view: number, usage: Usage): void {
    const at = this.now();
    this.last = role;
    this.warm.set(role, { tokens: view, at });
    // The median of the last twenty turns' output is the next turn's expectation.
    this.outputs = [...this.outputs, usage.output].slice(-20);
    const c = this.chosen;
    if (c && c.route.role === role) this.o.onServed?.({ role, reason: c.route.reason, view, facts: c.facts, usage, at });
  }

  memory(): RouterMemory {
    return { ...(this.last ? { last: this.last } : {}), warm: Object.fromEntries(this.warm), outputs: this.outputs };
  }

  /** Takes up what a router of an earlier process remembered of this conversation; anything malformed is dropped. */
  restore(m: unknown): void {
    const mem = m as Partial<RouterMemory> | undefined;
    if (!mem || typeof mem !== "object") return;
    const role = (r: unknown): r is RouteRole => r === "main" || r === "fast";
    if (role(mem.last)) this.last = mem.last;
    for (const [r, w] of Object.entries(mem.warm ?? {}))
      if (role(r) && w && typeof w.tokens === "number" && typeof w.at === "number") this.warm.set(r, { tokens: w.tokens, at: w.at });
    if (Array.isArray(mem.outputs)) this.outputs = mem.outputs.filter((n) => typeof n === "number").slice(-20);
  }

  /** A result of the last turn: a failure of a `fast` turn hands the rest of the run to `main`. */
  observe(call: ToolCallBlock, result: ToolResultBlock): void {
    if (this.last !== "fast" || this.escalation) return;
    const failure = fastTurnFailure(call, result, this.o.edits);
    if (failure) this.escalation = `${failure} on the fast model`;
  }

  /** `role`'s model failed to answer: a `fast` one hands the run to `main` (true), once. */
  fail(role: RouteRole, why: string): boolean {
    if (role !== "fast" || this.escalation) return false;
    this.escalation = why;
    return true;
  }

  /** Who served the last request, and why the run went to `main` if it was handed there. */
  state(): { last?: RouteRole; escalated?: string } {
    return { ...(this.last ? { last: this.last } : {}), ...(this.escalation ? { escalated: this.escalation } : {}) };
  }
}
