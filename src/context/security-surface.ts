/**
 * Whether code touches a security surface, read from the code rather than from the task's words:
 * the function a change plans calls into a module of cryptography, secrets, authentication or
 * command execution (by the names the file imports from it), or holds a string that only such code
 * holds (an authentication header, a markup entity). A path or a task may say nothing of it ("make
 * verify() ignore the scheme's case"); the code it changes does. Pure.
 */

/**
 * Modules whose use is security work, by the specifier a file imports: a specifier matches a module
 * it equals or lies below (`crypto/hmac` under `crypto`, `cryptography.fernet` under `cryptography`).
 * Command execution is here because a command line built from a value is where quoting is the guard.
 * Data.
 */
const SECURITY_MODULES = [
  // JavaScript and TypeScript
  "crypto",
  "node:crypto",
  "child_process",
  "node:child_process",
  "bcrypt",
  "bcryptjs",
  "argon2",
  "jsonwebtoken",
  "jose",
  "passport",
  // Python
  "hashlib",
  "hmac",
  "secrets",
  "ssl",
  "cryptography",
  "passlib",
  "jwt",
  "subprocess",
  "shlex",
  // Go
  "golang.org/x/crypto",
  "os/exec",
  // Java
  "java.security",
  "javax.crypto",
];

/** Strings only security code holds: authentication headers and schemes, and markup entities. Data. */
const SECURITY_STRINGS = [
  "authorization",
  "www-authenticate",
  "set-cookie",
  "x-api-key",
  "x-csrf-token",
  "bearer ",
  "&lt;",
  "&gt;",
  "&amp;",
  "&quot;",
  "&#39;",
  "&#x27;",
];

/** Whether a specifier names a security module or one below it. */
function securityModule(spec: string): boolean {
  return SECURITY_MODULES.some((m) => spec === m || spec.startsWith(`${m}/`) || spec.startsWith(`${m}.`));
}

/** The names one import statement binds, with its specifier: JavaScript, Python and Go forms. Pure. */
function bindingsOf(line: string): { spec: string; names: string[] } | undefined {
  const trimmed = line.trim();
  const split = (list: string) =>
    list
      .split(",")
      .map((p) => p.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim())
      .filter((n) => /^[\w$]+$/.test(n));
  // import { a, b as c } from "x"; import d from "x"; import * as ns from "x"
  const js = /^import\s+(.+?)\s+from\s+["']([^"']+)["']/.exec(trimmed);
  if (js) return { spec: js[2]!, names: split(js[1]!.replace(/\*\s+as\s+/, "").replace(/[{}]/g, ",")) };
  // const x = require("x"); const { a } = require("x")
  const cjs = /^(?:const|let|var)\s+(.+?)\s*=\s*require\(\s*["']([^"']+)["']\s*\)/.exec(trimmed);
  if (cjs) return { spec: cjs[2]!, names: split(cjs[1]!.replace(/[{}]/g, ",").replaceAll(":", " as ")) };
  // from x import a, b as c
  const from = /^from\s+([\w.]+)\s+import\s+\(?([^)#]+)/.exec(trimmed);
  if (from) return { spec: from[1]!, names: split(from[2]!) };
  // import x, import x.y as z (Python); import "x" or alias "x" (Go, alone or in a block)
  const py = /^import\s+([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(trimmed);
  if (py) return { spec: py[1]!, names: [py[2] ?? py[1]!.split(".")[0]!] };
  const go = /^(?:import\s+)?(\w+\s+)?"([\w./-]+)"$/.exec(trimmed);
  if (go) return { spec: go[2]!, names: [go[1]?.trim() ?? go[2]!.split("/").pop()!] };
  return undefined;
}

/** The names a file binds to security modules by its imports. Pure. */
export function securityBindings(text: string): string[] {
  const names = text.split("\n").flatMap((line) => {
    const b = bindingsOf(line);
    return b && securityModule(b.spec) ? b.names : [];
  });
  return [...new Set(names)];
}

/** The string literals of a piece of code, as written between their quotes. */
function stringsOf(code: string): string[] {
  return [...code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/**
 * Whether `region` (a function a change plans, or a whole file) touches a security surface: it uses
 * a name the file binds to a security module, or holds a string only security code holds. Pure.
 */
export function touchesSecurity(region: string, bindings: readonly string[]): boolean {
  if (bindings.some((n) => new RegExp(`(?<![\\w$.])${n.replace(/\$/g, "\\$")}\\b`).test(region))) return true;
  return stringsOf(region).some((s) => SECURITY_STRINGS.some((marker) => s.toLowerCase().includes(marker)));
}
