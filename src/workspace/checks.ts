import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "./containment.ts";
import { dirsBetween, enclosingRepository } from "./walker.ts";

/** One of the project's checks: the command that runs it and whether it is the quick or the full level. */
export interface Check {
  name: string;
  program: string;
  args: string[];
  level: "quick" | "full";
}

/** The workspace root as the detectors read it: which entries exist, and a file's text ("" when unreadable). */
interface Root {
  has(name: string): boolean;
  text(name: string): string;
  entries: string[];
  /** For a workspace inside a repository (a monorepo's package): the JavaScript lock files of the directories above it. */
  locksAbove: string[];
}

/** The lock files that say which JavaScript package manager a project uses. */
const JS_LOCKS = ["bun.lock", "bun.lockb", "pnpm-lock.yaml", "yarn.lock", "package-lock.json"];

const check = (program: string, args: string[], level: Check["level"], name = [program, ...args].join(" ")): Check => ({ name, program, args, level });

/** The test script `npm init` writes: it only fails, so it names no check. */
const NPM_PLACEHOLDER = "no test specified";

/** The scripts a JSON manifest (package.json, composer.json) names; none when it is broken. */
function scriptsOf(r: Root, manifest: string): Record<string, unknown> {
  try {
    return (JSON.parse(r.text(manifest)) as { scripts?: Record<string, unknown> }).scripts ?? {};
  } catch {
    return {}; // a broken manifest has no scripts we can trust
  }
}

function node(r: Root): Check[] {
  if (!r.has("package.json")) return [];
  const scripts = scriptsOf(r, "package.json");
  // A monorepo's package has its lock file at the repository's top.
  const lock = (name: string) => r.has(name) || r.locksAbove.includes(name);
  const bun = lock("bun.lock") || lock("bun.lockb");
  const runner = bun ? "bun" : lock("pnpm-lock.yaml") ? "pnpm" : lock("yarn.lock") ? "yarn" : "npm";
  const script = (name: string, level: Check["level"]) => check(runner, runner === "yarn" ? [name] : ["run", name], level, `${runner} run ${name}`);
  const out: Check[] = [];
  const test = typeof scripts.test === "string" ? scripts.test : undefined;
  if (test && !test.includes(NPM_PLACEHOLDER)) out.push(script("test", "quick"));
  // bun has a test runner of its own: a bun project without a test script runs it, when it shows
  // it has tests (hasTests, or bunfig.toml's [test]); bun fails on finding none.
  else if (bun && !test && (hasTests(r) || r.text("bunfig.toml").includes("[test]")))
    out.push(check("bun", ["test"], "quick"));
  for (const name of ["typecheck", "check", "lint", "build"]) if (scripts[name]) out.push(script(name, "full"));
  return out;
}

/** A root that shows it has tests: a test directory, or test files beside the code (`x_test.ts`, `x.test.ts`). */
const hasTests = (r: Root) => r.entries.some((e) => /^(?:tests?|__tests__)$/.test(e) || /[._]test\.[cm]?[jt]sx?$/.test(e));

function deno(r: Root): Check[] {
  const file = ["deno.json", "deno.jsonc"].find((f) => r.has(f));
  if (!file) return [];
  // deno.jsonc may hold comments, so the tasks are found in the text, not parsed.
  if (/"tasks"\s*:\s*\{[^}]*"test"\s*:/.test(r.text(file))) return [check("deno", ["task", "test"], "quick")];
  // deno test fails when it finds no tests: it is a check only where there are some.
  return hasTests(r) ? [check("deno", ["test"], "quick")] : [];
}

function make(r: Root, quickSoFar: boolean): Check[] {
  if (!r.has("Makefile")) return [];
  const targets = new Set([...r.text("Makefile").matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]!));
  const out: Check[] = [];
  if (targets.has("test") && !quickSoFar) out.push(check("make", ["test"], "quick"));
  for (const t of ["check", "lint"]) if (targets.has(t)) out.push(check("make", [t], "full"));
  return out;
}

function rust(r: Root): Check[] {
  return r.has("Cargo.toml") ? [check("cargo", ["test"], "quick"), check("cargo", ["clippy", "--all-targets"], "full")] : [];
}

function go(r: Root): Check[] {
  return r.has("go.mod") ? [check("go", ["test", "./..."], "quick"), check("go", ["vet", "./..."], "full")] : [];
}

/** pytest as a dependency: the word itself, not a plugin such as pytest-cov. */
const PYTEST_DEPENDENCY = /(^|["'\s])pytest($|[\s"'<>=!~;,[])/m;

function python(r: Root): Check[] {
  const configured =
    r.has("pytest.ini") ||
    r.has("conftest.py") ||
    r.text("pyproject.toml").includes("[tool.pytest") ||
    r.text("setup.cfg").includes("[tool:pytest]") ||
    r.text("tox.ini").includes("[pytest]");
  const requirements = r.entries.filter((e) => /^requirements[\w.-]*\.txt$/.test(e));
  const depends = [r.text("pyproject.toml"), ...requirements.map((f) => r.text(f))].some((t) => PYTEST_DEPENDENCY.test(t));
  return configured || depends ? [check("python3", ["-m", "pytest", "-q"], "quick", "pytest")] : [];
}

/** The build tool's wrapper when the project ships one (the version it pins), else the tool itself. */
function wrapper(r: Root, script: "mvnw" | "gradlew", tool: string): string {
  if (!r.has(script)) return tool;
  if (process.platform === "win32") return script === "mvnw" ? "mvnw.cmd" : "gradlew.bat";
  return `./${script}`;
}

function maven(r: Root): Check[] {
  if (!r.has("pom.xml")) return [];
  const mvn = wrapper(r, "mvnw", "mvn");
  return [check(mvn, ["test"], "quick"), check(mvn, ["verify"], "full")];
}

function gradle(r: Root): Check[] {
  if (!["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"].some((f) => r.has(f))) return [];
  const gradlew = wrapper(r, "gradlew", "gradle");
  return [check(gradlew, ["test"], "quick"), check(gradlew, ["check"], "full")];
}

/** A Rakefile that defines a test task: Rake's or Minitest's TestTask, or a task named test. */
const RAKE_TEST = /\bTestTask\b|^\s*task\s*\(?\s*(:test\b|["']test["'])|\bdefault:\s*:test\b/m;

function ruby(r: Root): Check[] {
  const bundled = r.has("Gemfile") ? ["bundle", "exec"] : [];
  const run = (...argv: string[]) => {
    const [program, ...args] = [...bundled, ...argv] as [string, ...string[]];
    return check(program, args, "quick");
  };
  if (r.has(".rspec")) return [run("rspec")];
  if (r.has("Rakefile") && RAKE_TEST.test(r.text("Rakefile"))) return [run("rake", "test")];
  return [];
}

function php(r: Root): Check[] {
  if (!r.has("composer.json")) return [];
  if (scriptsOf(r, "composer.json").test) return [check("composer", ["test"], "quick")];
  return r.has("phpunit.xml") || r.has("phpunit.xml.dist") ? [check("vendor/bin/phpunit", [], "quick")] : [];
}

function dotnet(r: Root): Check[] {
  // A solution or project file at the root: `dotnet test` finds it there and nowhere else.
  if (!r.entries.some((e) => /\.(sln|slnx|csproj|fsproj|vbproj)$/.test(e))) return [];
  return [check("dotnet", ["test"], "quick"), check("dotnet", ["build"], "full")];
}

function elixir(r: Root): Check[] {
  return r.has("mix.exs") ? [check("mix", ["test"], "quick")] : [];
}

function swift(r: Root): Check[] {
  if (!r.has("Package.swift")) return [];
  // swift test fails on a package without test targets, which live under Tests/.
  return r.has("Tests") ? [check("swift", ["test"], "quick"), check("swift", ["build"], "full")] : [check("swift", ["build"], "full")];
}

/**
 * The project's own checks, detected from what its root holds: package.json scripts (or bun's own
 * runner), Deno tasks, Makefile targets, Cargo, Go, pytest, Maven and Gradle (through the project's
 * wrapper when it has one), Rake or RSpec, Composer or PHPUnit, a .NET solution, Mix, Swift
 * packages. Never a command that is not there.
 */
export function detectChecks(root: string): Check[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  const names = new Set(entries);
  const texts = new Map<string, string>();
  const top = names.has("package.json") ? enclosingRepository(root) : undefined;
  const above = (top ? dirsBetween(top, root) : []).flatMap((dir) => JS_LOCKS.filter((l) => existsSync(join(dir, l))));
  const r: Root = {
    entries,
    locksAbove: above,
    has: (name) => names.has(name),
    // A file that cannot be read (a directory, a named pipe, no permission) names no check.
    text(name) {
      if (!texts.has(name)) {
        let t = "";
        try {
          t = names.has(name) ? readRegularFile(join(root, name), "utf8") : "";
        } catch {
          // unreadable: no text
        }
        texts.set(name, t);
      }
      return texts.get(name)!;
    },
  };
  const checks = [...node(r), ...deno(r)];
  checks.push(...make(r, checks.some((c) => c.level === "quick")));
  // A Makefile's test target is the project's own way to run its tests: the language's runner
  // would run them a second time, so it adds only its full checks.
  const madeTests = checks.some((c) => c.program === "make" && c.level === "quick");
  for (const detect of [rust, go, python, maven, gradle, ruby, php, dotnet, elixir, swift])
    checks.push(...detect(r).filter((c) => !madeTests || c.level === "full"));
  return checks;
}
