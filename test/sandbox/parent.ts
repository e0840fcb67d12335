/**
 * Plays weir for the kernel tests: a parent process that holds a secret in its own environment and
 * runs one command in the sandbox with the scrubbed environment, as the executor does. Prints the
 * result as JSON. Usage: bun parent.ts '{"root":..., "home":..., "mode":..., "argv":[...]}'
 */
import { runProgram, scrubEnv } from "../../src/workspace/process.ts";
import { createSandbox } from "../../src/workspace/sandbox.ts";

const o = JSON.parse(process.argv[2]!) as { root: string; home: string; mode: "workspace-write" | "read-only"; argv: string[]; tmpBytes?: number };
const s = createSandbox({ mode: o.mode, root: o.root, home: o.home, readable: [], ...(o.tmpBytes ? { tmpBytes: o.tmpBytes } : {}) });
const [program, ...args] = s.wrap(o.argv, o.root);
const r = await runProgram({ program: program!, args, cwd: o.root, timeoutMs: 20_000, outputCap: 100_000, env: scrubEnv(process.env) });
console.log(JSON.stringify({ exitCode: r.exitCode, output: r.output }));
