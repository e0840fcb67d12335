/**
 * Times context compiles in a fresh process (the way the loop holds an index): one cold, then warm
 * ones. Prints JSON.   bun bench/lib/compile-timer.ts REPO GOAL
 */
import { compileContext } from "../../src/context/compiler.ts";
import { ContextIndex, gatherCandidates } from "../../src/context/sources.ts";
import { sized } from "./measure.ts";

const [repo, goal] = [process.argv[2]!, process.argv[3]!];
const index = new ContextIndex();
const once = async () => {
  const t0 = performance.now();
  const g = await gatherCandidates(repo, goal, { home: repo, index });
  const t1 = performance.now();
  const c = compileContext(g.candidates, 20_000);
  return { ms: performance.now() - t0, gatherMs: t1 - t0, candidates: g.candidates.length, used: c.used };
};
const cold = await once();
const warm = [];
for (let i = 0; i < sized(5, 1); i++) warm.push(await once());
console.log(JSON.stringify({ cold, warm }));
