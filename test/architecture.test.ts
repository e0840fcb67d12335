import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { importsOf, namedImportsOf } from "./support/imports.ts";

/**
 * The layering of src/, bottom to top. A module may import from its own folder or from a lower
 * layer; never upward, never sideways into another folder of the same layer. docs/architecture.md
 * draws the same picture.
 */
const LAYERS: Record<string, number> = {
  core: 0,
  types: 0,
  workspace: 1,
  store: 1,
  providers: 1,
  config: 2,
  context: 2,
  actions: 3,
  decision: 3,
  supervisor: 3,
  agent: 4,
  mcp: 4,
  replay: 4,
  ui: 5,
  cli: 6,
};

/** The widest line a reader holds on one screen: the limit the house review set for src/. */
const MAX_COLUMNS = 160;

/** Packages only one folder may import: the core never sees a vendor SDK. */
const OWNED_PACKAGES: Record<string, string> = {
  "@anthropic-ai/sdk": "providers",
  openai: "providers",
  "@modelcontextprotocol/sdk": "mcp",
  "bun:sqlite": "store",
  "@clack/prompts": "ui",
};

const SRC = resolve(import.meta.dir, "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const folderOf = (file: string) => relative(SRC, file).split("/")[0]!;

const edges: Edge[] = files(SRC).flatMap((file) => importsOf(readFileSync(file, "utf8")).map((spec) => ({ file: relative(SRC, file), from: folderOf(file), spec })));

interface Edge {
  file: string;
  from: string;
  spec: string;
}

/** Imports from `file` (relative to src/) that point upward or sideways across layers. */
function upward(list: Edge[]): string[] {
  const bad: string[] = [];
  for (const e of list) {
    if (!e.spec.startsWith(".")) continue;
    const target = resolve(dirname(join(SRC, e.file)), e.spec);
    if (!target.startsWith(SRC)) continue; // package.json for the version
    const to = folderOf(target);
    if (to !== e.from && (LAYERS[to] ?? Infinity) >= LAYERS[e.from]!) bad.push(`${e.file} -> ${relative(SRC, target)}`);
  }
  return bad;
}

/** What each folder's index.ts exports, by the module it re-exports from (`./mod.ts` → names). */
function surfaceOf(folder: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let text = "";
  try {
    text = readFileSync(join(SRC, folder, "index.ts"), "utf8");
  } catch {
    return out;
  }
  for (const m of text.matchAll(/^export (?:type )?\{([^}]+)\} from "(\.\/[^"]+)";$/gm)) {
    const set = out.get(m[2]!) ?? new Set<string>();
    for (const n of m[1]!.split(",")) set.add(n.trim());
    out.set(m[2]!, set);
  }
  return out;
}

/** Cross-folder imports (static, re-exports, dynamic) that take something the target folder's index.ts does not export. */
function offSurface(list: { file: string; source: string }[]): string[] {
  const bad: string[] = [];
  for (const { file, source } of list)
    for (const imp of namedImportsOf(source)) {
      if (!imp.spec.startsWith(".")) continue;
      const target = resolve(dirname(join(SRC, file)), imp.spec);
      if (!target.startsWith(SRC) || folderOf(target) === folderOf(join(SRC, file))) continue;
      const folder = folderOf(target);
      const mod = `./${relative(join(SRC, folder), target)}`;
      const names = mod === "./index.ts" ? new Set([...surfaceOf(folder).values()].flatMap((s) => [...s])) : surfaceOf(folder).get(mod);
      if (imp.opaque) bad.push(`${file}: a namespace or default import of ${imp.spec} (name what you take)`);
      else if (!names) bad.push(`${file} -> ${folder}/${mod.slice(2)}: not part of ${folder}/index.ts`);
      else for (const n of imp.names) if (!names.has(n)) bad.push(`${file} -> ${folder}/${mod.slice(2)}: ${n} is not exported by ${folder}/index.ts`);
    }
  return bad;
}

const sources = files(SRC).map((f) => ({ file: relative(SRC, f), source: readFileSync(f, "utf8") }));

describe("architecture", () => {
  test("each folder's index.ts is its public surface: only re-exports, and every cross-folder import takes only what it lists", () => {
    for (const folder of new Set(files(SRC).map(folderOf))) {
      if (!existsSync(join(SRC, folder, "index.ts"))) continue;
      const text = readFileSync(join(SRC, folder, "index.ts"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      // A statement at a time: a long re-export wraps over lines.
      const statements = text.split(";").map((st) => st.replace(/\s+/g, " ").trim()).filter(Boolean);
      for (const st of statements) expect(st).toMatch(/^export (?:type )?\{[^}]+\} from "\.\/[^"]+"$/);
    }
    expect(offSurface(sources)).toEqual([]);
  });

  test("the surface check fails a planted import of a name, or a module, the folder does not export", () => {
    const planted = [
      { file: "cli/planted.ts", source: 'import { SECRET_TEMPLATE } from "../workspace/containment.ts";' },
      { file: "cli/planted2.ts", source: 'import type { Nope } from "../core/chunk.ts";\nconst { hidden } = await import("../workspace/git.ts");' },
      { file: "cli/planted3.ts", source: 'import * as everything from "../workspace/walker.ts";' },
      { file: "agent/ok.ts", source: 'import { walk } from "../workspace/walker.ts";\nimport { Workspace } from "../workspace/index.ts";' },
    ];
    expect(offSurface(planted)).toEqual([
      "cli/planted.ts -> workspace/containment.ts: SECRET_TEMPLATE is not exported by workspace/index.ts",
      "cli/planted2.ts -> core/chunk.ts: Nope is not exported by core/index.ts",
      "cli/planted2.ts -> workspace/git.ts: hidden is not exported by workspace/index.ts",
      "cli/planted3.ts: a namespace or default import of ../workspace/walker.ts (name what you take)",
    ]);
  });

  test("every folder under src/ has a README naming each of its modules", () => {
    for (const folder of new Set(files(SRC).map(folderOf))) {
      const readme = readFileSync(join(SRC, folder, "README.md"), "utf8");
      for (const f of files(join(SRC, folder))) expect(readme).toContain(`\`${relative(join(SRC, folder), f)}\``);
    }
  });

  test("no line in src/ is wider than 160 columns, so every line reads on one screen", () => {
    const wide = files(SRC).flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (line.length > MAX_COLUMNS ? [`${relative(SRC, f)}:${i + 1} (${line.length})`] : [])),
    );
    expect(wide).toEqual([]);
  });

  test("every folder under src/ has a layer", () => {
    const folders = new Set(files(SRC).map(folderOf));
    for (const f of folders) expect(LAYERS).toHaveProperty(f);
  });

  test("no import points upward or sideways across layers", () => {
    expect(upward(edges)).toEqual([]);
  });

  test("vendor SDKs, MCP, sqlite and prompts are imported only by the folder that owns them", () => {
    const bad: string[] = [];
    for (const e of edges)
      for (const [pkg, owner] of Object.entries(OWNED_PACKAGES))
        if ((e.spec === pkg || e.spec.startsWith(`${pkg}/`)) && e.from !== owner) bad.push(`${e.file} imports ${pkg}`);
    expect(bad).toEqual([]);
  });

  test("the scan sees type-only imports, re-exports and import() types: a planted upward import type fails", () => {
    const planted = 'import type { Runtime } from "../cli/runtime.ts";\nexport { x } from "./y.ts";\ntype T = import("../ui/repl.ts").Repl;\nconst m = await import("../agent/run.ts");\n// import { no } from "../comment.ts";\n';
    expect(importsOf(planted)).toEqual(["../cli/runtime.ts", "./y.ts", "../ui/repl.ts", "../agent/run.ts"]);
    expect(upward(importsOf(planted).map((spec) => ({ file: "core/planted.ts", from: "core", spec })))).toEqual(["core/planted.ts -> cli/runtime.ts", "core/planted.ts -> ui/repl.ts", "core/planted.ts -> agent/run.ts"]);
    // And the real tree has type-only edges that the scan now counts.
    expect(edges.some((e) => /import type/.test(readFileSync(join(SRC, e.file), "utf8")))).toBe(true);
  });

  test("the checker catches an upward and a sideways edge, and the scan sees real imports", () => {
    expect(upward([{ file: "core/x.ts", from: "core", spec: "../agent/run.ts" }])).toEqual(["core/x.ts -> agent/run.ts"]);
    expect(upward([{ file: "store/x.ts", from: "store", spec: "../providers/port.ts" }])).toHaveLength(1);
    expect(upward([{ file: "agent/x.ts", from: "agent", spec: "../core/messages.ts" }])).toEqual([]);
    expect(edges.some((e) => e.from === "cli" && e.spec.includes("../core/"))).toBe(true);
  });
});
