/**
 * Builds eval/suites/agent-context-pre-edit.jsonl: the pre-edit scenarios of ./scenarios.ts run
 * through weir as eval/loop/build.ts runs the loop's (a real git repository each, a scripted model
 * on the local wire server), each case the state of the request after the model's last read, before
 * its edit. Cases are tagged with their split (dev or test).
 *   bun eval/pre-edit/build.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSuite } from "../loop/build.ts";
import { PRE_EDIT } from "./scenarios.ts";

export const PRE_EDIT_SUITE = join(import.meta.dir, "..", "suites", "agent-context-pre-edit.jsonl");

if (import.meta.main) {
  const lines = await buildSuite(PRE_EDIT, "pre-edit", (s) => [s.split]);
  writeFileSync(PRE_EDIT_SUITE, `${lines.join("\n")}\n`);
  console.log(`wrote ${lines.length} cases to ${PRE_EDIT_SUITE}`);
}
