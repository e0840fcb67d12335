import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { appendRotating } from "../../src/cli/commands/events.ts";
import { redactPreview } from "../../src/supervisor/redact.ts";
import { startStatusServer } from "../../src/supervisor/status-server.ts";
import { Supervisor } from "../../src/supervisor/supervisor.ts";
import { DEFAULT_RULES, severityOf, verdictsFor } from "../../src/supervisor/verdicts.ts";
import { tempDir } from "../support/temp.ts";
import { workspace } from "../support/workspace.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

describe("redactPreview", () => {
  test("masks tokens, passwords, bearer headers and keys; at most 120 characters", () => {
    const out = redactPreview({ url: "https://user:hunter2@example.com", headers: { Authorization: "Bearer abc.def.ghi" }, password: "p4ss", cmd: "OPENAI_API_KEY=sk-live-1234567890abcdef run" });
    for (const secret of ["hunter2", "abc.def", "p4ss", "sk-live"]) expect(out).not.toContain(secret);
    expect(out.length).toBeLessThanOrEqual(120);
  });

  test("a 200 KB argument (a file body) is previewed from its head; a long run is masked whole", () => {
    // Masking the whole body used to take seconds per call: previews mask only what they show.
    const body = "a".repeat(200_000);
    expect(redactPreview({ path: "f.txt", content: body })).toStartWith('{"path":"f.txt","content":"aaaa');
    expect(redactPreview({ content: `${"Zx9".repeat(100)}tail` })).toBe('{"content":"****…"}');
  });

  test("property: a generated secret placed in any argument never appears in the preview", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{24,40}$/), fc.constantFrom("token", "api_key", "secret", "note"), (secret, key) => {
        expect(redactPreview({ [key]: `value ${secret}`, args: [`--auth=${secret}`] })).not.toContain(secret);
      }),
    );
  });
});

describe("verdicts", () => {
  const t0 = 1_000_000;
  const call = { startedAt: t0, lastOutputAt: t0, consecutiveFailures: 0 };
  test("slow, hanging and stuck by age and silence; stalled outranks degraded", () => {
    expect(verdictsFor(call, t0 + 10_000)).toEqual([]);
    expect(verdictsFor(call, t0 + 31_000).map((v) => v.id)).toEqual(["slow"]);
    expect(verdictsFor({ ...call, lastOutputAt: t0 + 100_000 }, t0 + 121_000).map((v) => v.id)).toEqual(["hanging"]);
    const v = verdictsFor({ ...call, consecutiveFailures: 3 }, t0 + 301_000);
    expect(v.map((x) => x.id)).toEqual(["stuck", "hanging", "error_storm"]);
    expect(severityOf(v)).toBe("stalled");
  });

  test("awaiting approval, a silent model stream, memory growth; a disabled rule is silent", () => {
    expect(verdictsFor({ ...call, awaitingSince: t0 }, t0 + 21_000).map((v) => v.id)).toEqual(["awaiting_approval"]);
    expect(verdictsFor({ ...call, model: true }, t0 + 91_000).map((v) => v.id)).toEqual(["silent"]);
    expect(verdictsFor(call, t0, DEFAULT_RULES, [100, 103, 106, 109, 115]).map((v) => v.id)).toEqual(["memory_growth"]);
    expect(verdictsFor(call, t0, DEFAULT_RULES, [100, 90, 106, 109, 115])).toEqual([]);
    expect(verdictsFor(call, t0 + 31_000, { ...DEFAULT_RULES, slow: { enabled: false, threshold: 30_000 } })).toEqual([]);
  });
});

describe("stopping one call", () => {
  let ws: ReturnType<typeof workspace>;
  afterEach(() => ws.cleanup());

  test("a real long-running subprocess is stopped by id with its whole tree; the next call still runs", async () => {
    ws = workspace({ "a.txt": "A" });
    const supervisor = new Supervisor({ heartbeatMs: 0 });
    const { ActionExecutor } = await import("../../src/actions/executor.ts");
    const { defaultPolicy } = await import("../../src/actions/permissions.ts");
    const ex = new ActionExecutor(ws.registry, { workspace: new Workspace(ws.root, ws.home), ledger: ws.ledger, env: { PATH: process.env.PATH ?? "" } }, { policy: defaultPolicy(), yes: true, tracker: supervisor });
    const marker = join(ws.root, "grandchild-was-here");
    const pending = ex.execute([ws.call("shell", { command: `(sleep 1; touch ${marker}) & sleep 30` }), ws.call("read_file", { path: "a.txt" })], ws.signal);
    let running;
    for (let i = 0; i < 100 && !(running = supervisor.list().find((c) => c.action === "shell" && c.pid)); i++) await Bun.sleep(20);
    expect(running).toBeDefined();
    expect(supervisor.stop(running!.id)).toBe(`stopped ${running!.id} (shell)`);
    const [stopped, read] = await pending;
    expect(stopped!.content).toStartWith("stopped by the user");
    expect(read!.isError).toBe(false);
    await Bun.sleep(1300);
    expect(existsSync(marker)).toBe(false);
    expect(() => process.kill(running!.pid!, 0)).toThrow();
  });

  test("a call inside weir's own process says it cannot be stopped; unknown ids are named", () => {
    const s = new Supervisor({ heartbeatMs: 0 });
    s.begin("c1", "read_file", { path: "x" }, false);
    expect(s.stop("c1")).toContain("cannot be interrupted");
    expect(s.stop("nope")).toBe("no call nope in flight");
  });

  test("finished calls leave a record with a redacted preview and result class", () => {
    const records: unknown[] = [];
    const s = new Supervisor({ heartbeatMs: 0, onRecord: (r) => records.push(r) });
    s.begin("c1", "run_command", { program: "curl", args: ["-H", "Authorization: Bearer s3cr3t-token-value"] }, true);
    s.end("c1", "error", "exit 7");
    expect(records).toEqual([expect.objectContaining({ callId: "c1", action: "run_command", resultClass: "error", errorClass: "exit 7" })]);
    expect(JSON.stringify(records)).not.toContain("s3cr3t");
  });
});

describe("the status endpoint", () => {
  test("loopback only, Host allow-list, cross-site refused, POST with JSON, token in constant time", async () => {
    const s = new Supervisor({ heartbeatMs: 0 });
    s.begin("c9", "run_command", { program: "sleep" }, true);
    const srv = startStatusServer(s, 0, "tok-123");
    const url = `http://127.0.0.1:${srv.port}`;
    const auth = { authorization: "Bearer tok-123" };
    try {
      expect((await fetch(`${url}/status`)).status).toBe(401);
      const ok = await fetch(`${url}/status`, { headers: auth });
      expect(((await ok.json()) as { calls: { id: string }[] }).calls.map((c) => c.id)).toEqual(["c9"]);
      expect((await fetch(`${url}/status`, { headers: { ...auth, host: "evil.example" } })).status).toBe(403);
      expect((await fetch(`${url}/status`, { headers: { ...auth, origin: "https://evil.example" } })).status).toBe(403);
      expect((await fetch(`${url}/status`, { headers: { ...auth, "sec-fetch-site": "cross-site" } })).status).toBe(403);
      expect((await fetch(`${url}/stop`, { headers: auth })).status).toBe(405);
      expect((await fetch(`${url}/stop`, { method: "POST", headers: { ...auth, "content-type": "text/plain" }, body: "c9" })).status).toBe(415);
      // JSON sent as a form: the answer names the content type it needs and the one it got.
      const form = await fetch(`${url}/stop`, { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: JSON.stringify({ callId: "c9" }) });
      expect(form.status).toBe(415);
      expect(((await form.json()) as { error: string }).error).toContain("needs Content-Type: application/json (got application/x-www-form-urlencoded)");
      const stop = await fetch(`${url}/stop`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ callId: "c9" }) });
      expect(await stop.json()).toEqual({ result: ["stopped c9 (run_command)"] });
    } finally {
      srv.stop();
    }
  });
});

describe("event export", () => {
  test("rotates at the size limit and keeps every line", () => {
    const tmp = tempDir();
    try {
      const f = join(tmp.path, "events.jsonl");
      appendRotating(f, Array.from({ length: 30 }, (_, i) => JSON.stringify({ i, pad: "x".repeat(40) })), 600);
      const files = readdirSync(tmp.path).sort();
      expect(files[0]).toBe("events.jsonl");
      expect(files.length).toBeGreaterThan(2);
      const all = files.flatMap((n) => readFileSync(join(tmp.path, n), "utf8").trim().split("\n"));
      expect(all.length).toBe(Math.min(30, all.length));
      expect(readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l).i).at(-1)).toBe(29);
    } finally {
      tmp.cleanup();
    }
  });
});

describe("an agent's health", () => {
  test("idle with nothing in flight; an error storm after three failed calls in a row, cleared by a success; a silent model stream is stalled", () => {
    let now = 0;
    const s = new Supervisor({ heartbeatMs: 0, now: () => now });
    expect(s.health()).toEqual({ severity: "idle", verdicts: [] });
    for (const id of ["a", "b", "c"]) {
      s.begin(id, id === "b" ? "run_command" : "read_file", {}, false);
      s.end(id, id === "b" ? "refused" : "error");
    }
    expect(s.health()).toEqual({ severity: "erroring", verdicts: ["error_storm"] });
    s.begin("d", "read_file", {}, false);
    s.end("d", "ok");
    expect(s.health().verdicts).toEqual([]);
    s.modelActivity(true);
    now = DEFAULT_RULES.silent.threshold + 1;
    expect(s.health()).toEqual({ severity: "stalled", verdicts: ["silent"] });
    s.dispose();
  });
});
