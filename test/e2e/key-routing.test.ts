import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * Where the key goes, through the binary, for each source of provider, endpoint and key. Two oracles
 * outside weir: the local endpoint records the headers it was sent, and an HTTPS proxy records which
 * vendor host weir opened a tunnel to (and refuses it: nothing leaves the machine).
 */
const world = e2eWorld();
let proxy: Server;
let tunnels: string[] = [];

beforeAll(async () => {
  proxy = createServer((socket) => {
    socket.once("data", (head) => {
      tunnels.push(head.toString().split(" ")[1] ?? "");
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
});
afterAll(() => proxy.close());

const K = { flag: "sk-flag-0000000000000001", openai: "sk-openai-00000000000002", anthropic: "sk-ant-0000000000000003", weir: "sk-weir-000000000000004", stored: "sk-stored-0000000000005" };

interface Case {
  name: string;
  user?: Record<string, unknown>;
  project?: Record<string, unknown>;
  flags?: string[];
  env?: Record<string, string>;
  /** `local`: the local endpoint answers, and `key` is the only key it saw (none when undefined). */
  expect: { to: "local"; key?: string } | { to: "vendor"; host: string } | { to: "nowhere"; says: string };
}

/** The local endpoint is named LOCAL (its chat root) or ROOT in the table, and filled in when a case runs. */
const compatible = () => ({ provider: "openai-compatible", baseUrl: "LOCAL", model: "m" });

const CASES: Case[] = [
  { name: "--provider openai with the configured compatible endpoint goes to OpenAI", user: compatible(), flags: ["--provider", "openai"], env: { OPENAI_API_KEY: K.openai }, expect: { to: "vendor", host: "api.openai.com:443" } },
  { name: "--provider anthropic with the configured compatible endpoint goes to Anthropic", user: compatible(), flags: ["--provider", "anthropic"], env: { ANTHROPIC_API_KEY: K.anthropic }, expect: { to: "vendor", host: "api.anthropic.com:443" } },
  { name: "WEIR_PROVIDER=openai with the configured compatible endpoint goes to OpenAI", user: compatible(), env: { WEIR_PROVIDER: "openai", OPENAI_API_KEY: K.openai }, expect: { to: "vendor", host: "api.openai.com:443" } },
  { name: "a stored compatible key stays home when --provider openai is chosen", user: { ...compatible(), apiKey: K.stored }, flags: ["--provider", "openai"], env: { OPENAI_API_KEY: K.openai }, expect: { to: "vendor", host: "api.openai.com:443" } },
  { name: "OPENAI_API_KEY is not sent to a compatible endpoint", user: compatible(), env: { OPENAI_API_KEY: K.openai }, expect: { to: "local" } },
  { name: "--provider openai --base-url local withholds OPENAI_API_KEY and says why", flags: ["--provider", "openai", "--base-url", "LOCAL", "--model", "m"], env: { OPENAI_API_KEY: K.openai }, expect: { to: "nowhere", says: "OPENAI_API_KEY is for api.openai.com" } },
  { name: "ANTHROPIC_API_KEY is not sent to an anthropic-compatible endpoint", flags: ["--provider", "anthropic-compatible", "--base-url", "ROOT", "--model", "m"], env: { ANTHROPIC_API_KEY: K.anthropic }, expect: { to: "local" } },
  { name: "--api-key goes where the person pointed it", user: compatible(), flags: ["--provider", "openai", "--base-url", "LOCAL", "--model", "m", "--api-key", K.flag], env: { OPENAI_API_KEY: K.openai }, expect: { to: "local", key: K.flag } },
  { name: "WEIR_API_KEY goes to the endpoint the person chose", user: compatible(), env: { WEIR_API_KEY: K.weir, OPENAI_API_KEY: K.openai }, expect: { to: "local", key: K.weir } },
  { name: "the stored key goes to the endpoint it was stored for", user: { ...compatible(), apiKey: K.stored }, env: { ANTHROPIC_API_KEY: K.anthropic }, expect: { to: "local", key: K.stored } },
  { name: "the configured endpoint holds when the flag names the same provider", user: { ...compatible(), apiKey: K.stored }, flags: ["--provider", "openai-compatible"], expect: { to: "local", key: K.stored } },
  { name: "a key stored for OpenAI is not sent to a --base-url elsewhere", user: { provider: "openai", apiKey: K.stored }, flags: ["--base-url", "LOCAL", "--model", "m"], expect: { to: "nowhere", says: "the stored key is for api.openai.com" } },
  { name: "a key stored for OpenAI goes to OpenAI", user: { provider: "openai", apiKey: K.stored }, expect: { to: "vendor", host: "api.openai.com:443" } },
  { name: "WEIR_BASE_URL with WEIR_PROVIDER keeps the vendor's variable off it", env: { WEIR_PROVIDER: "openai", WEIR_BASE_URL: "LOCAL", WEIR_MODEL: "m", OPENAI_API_KEY: K.openai }, expect: { to: "nowhere", says: "OPENAI_API_KEY is for api.openai.com" } },
  { name: "a project config's model does not bring its key or endpoint", user: { ...compatible(), apiKey: K.stored }, project: { model: "project-model" }, flags: ["--provider", "anthropic"], env: { ANTHROPIC_API_KEY: K.anthropic }, expect: { to: "vendor", host: "api.anthropic.com:443" } },
];

describe("the key only goes where it was meant to", () => {
  for (const c of CASES)
    test(c.name, async () => {
      const fill = (v: string) => v.replace(/^LOCAL$/, `${world.server.url}/v1`).replace(/^ROOT$/, world.server.url);
      const user = Object.fromEntries(Object.entries(c.user ?? {}).map(([k, v]) => [k, typeof v === "string" ? fill(v) : v]));
      // One attempt: a refused tunnel is not retried for seconds.
      writeFileSync(join(world.home, ".config", "weir", "config.json"), JSON.stringify({ ...user, retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 } }));
      if (c.project) {
        mkdirSync(join(world.ws, ".weir"), { recursive: true });
        writeFileSync(join(world.ws, ".weir", "config.json"), JSON.stringify(c.project));
      }
      tunnels = [];
      const first = world.server.requests.length;
      world.server.script({ turns: [{ text: "answered" }] });
      const env = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v)]));
      const r = await runWeir(["--cwd", world.ws, "--verify-floor", "off", ...(c.flags ?? []).map(fill), "hi"], { home: world.home, env: { ...env, HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` } });
      const seen = world.server.requests.slice(first);
      const sent = JSON.stringify(seen.map((q) => q.headers));
      if (c.expect.to === "local") {
        expect(r.stdout).toContain("answered");
        expect(tunnels).toEqual([]);
        for (const key of Object.values(K)) if (key !== c.expect.key) expect(sent).not.toContain(key);
        if (c.expect.key) expect(sent).toContain(c.expect.key);
      } else if (c.expect.to === "vendor") {
        expect(seen).toEqual([]);
        expect(tunnels).toEqual([c.expect.host]);
      } else {
        expect(seen).toEqual([]);
        expect(tunnels).toEqual([]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(c.expect.says);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
      }
    });
});
