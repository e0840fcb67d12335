import { classify } from "../../context/firewall.ts";
import { usageError, UserError } from "../../core/errors.ts";
import { eachLimited } from "../../core/pool.ts";
import type { JudgmentProvider } from "../../decision/judges.ts";
import { type FirewallCase, firewallReport, layerFigures, loadFirewallSuite } from "../../replay/firewall-suite.ts";
import { isJudgmentSource, replayKey } from "../../replay/replay.ts";
import { writeFileAtomic } from "../../workspace/atomic.ts";
import type { ParsedArgs } from "../args.ts";

type Out = (s: string) => void;
type Judgment = () => Promise<{ provider: JudgmentProvider } | undefined>;

/** How long one judgment call may take before its texts count as not judged. */
const CALL_TIMEOUT_MS = 60_000;

/**
 * `weir eval firewall SUITE...`: labeled texts through the firewall as a run uses it (its telltale
 * rules, classify()), and with `--provider judgment`, the texts it passed through the
 * judgment provider's chunk check in batches, as increase-only runs send them; or `--provider
 * replay[:KEY]`, the judgments a `--record` wrote. Prints each layer's recall and false positives,
 * per class and carrier. The judge sees each text under a neutral id ("t1", …), never the suite's
 * id, which may name its label.
 */
export async function evalFirewall(
  args: ParsedArgs,
  judgment: Judgment,
  out: Out,
  progress: (p: { done: number; total: number; failures: number }) => void,
): Promise<number> {
  const files = args.command.slice(2);
  if (files.length === 0) throw usageError("weir eval firewall needs a suite of labeled texts: weir eval firewall texts.jsonl (format: docs/eval.md)");
  const loaded = loadFirewallSuite(files, args.strict);
  for (const p of loaded.problems) out(`skipped ${p.file}:${p.line}: ${p.message}\n`);
  const cases = typeof args.flags.limit === "number" ? loaded.cases.slice(0, args.flags.limit) : loaded.cases;
  if (cases.length === 0) throw new UserError(`no valid texts in ${files.join(", ")}`, 2);
  const providerName = typeof args.flags.provider === "string" ? args.flags.provider : "firewall";

  const byFirewall = new Set(cases.filter((c) => classify(c.text).verdict === "instruction_like").map((c) => c.id));
  const passed = cases.filter((c) => !byFirewall.has(c.id));
  const layers = [{ name: "firewall (telltale rules)", figures: layerFigures(cases, (c) => byFirewall.has(c.id)) }];
  let judged: Map<string, boolean> | undefined;
  let judge: Record<string, unknown> | undefined;

  if (isJudgmentSource(providerName)) {
    const j = await judgment();
    if (!j) throw new UserError('no judgment provider is configured; add "judgment" to ~/.config/weir/config.json (see docs/decision-plane.md)', 2);
    if (!j.provider.flagChunks) throw new UserError(`the judgment provider ${j.provider.id} cannot check texts (only the llm provider answers flag_texts)`, 2);
    const key = `${j.provider.id}/${j.provider.requestedModel ?? "default"}`;
    const batch = typeof args.flags.batch === "number" && args.flags.batch > 0 ? args.flags.batch : 8;
    const result = await judgeAll(
      j.provider,
      passed,
      batch,
      typeof args.flags.concurrency === "number" && args.flags.concurrency > 0 ? args.flags.concurrency : 2,
      progress,
    );
    judged = result.judged;
    judge = { key, calls: result.calls, failed: result.failed, ...(result.firstError ? { first_error: result.firstError } : {}) };
    if (result.failed > 0) out(`judge: ${result.failed} of ${result.calls} calls failed (${result.firstError}); their texts count as not flagged\n`);
    if (result.calls > 0 && result.failed === result.calls) throw new UserError(`every judgment call failed (${result.firstError}); nothing was measured`, 1);
    if (typeof args.flags.record === "string") {
      const lines = loaded.cases.map((c) => JSON.stringify(judged!.has(c.id) ? { ...c, judgments: { ...(c.judgments ?? {}), [key]: judged!.get(c.id) } } : c));
      writeFileAtomic(args.flags.record, `${lines.join("\n")}\n`);
      out(`recorded ${judged.size} judgments into ${args.flags.record}\n`);
    }
  } else if (providerName === "replay" || providerName.startsWith("replay:")) {
    const key = replayKey(
      providerName,
      [...new Set(cases.flatMap((c) => Object.keys(c.judgments ?? {})))],
      "weir eval firewall SUITE --provider judgment --record FILE",
    );
    judged = new Map(passed.filter((c) => c.judgments?.[key] !== undefined).map((c) => [c.id, c.judgments![key]!]));
    const missing = passed.length - judged.size;
    judge = { key, recorded: judged.size, missing };
    if (missing > 0) out(`replay ${key}: ${missing} of the ${passed.length} texts the firewall passed have no recorded judgment; they count as not flagged\n`);
  } else if (providerName !== "firewall" && providerName !== "baseline")
    throw usageError(`--provider ${providerName} is not a firewall eval source; use firewall (the default), judgment or replay[:KEY]`);

  if (judged) {
    const j = judged;
    layers.push({ name: `judge, on the ${passed.length} texts the firewall passed`, figures: layerFigures(passed, (c) => j.get(c.id) === true) });
    layers.push({
      name: "firewall + judge (increase-only, as a run uses them)",
      figures: layerFigures(cases, (c) => byFirewall.has(c.id) || j.get(c.id) === true),
    });
  }
  if (args.json)
    out(`${JSON.stringify({ texts: cases.length, ...(judge ? { judge } : {}), layers: layers.map((l) => ({ name: l.name, ...l.figures })) }, null, 2)}\n`);
  else out(`${cases.length} texts (${cases.filter((c) => c.injection).length} with a planted instruction)\n${firewallReport(layers)}\n`);
  return 0;
}

/**
 * The passed texts through the provider's chunk check, `batch` texts a call, `concurrency` calls in
 * flight. A failed call leaves its texts unjudged (a run would go on without the judge too).
 */
async function judgeAll(
  provider: JudgmentProvider,
  texts: readonly FirewallCase[],
  batch: number,
  concurrency: number,
  progress: (p: { done: number; total: number; failures: number }) => void,
) {
  const batches: FirewallCase[][] = [];
  for (let i = 0; i < texts.length; i += batch) batches.push(texts.slice(i, i + batch));
  const judged = new Map<string, boolean>();
  let failed = 0;
  let done = 0;
  let firstError: string | undefined;
  await eachLimited(batches, concurrency, async (b) => {
    const items = b.map((c, k) => ({ id: `t${k + 1}`, text: c.text }));
    try {
      const flagged = await provider.flagChunks!(items, AbortSignal.timeout(CALL_TIMEOUT_MS));
      b.forEach((c, k) => judged.set(c.id, flagged.has(`t${k + 1}`)));
    } catch (e) {
      failed++;
      firstError ??= (e as Error).message.split("\n")[0];
    }
    done += b.length;
    progress({ done, total: texts.length, failures: failed });
  });
  return { judged, calls: batches.length, failed, firstError };
}
