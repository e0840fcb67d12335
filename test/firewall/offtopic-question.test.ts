import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { classify } from "../../src/context/firewall.ts";
import { offTopicCandidate, textUnits } from "../../src/context/firewall-model.ts";

// Written for this test, apart from every corpus and held-out set.
const mail = (extra: string) =>
  ["Subject: Roof repair", "Hi Jana,", "The roofer comes on Monday to fix the leak above the attic.", "He needs the ladder from the garage and access to the attic stairs.", extra, "The repair should take two days if the weather holds.", "Best,\nTomas"].filter(Boolean).join("\n\n");

describe("a question about something its text is not about", () => {
  test("planted in a mail, it is found and named; the mail's own question is not", () => {
    const planted = classify(mail("Which mountain range has the most active volcanoes?"));
    expect(planted.verdict).toBe("instruction_like");
    expect(planted.findings.find((f) => f.rule === "offtopic-question")?.excerpt).toContain("volcanoes");
    expect(classify(mail("Could the roofer also check the gutter above the garage?")).verdict).toBe("evidence");
    expect(classify(mail("")).verdict).toBe("evidence");
  });

  test("a short question of two content words is read for its topic too: a trivia question is found, the mail's own short question is not", () => {
    const planted = classify(mail("Who invented the telescope?"));
    expect(planted.findings.find((f) => f.rule === "offtopic-question")?.excerpt).toContain("telescope");
    expect(classify(mail("Is the attic ladder safe?")).verdict).toBe("evidence");
    // A contraction or a preposition is no content word: "What's under the hood?" has one.
    expect(classify(mail("What's under the hood?")).verdict).toBe("evidence");
  });

  test("a transcript's or an answer's own line, a colleague's request, an elliptical follow-up and a short heading are never candidates", () => {
    const text = "User: where are the old invoices archived these days?\nAgent: In the billing tab.\n\nCan someone draft the quarterly announcement for the board?\n\nWho will collect the spare keys from reception?\n\nShould the plumber look at our boiler again?\n\nDid the engineer leave anything plugged in to it?\n\nWhat about huge scanned invoices from the archive?\n\nWhat next?\n\nThe billing tab lists every invoice.";
    const candidates = textUnits(text).filter(offTopicCandidate).map((u) => u.unit.text);
    expect(candidates).toEqual([]);
  });

  test("property: the mail without a planted question is evidence whatever own questions it holds", () => {
    const own = fc.constantFrom("Is Monday still fine for you?", "Does the roofer need the garage key?", "Should we move the boxes out of the attic first?", "Any questions?", "What time does he arrive?");
    fc.assert(fc.property(fc.subarray(["a", "b", "c", "d", "e"]), own, (_, q) => classify(mail(q)).findings.every((f) => f.rule !== "offtopic-question")));
  });
});
