import { existsSync, lstatSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { INSTRUCTION_FILES, PathRefused, resolveInWorkspace, wholeText } from "../workspace/containment.ts";
import { dirsBetween, enclosingRepository } from "../workspace/walker.ts";

/**
 * Context rules: AGENTS.md and CLAUDE.md at the workspace root and in the parent directories of
 * targets, and `.weir/rules/*.md` with front matter (`paths:` globs, `keywords:`, `sticky: true`).
 * Rules are written by the repository's people for agents: trusted as guidance about the code, but
 * they never change permissions (those live in config).
 */
interface ContextRule {
  /** Workspace-relative path of the rule file. */
  source: string;
  body: string;
  paths: string[];
  keywords: string[];
  sticky: boolean;
}

/** Parses the small front-matter subset rules use: `key: value`, `key: [a, b]` and `- item` lists. Pure. */
export function parseFrontMatter(text: string): { meta: Record<string, string | string[] | boolean>; body: string } {
  const m = text.match(/^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string | string[] | boolean> = {};
  let listKey: string | undefined;
  for (const raw of m[1]!.split(/\r?\n/)) {
    const item = raw.match(/^\s*-\s+(.*)$/);
    if (item && listKey) {
      (meta[listKey] as string[]).push(unquote(item[1]!));
      continue;
    }
    const kv = raw.match(/^([\w-]+):\s*(.*)$/);
    if (!kv) continue;
    const [, key, value] = kv as unknown as [string, string, string];
    listKey = undefined;
    if (value === "") {
      meta[key] = [];
      listKey = key;
    } else if (/^\[.*\]$/.test(value)) meta[key] = value.slice(1, -1).split(",").map((v) => unquote(v.trim())).filter(Boolean);
    else if (value === "true" || value === "false") meta[key] = value === "true";
    else meta[key] = unquote(value);
  }
  return { meta, body: m[2]! };
}

const unquote = (s: string) => s.replace(/^["']|["']$/g, "");
const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : []);

/**
 * Loads every rule that could apply: the user's own AGENTS.md (in weir's config directory), those of
 * the directories above a workspace inside a repository, root and target-parent AGENTS.md/CLAUDE.md,
 * and .weir/rules/. A rule file of the repository is read only
 * through the workspace's containment: one that links out of it (to ~/.aws/credentials, say) or to a
 * protected file is refused, never read. Two names for one file (CLAUDE.md linking to AGENTS.md)
 * give one rule.
 */
export function loadRules(
  root: string,
  targets: string[],
  o: { userDir?: string; home: string },
): { rules: ContextRule[]; refused: { path: string; reason: string }[] } {
  const rules: ContextRule[] = [];
  const refused: { path: string; reason: string }[] = [];
  const own = o.userDir ? join(o.userDir, "AGENTS.md") : undefined;
  const ownBody = own && existsSync(own) ? wholeText(own) : undefined;
  if (ownBody !== undefined) rules.push({ source: "~/.config/weir/AGENTS.md", body: ownBody, paths: [], keywords: [], sticky: true });
  const read = new Set<string>();
  /** The text of a repository rule file, or undefined when it is absent, refused or already read under another name. */
  const text = (rel: string, base = root): string | undefined => {
    try {
      if (!lstatSync(join(base, rel), { throwIfNoEntry: false })) return undefined;
      const r = resolveInWorkspace(base, rel, { home: o.home });
      if (!r.exists || read.has(r.absolute)) return undefined;
      read.add(r.absolute);
      // A rule file is read whole only up to wholeText's cap (16 MB): a larger one is no rule.
      return wholeText(r.absolute);
    } catch (e) {
      if (e instanceof PathRefused) refused.push({ path: rel, reason: e.message });
      return undefined;
    }
  };
  // A workspace inside a repository (a monorepo's package) takes the guidance of each directory
  // above it, from the repository's top down, read through the repository's containment.
  const top = enclosingRepository(root, o.home);
  if (top) {
    for (const dir of dirsBetween(top, root)) {
      for (const name of INSTRUCTION_FILES) {
        const body = text(relative(top, join(dir, name)).split(sep).join("/"), top);
        if (body !== undefined) rules.push({ source: relative(root, join(dir, name)), body, paths: [], keywords: [], sticky: true });
      }
    }
  }
  const dirs = new Set<string>([""]);
  for (const t of targets) for (let d = dirname(t); d !== "." && d !== "/" && d !== ""; d = dirname(d)) dirs.add(d);
  for (const d of [...dirs].sort()) {
    for (const name of INSTRUCTION_FILES) {
      const rel = d ? `${d}/${name}` : name;
      const body = text(rel);
      // A rule in a subdirectory applies to the files below it.
      if (body !== undefined) rules.push({ source: rel, body, paths: d ? [`${d}/**`] : [], keywords: [], sticky: d === "" });
    }
  }
  const dir = join(root, ".weir", "rules");
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) {
      const rel = `.weir/rules/${name}`;
      const raw = text(rel);
      if (raw === undefined) continue;
      const { meta, body } = parseFrontMatter(raw);
      rules.push({ source: rel, body, paths: asList(meta.paths), keywords: asList(meta.keywords).map((k) => k.toLowerCase()), sticky: meta.sticky === true });
    }
  }
  return { rules, refused };
}

/** Whether a rule applies to a goal and its targets: no conditions, a matching path glob, or a keyword in the goal. Pure. */
export function ruleApplies(rule: ContextRule, goal: string, targets: string[]): boolean {
  if (rule.paths.length === 0 && rule.keywords.length === 0) return true;
  const g = goal.toLowerCase();
  if (rule.keywords.some((k) => g.includes(k))) return true;
  return rule.paths.some((p) => {
    const glob = new Bun.Glob(p);
    return targets.some((t) => glob.match(t));
  });
}
