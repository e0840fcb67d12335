/**
 * How edit_file's matcher meets the ways models misquote a file: eval/edits/misquotes.jsonl holds
 * cases by class (indentation flattened, line numbers copied from read_file, typographic
 * punctuation, blank lines dropped or added, whitespace, over-escaping, CRLF), each with the file,
 * the edit and what must come of it: the exact resulting text, or a refusal (ambiguous, absent,
 * elided or paraphrased quotes). Written before the tolerances they measure; every third case is
 * test, and only dev misses are listed.
 *   bun run bench edits [--misses]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyEdit, EditRefused } from "../src/actions/edit-match.ts";

interface Case {
  id: string;
  split: "dev" | "test";
  class: string;
  file: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
  expect: "applied" | "refused";
  result?: string;
}

const cases = readFileSync(join(import.meta.dir, "..", "eval", "edits", "misquotes.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Case);

/** What the matcher did with a case: the text it produced, or that it refused. */
function outcome(c: Case): { text?: string; refused?: string } {
  try {
    return { text: applyEdit(c.file, { old_string: c.old_string, new_string: c.new_string, ...(c.replace_all ? { replace_all: true } : {}) }).text };
  } catch (e) {
    if (e instanceof EditRefused) return { refused: e.message };
    throw e;
  }
}

const rows = new Map<string, { dev: [number, number]; test: [number, number] }>();
const misses: string[] = [];
for (const c of cases) {
  const o = outcome(c);
  const right = c.expect === "refused" ? o.refused !== undefined : o.text === c.result;
  const row = rows.get(c.class) ?? { dev: [0, 0], test: [0, 0] };
  row[c.split][0] += right ? 1 : 0;
  row[c.split][1] += 1;
  rows.set(c.class, row);
  if (!right && c.split === "dev") misses.push(`${c.id} ${c.class}: ${o.refused ? `refused: ${o.refused.slice(0, 120)}` : "applied, but not as expected"}`);
}
const sum = (s: "dev" | "test"): [number, number] => [...rows.values()].reduce<[number, number]>((a, r) => [a[0] + r[s][0], a[1] + r[s][1]], [0, 0]);
console.log(`edit_file on ${cases.length} misquoted edits (right = the expected text, or refused where it must be)`);
for (const [cls, r] of rows) console.log(`  ${cls.padEnd(30)} dev ${r.dev[0]}/${r.dev[1]}  test ${r.test[0]}/${r.test[1]}`);
const [d, dn] = sum("dev");
const [t, tn] = sum("test");
console.log(`  ${"all".padEnd(30)} dev ${d}/${dn}  test ${t}/${tn}`);
if (process.argv.includes("--misses")) for (const m of misses) console.log(`  miss ${m}`);
