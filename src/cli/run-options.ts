import { realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { JudgmentMode, RunMode } from "../config/options.ts";
import { UserError } from "../core/errors.ts";
import { homeDirectory } from "../workspace/containment.ts";
import { widenableDir } from "../workspace/sandbox.ts";
import type { ParsedArgs } from "./args.ts";

/**
 * What a run takes from the command line beyond the settings: read once from the parsed flags here,
 * so nothing below the composition root sees `ParsedArgs` or the environment.
 */
export interface RunOptions {
  tools: "auto" | "all";
  /** `--yes`: approve every action that would ask (denied ones stay denied). */
  yes: boolean;
  /** `--allow PATTERN`: commands or action ids approved without asking. */
  allow: string[];
  allowNetwork: boolean;
  /** `--add-dir`: canonical directories outside the workspace commands may write. */
  addDirs: string[];
  statusPort?: number;
  maxAgents: number;
  agentWaitMs: number;
  /** Tokens the whole compiled working set may take, floor included (`--budget`). */
  budget?: number;
  /** `--judgment`, over the config's `judgment.mode`. */
  judgment?: JudgmentMode;
  /** `--mode`: plan (nothing changes), accept-edits, or default. */
  mode: RunMode;
  /** `-c` (the newest session) or `--resume ID`. */
  resume?: { latest: true } | { id: string };
  env: Record<string, string | undefined>;
}

export function runOptions(args: ParsedArgs, env: Record<string, string | undefined> = process.env): RunOptions {
  const n = (v: unknown) => (typeof v === "number" ? v : undefined);
  const port = args.flags["status-port"];
  return {
    tools: args.tools,
    yes: args.yes,
    allow: args.allow,
    allowNetwork: args.flags["allow-network"] === true,
    addDirs: addDirs(args.flags["add-dir"]),
    ...(typeof port === "number" ? { statusPort: port } : {}),
    maxAgents: n(args.flags["max-agents"]) ?? 4,
    agentWaitMs: n(args.flags["agent-wait-ms"]) ?? 300_000,
    ...(args.budget ? { budget: args.budget } : {}),
    ...(args.judgment ? { judgment: args.judgment } : {}),
    mode: typeof args.flags.mode === "string" ? (args.flags.mode as RunMode) : "default",
    ...(args.resume ? { resume: { id: args.resume } } : args.continue ? { resume: { latest: true as const } } : {}),
    env,
  };
}

/**
 * `--add-dir` values as canonical directories; a missing one is a usage error, and so is one that
 * would open the home's keys to commands (the home, a directory holding it, or the filesystem root).
 */
function addDirs(v: unknown): string[] {
  const dirs = Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
  return dirs.map((d) => {
    let real: string;
    try {
      real = realpathSync(resolve(d));
      if (!statSync(real).isDirectory()) throw new Error();
    } catch {
      throw new UserError(`--add-dir ${d} is not a directory`, 2);
    }
    if (!widenableDir(real, homeDirectory()))
      throw new UserError(`--add-dir ${d} holds your home directory (or is /): commands could read and change your keys; add a directory inside it instead`, 2);
    return real;
  });
}
