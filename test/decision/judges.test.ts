import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DecisionPlane, type DecisionRecord } from "../../src/decision/plane.ts";
import { answersFromLogprobs, httpJudge, llmJudge, logprobsJudge } from "../../src/decision/judges.ts";
import { AGENT_CONTEXT_V1 } from "../../src/decision/questions.ts";
import { MockServer } from "../support/mock-server.ts";
import { provider, settingsFor, WIRES } from "../support/providers.ts";
import { request } from "../support/requests.ts";

let server: MockServer;
beforeAll(async () => {
  server = await new MockServer().start();
});
afterAll(() => server.stop());
const signal = new AbortController().signal;

const TOOL_ANSWER = {
  context_sufficient: 0.2,
  continue_retrieval: 0.9,
  semantic_navigation_required: 0.1,
  verification_escalation: 0.7,
  next_action: { retrieve: 0.8, edit_then_verify: 0.2 },
  risk_surface: { local_logic: 1 },
  evidence_density: 0.4,
};

function plane(judge: DecisionPlane["opts" & never] | any, mode: "shadow" | "increase-only" = "increase-only") {
  const records: DecisionRecord[] = [];
  return { p: new DecisionPlane({ provider: judge, mode, record: (r) => records.push(r) }), records };
}

describe.each(WIRES)("the llm judgment provider over the %s wire", (wire) => {
  test("answers every question in one batched request through one structured tool call", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "j1", name: "answer_questions", input: TOOL_ANSWER }] }] });
    const before = server.requests.length;
    const { p, records } = plane(llmJudge(await provider(settingsFor(wire, server.url))));
    const d = await p.decide(request(), true, signal);
    expect(server.requests.length - before).toBe(1);
    const sent = server.requests.at(-1)!.body;
    expect(JSON.stringify(sent)).toContain("untrusted_notes");
    expect(records[0]!.candidate!.context_sufficient).toEqual({ type: "yes_no", p_yes: 0.2 });
    expect(records[0]!.deltas.context_sufficient).toBeCloseTo(-0.8);
    expect(records[0]!.deltas.next_action).toBe(true);
    // Increase-only: the candidate added retrieval and full verification to a baseline that allowed the edit.
    expect(d.guidance).toMatchObject({ retrieve: true, verification: "full", allow_edit: false, next_action: "retrieve" });
    expect(records[0]!.request_bytes).toBeGreaterThan(1000);
  });

  test("a provider failure falls back to the baseline, is recorded, and never throws", async () => {
    server.script({ turns: [{ fault: "garbage" }] });
    const { p, records } = plane(llmJudge(await provider(settingsFor(wire, server.url))));
    const d = await p.decide(request(), true, signal);
    expect(d.guidance.next_action).toBe("edit_then_verify");
    expect(records[0]!.error).toContain("malformed");
  });
});

describe("other providers", () => {
  test("logprobs: P(yes) is read from the yes/no token alternatives of a one-token answer", async () => {
    server.script({
      turns: [
        {
          text: "context_sufficient=N\ncontinue_retrieval=Y\nsemantic_navigation_required=N\nverification_escalation=N\nnext_action=A\nrisk_surface=E\nevidence_density=7",
          logprobs: { context_sufficient: { N: 0.7, Y: 0.3 }, continue_retrieval: { Y: 0.6, N: 0.4 }, next_action: { A: 0.5, D: 0.5 }, evidence_density: { "7": 0.5, "9": 0.5 } },
        },
      ],
    });
    const { p, records } = plane(logprobsJudge(settingsFor("chat", server.url)), "shadow");
    await p.decide(request(), true, signal);
    await Bun.sleep(100);
    const body = server.requests.at(-1)!.body;
    expect(body.logprobs).toBe(true);
    const c = records[0]!.candidate!;
    expect((c.context_sufficient as { p_yes: number }).p_yes).toBeCloseTo(0.3);
    expect((c.continue_retrieval as { p_yes: number }).p_yes).toBeCloseTo(0.6);
    expect((c.next_action as { distribution: Record<string, number> }).distribution).toMatchObject({ retrieve: 0.5, edit_then_verify: 0.5 });
    expect((c.evidence_density as { value: number }).value).toBeCloseTo((0.5 * 7) / 9 + (0.5 * 9) / 9);
    expect(records[0]!.resolved_model).toBe("mock-model-2026-11-01");
  });

  test("answersFromLogprobs handles an answer token that carries the '='", () => {
    const a = answersFromLogprobs(AGENT_CONTEXT_V1, [
      { token: "context_sufficient", logprob: 0, top: [] },
      { token: "=Y", logprob: Math.log(0.9), top: [{ token: "=Y", logprob: Math.log(0.9) }, { token: "=N", logprob: Math.log(0.1) }] },
    ]);
    expect((a.context_sufficient as { p_yes: number }).p_yes).toBeCloseTo(0.9);
  });

  test("http: the documented JSON protocol over undici, the key only in the header; bad shapes and redirects fall back", async () => {
    let seen: any;
    let auth = "";
    let mode: "ok" | "bad" | "redirect" = "ok";
    const http = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        seen = await req.json();
        auth = req.headers.get("authorization") ?? "";
        if (mode === "redirect") return new Response(null, { status: 302, headers: { location: "http://127.0.0.1:1/x" } });
        if (mode === "bad") return Response.json({ nope: true });
        return Response.json({ answers: { context_sufficient: { type: "yes_no", p_yes: 0.1 } }, model: "judge-v2" });
      },
    });
    try {
      const j = httpJudge(`http://127.0.0.1:${http.port}/judge`, "secret-judge-key", 2000);
      const { p, records } = plane(j);
      await p.decide(request(), true, signal);
      expect(seen.protocol).toBe("weir.judgment/1");
      expect(seen.question_set.id).toBe("weir.agent_context");
      expect(JSON.stringify(seen)).not.toContain("secret-judge-key");
      expect(auth).toBe("Bearer secret-judge-key");
      expect(records[0]!.resolved_model).toBe("judge-v2");
      expect(records[0]!.missing.length).toBe(6);
      mode = "bad";
      await p.decide(request(), true, signal);
      expect(records[1]!.error).toContain("wrong shape");
      mode = "redirect";
      await p.decide(request(), true, signal);
      expect(records[2]!.error).toContain("302");
    } finally {
      await http.stop(true);
    }
    expect(() => httpJudge("http://judge.example.com/x", undefined, 1000)).toThrow("must use https");
  });

  test("shadow mode records but never changes the guidance", async () => {
    server.script({ turns: [{ toolCalls: [{ id: "j1", name: "answer_questions", input: TOOL_ANSWER }] }] });
    const { p, records } = plane(llmJudge(await provider(settingsFor("chat", server.url))), "shadow");
    const d = await p.decide(request(), true, signal);
    expect(d.guidance.next_action).toBe("edit_then_verify");
    for (let i = 0; i < 50 && records.length === 0; i++) await Bun.sleep(20);
    expect(records[0]!.mode).toBe("shadow");
    expect(records[0]!.deltas.next_action).toBe(true);
    expect(records[0]!.violations).toEqual([]);
  });
});
