/**
 * Docs drift: places in a repository's documentation that name, as code, a path, a flag or a name
 * the repository no longer has. A doc says what the code was; once the code moved on, the doc
 * misleads its reader and any agent that reads it. Read from inline code spans (`like this`) of
 * Markdown, fenced examples aside. Pure: the caller gives the docs and what the code holds.
 */

/** One place a doc names what is not there. */
export interface Drift {
  doc: string;
  line: number;
  name: string;
  kind: "path" | "flag" | "name";
  why: string;
}

/** What the repository holds, to check docs against. */
export interface CodeFacts {
  /** Every file and directory, workspace-relative (directories with a trailing `/`). */
  paths: ReadonlySet<string>;
  /** Every word of its source and configuration files (identifiers and `--flags`). */
  words: ReadonlySet<string>;
}

/** The words of a text: identifiers, kebab-case names and `--flags`, as they are written. Pure. */
export function codeWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/(?:--)?[a-z][a-z0-9]*(?:-[a-z0-9]+)+|--[a-z][a-z0-9]*|[A-Za-z_$][\w$]*/g)) into.add(m[0]);
}

/**
 * Whether the code names a flag: as written (`--dry-run`), or as parsers declare it (`dry-run`
 * for most, `dry_run` for clap and argparse's dest, `dryRun` for commander). Pure.
 */
function flagNamed(flag: string, words: ReadonlySet<string>): boolean {
  const bare = flag.slice(2);
  const camel = bare.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return [flag, bare, bare.replace(/-/g, "_"), camel].some((w) => words.has(w));
}

/** A span shaped as a repository path: relative, with a directory and a name, no spaces, no pattern. Pure. */
const pathLike = (s: string) => /^[\w.-]+(?:\/[\w.@-]+)+\/?$/.test(s) && !/^\.{1,2}\//.test(s) && /\.[a-z0-9]+$|\/$/i.test(s) && !placeholder(s);
/** A path written as a pattern, with a placeholder for a part (`@N.json`, `ID/`, `x/`): not one file. Pure. */
const placeholder = (s: string) => /(?:^|[/@.-])(?:N|ID|NAME|x|X)(?=[/@.-]|$)/.test(s);
/** A span shaped as a flag: `--name`, alone or with a value. Pure. */
const flagOf = (s: string) => /^(--[a-z][a-z0-9-]*)(?:[ =].*)?$/.exec(s)?.[1];
/** A span shaped as one name of code no prose word has: camelCase, snake_case, or called (`name()`). Pure. */
function nameOf(s: string): string | undefined {
  const called = /^([A-Za-z_$][\w$]*)\(\)$/.exec(s)?.[1];
  if (called) return called;
  if (!/^[A-Za-z_$][\w$]*$/.test(s) || s.length < 4) return undefined;
  return /[a-z][A-Z]/.test(s) || /[a-z]_[a-z]/i.test(s) ? s : undefined;
}

/** Inline code spans of a Markdown text with their line numbers, fenced blocks skipped. Pure. */
export function codeSpans(text: string): { span: string; line: number }[] {
  const out: { span: string; line: number }[] = [];
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*(?:```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const m of line.matchAll(/`([^`\n]+)`/g)) out.push({ span: m[1]!.trim(), line: i + 1 });
  });
  return out;
}

/** Each place the docs name a path, a flag or a name the code does not have. Pure. */
export function docsDrift(docs: readonly { path: string; text: string }[], code: CodeFacts): Drift[] {
  const out: Drift[] = [];
  for (const d of docs)
    for (const { span, line } of codeSpans(d.text)) {
      if (pathLike(span)) {
        const rel = span.replace(/\/$/, "");
        const beside = d.path.includes("/") ? `${d.path.slice(0, d.path.lastIndexOf("/"))}/${rel}` : rel;
        const there = (p: string) => code.paths.has(p) || code.paths.has(`${p}/`);
        // Only a path under a directory the repository has: a file a person makes (.weir/config.json) is not drift.
        const top = `${rel.split("/")[0]}/`;
        if (code.paths.has(top) && !there(rel) && !there(beside)) out.push({ doc: d.path, line, name: span, kind: "path", why: "no such file or directory" });
        continue;
      }
      const flag = flagOf(span);
      if (flag) {
        if (!flagNamed(flag, code.words)) out.push({ doc: d.path, line, name: flag, kind: "flag", why: "no source file names this flag" });
        continue;
      }
      const name = nameOf(span);
      if (name && !code.words.has(name)) out.push({ doc: d.path, line, name, kind: "name", why: "no source or configuration file names it" });
    }
  return out;
}
