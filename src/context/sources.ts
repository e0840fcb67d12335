import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ContextChunk, FloorReason } from "../core/chunk.ts";
import { tokensOf } from "../core/chunk.ts";
import { cutLine } from "../core/text-fit.ts";
import { headText, holdsKeyMaterial, INSTRUCTION_FILES, PathRefused, resolveInWorkspace } from "../workspace/containment.ts";
import { hashWithHead } from "../workspace/ledger.ts";
import { gitOutput, repositoryPrefix } from "../workspace/git.ts";
import { type Review, reviewHolds } from "../store/reviews.ts";
import { detectChecks } from "../workspace/checks.ts";
import { looksBinary, walk, WalkCache, walkFiles } from "../workspace/walker.ts";
import { jsModule } from "./callers.ts";
import { locate, parseFailureLocations } from "./failures.ts";
import { aboutChecks, TASK_STOPWORDS, byCodePoint } from "./lexical.ts";
import { languageOf, type Outline, outline, outlineText } from "./outline.ts";
import { gitVouched } from "./definitions.ts";
import { activeFiles, bm25Counted, type Counted, countQuery, fuse, generatedGlobs, isGenerated, termsOf } from "./lexical.ts";
import { firstLines, type Focus, rankedRegions, type Region, regionView } from "./regions.ts";
import { loadRules, ruleApplies } from "./rules.ts";

/**
 * What one process remembers about a workspace between compiles: the walk and each file's parsed
 * outline, revalidated by mtime and size. A warm compile re-reads only what changed.
 */
export class ContextIndex {
  readonly files = new Map<string, { mtime: number; size: number; info: FileInfo | undefined }>();
  /** Raw bytes of files read as text, revalidated the same way (no parse); the text is decoded when asked for. */
  readonly texts = new Map<string, TextEntry>();
  /**
   * The content ranking's counts of each file, for the query terms they were counted for,
   * revalidated the same way. The ranking reads every source file: it keeps their counts, not their
   * bytes, so a run's memory does not grow with the repository.
   */
  readonly counts = new Map<string, { mtime: number; size: number; terms: string; counted: Counted | undefined }>();

  /**
   * The tests checks saw fail, then pass once one of these source files changed (store/test-links.ts);
   * absent where nothing is recorded. The test map adds them to what naming and imports find.
   */
  tested?: (sources: readonly string[]) => string[];

  /** The stored reviews of these files (store/reviews.ts); absent where none can be read. */
  reviewed?: (paths: readonly string[]) => Review[];

  /** The files the newest compile walked: the work state maps tests over them rather than walking again. */
  walked: string[] | undefined;

  /**
   * Told, at each compile's walk and before anything is rendered, the files whose names say they
   * hold secrets at any depth (ignored ones too): the runtime learns their values to remove them.
   */
  secretFiles?: (files: readonly string[]) => void;

  /**
   * The files the symbol index says define any of these names, unchanged since it read them
   * (context/definitions.ts); absent where no index was built. The symbol search reads them first.
   */
  definers: ((names: string[]) => string[]) | undefined;

  /**
   * Of the given files, those that may name any of these names, by the symbol index's word filters
   * (context/definitions.ts `indexedNamers`); absent where no index was built. The symbol search
   * reads only these of its path-ranked files, and the test map, where imports do not decide, of
   * its tests. `vouched` spares the stat of each file git vouches for (`Gathered.vouched`).
   */
  namers: ((names: string[], files: readonly string[], vouched?: ReadonlyMap<string, string>) => Set<string>) | undefined;

  /**
   * Of the given files, those that may call any of these names defined in `target`, by the symbol
   * index's import graph and word filters (context/definitions.ts `indexedCallers`); absent where no
   * index was built. Caller resolution reads only these.
   */
  callers: ((target: string, names: readonly string[], files: readonly string[], vouched?: ReadonlyMap<string, string>) => Set<string>) | undefined;

  /**
   * Of the given files, those that may import any of these targets, by the symbol index's import
   * graph (context/definitions.ts `indexedImporters`); absent where no index was built, undefined
   * where imports do not decide. The test map reads only these for imports.
   */
  importers: ((targets: readonly string[], files: readonly string[], vouched?: ReadonlyMap<string, string>) => Set<string> | undefined) | undefined;

  private restored: WalkCache | (() => WalkCache);

  /** `walk` may be a loader: a run's git questions then start before the last run's walk is parsed. */
  constructor(walk: WalkCache | (() => WalkCache) = new WalkCache()) {
    this.restored = walk;
  }

  /** The walk, remembered between compiles (and, restored from workspace/walks.ts, between runs). */
  get walk(): WalkCache {
    if (typeof this.restored === "function") this.restored = this.restored();
    return this.restored;
  }
}

/** Agent instructions anywhere reach the model as rules, never again as files (they are still ranked, so the scores of the rest stay as they were). */
const instructs = (path: string): boolean => INSTRUCTION_FILES.has(path.slice(path.lastIndexOf("/") + 1));

/** Files the content ranking reads at most, shallow paths first: bounds a compile on a huge tree. */
const CONTENT_FILES = 2_000;
const TEXT_EXT =
  /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|cc|cpp|h|hpp|swift|scala|lua|sh|md|rst|txt|toml|ya?ml|json|vue|svelte|ex|exs|erl|hs|ml|clj|sql)$/i;
/** Data and documents: under a test directory they are the tests' fixtures, expected outputs and snapshots, not tests. */
const DATA_EXT = /\.(?:json|jsonl|ya?ml|toml|xml|csv|tsv|txt|md|rst|proto|snap|html?|svg|ini|cfg|conf|properties|sql|graphql|gql|log|in|out|expected|golden)$/i;

/** A file's text for ranking: cached by mtime and size, binary and oversized files skipped. */
export function textOf(root: string, rel: string, index: ContextIndex | undefined): string | undefined {
  return decoded(entryOf(join(root, rel), index));
}

/** An entry's text, decoded once. */
function decoded(e: TextEntry | undefined): string | undefined {
  if (e?.bytes === undefined) return undefined;
  e.text ??= e.bytes.toString("utf8");
  return e.text;
}

type TextEntry = { mtime: number; size: number; bytes: Buffer | undefined; text?: string };

/** One buffer every sweep of the workspace reads into, so the files it passes over leave nothing behind. */
const SCRATCH = Buffer.allocUnsafe(200_000);

/**
 * Calls `use` with a lazy view of a regular file's bytes, read into SCRATCH (undefined when binary or
 * holding key material) and its stat; the view is valid only during the call. Undefined for a file
 * that is missing, not regular or over 200,000 bytes.
 */
function withBytes<T>(abs: string, use: (bytes: () => Buffer | undefined, st: { mtimeMs: number; size: number }) => T): T | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(abs, "r");
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > SCRATCH.length) return undefined;
    let view: Buffer | undefined | null = null;
    const bytes = () => {
      if (view === null) {
        const b = SCRATCH.subarray(0, readSync(fd!, SCRATCH, 0, st.size, 0));
        view = looksBinary(b) || holdsKeyMaterial(b) ? undefined : b;
      }
      return view;
    };
    return use(bytes, st);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A file's text, as `textOf` gives it, when it holds one of `words` as written; undefined, with
 * nothing kept, when it holds none. For sweeps over the whole workspace (every file that might call
 * a symbol): only the files that name it are decoded and kept.
 */
export function textNaming(root: string, rel: string, words: readonly string[], index: ContextIndex | undefined): string | undefined {
  return decoded(entryOf(join(root, rel), index, (bytes) => words.some((w) => bytes.includes(w))));
}

/**
 * A file's entry in the index, revalidated by mtime and size; else read once, its bytes copied out
 * of SCRATCH and kept. A file `keep` turns down (it names none of what a sweep looks for) is neither
 * decoded nor kept.
 */
function entryOf(abs: string, index: ContextIndex | undefined, keep?: (bytes: Buffer) => boolean): TextEntry | undefined {
  return withBytes(abs, (bytes, st) => {
    const hit = index?.texts.get(abs);
    if (hit && hit.mtime === st.mtimeMs && hit.size === st.size) return hit;
    const text = bytes();
    if (text && keep && !keep(text)) return undefined;
    const entry: TextEntry = { mtime: st.mtimeMs, size: st.size, bytes: text && Buffer.from(text) };
    index?.texts.set(abs, entry);
    return entry;
  });
}

/** Candidate sources for a goal in a workspace: everything the compiler may choose from, with provenance. */
export interface GatherOptions {
  home: string;
  /** Extra text to mine for failure locations (recent test output). */
  failureText?: string;
  /** Paths weir edited or is about to edit, with the SHA it last saw. */
  editTargets?: { path: string; sha: string }[];
  /** How many word matches become candidates (40): a larger budget shows the lower ones as pointers. */
  maxLexical?: number;
  /** Kept across compiles in one process (the loop, a benchmark); absent for a one-off compile. */
  index?: ContextIndex;
  /** Files above this size are summarised, not read whole. */
  maxFileBytes?: number;
  /** weir's user config directory: its AGENTS.md applies to every workspace. */
  userDir?: string;
  /** A worker's scope: files it may not read are not candidates at all (rules still apply). */
  allow?: (rel: string) => boolean;
}

export interface Gathered {
  candidates: ContextChunk[];
  targets: string[];
  /** The goal names a path, a symbol, a failure or the checks, or says enough to search by (three words of its own). */
  namesSomething: boolean;
  head?: string;
  filesWalked: number;
  refused: { path: string; reason: string }[];
  /** Every path git status lists as changed or untracked (the work state's dirty files). */
  worktreeChanges: string[];
  /** Those of them git does not track: a whole read shows all of their change. */
  untracked: string[];
  /**
   * The files git vouched held their staged blob when this gather asked (context/definitions.ts
   * `gitVouched`), where the symbol index is built; true only until a tool runs.
   */
  vouched?: () => ReadonlyMap<string, string>;
}

/** Commits of history read for where work has been lately, and the busiest files named from it. */
const HISTORY_COMMITS = 100;
const ACTIVE_FILES = 15;

/** How many source files a global symbol search may open: bounded so a compile stays fast on large trees. */
const SYMBOL_SEARCH_FILES = 400;

export const goalWords = (goal: string) => [...new Set((goal.toLowerCase().match(/[a-z][a-z0-9_]{2,}/g) ?? []).filter((w) => !TASK_STOPWORDS.has(w)))];

/** How many of the goal's words a path contains, as a share: the cheap score used to rank thousands of paths. Pure. */
function pathScore(words: string[], path: string): number {
  if (words.length === 0) return 0;
  const p = path.toLowerCase();
  let n = 0;
  for (const w of words) if (p.includes(w)) n++;
  return n / words.length;
}

/** Lexical relevance of a path and a text sample to the goal's words, 0..1. Pure. */
function lexicalScore(words: string[], path: string, sample: string): { score: number; reasons: string[] } {
  if (words.length === 0) return { score: 0, reasons: [] };
  const p = path.toLowerCase();
  const s = sample.toLowerCase();
  const inPath = words.filter((w) => p.includes(w));
  const inText = words.filter((w) => !inPath.includes(w) && s.includes(w));
  const score = Math.min(1, (inPath.length * 1.0 + inText.length * 0.5) / words.length);
  const reasons = [...(inPath.length ? [`path matches ${inPath.join(", ")}`] : []), ...(inText.length ? [`mentions ${inText.slice(0, 4).join(", ")}`] : [])];
  return { score, reasons };
}

const git = gitOutput;

// A path's characters: ASCII word characters and letters of other scripts ("café.js", "文档/说明.md"),
// not the typographic punctuation and symbols between them (U+2000–U+2FFF).
const NAME = String.raw`\w\u00C0-\u1FFF\u3000-\uD7FF\uF900-\uFFEF@.+-`;
const FILE_PATH = String.raw`(?:\.{0,2}\/)?[${NAME}]+(?:\/[${NAME}]+)*\.[A-Za-z0-9]{1,8}`;
const DIR_PATH = String.raw`(?:\.{0,2}\/)?[${NAME}]+\/[/${NAME}]*`;
// A path ends at a space, a quote or bracket, a comma or colon, or a sentence's last mark ("in src/a.ts?").
const AROUND = [String.raw`(?:^|[\s\`'"(])(`, String.raw`)(?=$|[\s\`'"),:;]|[.?!](?:\s|$))`];

/** Path-like words in text (a task, a goal): files, and with `directories` also `dir/` words. Pure. */
export function pathsIn(text: string, directories = false): string[] {
  const re = new RegExp(`${AROUND[0]}${directories ? `${FILE_PATH}|${DIR_PATH}` : FILE_PATH}${AROUND[1]}`, "g");
  // `@src/a.ts` is a mention (the REPL completes them): the path is what follows the @ (a real
  // path that starts with @, like @types/node/index.d.ts, is kept too).
  return [...text.matchAll(re)].flatMap((m) => {
    const p = m[1]!.replace(/^\.\//, "");
    return p.startsWith("@") && !p.slice(1).startsWith("@") ? [p.slice(1).replace(/^\.\//, ""), p] : [p];
  });
}

/**
 * Whether a path-like word of a goal is a dotted name in code (`Command.Context`, `res.cookie`,
 * `os.path`) rather than a path: no slash, identifier parts, the last of three characters or more,
 * not a file, not a host name, and an extension no file of the workspace has and no text file
 * would. Pure.
 */
export function dottedName(word: string, files: ReadonlySet<string>): boolean {
  if (word.includes("/") || files.has(word) || TEXT_EXT.test(word)) return false;
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(word)) return false;
  const ext = word.slice(word.lastIndexOf("."));
  // A host name ("api.example.com") is no code either.
  if (ext.length < 4 || /^\.(?:com|org|net|dev|app|edu|gov|info)$/i.test(ext)) return false;
  for (const f of files) if (f.endsWith(ext)) return false;
  return true;
}

/**
 * The entries of `git status --porcelain=v1 -z`: each path as it is on disk (no quoting, so "café.py"
 * stays itself), a rename or copy by its new path (the old one follows it and is skipped). Pure.
 */
export function statusEntries(z: string, prefix = ""): { untracked: boolean; path: string }[] {
  const out: { untracked: boolean; path: string }[] = [];
  const parts = z.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i]!;
    if (e.length < 4) continue;
    // git names paths from the repository's top; a workspace below it keeps its own, relative to it.
    if (e.slice(3).startsWith(prefix)) out.push({ untracked: e.startsWith("??"), path: e.slice(3 + prefix.length) });
    if (/[RC]/.test(e.slice(0, 2))) i++;
  }
  return out;
}

/** Where the JVM, .NET, PHP and Swift name a test after its class: `CalcTest.java`, `CalcTests.cs`. */
const CLASS_TEST_EXT = "java|kt|scala|groovy|cs|fs|vb|php|swift";
/** Test files by the lower-case conventions: tests/, *.test.*, *_spec.rb, test_*.py, spec_*.rb, *_test.go. */
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec)(?:\/|\.[a-z]+$)|[._-](?:test|spec)s?\.[a-z]+$|(?:^|\/)(?:test|spec)_[^/]+\.(?:py|rb)$|_test\.(?:go|py|rb|exs)$/i;
/** ...and the case-sensitive ones: `CalcTest.java`, `CalcIT.java`, `CalcSpec.scala`, a .NET test project `Calc.Tests/`. */
const CLASS_TEST_PATH = new RegExp(`[a-z0-9](?:Tests?|Spec|IT)\\.(?:${CLASS_TEST_EXT})$|\\w\\.(?:Unit|Integration|Functional)?Tests?/`);

/** Whether a path is a test file by the usual conventions of its ecosystem. Pure. */
export const isTestPath = (p: string): boolean => TEST_PATH.test(p) || CLASS_TEST_PATH.test(p);
/** Symbol-like words: `quoted`, camelCase, PascalCase with an inner capital, ACRONYMWords (ASGITransport, HTTPError), snake_case. */
const SYMBOLISH = /`([A-Za-z_][\w.]*)`|\b([a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}[a-z]\w*|[a-z]+_[a-z_]+\w*)\b/g;

function chunk(p: Partial<ContextChunk> & Pick<ContextChunk, "id" | "kind" | "source" | "content">): ContextChunk {
  return {
    revision: {},
    scope: p.source,
    freshness: "current",
    sensitivity: "normal",
    trust: "untrusted",
    relevance: { score: 0, reasons: [] },
    precision: "exact",
    ...p,
    cost: { full: tokensOf(p.content.full), summary: tokensOf(p.content.summary), one_line: tokensOf(p.content.one_line) },
  };
}

/**
 * The paths whose changes a diff's text shows whole: each `diff --git` section that no cut runs
 * through (the working set's own cut, or an output cap's). Pure.
 */
export function diffShows(diff: string): string[] {
  const shown: string[] = [];
  for (const section of diff.split(/^(?=diff --git )/m)) {
    const m = section.match(/^diff --git a\/(.+?) b\//);
    if (m && !section.includes(DIFF_CUT) && !section.includes("bytes cut")) shown.push(m[1]!);
  }
  return shown;
}

/** The note that ends a diff the working set shows only in part. */
const DIFF_CUT = "[diff cut; run git diff for the rest]";

/** `git diff --stat` computed from the diff itself: one line per file with lines added and removed. Pure. */
function diffStat(diff: string): string {
  const rows: string[] = [];
  let file = "";
  let add = 0;
  let del = 0;
  const flush = () => file && rows.push(`${file} | +${add} -${del}`);
  for (const l of diff.split("\n")) {
    const m = l.match(/^diff --git a\/(.+?) b\//);
    if (m) {
      flush();
      file = m[1]!;
      add = del = 0;
    } else if (l.startsWith("+") && !l.startsWith("+++")) add++;
    else if (l.startsWith("-") && !l.startsWith("---")) del++;
  }
  flush();
  return rows.join("\n");
}

/** BM25 of the contents of `sources` (no tests) for the query terms, reading at most CONTENT_FILES files (shallow first). */
function contentRanking(root: string, sources: string[], query: string[], index: ContextIndex | undefined) {
  if (query.length === 0) return [];
  const pool = sources
    .filter((f) => TEXT_EXT.test(f))
    .map((f) => ({ f, depth: f.split("/").length }))
    .sort((a, b) => a.depth - b.depth || byCodePoint(a.f, b.f))
    .slice(0, CONTENT_FILES)
    .map((x) => x.f);
  const wanted = [...new Set(query)];
  const docs: Counted[] = [];
  const key = wanted.join("\0");
  for (const f of pool) {
    const abs = join(root, f);
    const hit = index?.counts.get(abs);
    const c = withBytes(abs, (bytes, st) => {
      if (hit && hit.mtime === st.mtimeMs && hit.size === st.size && hit.terms === key) return hit.counted;
      const counted = bytes() === undefined ? undefined : countQuery(f, bytes()!, wanted);
      index?.counts.set(abs, { mtime: st.mtimeMs, size: st.size, terms: key, counted });
      return counted;
    });
    if (c?.tf.size) docs.push(c);
  }
  return bm25Counted(wanted, docs, pool.length);
}

/**
 * Test files for a target by naming convention: foo.test.ts, foo.spec.js, test_foo.py, spec_foo.rb,
 * foo_test.go, tests/foo.rs, and, case-sensitive (so `Contest.java` is no test of `Con.java`),
 * FooTest.java, FooTests.cs, FooIT.java, FooSpec.scala (ScalaTest, Spock, Kotest), TestFoo.java. Pure.
 */
export function testNamesFor(path: string): { test(candidate: string): boolean } {
  const base = path.split("/").pop()!.replace(/\.[^.]+$/, "");
  const esc = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const lower = new RegExp(
    `(?:^|/)(?:${esc}[._-](?:test|spec)s?\\.[a-z]+|(?:test|spec)_${esc}\\.(?:py|rb)|${esc}_test\\.(?:go|py|rb|exs)|tests?/${esc}\\.[a-z]+)$`,
    "i",
  );
  const named = new RegExp(`(?:^|/)(?:${esc}(?:Tests?|Spec|IT)|Test${esc})\\.(?:${CLASS_TEST_EXT})$`);
  return { test: (candidate) => lower.test(candidate) || named.test(candidate) };
}

/** Directory names that say "tests live here" and nothing of what is tested. Data. */
const TEST_DIRS = new Set(["test", "tests", "spec", "specs", "__tests__"]);

/**
 * How near a test file is to a source file: the directory names they end in alike once test
 * directories are set aside (`src/test/java/a/b` against `src/main/java/a/b` ends in `java/a/b`),
 * then how many directory names they share. Pure.
 */
function nearness(source: string, test: string): [number, number] {
  const dirs = (p: string) => p.split("/").slice(0, -1).filter((d) => !TEST_DIRS.has(d.toLowerCase()));
  const a = dirs(source);
  const b = dirs(test);
  let tail = 0;
  while (tail < a.length && tail < b.length && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const inB = new Set(b);
  return [tail, a.filter((d) => inB.has(d)).length];
}

/**
 * The test files named for a source file (`testNamesFor`) nearest it: a repository with
 * `sum.test.js` in six modules tests `app/ledger/sum.js` with the one in `app/ledger/`. Kept: every
 * match as near as the nearest, and those in folders below a nearest one's (gson's
 * `functional/JsonParserTest.java` beside `JsonParserTest.java`); a lone match whatever its distance. Pure.
 */
export function namedTestsOf(source: string, candidates: readonly string[]): string[] {
  const re = testNamesFor(source);
  const named = candidates.filter((c) => c !== source && re.test(c)).map((c) => ({ c, n: nearness(source, c) }));
  const best = named.reduce<[number, number]>((m, x) => (x.n[0] > m[0] || (x.n[0] === m[0] && x.n[1] > m[1]) ? x.n : m), [-1, -1]);
  const dir = (p: string) => p.slice(0, p.lastIndexOf("/") + 1);
  const nearest = named.filter((x) => x.n[0] === best[0] && x.n[1] === best[1]).map((x) => dir(x.c));
  return named.filter((x) => nearest.some((d) => dir(x.c).startsWith(d))).map((x) => x.c);
}

interface FileInfo {
  rel: string;
  text: string;
  sha: string;
  lines: number;
  outline?: Outline;
}

async function readInfo(root: string, rel: string, home: string, maxBytes: number, index?: ContextIndex): Promise<FileInfo | { refused: string } | undefined> {
  let abs: string;
  let st;
  try {
    const r = resolveInWorkspace(root, rel, { home });
    if (!r.exists) return undefined;
    abs = r.absolute;
    st = statSync(abs);
    if (st.isDirectory()) return undefined;
  } catch (e) {
    if (e instanceof PathRefused) return { refused: e.message };
    return undefined;
  }
  const hit = index?.files.get(abs);
  if (hit && hit.mtime === st.mtimeMs && hit.size === st.size) return hit.info;
  let info: FileInfo | undefined;
  try {
    info = await readFresh(abs, rel, maxBytes);
  } catch (e) {
    // One file the operating system will not let weir read (chmod 000) is skipped with a note; the rest compiles.
    const code = (e as NodeJS.ErrnoException).code;
    return { refused: `${rel} could not be read (${code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? "an error")}); it was skipped` };
  }
  index?.files.set(abs, { mtime: st.mtimeMs, size: st.size, info });
  return info;
}

async function readFresh(abs: string, rel: string, maxBytes: number): Promise<FileInfo | undefined> {
  // Only the head is kept: a file over maxBytes is summarised from it, whatever its size.
  const { head, sha } = hashWithHead(abs, maxBytes);
  if (looksBinary(head) || holdsKeyMaterial(head)) return undefined;
  const text = head.toString("utf8");
  const o = languageOf(rel) ? await outline(rel, text).catch(() => undefined) : undefined;
  return { rel, text, sha, lines: text.split("\n").length, ...(o ? { outline: o } : {}) };
}

/** Lines of a file shown whole. A longer one is shown by the regions the task points at, or by its head where it points at none. */
const WHOLE_LINES = 400;
/** The lines of regions a long file shows inlined in its outline: at the full level, and at the summary level. */
const REGION_LINES = { full: 250, summary: 40 };

function fileChunk(
  f: FileInfo,
  head: string | undefined,
  floor: FloorReason | undefined,
  relevance: { score: number; reasons: string[] },
  kind: ContextChunk["kind"] = "file_range",
  focus: Focus = { names: [], terms: [] },
): ContextChunk {
  const lines = f.text.split("\n");
  const names = f.outline?.symbols.filter((s) => !s.parent).map((s) => s.name) ?? [];
  // One ranking serves both levels: the summary's regions are the first the full level's are.
  const ranked = lines.length > WHOLE_LINES ? rankedRegions(f.text, focus, REGION_LINES.full, f.outline) : [];
  const [wide, near] = [firstLines(ranked, REGION_LINES.full), firstLines(ranked, REGION_LINES.summary)];
  const hasOutline = f.outline !== undefined && f.outline.symbols.length > 0;
  const inRegions = (rs: Region[]) =>
    `${hasOutline ? "outline of " : ""}${f.rel} (${f.lines} lines), with the lines the task points at:\n${regionView(lines, rs, f.outline)}`;
  const unshown = lines.length - wide.reduce((n, r) => n + r.end - r.start + 1, 0);
  const opening = (n: number) => lines.slice(0, n).map(cutLine).join("\n");
  const full =
    lines.length <= WHOLE_LINES
      ? f.text
      : wide.length
        ? `${inRegions(wide)}\n[... ${unshown} more lines; read_file ${f.rel} for the rest]`
        : `${opening(WHOLE_LINES)}\n[... ${lines.length - WHOLE_LINES} more lines; read_file ${f.rel} with offset ${WHOLE_LINES + 1}]`;
  const summary = near.length
    ? inRegions(near)
    : hasOutline
      ? `outline of ${f.rel} (${f.lines} lines):\n${outlineText(f.outline!)}`
      : `${opening(12)}\n[... ${Math.max(0, lines.length - 12)} more lines]`;
  return chunk({
    id: `file:${f.rel}`,
    kind,
    source: f.rel,
    // A range where the full level shows lines in a row, else the regions it shows.
    ...(wide.length ? { shows: wide } : { range: { start: 1, end: Math.min(lines.length, WHOLE_LINES) } }),
    revision: { sha: f.sha, ...(head ? { head } : {}) },
    content: {
      full,
      summary,
      one_line: `${f.rel} (${f.lines} lines${names.length ? `; ${names.slice(0, 6).join(", ")}${names.length > 6 ? ", ..." : ""}` : ""})`,
    },
    relevance,
    precision: f.outline ? "syntax" : "exact",
    ...(floor ? { floor } : {}),
  });
}

/** Bytes over which a changed file is shown by its diff, not whole in the floor. */
const LARGE_CHANGE = 64_000;

const sizeOf = (root: string, rel: string): number => {
  try {
    return statSync(join(root, rel)).size;
  } catch {
    return 0; // gone since git listed it
  }
};

const humanSize = (bytes: number): string =>
  bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;

/** Untracked paths with their sizes: a pointer the model can follow with read_file, never their bytes. */
function untrackedChunk(root: string, paths: string[]): ContextChunk {
  const rows = paths.map((p) => (p.endsWith("/") ? `${p} (a directory)` : `${p} (${humanSize(sizeOf(root, p))})`));
  return chunk({
    id: "git:untracked",
    kind: "diff",
    source: "git status",
    relevance: { score: 0.5, reasons: ["untracked files"] },
    content: {
      full: `untracked, not in git: ${rows.join(", ")}`,
      summary: `untracked: ${rows.slice(0, 8).join(", ")}`,
      one_line: `${paths.length} untracked file(s)`,
    },
  });
}

/**
 * For a task about tests or the build: the project's checks (as weir detected them, the commands
 * `verify` runs), and the test files most like the task's words with the files they import.
 */
async function checkCandidates(
  root: string,
  words: string[],
  testLike: string[],
  fileSet: Set<string>,
  targets: Map<string, FloorReason>,
  info: FileReader,
  head: string | undefined,
): Promise<ContextChunk[]> {
  const out: ContextChunk[] = [];
  const checks = detectChecks(root);
  if (checks.length) {
    const line = (level: string) =>
      checks
        .filter((c) => c.level === level)
        .map((c) => c.name)
        .join(", ");
    const full = [`The project's checks (verify runs them): quick: ${line("quick") || "none"}`, line("full") ? `full: ${line("full")}` : ""]
      .filter(Boolean)
      .join("; ");
    out.push(
      chunk({
        id: "checks",
        kind: "checks",
        source: "project checks",
        trust: "trusted",
        relevance: { score: 1, reasons: ["the task is about tests or the build"] },
        content: { full, summary: full, one_line: full },
      }),
    );
  }
  const ranked = testLike
    .filter((f) => !targets.has(f) && !DATA_EXT.test(f))
    .map((f) => ({ f, s: pathScore(words, f) }))
    .sort((a, b) => b.s - a.s || a.f.length - b.f.length || byCodePoint(a.f, b.f))
    .slice(0, 3);
  for (const { f } of ranked) {
    const fi = await info.read(f);
    if (!fi) continue;
    out.push(fileChunk(fi, head, undefined, { score: 0.85, reasons: ["a test, for a task about tests or the build"] }, "test", info.focus));
    for (const spec of fi.outline?.imports ?? []) {
      const imported = jsModule(f, spec, fileSet);
      const ii = imported && !targets.has(imported) ? await info.read(imported) : undefined;
      if (ii) out.push(fileChunk(ii, head, undefined, { score: 0.8, reasons: [`imported by ${f}`] }, "file_range", info.focus));
    }
  }
  return out;
}

/** Gathers the candidates for a goal. I/O at the edge: the walk, git, reads; everything after is pure. */
export async function gatherCandidates(root: string, goal: string, o: GatherOptions): Promise<Gathered> {
  const content = { full: goal, summary: goal, one_line: goal.split("\n")[0]! };
  const task = chunk({
    id: "task",
    kind: "task",
    source: "task",
    trust: "trusted",
    floor: "task",
    relevance: { score: 1, reasons: ["the user's task"] },
    content,
  });
  const candidates: ContextChunk[] = [task];
  const refused: Gathered["refused"] = [];
  // git runs while the tree is walked and ranked; where the symbol index is built, git is asked
  // what it vouches for too (a stat of every indexed file costs more than the question).
  const asked = askGit(root, goal, o.index?.namers !== undefined);
  const { fileSet, files } = candidateFiles(root, o);
  const named = namedInGoal(root, goal, fileSet, o, refused);
  const { words, symbols, targets, failures } = named;
  // The path test once per file: the rankings read the source files, the test map the tests.
  const testLike: string[] = [];
  const sources: string[] = [];
  for (const f of files) (isTestPath(f) ? testLike : sources).push(f);
  const ranked = lexicalRanking(root, sources, named, o);
  const tree = await worktree(root, asked, fileSet, targets);
  if (tree.untracked.length) candidates.push(untrackedChunk(root, tree.untracked));
  // Only what both questions answered (a status that failed would vouch for every changed file),
  // read when a narrowing first asks.
  const [stage, status] = [await asked.stage, await asked.status];
  let vouchedFiles: Map<string, string> | undefined;
  const vouched = stage !== undefined && status !== undefined ? () => (vouchedFiles ??= gitVouched(stage, tree.entries.map((e) => e.path))) : undefined;
  const indexNamers = o.index?.namers;
  const namers = indexNamers && ((n: string[], f: readonly string[]) => indexNamers(n, f, vouched?.()));
  const indexImporters = o.index?.importers;
  const importers = indexImporters && ((t: readonly string[], f: readonly string[]) => indexImporters(t, f, vouched?.()));
  const focus = { names: named.symbols.map((n) => n.split(".").pop()!), terms: [...new Set(termsOf(`${named.unpathed} ${named.symbols.join(" ")}`))] };
  const info = fileReader(root, o, refused, focus);
  const defining = await symbolDefiners(symbols, targets, files, fileSet, words, info, o, namers);
  // The files that define a named symbol are targets, but not the floor: the person named the
  // symbol, not the file, and a name defined in five files must not take the budget whole. They
  // come first among the rest, in the order the search found them.
  const targetList = [...targets.keys(), ...defining];
  const isTarget = new Set(targetList);
  candidates.push(...(await targetChunks(targets, defining, symbols, info, tree.head)));
  candidates.push(...failureChunks(failures, info, tree.head), ...(await diffChunk(tree)));
  if (aboutChecks(goal)) candidates.push(...(await checkCandidates(root, words, testLike, fileSet, targets, info, tree.head)));
  const mapped = await mappedTests(root, targetList, testLike, fileSet, info, namers, importers);
  // Tests a check saw fail, then pass once a target changed: found where naming and imports are not.
  const tested = targetList.length ? (o.index?.tested?.(targetList) ?? []) : [];
  const recorded = new Set(tested.filter((t) => fileSet.has(t) && !isTarget.has(t) && !mapped.has(t)));
  for (const t of recorded) mapped.add(t);
  for (const f of [...mapped].slice(0, 10)) {
    const fi = await info.read(f);
    const why = recorded.has(f) ? "a check saw it fail, then pass once a target changed" : "tests a target";
    if (fi) candidates.push(fileChunk(fi, tree.head, undefined, { score: 0.9, reasons: [why] }, "test", info.focus));
  }
  candidates.push(...(await reviewChunks(targetList, info, o.index?.reviewed)));
  const related = await relatedChunks(targetList, isTarget, mapped, ranked, words, fileSet, info, tree.head);
  candidates.push(...related.chunks);
  const shown = new Set([...isTarget, ...mapped, ...related.neighbours, ...ranked.lexical]);
  candidates.push(...(await activeChunks(files, shown, named, asked, info, tree.head)));
  candidates.push(...ruleChunks(root, goal, targetList, o, refused));
  const namesTarget = [...targets.values()].some((r) => r === "user_named" || r === "failure_location");
  const namesSomething = namesTarget || aboutChecks(goal) || words.length >= 3;
  const worktreeChanges = tree.entries.map((e) => e.path);
  const untracked = tree.entries.filter((e) => e.untracked).map((e) => e.path);
  const head = tree.head ? { head: tree.head } : {};
  const git = { ...head, ...(vouched ? { vouched } : {}) };
  return { candidates, targets: targetList, namesSomething, ...git, filesWalked: files.length, refused, worktreeChanges, untracked };
}

/** The git questions a gather asks, started at once so they run while the tree is walked. */
interface GitAsked {
  head: Promise<string | undefined>;
  status: Promise<string | undefined>;
  history: Promise<string | undefined>;
  /** The index's entries with their flags (`git ls-files -s -v`), where asked. */
  stage?: Promise<string | undefined>;
  /** The workspace's path below its repository's top ("" at the top). */
  prefix: string;
}

function askGit(root: string, goal: string, vouch: boolean): GitAsked {
  // Below a repository's top, git is asked about the workspace's paths alone, named relative to it.
  const prefix = repositoryPrefix(root);
  const onlyHere = prefix ? ["--", "."] : [];
  // Recent history serves only a task with words or symbols of its own (below): "hi" or "thanks"
  // spawns no git log. The goal's words before paths are taken out are a superset of those.
  const mayUseHistory = goalWords(goal).length > 0 || goal.search(SYMBOLISH) !== -1;
  const log = ["log", "-n", String(HISTORY_COMMITS), "--no-renames", "--name-only", "--format=%x00", ...(prefix ? ["--relative"] : []), "HEAD", ...onlyHere];
  return {
    head: git(root, ["rev-parse", "HEAD"]),
    status: git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=normal", ...onlyHere]),
    history: mayUseHistory ? git(root, log) : Promise.resolve(undefined),
    ...(vouch ? { stage: git(root, ["ls-files", "-s", "-v", "-z"]) } : {}),
    prefix,
  };
}

/** The workspace's files, and those that may be candidates: generated, vendored and agents' own files aside. */
function candidateFiles(root: string, o: GatherOptions): { fileSet: Set<string>; files: string[] } {
  const secrets: string[] = [];
  const all = o.index ? walkFiles(root, o.index.walk, secrets) : Array.from(walk(root), (e) => e.path);
  if (o.index) o.index.walked = all;
  o.index?.secretFiles?.(secrets);
  const walked = o.allow ? all.filter(o.allow) : all;
  const fileSet = new Set(walked);
  // Generated, vendored and bundled files are never candidates unless the task names them.
  const attrs = fileSet.has(".gitattributes") ? generatedGlobs(textOf(root, ".gitattributes", o.index) ?? "").map((g) => new Bun.Glob(g)) : [];
  // Agents' own configuration (rules, commands, skills) reaches the model by its own paths, not as code.
  const files = walked.filter((f) => !isGenerated(f) && !attrs.some((g) => g.match(f)) && !/^\.(?:weir|claude)\//.test(f));
  return { fileSet, files };
}

/** What the goal names: paths (targets, or refused), failure locations, symbols, and its own words. */
interface Named {
  /** The goal with the paths it names taken out: their pieces ("txt", "src") would match every path like them. */
  unpathed: string;
  words: string[];
  symbols: string[];
  targets: Map<string, FloorReason>;
  failures: { path: string; line: number; message: string }[];
}

function namedInGoal(root: string, goal: string, fileSet: Set<string>, o: GatherOptions, refused: Gathered["refused"]): Named {
  // A dotted name that is no file ("Command.Context", "res.cookie") is code the goal names: its
  // words are searched for and its last part is a symbol. Every other path-like word is a path.
  const pathLike = pathsIn(goal, true);
  const dotted = pathLike.filter((p) => dottedName(p, fileSet));
  const paths = pathLike.filter((p) => !dotted.includes(p));
  const unpathed = paths.reduce((g, p) => g.replaceAll(p, " "), goal);
  const targets = new Map<string, FloorReason>();
  for (const raw of paths) {
    const p = raw.replace(/\/$/, "");
    if (fileSet.has(p)) targets.set(p, "user_named");
    else if (/[/.]/.test(p) && !/^https?:/.test(p)) {
      try {
        resolveInWorkspace(root, p, { home: o.home });
      } catch (e) {
        if (e instanceof PathRefused) refused.push({ path: p, reason: e.message });
      }
    }
  }
  for (const t of o.editTargets ?? []) targets.set(t.path, "edit_target");
  // Each reported location at the workspace file it names (a CI machine's path, a JVM frame's package).
  const failures = parseFailureLocations(`${goal}\n${o.failureText ?? ""}`).flatMap((f) => {
    const path = locate(f.path, fileSet);
    return path ? [{ ...f, path }] : [];
  });
  for (const f of failures) if (!targets.has(f.path)) targets.set(f.path, "failure_location");
  // Symbols the goal names: the content ranking searches for them, and their definitions are targets.
  const symbols = [...new Set([...[...goal.matchAll(SYMBOLISH)].map((m) => m[1] ?? m[2]!), ...dotted].filter((s) => s.length > 2))].slice(0, 8);
  return { unpathed, words: goalWords(unpathed), symbols, targets, failures };
}

/** The source files (tests reach the model by mapping to a source) the goal's words match: by path and by contents (BM25), fused. */
function lexicalRanking(
  root: string,
  sources: string[],
  named: Named,
  o: GatherOptions,
): { byContent: string[]; lexical: string[]; fusedScore: Map<string, number> } {
  const byPath = sources
    .map((p) => ({ p, s: pathScore(named.words, p) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || byCodePoint(a.p, b.p))
    .slice(0, 60)
    .map((x) => x.p);
  // Content candidates: BM25 over identifier-split terms of the goal (and its symbols) in file contents.
  const query = termsOf(`${named.unpathed} ${named.symbols.join(" ")}`);
  const byContent = contentRanking(root, sources, query, o.index).slice(0, 60).map((x) => x.path);
  const fused = fuse([
    { ranking: byContent, weight: 1 },
    { ranking: byPath, weight: 0.6 },
  ]);
  const lexical = fused.slice(0, o.maxLexical ?? 40).map((x) => x.path).filter((f) => !instructs(f));
  return { byContent, lexical, fusedScore: new Map(fused.map((x) => [x.path, x.score])) };
}

/** The worktree as git reports it: HEAD, the changed files (targets, unless generated or large) and the untracked ones. */
interface Worktree {
  head: string | undefined;
  entries: { untracked: boolean; path: string }[];
  changed: string[];
  untracked: string[];
  /** The diff of the changed files, asked while files are read. */
  diff: Promise<string | undefined>;
}

async function worktree(root: string, asked: GitAsked, fileSet: Set<string>, targets: Map<string, FloorReason>): Promise<Worktree> {
  const head = (await asked.head)?.trim();
  const entries = statusEntries((await asked.status) ?? "", asked.prefix);
  const changed = entries.filter((e) => !e.untracked && fileSet.has(e.path)).map((e) => e.path).slice(0, 30);
  // A changed bundle or lockfile is in the diff stat, not in the floor: it would crowd out the source.
  // So is a large changed file: the diff shows what changed in it.
  for (const p of changed) if (!targets.has(p) && !isGenerated(p) && sizeOf(root, p) <= LARGE_CHANGE) targets.set(p, "changed");
  // Untracked files are not the user's change to build on: listed with their sizes, never in the floor.
  const untracked = entries.filter((e) => e.untracked).map((e) => e.path).slice(0, 20);
  // Only the changed paths, so git need not stat the whole tree again.
  const diff = changed.length ? git(root, ["diff", "HEAD", "--relative", "--no-color", "--no-ext-diff", "--", ...changed]) : Promise.resolve(undefined);
  return { head: head || undefined, entries, changed, untracked, diff };
}

/** Files read once per gather: a refused one is said once, and read as nothing. */
interface FileReader {
  /** What the goal points at in a file: what its regions are chosen by. */
  focus: Focus;
  read(rel: string): Promise<FileInfo | undefined>;
  /** A file read already. */
  known(rel: string): FileInfo | undefined;
}

function fileReader(root: string, o: GatherOptions, refused: Gathered["refused"], focus: Focus): FileReader {
  const infos = new Map<string, FileInfo>();
  const maxBytes = o.maxFileBytes ?? 200_000;
  return {
    focus,
    known: (rel) => infos.get(rel),
    async read(rel) {
      if (infos.has(rel)) return infos.get(rel);
      const r = await readInfo(root, rel, o.home, maxBytes, o.index);
      if (r && "refused" in r) {
        refused.push({ path: rel, reason: r.refused });
        return undefined;
      }
      if (r) infos.set(rel, r);
      return r;
    },
  };
}

/**
 * The files that define a symbol the goal names, beyond the targets: where the symbol index says
 * first (it reaches past the files searched by path), then source files ranked by path words.
 */
async function symbolDefiners(
  symbols: string[],
  targets: Map<string, FloorReason>,
  files: string[],
  fileSet: Set<string>,
  words: string[],
  info: FileReader,
  o: GatherOptions,
  namers?: (names: string[], files: readonly string[]) => Set<string>,
): Promise<string[]> {
  const defining: string[] = [];
  if (!symbols.length) return defining;
  const wanted = new Set(symbols.map((n) => n.split(".").pop()!));
  const defines = (fi: FileInfo | undefined) => fi?.outline?.symbols.some((sym) => wanted.has(sym.name)) === true;
  for (const t of [...targets.keys()]) if (defines(await info.read(t))) for (const sym of info.known(t)!.outline!.symbols) wanted.delete(sym.name);
  if (!wanted.size) return defining;
  const needle = new RegExp(`\\b(?:${[...wanted].map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
  const indexed = (o.index?.definers?.([...wanted]) ?? []).filter((f) => fileSet.has(f) && languageOf(f));
  const ranked = files
    .filter((f) => languageOf(f))
    .map((f) => ({ f, s: pathScore(words, f) }))
    .sort((a, b) => b.s - a.s || a.f.length - b.f.length || byCodePoint(a.f, b.f))
    .slice(0, SYMBOL_SEARCH_FILES)
    .map((r) => r.f);
  // A file that defines a name names it: one the index's word filter rules out is not read.
  const may = namers?.([...wanted], ranked);
  for (const f of [...new Set([...indexed, ...ranked.filter((f) => !may || may.has(f))])]) {
    const fi = await info.read(f);
    if (!fi || !needle.test(fi.text) || !defines(fi)) continue;
    if (!targets.has(f)) defining.push(f);
    if (targets.size + defining.length > 20) break;
  }
  return defining;
}

/** The targets' chunks, each with why it is one, then the definers', below them. */
async function targetChunks(
  targets: Map<string, FloorReason>,
  defining: string[],
  symbols: string[],
  info: FileReader,
  head: string | undefined,
): Promise<ContextChunk[]> {
  const out: ContextChunk[] = [];
  const WHY: Partial<Record<FloorReason, string>> = {
    user_named: "named in the task",
    changed: "changed in the worktree",
    failure_location: "a failure points here",
  };
  for (const [rel, reason] of targets) {
    const fi = await info.read(rel);
    if (fi) out.push(fileChunk(fi, head, reason, { score: 1, reasons: [WHY[reason] ?? "an edit target"] }, "file_range", info.focus));
  }
  const symbolNames = new Set(symbols.map((n) => n.split(".").pop()!));
  for (const [i, rel] of defining.entries()) {
    const fi = info.known(rel)!;
    const names = [...new Set(fi.outline!.symbols.filter((sym) => symbolNames.has(sym.name)).map((sym) => sym.name))];
    const relevance = { score: Math.max(0.9, 1 - 0.005 * i), reasons: [`defines ${names.slice(0, 3).join(", ")}, named in the task`] };
    out.push(fileChunk(fi, head, undefined, relevance, "file_range", info.focus));
  }
  return out;
}

/** Each failure location with eight lines either side, its line marked. */
function failureChunks(failures: Named["failures"], info: FileReader, head: string | undefined): ContextChunk[] {
  return failures.flatMap((f) => {
    const fi = info.known(f.path);
    if (!fi) return [];
    const lines = fi.text.split("\n");
    const start = Math.max(1, f.line - 8);
    const end = Math.min(lines.length, f.line + 8);
    const body = lines.slice(start - 1, end).map((l, i) => `${start + i}${start + i === f.line ? ">" : " "} ${l}`).join("\n");
    const content = { full: `${f.message}\n${body}`, summary: `${f.path}:${f.line}: ${f.message}`, one_line: `${f.path}:${f.line}` };
    const revision = { sha: fi.sha, ...(head ? { head } : {}) };
    const relevance = { score: 1, reasons: ["failure location"] };
    return [
      chunk({
        id: `failure:${f.path}:${f.line}`,
        kind: "failure",
        source: f.path,
        range: { start, end },
        revision,
        floor: "failure_location",
        relevance,
        content,
      }),
    ];
  });
}

/** The worktree's uncommitted changes as one diff (cut at 40,000 characters), or nothing. */
async function diffChunk(tree: Worktree): Promise<ContextChunk[]> {
  if (!tree.changed.length) return [];
  const diff = (await tree.diff) ?? "";
  if (!diff.trim()) return [];
  const full = diff.length > 40_000 ? `${diff.slice(0, 40_000)}\n${DIFF_CUT}` : diff;
  const one_line = `${tree.changed.length} changed file(s): ${tree.changed.slice(0, 5).join(", ")}`;
  const revision = tree.head ? { head: tree.head } : {};
  const relevance = { score: 1, reasons: ["uncommitted changes"] };
  return [
    chunk({
      id: "diff:worktree",
      kind: "diff",
      source: "git diff",
      revision,
      floor: "changed",
      relevance,
      content: { full, summary: diffStat(diff), one_line },
    }),
  ];
}

/** Test files read for imports of a target without the symbol index (shallow paths first). */
const IMPORT_SCAN = 400;

/**
 * Tests mapped to the targets: by naming conventions (the nearest so named), then test files that
 * import a target. With the symbol index, the test files read for imports are those its import
 * graph says may import a target (else, past IMPORT_SCAN, those whose word filter may name a
 * target's file name), however many tests there are; without it, the first IMPORT_SCAN.
 */
async function mappedTests(
  root: string,
  targetList: string[],
  testLike: string[],
  fileSet: Set<string>,
  info: FileReader,
  namers?: (names: string[], files: readonly string[]) => Set<string>,
  importers?: (targets: readonly string[], files: readonly string[]) => Set<string> | undefined,
): Promise<Set<string>> {
  const isTarget = new Set(targetList);
  const mapped = new Set<string>();
  for (const t of targetList) for (const f of namedTestsOf(t, testLike)) if (!isTarget.has(f)) mapped.add(f);
  const stems = targetList.map((t) => t.split("/").pop()!.replace(/\.[^.]+$/, ""));
  const byGraph = targetList.length ? importers?.(targetList, testLike) : undefined;
  const narrowed = byGraph ?? (namers && testLike.length > IMPORT_SCAN && targetList.length ? namers(stems, testLike) : undefined);
  const scanned = narrowed ? testLike.filter((f) => narrowed.has(f)).slice(0, CONTENT_FILES) : testLike.slice(0, IMPORT_SCAN);
  for (const f of scanned) {
    if (mapped.has(f) || isTarget.has(f) || targetList.length === 0) continue;
    // Cheap text check before parsing: a test that imports a target names it, in its top 256 KB
    // (a test-like file of a gigabyte, a fixture, is never read whole).
    const text = headText(join(root, f), 262_144);
    if (text === undefined || !stems.some((s) => text.includes(s))) continue;
    const fi = await info.read(f);
    if (fi?.outline?.imports.some((s) => targetList.includes(jsModule(f, s, fileSet) ?? ""))) mapped.add(f);
  }
  return mapped;
}

/**
 * The stored review findings about the targets (`weir index --review`), each review used only while every
 * file it read has the SHA it read. Untrusted: a review model read repository text to write them.
 */
async function reviewChunks(targets: string[], info: FileReader, reviewed?: (paths: readonly string[]) => Review[]): Promise<ContextChunk[]> {
  if (!reviewed || targets.length === 0) return [];
  const out: ContextChunk[] = [];
  for (const r of reviewed(targets.slice(0, 20))) {
    if (r.findings.length === 0) continue;
    const shas = new Map<string, string | undefined>();
    for (const f of r.reads) shas.set(f.path, (await info.read(f.path))?.sha);
    if (!reviewHolds(r, (p) => shas.get(p))) continue;
    const lines = r.findings.map((f) => `${f.path}:${f.line} [${f.kind.replace("_", " ")}] ${f.text}`);
    const count = `${r.findings.length} review finding${r.findings.length === 1 ? "" : "s"} on ${r.path} (${r.model})`;
    out.push(
      chunk({
        id: `review:${r.path}`,
        kind: "review",
        source: r.path,
        revision: { sha: shas.get(r.path)! },
        relevance: { score: 0.8, reasons: [`a review by ${r.model}; every file it read is unchanged`] },
        content: { full: `${count}:\n${lines.join("\n")}`, summary: `${count}:\n${lines.slice(0, 5).join("\n")}`, one_line: count },
      }),
    );
  }
  return out;
}

/** Import-graph neighbours of the targets, then the lexical matches, each scored by the goal's words. */
async function relatedChunks(
  targetList: string[],
  isTarget: Set<string>,
  mapped: Set<string>,
  ranked: ReturnType<typeof lexicalRanking>,
  words: string[],
  fileSet: Set<string>,
  info: FileReader,
  head: string | undefined,
): Promise<{ chunks: ContextChunk[]; neighbours: Set<string> }> {
  const chunks: ContextChunk[] = [];
  const neighbours = new Set<string>();
  for (const t of targetList)
    for (const s of info.known(t)?.outline?.imports ?? []) {
      const r = jsModule(t, s, fileSet);
      if (r && !isTarget.has(r) && !mapped.has(r)) neighbours.add(r);
    }
  for (const f of [...neighbours].slice(0, 15)) {
    const fi = await info.read(f);
    const score = fi ? Math.min(1, 0.6 + 0.4 * lexicalScore(words, f, fi.text.slice(0, 4000)).score) : 0;
    if (fi) chunks.push(fileChunk(fi, head, undefined, { score, reasons: ["imported by a target"] }, "symbol_outline", info.focus));
  }
  for (const f of ranked.lexical) {
    if (isTarget.has(f) || mapped.has(f) || neighbours.has(f)) continue;
    const fi = await info.read(f);
    if (!fi) continue;
    const lex = lexicalScore(words, f, fi.text.slice(0, 4000));
    const rank = ranked.byContent.indexOf(f);
    const reasons = [...(rank >= 0 ? [`contents match (rank ${rank + 1})`] : []), ...lex.reasons];
    const score = Math.min(0.85, Math.max(0.06, 0.85 * (ranked.fusedScore.get(f) ?? 0)));
    chunks.push(fileChunk(fi, head, undefined, { score, reasons }, "file_range", info.focus));
  }
  return { chunks, neighbours };
}

/**
 * Where the repository's work has been lately, after everything the task's words found, for a task
 * that says something of its own ("fix the typos"; not "hi"): these take only what the budget has left.
 */
async function activeChunks(
  files: string[],
  shown: Set<string>,
  named: Named,
  asked: GitAsked,
  info: FileReader,
  head: string | undefined,
): Promise<ContextChunk[]> {
  if (named.words.length === 0 && named.symbols.length === 0) return [];
  const candidates = new Set(files);
  const fresh = (path: string) => candidates.has(path) && !isTestPath(path) && !shown.has(path) && !instructs(path);
  const active = activeFiles((await asked.history) ?? "").filter((a) => fresh(a.path));
  const out: ContextChunk[] = [];
  for (const a of active.slice(0, ACTIVE_FILES)) {
    const fi = await info.read(a.path);
    const reasons = [`changed in ${a.commits} of the last ${HISTORY_COMMITS} commits`];
    if (fi) out.push(fileChunk(fi, head, undefined, { score: 0.05 + 0.01 * (a.weight / active[0]!.weight), reasons }, "file_range", info.focus));
  }
  return out;
}

/** The rules (AGENTS.md, .weir/rules/, …) whose condition holds for the goal and its targets. */
function ruleChunks(root: string, goal: string, targetList: string[], o: GatherOptions, refused: Gathered["refused"]): ContextChunk[] {
  const rules = loadRules(root, targetList, { home: o.home, ...(o.userDir ? { userDir: o.userDir } : {}) });
  refused.push(...rules.refused);
  return rules.rules
    .filter((rule) => ruleApplies(rule, goal, targetList))
    .map((rule) =>
      chunk({
        id: `rule:${rule.source}`,
        kind: "rule",
        source: rule.source,
        relevance: { score: 0.8, reasons: [rule.paths.length || rule.keywords.length ? "its condition holds" : "applies everywhere"] },
        content: {
          full: rule.body,
          summary: rule.body.split("\n").slice(0, 10).join("\n"),
          one_line: `${rule.source}: ${
            rule.body
              .split("\n")
              .find((l) => l.trim())
              ?.slice(0, 100) ?? ""
          }`,
        },
        ...(rule.sticky ? { floor: "sticky_rule" as const } : {}),
      }),
    );
}
