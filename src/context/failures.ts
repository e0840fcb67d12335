/**
 * Failure locations in compiler and test output: `path:line:col`, `path(line,col)` (tsc, C#),
 * `path:[line,col]` (javac through Maven), `File "path", line N` (Python), `at fn (path:line:col)`
 * (JS stacks), `--> path:line:col` (Rust), `in path:line N` (.NET, in any language), and Java or
 * Kotlin frames `at pkg.Class.method(File.java:N)`, whose file is placed under its package's
 * directories. `file://` URLs are read as their paths. Pure.
 */
interface FailureLocation {
  path: string;
  line: number;
  col?: number;
  message: string;
}

/** A path's characters: ASCII word characters, letters of other scripts, and separators. */
const P = String.raw`[\w\u00C0-\u1FFF\u3000-\uD7FF\uF900-\uFFEF@.+\-/\\]`;
const FILE = String.raw`(?:\.{0,2}\/)?${P}+\.[A-Za-z]{1,6}`;

/** A JVM stack frame: a module or class loader (`java.base/`, `app//`), the qualified method, then the file and line. */
const JVM_FRAME = /\bat (?:[\w.$-]*\/\/?)?([\w$]+(?:\.[\w$<>]+)+)\(([\w$]+\.(?:java|kt|kts|scala|groovy)):(\d+)\)/g;

const PATTERNS: RegExp[] = [
  /File "([^"]+)", line (\d+)/g,
  new RegExp(String.raw`(?:^|[\s(])(${FILE})\((\d+),(\d+)\)`, "gm"),
  new RegExp(String.raw`-->\s+(${P}+\.[A-Za-z]{1,6}):(\d+):(\d+)`, "g"),
  new RegExp(String.raw`(?:^|[\s(])(${FILE}):\[(\d+),(\d+)\]`, "gm"),
  // .NET: "in /src/Calc.cs:line 14", the word "line" in the runtime's language.
  new RegExp(String.raw`(?:^|\s)(${FILE}):\p{L}+ (\d+)`, "gmu"),
  new RegExp(String.raw`(?:^|[\s(])(${FILE}):(\d+)(?::(\d+))?`, "gm"),
];

/** The JVM frame's file under its package's directories: com.example.Calc.div → com/example/Calc.java. */
function framePath(qualified: string, file: string): string {
  return [...qualified.split(".").slice(0, -2), file].join("/");
}

export function parseFailureLocations(text: string, limit = 50): FailureLocation[] {
  const output = text.replace(/\bfile:\/\//g, "");
  const found = new Map<string, FailureLocation>();
  const lines = output.split("\n");
  const frames = [...output.matchAll(JVM_FRAME)].map((m) => Object.assign([m[0], framePath(m[1]!, m[2]!), m[3]], { index: m.index }));
  // A frame's file also matches as a bare `File.java:N`; the frame, which says where it is, comes first.
  const bare = new Set(frames.map((f) => `${f[1]!.split("/").pop()}:${f[2]}`));
  for (const [k, matches] of [frames, ...PATTERNS.map((re) => output.matchAll(re))].entries()) {
    for (const m of matches) {
      const path = m[1]!.replace(/\\/g, "/").replace(/^\.\//, "");
      if (k > 0 && bare.has(`${path}:${m[2]}`)) continue;
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

/**
 * The workspace file a reported path names: the path itself when it is one, else the only file
 * whose path ends with the reported path's last segments, as many of them as still name exactly one
 * file, and at least two unless the report gave a bare file name. So a CI machine's absolute path,
 * a deterministic build's `/_/src/...` and a frame's `com/example/Calc.java` find their file, and a
 * library's `/usr/lib/python3/unittest/case.py` does not find a `tests/case.py`. Undefined when no
 * file, or more than one, fits. Pure.
 */
export function locate(path: string, files: ReadonlySet<string>): string | undefined {
  if (files.has(path)) return path;
  const segments = path.split("/").filter((s) => s !== "" && s !== "." && s !== "_");
  const base = segments.at(-1);
  if (!base) return undefined;
  const named = [...files].filter((f) => f === base || f.endsWith(`/${base}`));
  for (let k = 0; k <= segments.length - Math.min(2, segments.length); k++) {
    const tail = segments.slice(k).join("/");
    const fits = named.filter((f) => f === tail || f.endsWith(`/${tail}`));
    if (fits.length === 1) return fits[0];
    if (fits.length > 1) return undefined;
  }
  return undefined;
}
