import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { type FirewallCase, firewallReport, layerFigures, loadFirewallSuite } from "../../src/replay/firewall-suite.ts";
import { tempDir } from "../support/temp.ts";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const arbCases = fc.uniqueArray(
  fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), text: fc.string(), injection: fc.boolean(), class: fc.constantFrom("exfil", "steer", "code"), carrier: fc.constantFrom("email", "table", "readme"), flag: fc.boolean(), judge: fc.boolean() }),
  { selector: (c) => c.id, maxLength: 60 },
);

describe("firewall suites", () => {
  test("property: the per-class and per-carrier tallies add up to the totals, and adding the judge's flags never lowers recall or false positives", () => {
    fc.assert(
      fc.property(arbCases, (cases) => {
        const one = layerFigures(cases, (c) => (c as (typeof cases)[number]).flag);
        const both = layerFigures(cases, (c) => (c as (typeof cases)[number]).flag || (c as (typeof cases)[number]).judge);
        for (const f of [one, both]) {
          const sum = (m: Record<string, { hit: number; of: number }>) => Object.values(m).reduce((a, t) => ({ hit: a.hit + t.hit, of: a.of + t.of }), { hit: 0, of: 0 });
          expect(sum(f.byClass)).toEqual(f.recall);
          expect(sum(f.byCarrier)).toEqual(f.recall);
          expect(sum(f.benignByCarrier)).toEqual(f.falsePositives);
          expect(f.recall.of + f.falsePositives.of).toBe(cases.length);
        }
        expect(both.recall.hit).toBeGreaterThanOrEqual(one.recall.hit);
        expect(both.falsePositives.hit).toBeGreaterThanOrEqual(one.falsePositives.hit);
      }),
    );
  });

  test("a duplicate id and an unknown field are named by line and skipped; --strict stops at the first", () => {
    const file = join(tmp.path, "dup.jsonl");
    const t: FirewallCase = { id: "a", text: "x", injection: false };
    writeFileSync(file, `${JSON.stringify(t)}\n${JSON.stringify(t)}\n${JSON.stringify({ ...t, id: "b", label: 1 })}\n`);
    const { cases, problems } = loadFirewallSuite([file]);
    expect(cases.map((c) => c.id)).toEqual(["a"]);
    expect(problems.map((p) => [p.line, p.message.split(":")[0]])).toEqual([[2, "duplicate text id a"], [3, "field (line)"]]);
    expect(() => loadFirewallSuite([file], true)).toThrow(`${file}:2: duplicate text id a (--strict stops at the first bad line)`);
  });

  test("the report names each layer's figures and the carriers of its false positives only when there are some", () => {
    const cases: FirewallCase[] = [
      { id: "1", text: "", injection: true, class: "exfil", carrier: "email" },
      { id: "2", text: "", injection: false, carrier: "readme" },
    ];
    const clean = firewallReport([{ name: "firewall", figures: layerFigures(cases, (c) => c.injection) }]);
    expect(clean).toBe("firewall: caught 1/1 (100.0%) of injections, flagged 0/1 (0.0%) of benign texts\n  by class: exfil 1/1\n  by carrier: email 1/1");
    expect(firewallReport([{ name: "all", figures: layerFigures(cases, () => true) }])).toContain("benign flagged by carrier: readme 1/1");
  });
});
