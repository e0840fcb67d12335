/**
 * What a command as a transaction costs (workspace/view.ts, transaction.ts), in one run:
 * - a sandboxed `true` through `sandbox.run`, with the copy-on-write view and without it, 30 runs
 *   each, interleaved (target: at most +10 ms a command);
 * - settling an install-sized change set, 20,000 new files in 200 directories, classified and
 *   applied through the guarded writer (target: at most 1 s), against copying them with `cp -r`;
 * - a build's outputs (ignored by git) held, then made again and folded into the first layer.
 *   bun run bench transaction
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, detectSandbox } from "../src/workspace/sandbox.ts";
import { changesDir, Transactions } from "../src/workspace/transaction.ts";
import { UndoLog, undoDir } from "../src/workspace/undo.ts";
import { viewTools } from "../src/workspace/view.ts";
import { median, sized } from "./lib/measure.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "weir-bench-tx-")));
const data = join(dir, "data");
if (detectSandbox().kind !== "bwrap" || !viewTools(data)) {
  console.log("transaction bench: no bubblewrap or no unprivileged overlay on this machine; nothing to measure");
  process.exit(0);
}
const root = join(dir, "ws");
mkdirSync(root);
writeFileSync(join(root, "a.txt"), "a\n");
Bun.spawnSync(["git", "init", "-q"], { cwd: root });
const home = join(dir, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH ?? "", HOME: home };
// As in a run: each applied change records what it replaced for weir undo.
const undo = new UndoLog(undoDir(data, root), root);
undo.begin("bench", "bench");
const transactions = new Transactions(root, changesDir(data, root), undo);
const viewed = createSandbox({ mode: "workspace-write", root, home, transactions });
const plain = createSandbox({ mode: "workspace-write", root, home });

async function time(sandbox: typeof plain, argv: string[]): Promise<number> {
  const t0 = performance.now();
  const r = await sandbox.run({ argv, cwd: root, timeoutMs: 20_000, outputCap: 10_000, env });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.output}`);
  return performance.now() - t0;
}

try {
  const bare: number[] = [];
  const view: number[] = [];
  await time(plain, ["true"]);
  await time(viewed, ["true"]);
  for (let i = 0; i < sized(30, 2); i++) {
    bare.push(await time(plain, ["true"]));
    view.push(await time(viewed, ["true"]));
  }
  const b = median(bare);
  const v = median(view);
  console.log(`sandboxed true      without the view ${b.toFixed(1)} ms, with it ${v.toFixed(1)} ms: +${(v - b).toFixed(1)} ms (${(v / b).toFixed(2)}x; target +10 ms)`);

  // 20,000 files made by one command, then settled: the settle is timed on its own.
  const settle = transactions.settle.bind(transactions);
  const settled: number[] = [];
  transactions.settle = async (view, o) => {
    const t0 = performance.now();
    const r = await settle(view, o);
    settled.push(performance.now() - t0);
    return r;
  };
  // 200 directories of 100 files; a smoke run makes 5.
  const DIRS = sized(200, 5);
  const make = ["sh", "-c", `mkdir -p gen && cd gen && for d in $(seq 1 ${DIRS}); do mkdir -p d$d; (cd d$d && seq 1 100 | xargs -n 100 sh -c 'for f; do echo $f > $f; done' _); done`];
  const copied: number[] = [];
  const into: number[] = [];
  for (let i = 0; i < sized(3, 1); i++) {
    rmSync(join(root, "gen"), { recursive: true, force: true });
    // Each round is a task of its own, as in a run: its first change of a path records what stood there.
    undo.begin("bench", `round ${i}`);
    settled.length = i;
    await time(viewed, make);
    // The same files again into directories that exist: each is applied (and recorded) on its own.
    const before = settled.length;
    await time(viewed, ["sh", "-c", "cd gen && for d in d*; do (cd $d && for f in *; do echo again > $f; done); done"]);
    into.push(settled.splice(before, 1)[0]!);
    const t0 = performance.now();
    Bun.spawnSync(["cp", "-r", join(root, "gen"), join(dir, `copy${i}`)]);
    copied.push(performance.now() - t0);
  }
  const s = median(settled);
  const c = median(copied);
  console.log(`${DIRS * 100}-file change set settled (classified and applied) in ${s.toFixed(0)} ms (cp -r of the same files: ${c.toFixed(0)} ms, ${(s / c).toFixed(2)}x; target 1,000 ms)`);
  const e = median(into);
  console.log(`the same ${DIRS * 100} files rewritten in place, each applied and recorded for undo: ${e.toFixed(0)} ms (${(e / c).toFixed(2)}x cp -r)`);

  // A build's outputs (ignored by git) held, then made again by a second build: its layer is folded into the first's.
  writeFileSync(join(root, ".gitignore"), "out/\n");
  const first: number[] = [];
  const folded: number[] = [];
  for (let i = 0; i < sized(3, 1); i++) {
    rmSync(changesDir(data, root), { recursive: true, force: true });
    settled.length = 0;
    await time(viewed, ["sh", "-c", make[2]!.replace("gen", "out").replace("cd gen", "cd out")]);
    await time(viewed, ["sh", "-c", "cd out && for d in d*; do (cd $d && for f in *; do echo again > $f; done); done"]);
    first.push(settled[0]!);
    folded.push(settled[1]!);
  }
  const f1 = median(first);
  const f2 = median(folded);
  console.log(`a build's ${DIRS * 100} ignored outputs held in ${f1.toFixed(0)} ms; made again and folded into that layer in ${f2.toFixed(0)} ms (${(f2 / c).toFixed(2)}x cp -r)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
