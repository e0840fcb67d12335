import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

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
 * Loads every rule that could apply: the user's own AGENTS.md (in weir's config directory), root and
 * target-parent AGENTS.md/CLAUDE.md, and .weir/rules/.
 */
export function loadRules(root: string, targets: string[], userDir?: string): ContextRule[] {
  const rules: ContextRule[] = [];
  const own = userDir ? join(userDir, "AGENTS.md") : undefined;
  if (own && existsSync(own)) rules.push({ source: "~/.config/weir/AGENTS.md", body: readFileSync(own, "utf8"), paths: [], keywords: [], sticky: true });
  const seen = new Set<string>();
  const dirs = new Set<string>([""]);
  for (const t of targets) for (let d = dirname(t); d !== "." && d !== "/" && d !== ""; d = dirname(d)) dirs.add(d);
  for (const d of [...dirs].sort()) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) {
      const rel = d ? `${d}/${name}` : name;
      const abs = join(root, rel);
      if (seen.has(rel) || !existsSync(abs)) continue;
      seen.add(rel);
      // A rule in a subdirectory applies to the files below it.
      rules.push({ source: rel, body: readFileSync(abs, "utf8"), paths: d ? [`${d}/**`] : [], keywords: [], sticky: d === "" });
    }
  }
  const dir = join(root, ".weir", "rules");
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".md")).sort()) {
      const { meta, body } = parseFrontMatter(readFileSync(join(dir, name), "utf8"));
      rules.push({ source: `.weir/rules/${name}`, body, paths: asList(meta.paths), keywords: asList(meta.keywords).map((k) => k.toLowerCase()), sticky: meta.sticky === true });
    }
  }
  return rules;
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
