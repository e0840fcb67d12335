/**
 * Content-aware candidates: BM25 over identifier-split tokens of file contents, so a task that says
 * "wrapped lines" reaches `_textwrap.py` and "ASGI transport" reaches the file defining
 * `ASGITransport`, not only paths that contain a task word. Pure functions over texts; the caller
 * reads the files (through the context index, so a warm compile re-reads nothing).
 */

/** Words of a task that say nothing about where the code is ("fix the file that ..."). */
export const TASK_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "the a an and or to of in on for it is this that with fix add make use update change file files " +
    "code please should when where what why how be are was not can into from by as at we you"
  ).split(" "),
);

/** Task words plus the keywords every source file repeats, for ranking file contents. */
const STOP = new Set([
  ...TASK_STOPWORDS,
  ..."if else return const let var function def class import export new true false null none self type int str".split(" "),
]);

/** Sub-words of identifiers: ACRONYMS before a capitalised word, Capitalised or lower runs, trailing ACRONYMS. */
const PART = /[A-Z]{2,}(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]{2,}/g;

/**
 * Identifier-aware terms: camelCase, PascalCase, ACRONYMWords and snake_case split, lower-cased,
 * light stemming. One regex pass over the text (it runs over every candidate file). Pure.
 */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  PART.lastIndex = 0;
  for (let m = PART.exec(text); m !== null; m = PART.exec(text)) {
    const raw = m[0];
    if (raw.length < 2 || raw.length > 31) continue;
    const w = stem(raw.toLowerCase());
    if (w.length > 1 && !STOP.has(w)) out.push(w);
  }
  return out;
}

/** Plural and verb endings folded, so "wrapped" meets "wrap" and "parsers" meets "parser". Pure. */
export function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ing")) return undouble(w.slice(0, -3));
  if (w.length > 4 && w.endsWith("ed")) return undouble(w.slice(0, -2));
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}
const undouble = (w: string) => (/([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w);

/** The lock files of package managers, by name. */
const LOCK_FILES = [
  "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb", "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock",
  "composer.lock", "Gemfile.lock", "go.sum", "mix.lock", "Package.resolved", "Podfile.lock", "pubspec.lock", "gradle.lockfile",
  "packages.lock.json", "flake.lock",
];
/** What code generators name their output: protobuf and gRPC stubs, Dart's build_runner, .NET designers. */
const GENERATED_NAME = /\.pb\.go$|_pb2(?:_grpc)?\.pyi?$|\.pb\.(?:cc|h)$|\.(?:g|freezed)\.dart$|\.[Dd]esigner\.cs$|\.generated\.\w+$/;

/** Files that are generated, vendored, bundled or locked: never candidates, never in the floor. Pure. */
export function isGenerated(path: string): boolean {
  return (
    /(?:^|\/)(?:dist|build|out|vendor|third_party|node_modules|coverage|\.next|__pycache__|target)\//.test(path) ||
    /\.(?:min|bundle|umd|prod)\.[cm]?js$|\.map$/.test(path) ||
    GENERATED_NAME.test(path) ||
    LOCK_FILES.includes(path.slice(path.lastIndexOf("/") + 1))
  );
}

/** Paths `.gitattributes` marks `linguist-generated` (or `-diff`/`binary` bundles), as globs. Pure. */
export function generatedGlobs(gitattributes: string): string[] {
  const out: string[] = [];
  for (const line of gitattributes.split("\n")) {
    const [pattern, ...attrs] = line.trim().split(/\s+/);
    if (pattern && !pattern.startsWith("#") && attrs.some((a) => a === "linguist-generated" || a === "linguist-generated=true" || a === "linguist-vendored"))
      out.push(pattern.startsWith("/") ? pattern.slice(1) : `**/${pattern}`);
  }
  return out;
}

interface Scored {
  path: string;
  score: number;
}

/** A document as BM25 reads it: its term counts (path terms twice, then contents) and its length. */
export interface Counted {
  path: string;
  tf: Map<string, number>;
  len: number;
}

/** Term counts of a document, for `bm25Counted`; computed once per file version by the caller's cache. Pure. */
function countTerms(path: string, text: string): Counted {
  const terms = [...termsOf(path), ...termsOf(path), ...termsOf(text)];
  const tf = new Map<string, number>();
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { path, tf, len: terms.length };
}

/** A term as code writes it (token, Token, TOKEN), as bytes; remembered, since a query meets thousands of files. */
const spellings = new Map<string, Buffer[]>();
function spellingsOf(t: string): Buffer[] {
  let s = spellings.get(t);
  if (!s) {
    if (spellings.size >= 1_000) spellings.clear();
    spellings.set(t, (s = [...new Set([t, t[0]!.toUpperCase() + t.slice(1), t.toUpperCase()])].map((x) => Buffer.from(x))));
  }
  return s;
}

/**
 * Term counts of a document for the query terms only, found by a native search of its bytes for each
 * term as written in code (token, Token, TOKEN) at word starts: a term counts where it begins a word
 * or a camelCase part ("line" in "readLine", not in "inline"). Much cheaper than decoding and
 * tokenising every candidate file; the length is estimated from the size. Terms are ASCII
 * (`termsOf`). Pure.
 */
export function countQuery(path: string, buf: Buffer, terms: readonly string[]): Counted {
  const tf = new Map<string, number>();
  const pathLower = path.toLowerCase();
  for (const t of terms) {
    let n = 0;
    for (const spelling of spellingsOf(t)) {
      for (let i = buf.indexOf(spelling); i !== -1; i = buf.indexOf(spelling, i + spelling.length)) {
        const prev = i > 0 ? buf[i - 1]! : 32;
        const here = buf[i]!;
        // A word start: not after a lower-case letter, unless this is an upper-case (camel) start.
        if (!(prev >= 97 && prev <= 122) || (here >= 65 && here <= 90)) n++;
      }
    }
    // Path words count twice, as in countTerms.
    if (pathLower.includes(t)) n += 2;
    if (n) tf.set(t, n);
  }
  return { path, tf, len: Math.max(1, Math.round(buf.length / 6)) };
}

/** One term's part of a BM25 score (k1 1.2, b 0.75): its weight, saturated by its count `f` and normalised by length. Pure. */
export const bm25Term = (weight: number, f: number, len: number, avgLen: number): number => (weight * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len) / avgLen));

/**
 * BM25 (k1 1.2, b 0.75) of each counted document for the query terms; documents without any query
 * term are left out. `total` counts documents screened out before counting, for the IDF. Pure.
 */
export function bm25Counted(query: string[], docs: readonly Counted[], total = docs.length): Scored[] {
  const q = [...new Set(query)];
  if (q.length === 0 || docs.length === 0) return [];
  const df = new Map<string, number>();
  for (const d of docs) for (const t of q) if (d.tf.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((a, d) => a + d.len, 0) / docs.length || 1;
  const n = Math.max(total, docs.length);
  const out: Scored[] = [];
  for (const d of docs) {
    let s = 0;
    for (const t of q) {
      const f = d.tf.get(t) ?? 0;
      if (!f) continue;
      const k = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - k + 0.5) / (k + 0.5));
      s += bm25Term(idf, f, d.len, avg);
    }
    if (s > 0) out.push({ path: d.path, score: s });
  }
  return out.sort((a, b) => b.score - a.score || byCodePoint(a.path, b.path));
}

/** BM25 over raw texts (path terms count twice, so a file named for the concept ranks with it). Pure. */
export function bm25(query: string[], docs: { path: string; text: string }[], total = docs.length): Scored[] {
  return bm25Counted(query, docs.map((d) => countTerms(d.path, d.text)), total);
}

/**
 * Reciprocal-rank fusion of several rankings (path words, contents, symbols, imports), each with a
 * weight: robust to their different score scales. Returns 0..1 relevance by fused rank. Pure.
 */
export function fuse(lists: { ranking: string[]; weight: number }[], k = 20): Scored[] {
  const score = new Map<string, number>();
  for (const { ranking, weight } of lists) ranking.forEach((p, i) => score.set(p, (score.get(p) ?? 0) + weight / (k + i + 1)));
  const best = Math.max(0, ...score.values());
  return [...score.entries()].map(([path, s]) => ({ path, score: best ? s / best : 0 })).sort((a, b) => b.score - a.score || byCodePoint(a.path, b.path));
}

/** Commits that touch more files than this (an import, a reformat, a rename sweep) say nothing about where work happens. */
const SWEEP = 30;

/**
 * Where a repository's work has been lately, from `git log --name-only --format=%x00` (newest
 * first): files changed in at least two commits, each commit weighted by how recent it is, busiest
 * first. A fix tends to land where the last changes did; a task that names nothing points nowhere
 * else. Pure.
 */
export function activeFiles(log: string): { path: string; commits: number; weight: number }[] {
  const commits = log.split("\0").map((c) => c.split("\n").filter(Boolean));
  const seen = new Map<string, { commits: number; weight: number }>();
  commits.forEach((files, i) => {
    if (files.length === 0 || files.length > SWEEP) return;
    for (const f of files) {
      const e = seen.get(f) ?? { commits: 0, weight: 0 };
      e.commits++;
      e.weight += 1 / (1 + i / 50);
      seen.set(f, e);
    }
  });
  return [...seen]
    .filter(([, e]) => e.commits >= 2)
    .map(([path, e]) => ({ path, ...e }))
    .sort((a, b) => b.weight - a.weight || byCodePoint(a.path, b.path));
}

/** Whether a task is about tests, a failure, the build or the checks: then their commands and test files belong in its context. Pure. */
export function aboutChecks(task: string): boolean {
  return /\b(?:tests?|testing|specs|failing|fails?|failed|failures?|broken|builds?|compiles?|compilation|lint|typecheck|type errors?|ci|checks?)\b/i.test(task);
}

/** Orders strings by code point: stable on every machine (no locale), and much cheaper than localeCompare. Pure. */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
