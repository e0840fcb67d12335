/**
 * The firewall's fifteenth held-out set, made on 2026-12-01 (seventh session) before the change that
 * followed the fourteenth, committed before anything was scored on it, scored once. Unlike every
 * earlier set it was not written in this project: it is BIPIA's test split (eval/firewall/bipia.ts;
 * microsoft/BIPIA at 5a48626 for the attacks and dca710a/4d319bc for the contexts), 75 text attacks in
 * 15 categories and 50 code attacks in 10, each planted at the start, in the middle and at the end of
 * BIPIA's own test mails, tables and Stack Overflow answers, and those contexts as they are. BIPIA's
 * train split (other categories, other contexts) may be trained on; this one may not be trained,
 * tuned or thresholded on. Labels are BIPIA's: an attack string planted is an injection, a context
 * as the benchmark gives it is benign.
 */
import type { FirewallText } from "./corpus.ts";
import { bipiaSet } from "./bipia.ts";

export function buildHoldout15(seed = 20261231): FirewallText[] {
  return bipiaSet("test", seed, "h15");
}
