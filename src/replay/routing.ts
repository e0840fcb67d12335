import { chooseRoute, type ModelSide, requestCost, type RouteFacts, type RouteRole } from "../decision/router.ts";
import type { Price } from "../core/usage.ts";

/** One recorded request, as the replay reads it. */
export interface RoutedRequest {
  at: number;
  role: string;
  reason: string;
  view: number;
  facts?: RouteFacts;
  output: number;
}

export type RoutingPolicy = "router" | "main";

export interface PolicyCost {
  policy: RoutingPolicy;
  /** Dollars in all, or undefined when a model the policy uses has no price. */
  usd: number | undefined;
  /** Requests each role would have answered. */
  requests: Record<RouteRole, number>;
  /** Requests that would have gone to another model than they did. */
  moved: number;
}

/** How long a vendor keeps a prompt cache warm. */
const TTL_MS = 300_000;

/**
 * What a recorded session's requests would have cost under `policy`: each request's view and output
 * as recorded, its model as the policy chooses (the router re-decides from the recorded facts, an
 * escalation carried over as recorded), and each model's prompt cache simulated as the router
 * assumes it (the last request a model answered, for five minutes). Pure.
 */
export function replayRouting(
  requests: readonly RoutedRequest[],
  policy: RoutingPolicy,
  price: Record<RouteRole, Price | undefined>,
  prefer: RouteRole = "main",
): PolicyCost {
  const warm = new Map<RouteRole, { tokens: number; at: number }>();
  const outputs: number[] = [];
  let last: RouteRole | undefined;
  let usd: number | undefined = 0;
  let moved = 0;
  const counts: Record<RouteRole, number> = { main: 0, fast: 0 };
  const side = (role: RouteRole, at: number): ModelSide => {
    const w = warm.get(role);
    return { price: price[role], warm: w && at - w.at < TTL_MS ? w.tokens : 0, caches: true };
  };
  for (const r of requests) {
    const sorted = [...outputs].sort((a, b) => a - b);
    const output = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 400;
    const escalated = r.reason.startsWith("escalated: ") ? r.reason.slice(11) : undefined;
    const sides = { main: side("main", r.at), fast: side("fast", r.at) };
    const carried = { ...(escalated ? { escalated } : {}), ...(last ? { last } : {}) };
    const role: RouteRole = policy === "main" ? "main" : chooseRoute({ facts: r.facts, view: r.view, output, prefer, ...sides, ...carried }).role;
    const cost = requestCost(side(role, r.at), r.view, r.output);
    usd = usd === undefined || cost === undefined ? undefined : usd + cost;
    if (role !== r.role) moved++;
    counts[role]++;
    warm.set(role, { tokens: r.view, at: r.at });
    outputs.push(r.output);
    last = role;
  }
  return { policy, usd, requests: counts, moved };
}
