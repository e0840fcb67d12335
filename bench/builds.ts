/**
 * Real builds across runs, on the compiled binary with the mock wire server: a model runs the
 * project's build in one run, and again in the next. What a build writes that git ignores (cargo's
 * target/, make's build/) is held from the workspace and stays in view of later runs' commands, so
 * the second run's build is incremental. Measured against the same second run with the earlier
 * outputs out of view (the rule before: held layers were seen only by commands of their own run),
 * and against the build on the host, cold and warm, in the same run. Medians of 3.
 *   bun run bench builds
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MockServer } from "../test/support/mock-server.ts";
import { hostBinary, median, sized } from "./lib/measure.ts";

const ROOT = join(import.meta.dir, "..");
const bin = hostBinary(ROOT);
const dir = mkdtempSync(join(tmpdir(), "weir-bench-builds-"));
const home = join(dir, "home");
mkdirSync(home);
const toolchains = {
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(process.env.HOME ?? "", ".rustup"),
  CARGO_HOME: process.env.CARGO_HOME ?? join(process.env.HOME ?? "", ".cargo"),
};
const env = { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local", "share"), ...toolchains };
// The toolchains live outside the bench's home: the person's config shows them to commands, read-only.
mkdirSync(join(home, ".config", "weir"), { recursive: true });
writeFileSync(join(home, ".config", "weir", "config.json"), JSON.stringify({ sandbox: { readable: Object.values(toolchains) } }));
const gitEnv = { ...env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@e", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@e" };
const server = await new MockServer().start();
const wire = ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "mock", "--yes", "--verify-floor", "off"];

interface Project {
  name: string;
  program: string;
  args: string[];
  files: () => Record<string, string>;
}

/** Enough code that a cold build takes a moment and a warm one almost none. */
const PROJECTS: Project[] = [
  {
    name: "cargo",
    program: "cargo",
    args: ["build", "--offline", "--quiet"],
    files: () => {
      const mods = Array.from({ length: 12 }, (_, i) => i);
      const fn = (i: number, j: number) => `pub fn f${j}(x: u64) -> u64 { x.wrapping_mul(${i * 40 + j + 3}).rotate_left(${j % 7}) }\n`;
      const body = (i: number) => Array.from({ length: 40 }, (_, j) => fn(i, j)).join("");
      return {
        "Cargo.toml": '[package]\nname = "bench"\nversion = "0.1.0"\nedition = "2021"\n',
        ".gitignore": "target/\n",
        "src/main.rs": `${mods.map((i) => `mod m${i};`).join("\n")}\nfn main() { println!("{}", ${mods.map((i) => `m${i}::f0(1)`).join(" + ")}); }\n`,
        ...Object.fromEntries(mods.map((i) => [`src/m${i}.rs`, body(i)])),
      };
    },
  },
  {
    name: "make",
    program: "make",
    args: ["-s"],
    files: () => {
      const units = Array.from({ length: 20 }, (_, i) => i);
      const unit = (i: number) => Array.from({ length: 60 }, (_, j) => `int f${i}_${j}(int x) { return x * ${j + 3} + ${i}; }\n`).join("");
      return {
        ".gitignore": "build/\n",
        Makefile: [
          `OBJ = ${units.map((i) => `build/u${i}.o`).join(" ")}`,
          "build/app: $(OBJ)\n\tcc -o $@ $(OBJ) main.c",
          "build/%.o: %.c\n\t@mkdir -p build\n\tcc -O2 -c $< -o $@\n",
        ].join("\n"),
        "main.c": "int main(void) { return 0; }\n",
        ...Object.fromEntries(units.map((i) => [`u${i}.c`, unit(i)])),
      };
    },
  },
];

function repository(name: string, files: Record<string, string>): string {
  const ws = join(dir, name, "project");
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(join(ws, p, ".."), { recursive: true });
    writeFileSync(join(ws, p), t);
  }
  for (const a of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]]) Bun.spawnSync(["git", ...a], { cwd: ws, env: gitEnv });
  return ws;
}

/** One run of weir whose model runs the build once; its wall time, and whether the build passed. */
async function run(p: Project, ws: string): Promise<number> {
  const build = { id: `b${Math.random()}`, name: "run_command", input: { program: p.program, args: p.args, timeout_ms: 300_000 } };
  server.script({ turns: [{ toolCalls: [build] }, { text: "built" }] });
  const t0 = performance.now();
  const proc = Bun.spawn([bin, ...wire, "build the project"], { cwd: ws, env, stdout: "ignore", stderr: "pipe" });
  if ((await proc.exited) !== 0) throw new Error(`weir exited: ${await new Response(proc.stderr).text()}`);
  const took = performance.now() - t0;
  const result = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1));
  if (!result.includes("exit code 0")) throw new Error(`${p.name}: the build failed in the sandbox: ${result.slice(0, 400)}`);
  return took;
}

const changes = join(home, ".local", "share", "weir", "changes");
try {
  for (const p of PROJECTS) {
    if (!Bun.which(p.program)) {
      console.log(`${p.name}: SKIPPED, ${p.program} is not on this machine`);
      continue;
    }
    const kept: number[] = [];
    const unseen: number[] = [];
    const cold: number[] = [];
    const hostCold: number[] = [];
    const hostWarm: number[] = [];
    for (let round = 0; round < sized(3, 1); round++) {
      rmSync(changes, { recursive: true, force: true });
      const ws = repository(`${p.name}${round}`, p.files());
      cold.push(await run(p, ws));
      kept.push(await run(p, ws));
      // The rule before: a new run's commands saw none of the earlier runs' held outputs.
      rmSync(changes, { recursive: true, force: true });
      unseen.push(await run(p, ws));
      const bare = repository(`${p.name}-host${round}`, p.files());
      for (const into of [hostCold, hostWarm]) {
        const t0 = performance.now();
        Bun.spawnSync([p.program, ...p.args], { cwd: bare, env });
        into.push(performance.now() - t0);
      }
      if (existsSync(join(ws, p.name === "cargo" ? "target" : "build"))) throw new Error(`${p.name}: the build's outputs reached the workspace`);
    }
    const k = median(kept);
    const u = median(unseen);
    console.log(
      `${p.name}: a second run's build ${k.toFixed(0)} ms with the first run's outputs in view, ${u.toFixed(0)} ms without them (${(k / u).toFixed(2)}x); ` +
        `first run ${median(cold).toFixed(0)} ms; on the host ${median(hostCold).toFixed(0)} ms cold, ${median(hostWarm).toFixed(0)} ms warm`,
    );
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
