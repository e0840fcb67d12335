/**
 * Writes held-out firewall text as a suite for `weir eval firewall` (JSONL, docs/eval.md): the held-out
 * sets named (default the five newest, 32 to 36) and the READMEs of the held-out lists named (default
 * 18 to 22, their sets' lists; carrier "readme", benign), so the compiled binary and a judgment model
 * can be measured on the same text as eval/firewall/report.ts. READMEs come from the cache
 * `bun eval/firewall/docs.ts` fills; missing ones are left out (and counted on stderr).
 *   bun eval/firewall/export.ts [--sets 32,33] [--lists 18,19] > heldout.jsonl
 *   weir eval firewall heldout.jsonl [--provider judgment]
 */
import { parseArgs } from "node:util";
import type { FirewallText } from "./corpus.ts";
import { HELD_OUT_LISTS, heldOutDocs } from "./docs.ts";

const { values } = parseArgs({ options: { sets: { type: "string", default: "32,33,34,35,36" }, lists: { type: "string", default: "18,19,20,21,22" } } });
const numbers = (s: string) => s.split(",").filter(Boolean).map((x) => {
  const n = Number(x);
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a set or list number: ${x}`);
  return n;
});

const line = (t: FirewallText, carrier = t.carrier) => JSON.stringify({ id: t.id, text: t.text, injection: t.injection, ...(t.injection ? { class: t.cls } : {}), carrier });
const out: string[] = [];
for (const n of numbers(values.sets)) {
  const mod = await import(`./holdout${n}.ts`).catch(() => undefined);
  const build = mod?.[`buildHoldout${n}`] as (() => FirewallText[]) | undefined;
  if (!build) throw new Error(`no held-out set ${n} (eval/firewall/holdout${n}.ts)`);
  for (const t of build()) out.push(line(t));
}
let readmes = 0;
for (const n of numbers(values.lists)) {
  const list = HELD_OUT_LISTS[n - 1];
  if (!list) throw new Error(`no held-out README list ${n} (there are ${HELD_OUT_LISTS.length})`);
  const docs = heldOutDocs(list);
  readmes += docs.length;
  if (docs.length < list.length) console.error(`list ${n}: ${list.length - docs.length} of ${list.length} READMEs not cached (bun eval/firewall/docs.ts)`);
  for (const d of docs) out.push(line(d, "readme"));
}
process.stdout.write(`${out.join("\n")}\n`);
console.error(`${out.length} texts (${readmes} READMEs)`);
