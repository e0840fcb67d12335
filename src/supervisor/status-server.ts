import { timingSafeEqual } from "node:crypto";
import type { Supervisor } from "./supervisor.ts";

const ALLOWED_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function hostOnly(host: string | null): string {
  if (!host) return "";
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0]!;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Compare equal-length buffers so the time taken says nothing about the token.
  return a.length === b.length ? timingSafeEqual(a, b) : (timingSafeEqual(a, a), false);
}

/**
 * The optional status endpoint: loopback only, a Host allow-list (DNS rebinding), cross-site Origin
 * and Sec-Fetch-Site refused (a web page cannot drive it), mutations only by POST with JSON, and an
 * optional token compared in constant time. GET /status, POST /stop {callId | scope}.
 */
export function startStatusServer(supervisor: Supervisor, port: number, token?: string) {
  const deny = (status: number, error: string) => Response.json({ error }, { status });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const url = new URL(req.url);
      if (!ALLOWED_HOSTS.has(hostOnly(req.headers.get("host")))) return deny(403, "host not allowed");
      const origin = req.headers.get("origin");
      if (origin && !ALLOWED_HOSTS.has(hostOnly(new URL(origin).host))) return deny(403, "cross-site origin refused");
      const site = req.headers.get("sec-fetch-site");
      if (site && site !== "same-origin" && site !== "none") return deny(403, "cross-site request refused");
      if (token && !sameToken(req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? "", token)) return deny(401, "missing or wrong token");
      if (url.pathname === "/status" && req.method === "GET") return Response.json({ calls: supervisor.list() });
      if (url.pathname === "/stop") {
        if (req.method !== "POST") return deny(405, "use POST");
        const type = req.headers.get("content-type") ?? "";
        const wants = `POST /stop needs Content-Type: application/json (got ${type || "none"}); send {"callId": "..."} as JSON`;
        if (!type.startsWith("application/json")) return deny(415, wants);
        let body: { callId?: unknown; scope?: unknown };
        try {
          body = (await req.json()) as typeof body;
        } catch {
          return deny(400, "invalid JSON");
        }
        if (typeof body.callId === "string") return Response.json({ result: [supervisor.stop(body.callId)] });
        if (body.scope === "stuck" || body.scope === "all") return Response.json({ result: supervisor.stopScope(body.scope) });
        return deny(400, 'give {"callId": "..."} or {"scope": "stuck" | "all"}');
      }
      return deny(404, "GET /status or POST /stop");
    },
  });
  return { port: server.port, stop: () => server.stop(true) };
}
