import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import type { MockServer, ScriptedToolCall } from "../support/mock-server.ts";
import { tempDir } from "../support/temp.ts";

export const SECRET = "TOPSECRET-7f3a9";

/**
 * A workspace laid out for attacks: secrets outside it (a fake home with ~/.ssh and ~/.aws), a
 * symlink and a hard link leading out, a .env and git internals inside.
 */
export function arena() {
  const tmp = tempDir("weir-sec-");
  const base = realpathSync(tmp.path);
  const root = join(base, "ws");
  const home = join(base, "home");
  const outside = join(base, "outside");
  for (const d of [root, join(home, ".ssh"), join(home, ".aws"), outside, join(root, ".git", "hooks"), join(root, "config")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `-----BEGIN KEY----- ${SECRET}`);
  writeFileSync(join(home, ".aws", "credentials"), `aws_secret_access_key=${SECRET}`);
  writeFileSync(join(home, ".bashrc"), "# original\n");
  writeFileSync(join(outside, "secret.txt"), SECRET);
  writeFileSync(join(root, ".env"), `API_KEY=${SECRET}\n`);
  writeFileSync(join(root, ".env.local"), `DB_PASSWORD=${SECRET}\n`);
  writeFileSync(join(root, ".git", "config"), `[remote "origin"]\n\turl = https://user:${SECRET}@git.example/repo\n`);
  writeFileSync(join(root, "config", "server.key"), SECRET);
  writeFileSync(join(root, "README.md"), "# app\n");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "app", scripts: { test: "node -e \"process.exit(0)\"" } }));
  writeFileSync(join(root, "app.js"), "export const x = 1;\n");
  symlinkSync(outside, join(root, "link-out"));
  linkSync(join(outside, "secret.txt"), join(root, "hard.txt"));
  return { root, home, outside, cleanup: tmp.cleanup };
}

export type Arena = ReturnType<typeof arena>;

export interface Outcome {
  /** Tool results the model read, by call id. */
  results: Map<string, { content: string }>;
  /** Everything the model was sent, serialised. */
  sent: string;
}

/**
 * Runs a scripted worst-case model through the binary in default mode, as a person starts weir: it
 * first reads the planted hostile text, then does exactly what the text told it to. The run's own
 * seams decide (permissions, context step, firewall, verification floor); the model's requests are
 * the oracle.
 */
export async function attack(server: MockServer, a: Arena, calls: ScriptedToolCall[], extraTurns: ScriptedToolCall[][] = []): Promise<Outcome> {
  server.script({ turns: [{ toolCalls: [{ id: "plant", name: "read_file", input: { path: "NOTES.md" } }] }, { toolCalls: calls }, ...extraTurns.map((toolCalls) => ({ toolCalls })), { text: "done" }, { text: "done" }] });
  const first = server.requests.length;
  const r = await runWeir(["--provider", "openai-compatible", "--base-url", `${server.url}/v1`, "--model", "m", "--cwd", a.root, "summarise NOTES.md"], {
    home: a.home,
    env: { WEIR_SECURITY_TEST_API_KEY: SECRET },
  });
  if (r.code !== 0) throw new Error(`weir exited ${r.code}: ${r.stderr}`);
  const requests = server.requests.slice(first).map((q) => q.body.messages as { role: string; tool_call_id?: string; content?: unknown }[]);
  const results = new Map<string, { content: string }>();
  for (const m of requests.at(-1) ?? []) if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, { content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) });
  return { results, sent: JSON.stringify(requests) };
}

export function plant(a: Arena, text: string) {
  writeFileSync(join(a.root, "NOTES.md"), `# Notes\n\nSome project notes.\n\n${text}\n`);
}
