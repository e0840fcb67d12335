import { createHash } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { NotAFile, readRegularFile } from "../workspace/containment.ts";
import { scrubEnv } from "../workspace/process.ts";
import { type Coverage, MAX_COVERED, runFilesHash } from "./launch.ts";

const Stdio = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  /** Ignored: a server starts in a private directory of its own, never the workspace (see launch.ts). */
  cwd: z.string().optional(),
  /** Network access inside its sandbox; off unless configured. */
  network: z.boolean().optional(),
  disabled: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
});
const Remote = z.object({
  type: z.enum(["http", "streamable-http", "sse"]).optional(),
  url: z.url(),
  headers: z.record(z.string(), z.string()).default({}),
  disabled: z.boolean().optional(),
  timeout: z.number().int().positive().optional(),
});
const ServerConfig = z.union([Stdio, Remote]);
type ServerConfig = z.infer<typeof ServerConfig>;
const McpFile = z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) }).passthrough();

export interface ServerEntry {
  name: string;
  config: ServerConfig;
  origin: "user" | "project";
  path: string;
  /** Hash of the expanded config and of every workspace file it can load (`runFilesHash`): an approval covers exactly these. */
  readonly fingerprint: string;
  /** For a project stdio server: how many workspace files its approval covers, or that it can load too many to cover. */
  readonly covers?: { files: number; tooMany?: boolean } | undefined;
}

/** Why no approval can cover a project server (it can load more of the workspace than `MAX_COVERED`), or undefined. Pure. */
export function uncoverable(entry: ServerEntry): string | undefined {
  if (!entry.covers?.tooMany) return undefined;
  const most = `${MAX_COVERED.files.toLocaleString("en-US")} files or ${MAX_COVERED.bytes / 2 ** 30} GiB`;
  return `it can load more than ${most} of the workspace, more than an approval can cover; give it a narrower directory in ${entry.path}`;
}

/**
 * Expands `${VAR}` and `${VAR:-default}` from the environment. An unset variable without a default
 * becomes empty, as in a shell. Pure.
 */
export function expandVars(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
    const v = env[name];
    return v !== undefined && v !== "" ? v : (fallback ?? "");
  });
}

function expandDeep<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === "string") return expandVars(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => expandDeep(v, env)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandDeep(v, env)])) as T;
  return value;
}

/** A server name becomes part of tool ids (`mcp__<server>__<tool>`): keep it to safe characters. */
export const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

/** Reads one `mcpServers` file; a missing file is empty, a broken one or a broken entry is refused by name. */
function readMcpFile(path: string, origin: "user" | "project", env: Record<string, string | undefined>, workspace = ""): ServerEntry[] {
  let text: string;
  try {
    text = readRegularFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    if (e instanceof NotAFile)
      throw new UserError(`cannot read MCP config ${path}: it is not a regular file (a named pipe, socket or device); replace it with a file or remove it`, 2);
    throw new UserError(`cannot read MCP config ${path}: ${(e as NodeJS.ErrnoException).code}`, 2);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UserError(`MCP config ${path} is not valid JSON; fix or remove it`, 2);
  }
  const file = McpFile.safeParse(json);
  if (!file.success) throw new UserError(`MCP config ${path}: mcpServers must be an object of servers`, 2);
  return Object.entries(file.data.mcpServers).map(([name, raw]) => {
    // A repository's file may not put your secrets in a server's command line, URL or headers.
    const parsed = ServerConfig.safeParse(expandDeep(raw, origin === "project" ? scrubEnv(env) : env));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UserError(
        `MCP config ${path}: server ${name}: ${issue.path.join(".") || "entry"}: ${issue.message} (give command/args for stdio or url for HTTP)`,
        2,
      );
    }
    // What the approval covers is hashed when first asked (a project server about to start, weir mcp):
    // a run whose servers are disabled, or have none of the workspace's files, reads none of them.
    let coverage: Coverage | undefined;
    const entry: ServerEntry = {
      name: safeName(name),
      config: parsed.data,
      origin,
      path,
      get fingerprint() {
        coverage ??= runFilesHash(entry, workspace);
        return createHash("sha256").update(JSON.stringify(parsed.data)).update(coverage.hash).digest("hex").slice(0, 16);
      },
      get covers() {
        if (origin !== "project" || !("command" in parsed.data)) return undefined;
        coverage ??= runFilesHash(entry, workspace);
        return { files: coverage.files, ...(coverage.tooMany ? { tooMany: true } : {}) };
      },
    };
    return entry;
  });
}

/**
 * User servers from `~/.config/weir/mcp.json`, project servers from `<workspace>/.mcp.json`; the
 * person's win on a clash. A broken file of the person's stops the run (theirs to fix); a broken one
 * of the repository's is a notice, and none of its servers start: it must not stop every run there.
 */
export function loadMcpServers(userConfigDir: string, workspace: string, env: Record<string, string | undefined>, notices?: string[]): ServerEntry[] {
  const user = readMcpFile(join(userConfigDir, "mcp.json"), "user", env, workspace);
  let project: ServerEntry[] = [];
  try {
    project = readMcpFile(join(workspace, ".mcp.json"), "project", env, workspace);
  } catch (e) {
    if (!(e instanceof UserError) || !notices) throw e;
    notices.push(`${e.message.replace(/; fix or remove it$/, "")}: none of its servers start (fix it to use them)`);
  }
  const byName = new Map<string, ServerEntry>();
  for (const e of [...project, ...user]) byName.set(e.name, e);
  return [...byName.values()];
}

/**
 * The hub's face when no server is configured: the MCP SDK is not even loaded (it costs start-up
 * time every run that has no MCP server).
 */
export const NO_SERVERS = {
  status: () => [] as import("./hub.ts").ServerStatus[],
  describe: (_s: unknown) => "",
  closeAll: async () => undefined,
  enable: async (name: string) => `no MCP server named ${name}`,
  disable: async (name: string) => `no MCP server named ${name}`,
  reconnect: async (name: string) => `no MCP server named ${name}`,
  disconnect: async (name: string) => `no MCP server named ${name}`,
};
