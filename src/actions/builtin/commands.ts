import { existsSync, statSync } from "node:fs";
import { z } from "zod";
import { runCommandIn, widenableDir } from "../../workspace/sandbox.ts";
import type { ToolDetails } from "../../core/messages.ts";
import { parseFailureLocations } from "../../context/failures.ts";
import { type ActionContext, type ActionOutput, defineAction, ToolFailure } from "../action.ts";

const DEFAULT_TIMEOUT = 120_000;
const MAX_TIMEOUT = 600_000;
/** Bytes a command may print before its middle is dropped; the executor's cap then applies. */
const PROCESS_CAP = 1_000_000;

function workdir(ctx: ActionContext, cwd: string | undefined): string {
  if (!cwd) return ctx.workspace.root;
  const p = ctx.workspace.resolve(cwd);
  if (!p.exists || !statSync(p.absolute).isDirectory()) throw new ToolFailure(`cwd ${cwd} is not a directory in the workspace`);
  return p.absolute;
}

async function execute(
  program: string,
  args: string[],
  display: string,
  cwd: string,
  timeoutMs: number | undefined,
  ctx: ActionContext,
  argv?: string[],
  widen?: { network?: boolean; dir?: string },
): Promise<ActionOutput> {
  // The executor approved the widening; the directory is bound as the canonical path it approved.
  const dir = widen?.dir ? widenableDir(widen.dir, ctx.workspace.home) : undefined;
  const r = await runCommandIn(ctx.sandbox, {
    argv: [program, ...args],
    widen: { ...(widen?.network ? { network: true } : {}), ...(dir ? { dir } : {}) },
    cwd,
    timeoutMs: Math.min(timeoutMs ?? DEFAULT_TIMEOUT, MAX_TIMEOUT),
    outputCap: PROCESS_CAP,
    env: ctx.env,
    signal: ctx.signal,
    onStart: ctx.onProcess,
    onOutput: ctx.onOutput,
  });
  const secs = (r.durationMs / 1000).toFixed(1);
  const status = r.cancelled
    ? `stopped by the user after ${secs}s`
    : r.diskFull
      ? `stopped after ${secs}s: the disk it was writing to fell below the free space weir keeps (5% of the ` +
        `disk or 1 GiB, and 5% of its inodes, which each file takes); remove what it wrote before running it again`
      : r.timedOut
        ? `timed out after ${secs}s and was killed (raise timeout_ms, up to ${MAX_TIMEOUT}, if it needs longer)`
        : r.exitCode === null
          ? `ended by signal ${r.signal ?? "?"} after ${secs}s`
          : `exit code ${r.exitCode} in ${secs}s`;
  const dropped = r.droppedBytes > 0 ? `\n[${r.droppedBytes} bytes cut from the middle of the output]` : "";
  const failed = r.cancelled || r.timedOut || r.exitCode !== 0;
  const blocked = failed ? ctx.sandbox?.explain(r.output, widen, { program, exitCode: r.exitCode }) : undefined;
  const undone = r.undone.length
    ? `\n[weir removed ${r.undone.join(", ")}, which the command created: files that run code later or ` +
      `instruct agents are written with write_file, which asks the user]`
    : "";
  const restored = r.restored
    ? `\n[weir put ${r.restored.join(", ")} back as ${r.restored.length > 1 ? "they were" : "it was"}: ` +
      `the command changed install scripts or workspaces, which the next npm install would run outside the ` +
      `sandbox; change them with edit_file, which asks the user]`
    : "";
  const installed = r.installed
    ? `\n[weir removed ${r.installed.join(", ")}, which the command made without the network: installed ` +
      `dependencies run at the user's next command and git does not show them; install with the network ` +
      `(widen.network, which the user approves)]`
    : "";
  const relinked = r.relinked
    ? `\n[weir put the link${r.relinked.length > 1 ? "s" : ""} ${r.relinked.join(", ")} back: the command ` +
      `replaced or changed what git, agents or other tools read there later; change it with write_file, ` +
      `which asks the user]`
    : "";
  const held = r.held ? `\n${heldNote(r.held)}` : "";
  const output = `${r.output}${r.output.endsWith("\n") || r.output === "" ? "" : "\n"}`;
  const notes = `${blocked ? `\n[${blocked}]` : ""}${undone}${installed}${restored}${relinked}${held}`;
  const text = `$ ${display}\n${output}${dropped}[${status}]${notes}`;
  const details: ToolDetails = {
    kind: "command",
    line: display,
    ...(argv ? { argv } : {}),
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    cancelled: r.cancelled,
    failures: failed ? parseFailureLocations(r.output, 10).map((f) => ({ path: f.path, line: f.line, message: f.message })) : [],
  };
  if (failed) throw new ToolFailure(text, undefined, details);
  return { content: text, details };
}

const Widen = z
  .object({
    network: z.boolean().optional().describe("run with network access (asks the user unless --allow-network)"),
    dir: z
      .string()
      .min(1)
      .optional()
      .describe("one absolute directory outside the workspace to make writable (asks the user unless it was given with --add-dir)"),
  })
  .strict()
  .optional()
  .describe("ask for more than the sandbox gives, after a result said it was blocked by the sandbox");

const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

export const runCommand = defineAction({
  id: "run_command",
  capability: "command",
  hint: "run a program with an argument array (no shell), e.g. tests or a build",
  description:
    "Run one program with arguments, without a shell (no pipes, globs or redirection), in the workspace " +
    "or a directory inside it. Output (stdout and stderr interleaved) and the exit code come back; a " +
    "non-zero exit is reported as an error. Secret-bearing environment variables are removed.",
  input: z
    .object({
      program: z.string().min(1).describe("the executable, e.g. npm, pytest, go"),
      args: z.array(z.string()).default([]).describe("arguments, one per element"),
      cwd: z.string().optional().describe("directory inside the workspace (default: the root)"),
      timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT).optional().describe(`default ${DEFAULT_TIMEOUT}`),
      widen: Widen,
    })
    .strict(),
  risk: "execute",
  source: "builtin",
  readOnly: false,
  moreHint: "rerun with narrower output (a single test, a filter, or | head via shell)",
  command: (i) => ({
    argv: [i.program, ...i.args],
    line: [i.program, ...i.args].map(quote).join(" "),
    shell: false,
    network: i.widen?.network === true,
    ...(i.widen?.dir ? { widenDir: i.widen.dir } : {}),
  }),
  summary: (i) => [i.program, ...i.args].map(quote).join(" "),
  async run(i, ctx) {
    return execute(i.program, i.args, [i.program, ...i.args].map(quote).join(" "), workdir(ctx, i.cwd), i.timeout_ms, ctx, [i.program, ...i.args], i.widen);
  },
});

function shellProgram(command: string): [string, string[]] {
  if (process.platform === "win32") return ["cmd.exe", ["/d", "/s", "/c", command]];
  return [existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh", ["-c", command]];
}

export const shell = defineAction({
  id: "shell",
  capability: "command",
  hint: "run a shell command line (pipes, redirection); asks first by default",
  description:
    "Run a command line through the system shell (bash, or cmd on Windows). Use run_command when no " +
    "shell features are needed: shell is risky by policy and usually needs the user's approval.",
  input: z
    .object({
      command: z.string().min(1),
      cwd: z.string().optional(),
      timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT).optional(),
      widen: Widen,
    })
    .strict(),
  risk: "execute",
  source: "builtin",
  readOnly: false,
  moreHint: "pipe through head or tail, or filter with grep",
  command: (i) => ({ line: i.command, shell: true, network: i.widen?.network === true, ...(i.widen?.dir ? { widenDir: i.widen.dir } : {}) }),
  summary: (i) => i.command,
  async run(i, ctx) {
    const [program, args] = shellProgram(i.command);
    return execute(program, args, i.command, workdir(ctx, i.cwd), i.timeout_ms, ctx, undefined, i.widen);
  },
});

/**
 * What of a command's changes weir held, for the model: each held path whose parent was not held
 * too, with its reason (ten at most, the rest counted), and what the held changes still are.
 */
export function heldNote(s: { held: { rel: string; reason: string }[]; id?: string }): string {
  const top = s.held.filter((h) => !h.reason.startsWith("inside "));
  const lines = top.slice(0, 10).map((h) => `  ${h.rel}: ${h.reason}`);
  if (top.length > 10) lines.push(`  and ${top.length - 10} more`);
  const count = s.held.length === 1 ? "1 change" : `${s.held.length} changes`;
  return (
    `[weir held ${count} of this command from the workspace (change set ${s.id}); later commands of this run still see them, ` +
    `the user's files do not:\n${lines.join("\n")}\n` +
    `the user applies them with weir changes apply ${s.id}; a file that runs code later is written with write_file, which asks the user]`
  );
}
