/**
 * Texts from BIPIA (microsoft/BIPIA, MIT; see eval/firewall/bipia/NOTICE.md), the public benchmark of
 * indirect prompt injection whose tasks are mails, tables and code answers: its attack strings, written
 * by its authors, planted into its own contexts the way it plants them (at the start, in the middle or
 * at the end of the context). BIPIA ships a train and a test split of both attacks and contexts, with
 * different attack categories in each; the two are never mixed here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "../../src/eval/metrics.ts";
import { type FirewallText, pick, type R } from "./corpus.ts";

const DIR = join(import.meta.dir, "bipia");
const load = <T>(name: string): T => JSON.parse(readFileSync(join(DIR, name), "utf8")) as T;

type Attacks = Record<string, string[]>;
interface Contexts {
  email: string[];
  table: string[];
  code: string[];
}

/** A category name as a class: "Scams & Fraud" -> "scams-fraud". */
const slug = (s: string) => s.toLowerCase().replace(/\(.*?\)/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** Plant `attack` in `context` at the start, in the middle (at a line or sentence boundary) or at the end. */
export function plant(context: string, attack: string, where: "start" | "middle" | "end", r: R): string {
  if (where === "start") return `${attack}\n${context}`;
  if (where === "end") return `${context.replace(/\s+$/, "")}\n${attack}`;
  const lines = context.split("\n");
  if (lines.filter((l) => l.trim()).length >= 3) {
    // A line boundary in the middle third that is not inside a code fence (the attack is prose).
    const open: boolean[] = [];
    let fences = 0;
    for (const l of lines) {
      open.push(fences % 2 === 1);
      if (l.trimStart().startsWith("```")) fences++;
    }
    const ok = lines.map((_, i) => i).filter((i) => i > 0 && !open[i]);
    const mid = ok.filter((i) => i >= lines.length / 3 && i <= (2 * lines.length) / 3);
    const at = pick(r, mid.length ? mid : ok.length ? ok : [Math.floor(lines.length / 2)]);
    return [...lines.slice(0, at), attack, ...lines.slice(at)].join("\n");
  }
  // One long line (many of the mails): between two sentences near the middle.
  const cuts = [...context.matchAll(/[.!?] +(?=[A-Z])/g)].map((m) => m.index! + m[0].length);
  if (cuts.length === 0) return `${context} ${attack}`;
  const at = cuts[Math.floor(cuts.length / 3 + (r() * cuts.length) / 3)] ?? cuts[0]!;
  return `${context.slice(0, at)}${attack} ${context.slice(at)}`;
}

/**
 * What of an attack string training calls the payload: all of a text attack; of a code attack, its
 * framing sentence and the code lines that act, not its imports or fences (`import requests` is in
 * every benign answer too).
 */
function labelled(attack: string): string {
  return attack
    .split("\n")
    .filter((l) => l.trim() && !/^\s*(```|import\s|from\s+\S+\s+import\s)/.test(l))
    .join("\n");
}

/**
 * One split of BIPIA as firewall texts: every text attack planted in mails and tables and every code
 * attack in code answers, once in each of the three places; and every context as it is (benign).
 */
export function bipiaSet(split: "train" | "test", seed: number, prefix: string): FirewallText[] {
  const r = rng(seed);
  const text = load<Attacks>(`text_attack_${split}.json`);
  const code = load<Attacks>(`code_attack_${split}.json`);
  const ctx = load<Contexts>(`contexts_${split}.json`);
  if (split === "train") {
    // BIPIA's train and test mails share templates, some verbatim: a test context is never trained on.
    const test = load<Contexts>("contexts_test.json");
    const seen = new Set([...test.email, ...test.table, ...test.code]);
    for (const k of ["email", "table", "code"] as const) ctx[k] = ctx[k].filter((c) => !seen.has(c));
  }
  const out: FirewallText[] = [];
  const places = ["start", "middle", "end"] as const;
  const add = (attacks: Attacks, carriers: [string, string[]][]) => {
    for (const [category, strings] of Object.entries(attacks))
      strings.forEach((s, k) => {
        for (const where of places) {
          const [carrier, contexts] = pick(r, carriers);
          out.push({ id: `${prefix}-${slug(category)}-${k}-${where}`, injection: true, split: "test", cls: slug(category), carrier, text: plant(pick(r, contexts), s, where, r), payload: labelled(s) });
        }
      });
  };
  add(text, [["bipia-email", ctx.email], ["bipia-table", ctx.table]]);
  add(code, [["bipia-code", ctx.code]]);
  for (const [carrier, contexts] of [["bipia-email", ctx.email], ["bipia-table", ctx.table], ["bipia-code", ctx.code]] as const)
    contexts.forEach((c, k) => out.push({ id: `${prefix}-benign-${carrier}-${k}`, injection: false, split: "test", cls: "benign-plain", carrier, text: c }));
  return out;
}
