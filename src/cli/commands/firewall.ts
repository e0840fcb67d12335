import { readFileSync } from "node:fs";
import { classify } from "../../context/firewall.ts";
import { sanitise } from "../../context/sanitise.ts";
import { UserError, usageError } from "../../core/errors.ts";
import type { ParsedArgs } from "../args.ts";

/**
 * `weir firewall check [FILE...] [--json]`: classifies text the way weir classifies what it reads
 * (stdin when no file). Exit 0 when everything is evidence, 1 when anything is instruction-like.
 */
export async function firewallCommand(args: ParsedArgs, out: (s: string) => void): Promise<number> {
  if (args.command[1] !== "check") throw usageError(`unknown command "firewall ${args.command[1] ?? ""}"; use weir firewall check [FILE...]`);
  const files = args.command.slice(2);
  const inputs: { name: string; text: string }[] = [];
  if (files.length === 0) inputs.push({ name: "(stdin)", text: await Bun.stdin.text() });
  for (const f of files) {
    try {
      inputs.push({ name: f, text: readFileSync(f, "utf8") });
    } catch (e) {
      throw new UserError(`cannot read ${f}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 2);
    }
  }
  // What the model would be told: the verdict with its findings, and what the sanitiser changed.
  const results = inputs.map((i) => ({ file: i.name, ...classify(i.text), sanitised: sanitise(i.text).changes }));
  if (args.json) out(`${JSON.stringify(results, null, 2)}\n`);
  else
    for (const r of results) {
      out(`${r.file}: ${r.verdict}${r.sanitised.length ? ` (${r.sanitised.join("; ")})` : ""}\n`);
      for (const f of r.findings) out(`  lines ${f.startLine}-${f.endLine}  ${f.rule}: ${f.excerpt}\n`);
    }
  return results.some((r) => r.verdict === "instruction_like") ? 1 : 0;
}
