import type { RouteFacts } from "../../decision/router.ts";
import type { Resolved } from "../../config/resolve.ts";
import { UserError } from "../../core/errors.ts";
import { costOf } from "../../core/usage.ts";
import { priceOf } from "../../providers/prices.ts";
import { type PolicyCost, replayRouting } from "../../replay/routing.ts";
import type { ParsedArgs } from "../args.ts";
import { withExistingStore } from "../data.ts";

type Out = (s: string) => void;

/**
 * `weir eval routing [--session ID]`: a recorded session's requests replayed under each routing
 * policy (the router, and every request on main), priced with the configured models' prices, beside
 * what they cost as recorded.
 */
export function evalRouting(args: ParsedArgs, workspace: string, resolved: Resolved, out: Out): number {
  const s = resolved.settings;
  const fast = s.models.fast;
  if (!fast) throw new UserError("weir eval routing compares the main and the fast model: configure models.fast (or pass --fast-model)", 2);
  const price = { main: priceOf(s.model, s.prices), fast: priceOf(fast.model, s.prices) };
  return withExistingStore("no sessions recorded yet: run weir on a task first", out, (store) => {
    const row = typeof args.flags.session === "string" ? store.find(args.flags.session) : store.latest(workspace);
    if (!row) throw new UserError(`no session in ${workspace}; pass --session ID`, 2);
    const records = store.routes(row.id);
    if (records.length === 0) {
      out(`session ${row.id.slice(0, 8)} has no routed requests (the router was off, or no fast model was configured)\n`);
      return 0;
    }
    const requests = records.map((r) => {
      const facts = r.facts ? { facts: r.facts as RouteFacts } : {};
      return { at: r.at, role: r.role, reason: r.reason, view: r.view, output: r.usage.output, ...facts };
    });
    const recorded = records.reduce<number | undefined>((sum, r) => {
      const p = priceOf(r.model, s.prices);
      return sum === undefined || !p ? undefined : sum + costOf(r.usage, p);
    }, 0);
    const usd = (n: number | undefined) => (n === undefined ? "unknown (a model has no price)" : `$${n.toFixed(4)}`);
    out(`session ${row.id.slice(0, 8)}: ${records.length} routed request${records.length === 1 ? "" : "s"}; main ${s.model}, fast ${fast.model}\n`);
    out(`recorded (the vendors' usage): ${usd(recorded)}\n`);
    const line = (c: PolicyCost) => {
      const where = `main ${c.requests.main}, fast ${c.requests.fast}, ${c.moved} moved from where they went`;
      return `${c.policy.padEnd(6)} ${usd(c.usd)}  ${where}`;
    };
    const router = replayRouting(requests, "router", price);
    const main = replayRouting(requests, "main", price);
    out(`${line(router)}\n${line(main)}\n`);
    if (router.usd !== undefined && main.usd !== undefined && main.usd > 0) {
      const ratio = (router.usd / main.usd).toFixed(2);
      out(`the router costs ${ratio}x everything on main (simulated caches, the recorded views and outputs)\n`);
    }
    return 0;
  });
}
