import type { DecisionRequest } from "./request.ts";

/** How far a change reaches: nothing planned, one directory, one module, or several modules. */
export type ChangeScope = DecisionRequest["change"]["planned_scope"];

/** Directories that hold a project's sources or packages rather than being a module themselves. Data. */
const SOURCE_ROOTS = ["src", "lib", "app", "internal", "pkg", "source"];
const PACKAGE_ROOTS = ["packages", "crates", "apps", "modules"];

/**
 * The module a path belongs to: its first directory below the source roots (`src/parser/lexer.ts`
 * is `src/parser`), a package of a monorepo (`packages/core/...`), or the root for a file at the top. Pure.
 */
export function moduleOf(path: string): string {
  const dirs = path.split("/").slice(0, -1);
  const container = PACKAGE_ROOTS.includes(dirs[0] ?? "") ? 2 : 0;
  let at = container;
  while (at < dirs.length - 1 && SOURCE_ROOTS.includes(dirs[at]!)) at++;
  return dirs.slice(0, Math.min(dirs.length, at + 1)).join("/");
}

/**
 * The scope of a change to these files: `local` for one or two files in one directory, `module` for
 * more, or for several directories of one module, `cross_module` past one module. Pure.
 */
export function changeScope(paths: readonly string[]): ChangeScope {
  if (paths.length === 0) return "none";
  if (new Set(paths.map(moduleOf)).size > 1) return "cross_module";
  const dirs = new Set(paths.map((p) => p.split("/").slice(0, -1).join("/")));
  return dirs.size > 1 || paths.length > 2 ? "module" : "local";
}

const ORDER: ChangeScope[] = ["none", "local", "module", "cross_module"];

/** The wider of two scopes. Pure. */
export const widerScope = (a: ChangeScope, b: ChangeScope): ChangeScope => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);
