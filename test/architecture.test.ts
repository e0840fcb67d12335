import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { importsOf } from "./support/imports.ts";

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
  eval: 4,
  ui: 5,
  cli: 6,
};

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

describe("architecture", () => {
  test("every folder under src/ has a README naming each of its modules", () => {
    for (const folder of new Set(files(SRC).map(folderOf))) {
      const readme = readFileSync(join(SRC, folder, "README.md"), "utf8");
      for (const f of files(join(SRC, folder))) expect(readme).toContain(`\`${relative(join(SRC, folder), f)}\``);
    }
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
