import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { writeFileAtomic } from "../../workspace/atomic.ts";
import { dirname, join, resolve } from "node:path";
import { userDataDir } from "../../config/paths.ts";
import { usageError, UserError } from "../../core/errors.ts";
import { AGENT_CONTEXT, AGENT_CONTEXT_V1, type QuestionSet, questionSetFor, setKey } from "../../decision/questions.ts";
import { analyse } from "../../replay/analysis.ts";
import { fitPolicy } from "../../replay/fit-policy.ts";
import { foldOf, predictLearned, trainLearned } from "../../replay/learned.ts";
import type { DecisionPolicy } from "../../decision/policy.ts";
import { type CandidateSource, groupOf, isJudgmentSource, joinResults, replay, replayKey, shardCases } from "../../replay/replay.ts";
import { htmlReport, plainSummary, terminalReport } from "../../replay/report.ts";
import { type EvalCase, loadSuites } from "../../replay/suite.ts";
import { EvalStore } from "../../store/eval.ts";
import type { ParsedArgs } from "../args.ts";

type Out = (s: string) => void;
/**
 * The question set a suite is for: its first case's `question_set` (a known version), else the
 * current one. Cases of another version in the same files are refused line by line.
 */
function setOfSuite(files: readonly string[]): QuestionSet {
  for (const f of files) {
    let first: string | undefined;
    try {
      first = readFileSync(f, "utf8").split("\n").find((l) => l.trim() !== "");
    } catch {
      continue; // loadSuites says why it cannot be read
    }
    try {
      const key = (JSON.parse(first ?? "") as { question_set?: unknown }).question_set;
      if (typeof key === "string") {
        const set = questionSetFor(key);
        if (!set)
          throw new UserError(
            `${f} is for question set ${key}, which this weir does not know (it knows ${[AGENT_CONTEXT_V1, AGENT_CONTEXT].map(setKey).join(", ")})`,
            2,
          );
        return set;
      }
    } catch (e) {
      if (e instanceof UserError) throw e;
    }
  }
  return AGENT_CONTEXT;
}

/** The set a stored run was replayed with. */
const setOfRun = (key: string): QuestionSet => questionSetFor(key) ?? AGENT_CONTEXT;

const dbPath = (args: ParsedArgs) => (typeof args.flags.db === "string" ? resolve(args.flags.db) : join(userDataDir(), "eval.db"));
const num = (args: ParsedArgs, name: string, fallback: number) => (typeof args.flags[name] === "number" ? (args.flags[name] as number) : fallback);

function suitesOf(args: ParsedArgs, out: Out) {
  const files = args.command.slice(2);
  const verb = args.command[1];
  if (files.length === 0) throw usageError(`weir eval ${verb} needs a suite: weir eval ${verb} eval/suites/agent-context-independent.jsonl`);
  const set = setOfSuite(files);
  const suite = loadSuites(files, set, args.strict);
  for (const p of suite.problems) out(`skipped ${p.file}:${p.line}: ${p.message}\n`);
  if (suite.cases.length === 0) throw new UserError(`no valid cases in ${files.join(", ")}`, 2);
  return { files, suite, set };
}

function progressPrinter(out: Out, tty: boolean) {
  const started = performance.now();
  let lastLine = 0;
  return (p: { done: number; total: number; failures: number }) => {
    const secs = (performance.now() - started) / 1000;
    const rate = p.done / Math.max(secs, 1e-3);
    const eta = rate > 0 ? (p.total - p.done) / rate : 0;
    if (tty) {
      const w = 30;
      const fill = Math.round((w * p.done) / Math.max(1, p.total));
      out(
        `\r[${"#".repeat(fill)}${".".repeat(w - fill)}] ${p.done}/${p.total}  ${rate.toFixed(1)}/s  ETA ` +
          `${eta.toFixed(0)}s  failures ${p.failures}${p.done === p.total ? "\n" : ""}`,
      );
    } else if (p.done === p.total || performance.now() - lastLine > 2000 || p.done % Math.max(1, Math.floor(p.total / 10)) === 0) {
      lastLine = performance.now();
      out(`progress ${p.done}/${p.total} (${rate.toFixed(1)}/s, ETA ${eta.toFixed(0)}s, failures ${p.failures})\n`);
    }
  };
}

function casesForRun(store: EvalStore, runId: string, out: Out) {
  const run = store.run(runId);
  const files = JSON.parse(run.suites) as string[];
  const set = setOfRun(run.question_set);
  const suite = loadSuites(files, set);
  if (suite.hash !== run.suite_hash)
    out(`warning: the suites changed since run ${run.id} (hash ${run.suite_hash} → ${suite.hash}); labels are read from the files as they are now\n`);
  return { run, set, cases: suite.cases, results: joinResults(suite.cases, store.results(run.id)) };
}

export async function evalCommand(
  args: ParsedArgs,
  workspace: string,
  judgment: () => Promise<{ provider: import("../../decision/judges.ts").JudgmentProvider } | undefined>,
  out: Out,
  tty: boolean,
  resolved?: import("../../config/resolve.ts").Resolved,
): Promise<number> {
  const verb = args.command[1];
  switch (verb) {
    case "run":
      return evalRun(args, judgment, out, tty);
    case "train":
      return evalTrain(args, out);
    case "calibrate":
      return evalCalibrate(args, workspace, out);
    case "report":
      return evalReport(args, out);
    case "merge":
      return evalMerge(args, out);
    case "capture":
      return (await import("./capture.ts")).evalCapture(args, workspace, out);
    case "label":
      return (await import("./capture.ts")).evalLabel(args, setOfSuite(args.command.slice(2, 3)), out);
    case "firewall":
      return (await import("./eval-firewall.ts")).evalFirewall(args, judgment, out, progressPrinter(out, tty));
    case "routing":
      if (!resolved) throw usageError("weir eval routing needs the run's settings");
      return (await import("./eval-routing.ts")).evalRouting(args, workspace, resolved, out);
    case "runs": {
      const store = EvalStore.open(dbPath(args));
      try {
        for (const r of store.runs())
          out(
            `${r.id}  ${r.provider}${r.model ? `/${r.model}` : ""}  shard ${r.shard}  ` +
              `${store.done(r.id).size}/${r.total}  ${r.finished_at ? "finished" : "unfinished"}  ` +
              `${JSON.parse(r.suites).join(", ")}\n`,
          );
      } finally {
        store.close();
      }
      return 0;
    }
    default:
      throw usageError(`unknown command "eval ${verb ?? ""}"; use weir eval run, train, calibrate, report, merge, runs, capture, label, firewall or routing`);
  }
}

async function evalRun(args: ParsedArgs, judgment: Parameters<typeof evalCommand>[2], out: Out, tty: boolean): Promise<number> {
  const { files, suite, set: SET } = suitesOf(args, out);
  const providerName = typeof args.flags.provider === "string" ? args.flags.provider : "baseline";
  let cases = shardCases(suite.cases, typeof args.flags.shard === "string" ? args.flags.shard : undefined);
  if (typeof args.flags.limit === "number") cases = cases.slice(0, args.flags.limit);
  let source: CandidateSource;
  let model: string | null = null;
  if (providerName === "baseline") source = { kind: "baseline" };
  else if (providerName === "learned") source = { kind: "learned", folds: num(args, "folds", 5) };
  else if (providerName === "replay" || providerName.startsWith("replay:")) {
    const key = replayKey(
      providerName,
      [...new Set(suite.cases.flatMap((c) => Object.keys(c.judgments ?? {})))],
      "a live provider: weir eval run SUITE --provider judgment --record FILE",
    );
    source = { kind: "replay", key };
    model = key;
  } else if (isJudgmentSource(providerName)) {
    const j = await judgment();
    if (!j) throw new UserError('no judgment provider is configured; add "judgment" to ~/.config/weir/config.json (see docs/decision-plane.md)', 2);
    model = j.provider.requestedModel ?? null;
    source = { kind: "live", provider: j.provider, key: `${j.provider.id}/${model ?? "default"}` };
  } else throw usageError(`--provider ${providerName} is not an eval source; use baseline, learned, replay[:KEY] or judgment`);

  const path = dbPath(args);
  mkdirSync(dirname(path), { recursive: true });
  const store = EvalStore.open(path);
  try {
    const resumeId = typeof args.flags.resume === "string" ? args.flags.resume : undefined;
    let runId: string;
    if (resumeId) {
      const run = store.run(resumeId);
      if (run.suite_hash !== suite.hash)
        throw new UserError(`run ${run.id} was made on other suite content (${run.suite_hash}, now ${suite.hash}); start a new run`, 2);
      runId = run.id;
      out(`resuming ${runId}: ${store.done(runId).size} of ${run.total} cases already done\n`);
    } else
      runId = store.createRun({
        ...(typeof args.flags.run === "string" ? { id: args.flags.run } : {}),
        suite_hash: suite.hash,
        suites: JSON.stringify(files.map((f) => resolve(f))),
        provider: providerName,
        model,
        question_set: setKey(SET),
        shard: typeof args.flags.shard === "string" ? args.flags.shard : "all",
        total: cases.length,
      });
    const recorded = new Map<string, { answers: Record<string, unknown>; model?: string }>();
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once("SIGINT", onSigint);
    const p = await replay({
      set: SET,
      questionSet: setKey(SET),
      cases,
      store,
      runId,
      source,
      concurrency: num(args, "concurrency", 4),
      minIntervalMs: source.kind === "live" ? 100 : 0,
      onProgress: progressPrinter(out, tty),
      onRecord: (c, answers, m) => recorded.set(c.id, { answers, ...(m ? { model: m } : {}) }),
      signal: controller.signal,
    });
    process.removeListener("SIGINT", onSigint);
    if (controller.signal.aborted) {
      out(`interrupted at ${p.done}/${p.total}; resume with: weir eval run ${files.join(" ")} --provider ${providerName} --resume ${runId}\n`);
      return 130;
    }
    store.finish(runId);
    if (typeof args.flags.record === "string" && source.kind === "live") {
      const lines = suite.cases.map((c) => {
        const r = recorded.get(c.id);
        return JSON.stringify(r ? { ...c, judgments: { ...(c.judgments ?? {}), [source.key]: r.answers } } : c);
      });
      writeFileSync(args.flags.record, `${lines.join("\n")}\n`);
      out(`recorded ${recorded.size} judgments into ${args.flags.record}\n`);
    }
    const results = joinResults(suite.cases, store.results(runId));
    out(
      `${terminalReport(analyse(SET, results), `run ${runId} (${providerName})`)}\n\nnext: weir eval ` +
        `calibrate --run ${runId}; weir eval report --run ${runId} --html report.html\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}

function evalTrain(args: ParsedArgs, out: Out): number {
  const { suite, set: SET } = suitesOf(args, out);
  const k = num(args, "folds", 5);
  // Fold 0 is held out for the report; the model is trained on the other folds.
  const train = suite.cases.filter((c) => foldOf(groupOf(c.id), k) !== 0);
  const test = suite.cases.filter((c) => foldOf(groupOf(c.id), k) === 0);
  const model = trainLearned(SET, setKey(SET), train, suite.hash);
  const outFile = typeof args.flags.record === "string" ? args.flags.record : join("eval", "models", `learned-${setKey(SET).replace(/[^\w@.-]/g, "_")}.json`);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(model, null, 2)}\n`);
  const results = test.map((c) => ({ id: c.id, state: c.state, labels: c.labels, baseline: predictLearned(model, SET, c.state) }));
  out(`trained on ${train.length} cases (folds 1-${k - 1}), saved ${outFile} with ${model.features.length} features\n`);
  out(`${terminalReport(analyse(SET, results), `learned model on the held-out fold (${test.length} cases; shown in the baseline column)`)}\n`);
  return 0;
}

/** Whether the file already holds this policy but for its creation time (a rerun must not dirty the tree). */
function samePolicy(file: string, policy: DecisionPolicy): boolean {
  try {
    const { created: _a, ...old } = JSON.parse(readFileSync(file, "utf8")) as DecisionPolicy;
    const { created: _b, ...now } = policy;
    return JSON.stringify(old) === JSON.stringify(JSON.parse(JSON.stringify(now)));
  } catch {
    return false;
  }
}

/** Opens the results database on the run the command names (`--run`, the next word, or the newest), and closes it after. */
function withRun<T>(args: ParsedArgs, out: Out, f: (found: ReturnType<typeof casesForRun>) => T): T {
  const store = EvalStore.open(dbPath(args));
  try {
    const runId = typeof args.flags.run === "string" ? args.flags.run : args.command[2] ?? store.latestRun()?.id;
    if (!runId) throw new UserError("no eval run yet; run weir eval run SUITE first", 2);
    return f(casesForRun(store, runId, out));
  } finally {
    store.close();
  }
}

function evalCalibrate(args: ParsedArgs, workspace: string, out: Out): number {
  return withRun(args, out, ({ run, set: SET, results }) => {
    const withCand = results.filter((r) => r.candidate);
    if (withCand.length === 0) throw new UserError(`run ${run.id} has no candidate answers to calibrate (provider ${run.provider})`, 2);
    const k = num(args, "folds", 5);
    const maxFs = num(args, "max-false-stop", 0.02);
    const maxFc = num(args, "max-false-continue", 0.2);
    const { policy, lines } = fitPolicy(withCand, SET, {
      folds: k,
      maxFalseStop: maxFs,
      maxFalseContinue: maxFc,
      run: { question_set: run.question_set, provider: run.provider, model: run.model, id: run.id, suite_hash: run.suite_hash },
    });
    for (const l of lines) out(`${l}\n`);
    // The workspace's policies/ (where a run looks for it), not wherever the shell happens to be.
    const file = join(workspace, "policies", "decision-policy.json");
    if (samePolicy(file, policy)) {
      out(`${file} is unchanged (${withCand.length} cases, ${k}-fold held-out figures, provider ${run.provider}); not rewritten\n`);
      return 0;
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, `${JSON.stringify(policy, null, 2)}\n`);
    out(`wrote ${file} (${withCand.length} cases, ${k}-fold held-out figures, provider ${run.provider})\n`);
    return 0;
  });
}

function evalReport(args: ParsedArgs, out: Out): number {
  return withRun(args, out, ({ run, set: SET, cases, results }) => {
    const report = analyse(SET, results);
    // Where the labels came from, so the summary can say what the figures measure.
    const label_sources: Record<string, number> = { criteria: 0, outcome: 0, human: 0, unmarked: 0 };
    for (const c of cases) for (const q of Object.keys(c.labels)) label_sources[c.label_source?.[q] ?? "unmarked"]!++;
    const meta = {
      run: run.id,
      provider: run.provider,
      model: run.model,
      question_set: run.question_set,
      suite_hash: run.suite_hash,
      shard: run.shard,
      label_sources,
    };
    if (args.json) out(`${JSON.stringify({ meta, report, summary: plainSummary(report, meta) }, null, 2)}\n`);
    else out(`${plainSummary(report, meta).lines.join("\n")}\n\n${terminalReport(report, `run ${run.id} (${run.provider})`)}\n`);
    if (typeof args.flags.html === "string") {
      const byId = new Map<string, EvalCase>(cases.map((c) => [c.id, c]));
      writeFileSync(args.flags.html, htmlReport(report, meta, new Map([...byId].map(([id, c]) => [id, { state: c.state, labels: c.labels }]))));
      if (!args.json) out(`wrote ${args.flags.html}\n`);
    }
    return 0;
  });
}

function evalMerge(args: ParsedArgs, out: Out): number {
  const inputs = args.command.slice(2);
  if (inputs.length === 0) throw usageError("weir eval merge needs the shard databases: weir eval merge shard1.db shard2.db [--db merged.db]");
  const target = EvalStore.open(dbPath(args));
  try {
    for (const f of inputs) {
      readFileSync(f); // a clear error for a missing file before sqlite creates one
      const other = EvalStore.open(resolve(f));
      try {
        const r = target.importFrom(other);
        out(`imported ${r.runs.length} run(s), ${r.results} results from ${f}\n`);
      } finally {
        other.close();
      }
    }
    // Shards of the same suite and provider become one run.
    const groups = new Map<string, ReturnType<EvalStore["runs"]>>();
    for (const r of target.runs().filter((x) => x.shard !== "all")) {
      const key = `${r.suite_hash}|${r.provider}|${r.model ?? ""}|${r.question_set}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const runs of groups.values()) {
      const n = Number(runs[0]!.shard.split("/")[1]);
      const shards = new Set(runs.map((r) => r.shard));
      const id = `merged-${runs[0]!.suite_hash.slice(0, 8)}-${runs[0]!.provider}`;
      if (target.runs().some((r) => r.id === id)) continue;
      const total = runs.reduce((s, r) => s + r.total, 0);
      target.createRun({
        id,
        suite_hash: runs[0]!.suite_hash,
        suites: runs[0]!.suites,
        provider: runs[0]!.provider,
        model: runs[0]!.model,
        question_set: runs[0]!.question_set,
        shard: "all",
        total,
      });
      let results = 0;
      for (const r of runs)
        for (const x of target.results(r.id)) {
          target.addResult({ ...x, run_id: id });
          results++;
        }
      target.finish(id);
      out(`merged ${runs.length} shard run(s) into ${id}: ${results} results${shards.size < n ? ` (missing shards: ${n - shards.size} of ${n})` : ""}\n`);
    }
    return 0;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new UserError(`cannot read ${(e as NodeJS.ErrnoException).path}: no such file`, 2);
    throw e;
  } finally {
    target.close();
  }
}
