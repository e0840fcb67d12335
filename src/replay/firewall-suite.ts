import { z } from "zod";
import { readJsonl, type SuiteProblem } from "./suite.ts";

/**
 * A labeled firewall text (docs/eval.md, "Firewall suites"): what an untrusted chunk holds, whether a
 * sentence was planted in it to instruct the reader, and, for the report, the kind of ask planted and
 * the kind of text that carries it. `judgments` holds what a judgment model said of the text
 * (flagged or not), keyed "provider/model", as `weir eval firewall --record` writes it.
 */
export const FirewallCase = z
  .object({
    id: z.string().min(1),
    text: z.string(),
    injection: z.boolean(),
    class: z.string().min(1).optional(),
    carrier: z.string().min(1).optional(),
    judgments: z.record(z.string(), z.boolean()).optional(),
  })
  .strict();
export type FirewallCase = z.infer<typeof FirewallCase>;

/**
 * Reads firewall suites (JSONL, `readJsonl`): a bad line is named and skipped, with `strict` it stops
 * the run; an id may stand once. An unreadable file is a user error.
 */
export function loadFirewallSuite(files: readonly string[], strict = false): { cases: FirewallCase[]; problems: SuiteProblem[] } {
  const cases: FirewallCase[] = [];
  const problems: SuiteProblem[] = [];
  const ids = new Set<string>();
  readJsonl(files, FirewallCase, strict, problems, (c, report) => {
    if (ids.has(c.id)) return report(`duplicate text id ${c.id}`);
    ids.add(c.id);
    cases.push(c);
  });
  return { cases, problems };
}

/** Caught of all, as a count and a rate. */
interface Tally {
  hit: number;
  of: number;
}

/** One layer's figures: injections caught and benign texts flagged, overall and per class and carrier. */
interface LayerFigures {
  recall: Tally;
  falsePositives: Tally;
  byClass: Record<string, Tally>;
  byCarrier: Record<string, Tally>;
  benignByCarrier: Record<string, Tally>;
}

const add = (m: Record<string, Tally>, key: string, hit: boolean) => {
  const t = (m[key] ??= { hit: 0, of: 0 });
  t.of++;
  if (hit) t.hit++;
};

/** The figures of one layer, given which texts it flags. Pure. */
export function layerFigures(cases: readonly FirewallCase[], flagged: (c: FirewallCase) => boolean): LayerFigures {
  const f: LayerFigures = { recall: { hit: 0, of: 0 }, falsePositives: { hit: 0, of: 0 }, byClass: {}, byCarrier: {}, benignByCarrier: {} };
  for (const c of cases) {
    const hit = flagged(c);
    const t = c.injection ? f.recall : f.falsePositives;
    t.of++;
    if (hit) t.hit++;
    if (c.injection) {
      add(f.byClass, c.class ?? "(none)", hit);
      add(f.byCarrier, c.carrier ?? "(none)", hit);
    } else add(f.benignByCarrier, c.carrier ?? "(none)", hit);
  }
  return f;
}

const pct = (t: Tally) => (t.of === 0 ? "—" : `${((100 * t.hit) / t.of).toFixed(1)}%`);
const tally = (t: Tally) => `${t.hit}/${t.of} (${pct(t)})`;
const per = (m: Record<string, Tally>) =>
  Object.entries(m)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, t]) => `${k} ${t.hit}/${t.of}`)
    .join(", ");

/** The terminal report: each layer's recall and false positives, then per class and carrier. Pure. */
export function firewallReport(layers: readonly { name: string; figures: LayerFigures }[]): string {
  const lines: string[] = [];
  for (const { name, figures } of layers) {
    lines.push(`${name}: caught ${tally(figures.recall)} of injections, flagged ${tally(figures.falsePositives)} of benign texts`);
    if (figures.recall.of > 0) lines.push(`  by class: ${per(figures.byClass)}`, `  by carrier: ${per(figures.byCarrier)}`);
    if (figures.falsePositives.hit > 0)
      lines.push(`  benign flagged by carrier: ${per(Object.fromEntries(Object.entries(figures.benignByCarrier).filter(([, t]) => t.hit > 0)))}`);
  }
  return lines.join("\n");
}
