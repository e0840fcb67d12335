/**
 * Smoke run: starts the mock wire server, runs `weir "say hi"` over each wire (the compiled binary
 * when WEIR_BIN is set) and prints what weir printed. Exits non-zero if an answer is missing.
 *   bun run smoke
 */
import { runWeir } from "./cli.ts";
import { MockServer } from "./mock-server.ts";
import { tempDir } from "./temp.ts";

const server = await new MockServer().start();
const home = tempDir("weir-smoke-");
let failed = false;
try {
  for (const [wire, args] of [
    ["messages", ["--provider", "anthropic-compatible", "--base-url", server.url]],
    ["chat", ["--provider", "openai-compatible", "--base-url", `${server.url}/v1`]],
  ] as const) {
    const answer = `Hi over the ${wire} wire.`;
    server.script({ turns: [{ text: answer, chunkSize: 3 }] });
    const r = await runWeir([...args, "--model", "mock-model", "say hi"], { home: home.path });
    process.stdout.write(`[${wire}] exit ${r.code}: ${r.stdout}${r.stderr}`);
    if (r.code !== 0 || r.stdout.trim() !== answer) failed = true;
  }
} finally {
  await server.stop();
  home.cleanup();
}
if (failed) {
  console.error("smoke: weir did not print the scripted answer");
  process.exit(1);
}
console.log("smoke: ok");
