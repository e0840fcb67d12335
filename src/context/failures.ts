/**
 * Failure locations in compiler and test output: `path:line:col`, `path(line,col)` (tsc),
 * `File "path", line N` (Python), `at fn (path:line:col)` (JS stacks), `--> path:line:col` (Rust).
 * Pure.
 */
interface FailureLocation {
  path: string;
  line: number;
  col?: number;
  message: string;
}

/** A path's characters: ASCII word characters, letters of other scripts, and separators. */
const P = String.raw`[\w\u00C0-\u1FFF\u3000-\uD7FF\uF900-\uFFEF@.+\-/\\]`;

const PATTERNS: RegExp[] = [
  /File "([^"]+)", line (\d+)/g,
  new RegExp(String.raw`(?:^|[\s(])((?:\.{0,2}\/)?${P}+\.[A-Za-z]{1,6})\((\d+),(\d+)\)`, "gm"),
  new RegExp(String.raw`-->\s+(${P}+\.[A-Za-z]{1,6}):(\d+):(\d+)`, "g"),
  new RegExp(String.raw`(?:^|[\s(])((?:\.{0,2}\/)?${P}+\.[A-Za-z]{1,6}):(\d+)(?::(\d+))?`, "gm"),
];

export function parseFailureLocations(output: string, limit = 50): FailureLocation[] {
  const found = new Map<string, FailureLocation>();
  const lines = output.split("\n");
  for (const re of PATTERNS) {
    for (const m of output.matchAll(re)) {
      const path = m[1]!.replace(/\\/g, "/").replace(/^\.\//, "");
      // URLs, versions and node internals are not workspace locations.
      if (/^(?:https?:|node:|internal\/)|^\d+\.\d+/.test(path) || path.includes("node_modules/")) continue;
      const line = Number(m[2]);
      if (!Number.isFinite(line) || line <= 0) continue;
      const key = `${path}:${line}`;
      if (found.has(key)) continue;
      const at = output.slice(0, m.index).split("\n").length - 1;
      const message = (lines[at] ?? "").trim().slice(0, 200);
      found.set(key, { path, line, ...(m[3] ? { col: Number(m[3]) } : {}), message });
      if (found.size >= limit) return [...found.values()];
    }
  }
  return [...found.values()];
}
