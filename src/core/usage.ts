/**
 * The usage ledger: both wires normalised to the same four counters so the status line, the
 * context budget and benchmarks read one shape.
 */
export interface Usage {
  /** Input tokens that were neither read from nor written to a prompt cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Reasoning tokens, where the vendor reports them (a part of `output`, kept apart for the ledger). */
  reasoning?: number;
}

export const emptyUsage = (): Usage => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
    ...(a.reasoning || b.reasoning ? { reasoning: (a.reasoning ?? 0) + (b.reasoning ?? 0) } : {}),
  };
}

/** Total prompt tokens of a request, cached or not. */
export const promptTokens = (u: Usage): number => u.input + u.cacheRead + u.cacheWrite;

/** Share of prompt tokens served from cache, 0 when nothing was sent. */
export function cacheHitRate(u: Usage): number {
  const total = promptTokens(u);
  return total === 0 ? 0 : u.cacheRead / total;
}

/** A model's price in US dollars per million tokens (config `prices`); cache rates default to input's. */
export interface Price {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What `u` cost at `p`, in dollars. Pure. */
export function costOf(u: Usage, p: Price): number {
  return (u.input * p.input + u.cacheRead * (p.cacheRead ?? p.input) + u.cacheWrite * (p.cacheWrite ?? p.input) + u.output * p.output) / 1_000_000;
}
