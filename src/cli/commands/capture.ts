import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { usageError, UserError } from "../../core/errors.ts";
import type { DecisionRecord } from "../../decision/plane.ts";
import type { QuestionSet } from "../../decision/questions.ts";
import { captureCases, OUTCOME_RULES } from "../../replay/capture.ts";
import { applyLabel, type LabelEdit, labelPage, suiteText } from "../../replay/label.ts";
import { type EvalCase, loadSuites } from "../../replay/suite.ts";
import { writeFileAtomic } from "../../workspace/atomic.ts";
import type { ParsedArgs } from "../args.ts";
import { withExistingStore } from "../data.ts";

type Out = (s: string) => void;

/** `weir eval capture [--since DATE] [--session ID] [--all] [--include-untrusted] -o FILE`: this workspace's recorded decisions as a suite. */
export function evalCapture(args: ParsedArgs, workspace: string, out: Out): number {
  const file = typeof args.flags.output === "string" ? resolve(args.flags.output) : undefined;
  if (!file) throw usageError("weir eval capture needs a file to write: weir eval capture -o captured.jsonl");
  const sinceFlag = typeof args.flags.since === "string" ? args.flags.since : undefined;
  const since = sinceFlag === undefined ? 0 : Date.parse(sinceFlag);
  if (Number.isNaN(since)) throw usageError(`--since ${sinceFlag} is not a date; use a form like 2026-11-30 or 2026-11-30T14:00`);
  const session = typeof args.flags.session === "string" ? args.flags.session : undefined;
  return withExistingStore("no decisions recorded yet: run weir on a task first", out, (store) => {
    const rows = store.decisionRows({ workspace, since, ...(session ? { session } : {}) });
    const bySession = new Map<string, DecisionRecord[]>();
    for (const r of rows) bySession.set(r.session_id, [...(bySession.get(r.session_id) ?? []), r.record as DecisionRecord]);
    const sessions = [...bySession].map(([id, decisions]) => ({ id, decisions, messages: store.history(id) }));
    const { cases, unlabelled, withoutPosition } = captureCases(sessions, { all: args.all, includeUntrusted: args.flags["include-untrusted"] === true });
    writeFileAtomic(file, suiteText(cases));
    const fired = OUTCOME_RULES.map((r) => [r, cases.filter((c) => c.tags?.includes(r)).length] as const).filter(([, n]) => n > 0);
    out(
      `wrote ${cases.length} case${cases.length === 1 ? "" : "s"} to ${file} from ${rows.length} ` +
        `decisions in ${bySession.size} ` +
        `session${bySession.size === 1 ? "" : "s"}${fired.length ? ` (${fired.map(([r, n]) => `${r} ${n}`).join(", ")})` : ""}\n`,
    );
    if (unlabelled && !args.all) out(`${unlabelled} states no outcome rule labelled were left out; --all keeps them for weir eval label\n`);
    if (withoutPosition) out(`${withoutPosition} decisions recorded by an older weir have no position in their session and were skipped\n`);
    out(
      args.flags["include-untrusted"] === true
        ? "untrusted notes are kept (--include-untrusted)\n"
        : "untrusted notes were dropped (--include-untrusted keeps them)\n",
    );
    return 0;
  });
}

/** `weir eval label FILE [--port N]`: a loopback page where a person confirms or corrects labels, saved to FILE as they change. */
export async function evalLabel(args: ParsedArgs, set: QuestionSet, out: Out): Promise<number> {
  const file = args.command[2] ? resolve(args.command[2]) : undefined;
  if (!file) throw usageError("weir eval label needs a suite: weir eval label captured.jsonl");
  if (!existsSync(file)) throw new UserError(`no suite at ${file}`, 2);
  const suite = loadSuites([file], set, false);
  // Rewriting a file with lines it could not read would lose them: fix those first.
  if (suite.problems.length)
    throw new UserError(`${file}:${suite.problems[0]!.line}: ${suite.problems[0]!.message}; fix it before labelling (nothing was changed)`, 2);
  let cases: EvalCase[] = suite.cases;
  let edits = 0;
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");
  const port = typeof args.flags.port === "number" ? args.flags.port : 0;
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const url = new URL(req.url);
      // Loopback only, with the token, and the Host a browser on this machine sends (no DNS rebinding).
      const host = req.headers.get("host") ?? "";
      if (!/^(?:127\.0\.0\.1|localhost):\d+$/.test(host)) return json(403, { error: "wrong host" });
      if (url.searchParams.get("token") !== token) return json(403, { error: "open the address weir printed (it carries the token)" });
      if (req.method === "GET" && url.pathname === "/")
        return new Response(labelPage(file, cases, set, token), { headers: { "content-type": "text/html; charset=utf-8" } });
      if (req.method === "GET" && url.pathname === "/api/cases") return json(200, cases);
      if (req.method === "POST" && url.pathname === "/api/label") {
        if (!(req.headers.get("content-type") ?? "").startsWith("application/json")) return json(415, { error: "send the edit as application/json" });
        let edit: LabelEdit;
        try {
          edit = (await req.json()) as LabelEdit;
        } catch {
          return json(400, { error: "the body is not JSON" });
        }
        const r = applyLabel(cases, edit, set);
        if (r.error) return json(400, { error: r.error });
        cases = r.cases;
        writeFileAtomic(file, suiteText(cases));
        edits++;
        return json(200, { case: cases.find((c) => c.id === edit.id) });
      }
      return json(404, { error: "not found" });
    },
  });
  out(`labelling ${cases.length} cases of ${file} at http://127.0.0.1:${server.port}/?token=${token}\nchanges are saved as you make them; Ctrl-C stops\n`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  server.stop(true);
  out(`\n${edits} change${edits === 1 ? "" : "s"} saved to ${file}\n`);
  return 0;
}
