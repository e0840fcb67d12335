import { existsSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "./containment.ts";

/** One of the project's checks: the command that runs it and whether it is the quick or the full level. */
export interface Check {
  name: string;
  program: string;
  args: string[];
  level: "quick" | "full";
}

function runnerFor(root: string): string {
  if (existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb"))) return "bun";
  if (existsSync(join(root, "pnpm-lock.yaml"))) return "pnpm";
  if (existsSync(join(root, "yarn.lock"))) return "yarn";
  return "npm";
}

/**
 * The project's own checks, detected from what exists: package.json scripts, Makefile targets,
 * Cargo, Go, pytest configuration. Never a command that is not there.
 */
export function detectChecks(root: string): Check[] {
  const checks: Check[] = [];
  // A file that cannot be read (a directory, a named pipe, no permission) names no check.
  const textOf = (path: string) => {
    try {
      return readRegularFile(path, "utf8");
    } catch {
      return "";
    }
  };
  const pkgPath = join(root, "package.json");
  if (existsSync(pkgPath)) {
    let scripts: Record<string, string> = {};
    try {
      scripts = (JSON.parse(textOf(pkgPath)) as { scripts?: Record<string, string> }).scripts ?? {};
    } catch {
      // a broken package.json has no scripts we can trust
    }
    const runner = runnerFor(root);
    const script = (name: string, level: Check["level"]) =>
      scripts[name] && checks.push({ name: `${runner} run ${name}`, program: runner, args: runner === "yarn" ? [name] : ["run", name], level });
    script("test", "quick");
    for (const name of ["typecheck", "check", "lint", "build"]) script(name, "full");
  }
  const makefile = join(root, "Makefile");
  if (existsSync(makefile)) {
    const targets = new Set([...textOf(makefile).matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]!));
    if (targets.has("test") && !checks.some((c) => c.level === "quick")) checks.push({ name: "make test", program: "make", args: ["test"], level: "quick" });
    for (const t of ["check", "lint"]) if (targets.has(t)) checks.push({ name: `make ${t}`, program: "make", args: [t], level: "full" });
  }
  if (existsSync(join(root, "Cargo.toml"))) {
    checks.push({ name: "cargo test", program: "cargo", args: ["test"], level: "quick" });
    checks.push({ name: "cargo clippy", program: "cargo", args: ["clippy", "--all-targets"], level: "full" });
  }
  if (existsSync(join(root, "go.mod"))) {
    checks.push({ name: "go test ./...", program: "go", args: ["test", "./..."], level: "quick" });
    checks.push({ name: "go vet ./...", program: "go", args: ["vet", "./..."], level: "full" });
  }
  const pyproject = join(root, "pyproject.toml");
  const pytest =
    existsSync(join(root, "pytest.ini")) ||
    textOf(pyproject).includes("[tool.pytest") ||
    textOf(join(root, "setup.cfg")).includes("[tool:pytest]") ||
    textOf(join(root, "tox.ini")).includes("[pytest]");
  if (pytest) checks.push({ name: "pytest", program: "python3", args: ["-m", "pytest", "-q"], level: "quick" });
  return checks;
}
