import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { tempDir } from "../support/temp.ts";
import { e2eWorld } from "../support/world.ts";
import { detectSandbox } from "../../src/workspace/sandbox.ts";
import { viewTools } from "../../src/workspace/view.ts";

/**
 * Multi-step writes, each killed at every step through the binary (WEIR_FAULT_AT), the next process
 * finishing it. A command's change set is settled in several writes (a removal, a rewrite, a directory replaced,
 * one moved in whole, a link, a config held). weir is killed at every step of that settle, in turn,
 * through the binary (WEIR_FAULT_AT); the next process to open the workspace finishes it. The oracle
 * is the disk: the workspace ends as a run that was never killed leaves it, the held config is listed
 * once, nothing of the killed run is left behind, and `weir undo` puts back the workspace as it was.
 */
const world = e2eWorld();
const probe = tempDir("weir-settle-probe-");
const transactions = detectSandbox().kind === "bwrap" && viewTools(probe.path) !== null;
probe.cleanup();

const COMMAND = [
  "rm keep.txt",
  "echo two > run.sh",
  "rm -rf src && mkdir src && echo b > src/b.txt",
  "mkdir -p out/deep && echo x > out/deep/f.txt",
  "ln -s notes.txt link.txt",
  "echo more >> notes.txt",
  "printf 'save-exact=true\\n' > .npmrc",
].join(" && ");

interface Place {
  ws: string;
  home: string;
}

function place(name: string): Place {
  const p = { ws: join(world.tmp, name, "ws"), home: join(world.tmp, name, "home") };
  mkdirSync(join(p.home, ".config", "weir"), { recursive: true });
  mkdirSync(join(p.ws, "src"), { recursive: true });
  writeFileSync(join(p.ws, "keep.txt"), "keep\n");
  writeFileSync(join(p.ws, "run.sh"), "echo hi\n");
  chmodSync(join(p.ws, "run.sh"), 0o644);
  writeFileSync(join(p.ws, "notes.txt"), "n\n");
  writeFileSync(join(p.ws, "src", "a.txt"), "a\n");
  writeFileSync(join(p.ws, "src", "old.txt"), "old\n");
  git(p, "init", "-q");
  git(p, "add", "-A");
  git(p, "commit", "-qm", "init");
  return p;
}

/** Git in a place's workspace, with its home and a committer. */
const git = (p: Place, ...args: string[]) =>
  Bun.spawnSync(["git", ...args], { cwd: p.ws, env: { PATH: process.env.PATH ?? "", HOME: p.home, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });

/** Every path of the workspace but git's own, with what it is: a file's bytes and mode, a link's target. */
function snapshot(root: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, rel)).sort()) {
    if (!rel && name === ".git") continue;
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(root, r));
    if (st.isSymbolicLink()) out[r] = `link ${readlinkSync(join(root, r))}`;
    else if (st.isDirectory()) Object.assign(out, { [r]: "dir" }, snapshot(root, r));
    else out[r] = `file ${(st.mode & 0o777).toString(8)} ${readFileSync(join(root, r), "utf8")}`;
  }
  return out;
}

const MODEL = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m", "--verify-floor", "off", "--yes"];

async function runCommand(p: Place, faultAt?: string) {
  world.server.script({ turns: [{ toolCalls: [{ id: "c", name: "shell", input: { command: COMMAND } }] }, { text: "done" }] });
  return runWeir([...MODEL(), "--cwd", p.ws, "tidy the project"], { home: p.home, ...(faultAt ? { env: { WEIR_FAULT_AT: faultAt } } : {}) });
}

const heldPaths = async (p: Place) => {
  const r = await runWeir(["changes", "--json", "--cwd", p.ws], { home: p.home });
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { held: { rel: string }[] }[]).map((l) => l.held.map((h) => h.rel));
};

const layers = (p: Place) => {
  const dir = join(p.home, ".local", "share", "weir", "changes");
  return readdirSync(dir).flatMap((w) => readdirSync(join(dir, w)));
};

describe.skipIf(!transactions)("a settle, an apply and a drop killed part-way are finished by the next process", () => {
  test("the workspace ends as an unkilled run leaves it, the held config is listed once, and undo puts it all back", async () => {
    const clean = place("clean");
    const before = snapshot(clean.ws);
    expect((await runCommand(clean)).code).toBe(0);
    const after = snapshot(clean.ws);
    expect(after["out/deep/f.txt"]).toBe("file 644 x\n");
    expect(after["src/old.txt"]).toBeUndefined();
    expect(after[".npmrc"]).toBeUndefined();
    expect(await heldPaths(clean)).toEqual([[".npmrc"]]);

    const points = ["settle-journal", ...Array.from({ length: 30 }, (_, i) => `settle-step:${i}`), "settle-steps-done"];
    let killedAt = 0;
    for (const [i, point] of points.entries()) {
      const p = place(`k${i}`);
      const killed = await runCommand(p, point);
      // A step past the last is never reached: the run ends as the clean one did.
      if (killed.code === 0) {
        expect(point).toStartWith("settle-step:");
        expect(snapshot(p.ws)).toEqual(after);
        continue;
      }
      killedAt++;
      // The next process: every other time a run's start, else `weir changes`.
      if (i % 2 === 1) {
        world.server.script({ turns: [{ text: "hello" }] });
        expect((await runWeir([...MODEL(), "--cwd", p.ws, "say hello"], { home: p.home })).code).toBe(0);
      }
      expect({ point, held: await heldPaths(p) }).toEqual({ point, held: [[".npmrc"]] });
      expect({ point, ws: snapshot(p.ws) }).toEqual({ point, ws: after });
      // Nothing of the killed run is left but the held layer.
      expect({ point, layers: layers(p).length }).toEqual({ point, layers: 1 });
      const undone = await runWeir(["undo", "--cwd", p.ws], { home: p.home });
      expect({ point, code: undone.code, err: undone.stderr }).toEqual({ point, code: 0, err: "" });
      expect({ point, ws: snapshot(p.ws) }).toEqual({ point, ws: before });
    }
    // The journal, each step, and the end: more than a handful of kills, each finished.
    expect(killedAt).toBeGreaterThan(6);
  }, 120_000);

  test("a path the person changed before the settle was finished keeps the person's version: the command's is held, and undo leaves it", async () => {
    const p = place("edited");
    expect((await runCommand(p, "settle-step:0")).code).not.toBe(0);
    writeFileSync(join(p.ws, "run.sh"), "echo mine\n");
    expect((await heldPaths(p)).flat().sort()).toEqual([".npmrc", "run.sh"]);
    expect(readFileSync(join(p.ws, "run.sh"), "utf8")).toBe("echo mine\n");
    expect(readFileSync(join(p.ws, "out", "deep", "f.txt"), "utf8")).toBe("x\n");
    const listed = await runWeir(["changes", "--cwd", p.ws], { home: p.home });
    expect(listed.stdout).toContain("run.sh: changed in the workspace after the command ran");
    expect((await runWeir(["undo", "--cwd", p.ws], { home: p.home })).code).toBe(0);
    expect(readFileSync(join(p.ws, "run.sh"), "utf8")).toBe("echo mine\n");
    expect(readFileSync(join(p.ws, "keep.txt"), "utf8")).toBe("keep\n");
  }, 60_000);

  test("`weir changes apply` killed part-way is finished by the next `weir changes`: every held file lands once, and the layer goes", async () => {
    const p = place("apply");
    world.server.script({ turns: [{ toolCalls: [{ id: "c", name: "shell", input: { command: "mkdir -p .cfg && echo 1 > .cfg/a && echo 2 > .cfg/b && echo 3 > .cfg/c" } }] }, { text: "done" }] });
    expect((await runWeir([...MODEL(), "--cwd", p.ws, "configure"], { home: p.home })).code).toBe(0);
    const list = await runWeir(["changes", "--json", "--cwd", p.ws], { home: p.home });
    const id = (JSON.parse(list.stdout) as { id: string }[])[0]!.id;
    const killed = await runWeir(["changes", "apply", id, "--cwd", p.ws], { home: p.home, env: { WEIR_FAULT_AT: "settle-step:2" } });
    expect(killed.code).not.toBe(0);
    expect((await heldPaths(p))).toEqual([]);
    expect(["a", "b", "c"].map((n) => readFileSync(join(p.ws, ".cfg", n), "utf8"))).toEqual(["1\n", "2\n", "3\n"]);
    expect(layers(p)).toEqual([]);
  }, 60_000);

  test("`weir changes drop` killed between its two steps leaves no listed layer, and nothing of it after the next process", async () => {
    const p = place("drop");
    world.server.script({ turns: [{ toolCalls: [{ id: "c", name: "shell", input: { command: "mkdir -p .cfg && echo 1 > .cfg/a" } }] }, { text: "done" }] });
    expect((await runWeir([...MODEL(), "--cwd", p.ws, "configure"], { home: p.home })).code).toBe(0);
    const id = (JSON.parse((await runWeir(["changes", "--json", "--cwd", p.ws], { home: p.home })).stdout) as { id: string }[])[0]!.id;
    const killed = await runWeir(["changes", "drop", id, "--cwd", p.ws], { home: p.home, env: { WEIR_FAULT_AT: "layer-drop" } });
    expect(killed.code).not.toBe(0);
    expect(await heldPaths(p)).toEqual([]);
    expect(layers(p)).toEqual([]);
    expect(snapshot(p.ws)[".cfg"]).toBeUndefined();
  }, 60_000);
});

describe.skipIf(!transactions)("build layers folded into one, killed at every step of the fold", () => {
  const build = async (p: Place, command: string, faultAt?: string) => {
    world.server.script({ turns: [{ toolCalls: [{ id: "b", name: "shell", input: { command } }] }, { text: "built" }] });
    return runWeir([...MODEL(), "--cwd", p.ws, "build it"], { home: p.home, ...(faultAt ? { env: { WEIR_FAULT_AT: faultAt } } : {}) });
  };
  const FIRST = "mkdir -p build/b && echo 1 > build/a && echo 1 > build/b/c && rm build/w.txt";
  const SECOND = "echo 2 > build/a && rm -rf build/b && mkdir -p build/d && echo 2 > build/d/e";
  const LOOK = "find build | sort | tr '\\n' ' ' && cat build/a build/d/e";

  test("the next process finishes the fold: one layer, and later commands see what the two builds left", async () => {
    const points = [...Array.from({ length: 6 }, (_, i) => `fold-step:${i}`), "fold-manifest"];
    let killedAt = 0;
    for (const [i, point] of points.entries()) {
      const p = place(`fold-${i}`);
      mkdirSync(join(p.ws, "build"));
      writeFileSync(join(p.ws, "build", "w.txt"), "w\n");
      writeFileSync(join(p.ws, ".gitignore"), "build/\n");
      git(p, "add", ".gitignore");
      git(p, "commit", "-qm", "ignore the build");
      expect((await build(p, FIRST)).code).toBe(0);
      const killed = await build(p, SECOND, point);
      if (killed.code !== 0) killedAt++;
      // The next process (`weir changes`) finishes the fold. The first build's build/b, removed by the
      // second, leaves nothing; the workspace's own build/w.txt, removed, stays removed.
      expect({ point, held: await heldPaths(p) }).toEqual({ point, held: [["build", "build/a", "build/d", "build/d/e", "build/w.txt"]] });
      expect({ point, layers: layers(p).length }).toEqual({ point, layers: 1 });
      const seen = await build(p, LOOK);
      expect(seen.code).toBe(0);
      const result = JSON.stringify(world.server.requests.at(-1)!.body.messages);
      expect({ point, seen: result.includes("build build/a build/d build/d/e 2\\n2") }).toEqual({ point, seen: true });
      // None of it reached the workspace, whose own ignored file stays.
      expect({ point, ws: readdirSync(join(p.ws, "build")) }).toEqual({ point, ws: ["w.txt"] });
    }
    expect(killedAt).toBeGreaterThanOrEqual(5);
  }, 120_000);
});

describe.skipIf(!transactions)("an undo killed at every step is finished by the next weir undo", () => {
  test("whatever it is asked, the next undo finishes the one cut short and only that: the workspace is as it was before the task", async () => {
    const clean = place("undo-clean");
    const before = snapshot(clean.ws);
    let killedAt = 0;
    for (let k = 0; k < 40; k++) {
      const p = place(`undo-${k}`);
      expect((await runCommand(p)).code).toBe(0);
      // A second task, with a file action, that the cut-short undo must not reach past.
      world.server.script({ turns: [{ toolCalls: [{ id: "w", name: "write_file", input: { path: "later.txt", content: "later\n" } }] }, { text: "done" }] });
      expect((await runWeir([...MODEL(), "--cwd", p.ws, "write later.txt"], { home: p.home })).code).toBe(0);
      const undo = (env?: Record<string, string>) => runWeir(["undo", "2", "--cwd", p.ws], { home: p.home, ...(env ? { env } : {}) });
      const killed = await undo({ WEIR_FAULT_AT: `undo-restore:${k}` });
      if (killed.code === 0) {
        expect(snapshot(p.ws)).toEqual(before);
        break;
      }
      killedAt++;
      // Asked for one more task than the cut-short undo had left, it still finishes only that one.
      const finished = await runWeir(["undo", "5", "--cwd", p.ws], { home: p.home });
      expect({ k, code: finished.code, err: finished.stderr }).toEqual({ k, code: 0, err: "" });
      // The newer task's record goes once it is put back: one task may be left of the two.
      expect(finished.stdout).toMatch(/^finished an undo that was cut short \((1 task|2 tasks)\): \d+ paths as they were; nothing else was undone\n/);
      expect({ k, ws: snapshot(p.ws) }).toEqual({ k, ws: before });
      const again = await runWeir(["undo", "--cwd", p.ws], { home: p.home });
      expect([again.code, again.stderr.trim()]).toEqual([2, "weir: nothing to undo in this workspace"]);
    }
    expect(killedAt).toBeGreaterThan(6);
  }, 180_000);
});
