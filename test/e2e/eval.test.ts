import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { tempDir } from "../support/temp.ts";

const SUITE = join(import.meta.dir, "..", "..", "eval", "suites", "agent-context.jsonl");
let tmp: ReturnType<typeof tempDir>;
let home: string;
beforeAll(() => {
  tmp = tempDir();
  home = realpathSync(tmp.path);
});
afterAll(() => tmp.cleanup());

const weir = (args: string[]) => runWeir(args, { home, cwd: home });

describe("weir eval from the CLI", () => {
  test("the offline main job: replay the bundled suite with the learned provider, calibrate, and write the report", async () => {
    const run = await weir(["eval", "run", SUITE, "--provider", "learned", "--run", "main"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("run main (learned): 186 cases, 186 with a candidate answer");
    const cal = await weir(["eval", "calibrate", "--run", "main"]);
    expect(cal.code).toBe(0);
    const policy = JSON.parse(readFileSync(join(home, "policies", "decision-policy.json"), "utf8"));
    expect(policy).toMatchObject({ kind: "weir.decision-policy", question_set: "weir.agent_context@2", provider: "learned", sample_size: 186 });
    expect(policy.questions.context_sufficient.band.falseStop).toBeLessThanOrEqual(0.02);
    // Calibrating again from the same data leaves the file as it is (the tree stays clean), and
    // --cwd puts the policy in that project's policies/, where its runs look for it.
    const before = readFileSync(join(home, "policies", "decision-policy.json"), "utf8");
    const again = await weir(["eval", "calibrate", "--run", "main"]);
    expect(again.stdout).toContain("is unchanged");
    expect(readFileSync(join(home, "policies", "decision-policy.json"), "utf8")).toBe(before);
    mkdirSync(join(home, "proj"));
    expect((await weir(["eval", "calibrate", "--run", "main", "--cwd", join(home, "proj")])).code).toBe(0);
    expect(existsSync(join(home, "proj", "policies", "decision-policy.json"))).toBe(true);
    const rep = await weir(["eval", "report", "--run", "main", "--json", "--html", join(home, "report.html")]);
    expect(rep.code).toBe(0);
    expect(JSON.parse(rep.stdout).report.cases).toBe(186);
    expect(existsSync(join(home, "report.html"))).toBe(true);
  });

  test("shards run apart and merge into one complete run", async () => {
    const a = await weir(["eval", "run", SUITE, "--shard", "1/2", "--db", join(home, "a.db")]);
    const b = await weir(["eval", "run", SUITE, "--shard", "2/2", "--db", join(home, "b.db")]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const m = await weir(["eval", "merge", join(home, "a.db"), join(home, "b.db"), "--db", join(home, "merged.db")]);
    expect(m.code).toBe(0);
    expect(m.stdout).toContain("merged 2 shard run(s)");
    expect(m.stdout).toContain("186 results");
    const runs = await weir(["eval", "runs", "--db", join(home, "merged.db")]);
    expect(runs.stdout).toMatch(/merged-\w+-baseline +baseline +shard all +186\/186 +finished/);
  });

  test("bad suite input: a missing file and an unknown provider are one-line errors", async () => {
    const missing = await weir(["eval", "run", join(home, "nope.jsonl")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read suite");
    const bad = await weir(["eval", "run", SUITE, "--provider", "oracle"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--provider oracle is not an eval source");
  });

  test.skipIf(!Bun.which("chromium"))("the HTML report renders in headless Chromium and its figures match the JSON", async () => {
    const rep = await weir(["eval", "report", "--run", "main", "--json", "--html", join(home, "r2.html")]);
    const json = JSON.parse(rep.stdout).report;
    const p = Bun.spawnSync(
      ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${join(home, "chrome")}`, "--dump-dom", `file://${join(home, "r2.html")}`],
      { stdout: "pipe", stderr: "ignore", timeout: 60_000 },
    );
    const dom = p.stdout.toString();
    expect(dom).toContain("weir eval report");
    const cells = [...dom.matchAll(/data-metric="([^"]+)">([^<]+)</g)].map((m) => [m[1]!, m[2]!] as const);
    expect(cells.length).toBeGreaterThan(40);
    for (const [key, shown] of cells) {
      const [q, src, metric] = key.split(".") as [string, "baseline" | "candidate", string];
      const qr = json.questions.find((x: any) => x.id === q)[src];
      const v = metric === "eceEqualWidth" ? qr.ece.equalWidth : metric === "eceEqualMass" ? qr.ece.equalMass : metric === "eceIfCalibrated" ? qr.ece.ifCalibrated : qr[metric];
      expect(shown).toBe(v.toFixed(3));
    }
    expect((dom.match(/<svg class="reliability"/g) ?? []).length).toBe(4);
    expect((dom.match(/<table class="confusion"/g) ?? []).length).toBe(4);
  });
});
