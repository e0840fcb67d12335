import { join, relative } from "node:path";
import { isDocumentation } from "../../actions/verification.ts";
import { type Resolved, roleProviderSettings, roleReachable } from "../../config/resolve.ts";
import { isTestPath, namedTestsOf } from "../../context/sources.ts";
import { UserError, usageError } from "../../core/errors.ts";
import { reviewFile } from "../../decision/review.ts";
import { createProvider } from "../../providers/create.ts";
import { hostOf } from "../../providers/credential.ts";
import { type Review, reviewHolds } from "../../store/reviews.ts";
import { SessionStore } from "../../store/sessions.ts";
import { looksBinary } from "../../workspace/walker.ts";
import { holdsKeyMaterial, PathRefused, resolveInWorkspace } from "../../workspace/containment.ts";
import { gitOutput } from "../../workspace/git.ts";
import { hashWithHead } from "../../workspace/ledger.ts";
import { databasePath } from "../data.ts";

type Out = (s: string) => void;

/** Files one review command looks at, at most: each is a request to the review model. */
const MAX_FILES = 10;
/** A file over this size is not reviewed (nor a test over it read). */
const MAX_BYTES = 100_000;
/** Tests shown with a reviewed file, at most. */
const TESTS_PER_FILE = 3;

interface Read {
  path: string;
  text: string;
  sha: string;
}

/** A workspace file as the review reads it, or undefined when it is gone, binary, key material or too large. */
function readFile(workspace: string, path: string): Read | undefined {
  try {
    const { head, size, sha } = hashWithHead(join(workspace, path), MAX_BYTES);
    if (size > MAX_BYTES || looksBinary(head) || holdsKeyMaterial(head)) return undefined;
    return { path, text: head.toString("utf8"), sha };
  } catch {
    return undefined;
  }
}

/** The workspace-relative path of a path given on the command line; outside the workspace is an error. */
function inWorkspace(workspace: string, given: string): string {
  try {
    const r = resolveInWorkspace(workspace, given);
    if (!r.exists) throw usageError(`${given} does not exist in ${workspace}`);
    return relative(workspace, r.absolute).split("\\").join("/");
  } catch (e) {
    if (e instanceof PathRefused) throw usageError(e.message);
    throw e;
  }
}

/** Source files changed against HEAD (tracked and untracked), tests and prose aside. */
async function changedSources(workspace: string): Promise<string[]> {
  const changed = (await gitOutput(workspace, ["diff", "--name-only", "--relative", "HEAD"])) ?? "";
  const untracked = (await gitOutput(workspace, ["ls-files", "--others", "--exclude-standard"])) ?? "";
  const paths = `${changed}\n${untracked}`.split("\n").filter(Boolean);
  return [...new Set(paths)].filter((p) => !isTestPath(p) && !isDocumentation(p) && readFile(workspace, p) !== undefined);
}

/**
 * `weir index --review [PATH...]`: reviews each file (those named, else the source files changed
 * against HEAD; at most ten) with the review model (`models.review`), one request per file with the
 * tests mapped to it, for security problems and test gaps, and stores each file's findings bound to
 * the SHAs of what its review read. A run's compile shows a target's findings while all of those
 * are unchanged.
 */
export async function reviewCommand(paths: readonly string[], workspace: string, resolved: Resolved, out: Out, err: Out, json: boolean): Promise<number> {
  const settings = roleProviderSettings(resolved, "review");
  if (!settings) throw usageError("weir index --review needs a review model: set models.review in the config (docs/models.md says how)");
  if (!roleReachable(resolved, "review")) throw new UserError(`no key for the review model's host ${hostOf(settings.baseUrl)}: set one (weir auth login)`);
  const files = paths.length ? paths.map((p) => inWorkspace(workspace, p)) : await changedSources(workspace);
  if (files.length === 0) {
    out("nothing to review: no source file is changed against HEAD; name the files: weir index --review PATH...\n");
    return 0;
  }
  if (files.length > MAX_FILES) err(`weir: reviewing the first ${MAX_FILES} of ${files.length} files\n`);
  const provider = await createProvider(settings, `models.review (${settings.preset})`);
  const tracked = ((await gitOutput(workspace, ["ls-files"])) ?? "").split("\n").filter(Boolean);
  const store = SessionStore.open(databasePath());
  const reviewed: Review[] = [];
  try {
    for (const path of files.slice(0, MAX_FILES)) {
      const file = readFile(workspace, path);
      if (!file) {
        err(`weir: ${path} is not reviewed: it is binary, key material or over ${MAX_BYTES / 1000} KB\n`);
        continue;
      }
      const testPaths = [...new Set([...store.testLinks.testsFor(workspace, [path]), ...namedTestsOf(path, tracked)])];
      const tests = testPaths.flatMap((t) => readFile(workspace, t) ?? []).slice(0, TESTS_PER_FILE);
      let findings;
      try {
        findings = await reviewFile(provider, file, tests);
      } catch (e) {
        if (e instanceof UserError) throw e;
        throw new UserError(`the review of ${path} failed: ${(e as Error).message}`);
      }
      const review = { path, model: settings.model, at: Date.now(), reads: [file, ...tests].map((f) => ({ path: f.path, sha: f.sha })), findings };
      store.reviews.put(workspace, review);
      reviewed.push(review);
    }
  } finally {
    store.close();
  }
  if (json) out(`${JSON.stringify({ model: settings.model, reviews: reviewed })}\n`);
  else {
    for (const r of reviewed) for (const f of r.findings) out(`${f.path}:${f.line} [${f.kind.replace("_", " ")}] ${f.text}\n`);
    const n = reviewed.reduce((k, r) => k + r.findings.length, 0);
    out(`reviewed ${reviewed.length} file${reviewed.length === 1 ? "" : "s"} with ${settings.model}: ${n} finding${n === 1 ? "" : "s"}\n`);
  }
  return 0;
}

/** What `weir index --status` says of the stored reviews: how many hold, and how many files changed since. */
export function reviewStatus(workspace: string): { files: number; fresh: number; stale: number; findings: number } | undefined {
  const store = SessionStore.open(databasePath());
  try {
    const reviews = store.reviews.of(workspace);
    if (reviews.length === 0) return undefined;
    const shas = new Map<string, string | undefined>();
    const sha = (p: string) => {
      if (!shas.has(p)) shas.set(p, readFile(workspace, p)?.sha);
      return shas.get(p);
    };
    const holding = reviews.filter((r) => reviewHolds(r, sha));
    const findings = holding.reduce((k, r) => k + r.findings.length, 0);
    return { files: reviews.length, fresh: holding.length, stale: reviews.length - holding.length, findings };
  } finally {
    store.close();
  }
}
