/**
 * Mines eval/localisation/commits.jsonl: real bug-fix commits of public repositories, each a case
 * of "find the files a fix changes". The rule, fixed before any ranking was run on the cases: a
 * non-merge commit whose subject starts with "fix" or "bug" (conventional "fix:" and "fix(x):"
 * included), changing one to three source files that are not tests; the newest PER_REPO such
 * commits of each repository. Task = the commit message (subject and body, at most 600
 * characters); gold = those files; checkout = the commit's parent. Split by the commit's hash: a
 * third test (never tuned on), the rest dev. pallets/click, encode/httpx and axios/axios are held
 * out by the reviewers and never mined.
 *   bun eval/localisation/mine.ts /work/.mirror     (directories OWNER+NAME/repo, from the search tool's fetch)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const REPOS = ["psf/requests", "spf13/cobra", "expressjs/express", "google/gson", "colinhacks/zod", "BurntSushi/ripgrep"];
const HELD_OUT = new Set(["pallets/click", "encode/httpx", "axios/axios"]);
const PER_REPO = 28;
const SOURCE = /\.(?:py|go|js|mjs|cjs|ts|tsx|java|rs)$/;
const TEST = /(?:^|\/)(?:tests?|__tests__|spec|testdata|fixtures?)\/|[._-](?:test|spec)s?\.[a-z]+$|(?:^|\/)test_[^/]+\.py$|_test\.go$|(?:^|\/)src\/test\//i;

const mirrors = process.argv[2];
if (!mirrors) throw new Error("usage: bun eval/localisation/mine.ts MIRRORS_DIR");
const out: string[] = [];
for (const repo of REPOS) {
  if (HELD_OUT.has(repo)) throw new Error(`${repo} is held out`);
  const gitDir = join(mirrors, repo.replace("/", "+"), "repo");
  const git = (...a: string[]) => Bun.spawnSync(["git", `--git-dir=${gitDir}`, ...a]).stdout.toString();
  const log = git("log", "--no-merges", "--format=%H%x00%P%x00%s%x00%b%x1e", "HEAD").split("\x1e").map((r) => r.trim()).filter(Boolean);
  let taken = 0;
  for (const rec of log) {
    if (taken >= PER_REPO) break;
    const [sha, parents, subject, body] = rec.split("\x00");
    if (!sha || !parents || parents.includes(" ") || !/^(?:fix|fixes|fixed|fixing|bug|bugfix)\b/i.test(subject!.trim())) continue;
    const changed = git("diff-tree", "--no-commit-id", "--name-only", "-r", sha).trim().split("\n").filter(Boolean);
    const gold = changed.filter((f) => SOURCE.test(f) && !TEST.test(f));
    if (gold.length < 1 || gold.length > 3) continue;
    const task = `${subject!.trim()}\n\n${(body ?? "").trim()}`.trim().slice(0, 600);
    const split = parseInt(sha.slice(0, 8), 16) % 3 === 0 ? "test" : "dev";
    out.push(JSON.stringify({ id: `${repo}@${sha.slice(0, 12)}`, repo, commit: sha, parent: parents, task, gold, split }));
    taken++;
  }
  console.log(`${repo}: ${taken} cases`);
}
writeFileSync(join(import.meta.dir, "commits.jsonl"), `${out.join("\n")}\n`);
console.log(`wrote ${out.length} cases`);
