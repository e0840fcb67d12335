import { join } from "node:path";
import { accessSync, constants, existsSync, mkdirSync } from "node:fs";
import { userConfigDir, userDataDir } from "../../config/paths.ts";
import { providerSettings, type Resolved } from "../../config/resolve.ts";
import { changesDir } from "../../workspace/transaction.ts";
import { viewTools } from "../../workspace/view.ts";
import { cgroupsAvailable } from "../../workspace/limits.ts";
import { propertiesHere } from "../../workspace/properties.ts";
import { userText } from "../../core/messages.ts";
import { loadMcpServers } from "../../mcp/config.ts";
import { createProvider } from "../../providers/create.ts";
import { detectChecks } from "../../workspace/checks.ts";
import { type CommandSandbox, createSandbox } from "../../workspace/sandbox.ts";
import { homeDirectory } from "../../workspace/containment.ts";
import { personalReads } from "../../workspace/home-reads.ts";
import { HOOK_EVENTS, hookStartProblem } from "../../actions/hooks.ts";
import type { ParsedArgs } from "../args.ts";

export interface Check {
  name: string;
  ok: boolean;
  /** What was found, and where it is not ok, the fix. */
  detail: string;
}

/**
 * `weir doctor`: checks what a run needs, each line with its fix — the key, the endpoint and model
 * (one tiny request), the command sandbox, the data directory, the configured MCP servers (started,
 * timed), the project's checks and the terminal. Exit 1 when anything is not ok.
 */
export async function doctorCommand(args: ParsedArgs, workspace: string, resolved: Resolved, out: (s: string) => void): Promise<number> {
  const s = resolved.settings;
  const checks: Check[] = [];
  const keyed = !resolved.preset.keyRequired || !!s.apiKey;
  // A key that is set but belongs to another host is named with why it was withheld.
  const withheld = resolved.sources.apiKey.startsWith("unset (") ? ` ${resolved.sources.apiKey.slice(6)}` : "";
  const missing = `missing${withheld}: set ${[...resolved.preset.keyEnv, "WEIR_API_KEY"].join(" or ")}, or pass --api-key`;
  checks.push({ name: "api key", ok: keyed, detail: keyed ? (s.apiKey ? `set (${resolved.sources.apiKey})` : "not needed for this endpoint") : missing });
  if (keyed) {
    const started = performance.now();
    try {
      const provider = await createProvider(
        { ...providerSettings(resolved), retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 }, requestTimeoutMs: 20_000 },
        resolved.preset.hint,
      );
      const notices: string[] = [];
      let text = "";
      for await (const ev of provider.stream({ system: "", messages: [userText("Reply with: ok")], tools: [], maxTokens: 16 })) {
        if (ev.type === "text_delta") text += ev.text;
        if (ev.type === "notice") notices.push(ev.message);
      }
      checks.push({
        name: "endpoint and model",
        ok: true,
        detail:
          `${s.provider} at ${s.baseUrl}, model ${s.model}: answered in ` +
          `${Math.round(performance.now() - started)} ms${text ? ` ("${text.trim().slice(0, 20)}")` : ""}`,
      });
      for (const n of notices) checks.push({ name: "model", ok: false, detail: n });
    } catch (e) {
      checks.push({ name: "endpoint and model", ok: false, detail: (e as Error).message });
    }
  }
  const sandbox = createSandbox({
    mode: s.sandbox.mode,
    root: workspace,
    home: homeDirectory(),
    readable: s.sandbox.readable,
    own: [userConfigDir(), userDataDir()],
  });
  checks.push({ name: "command sandbox", ok: sandbox.active || s.sandbox.mode === "off", detail: sandbox.describe() });
  const viewed = sandbox.kind === "bwrap" && s.sandbox.mode === "workspace-write" && viewTools(changesDir(userDataDir(), workspace), workspace) !== null;
  if (sandbox.kind === "bwrap" && s.sandbox.mode === "workspace-write") {
    checks.push({
      name: "transactions",
      ok: viewed,
      detail: viewed
        ? "each command runs on a copy-on-write view; what review cannot show is held (weir changes)"
        : "no unprivileged overlay mount here (util-linux's unshare and mount, and user namespaces, are needed): " +
          "commands write the workspace directly, and guarded paths they create are removed after them",
    });
  }
  if (sandbox.kind === "bwrap") {
    const held = cgroupsAvailable();
    const root = process.getuid?.() === 0;
    checks.push({
      name: "process limit",
      ok: held || !root,
      detail: held
        ? "each command gets a pids cgroup: at most 4,096 processes at once, for root too"
        : root
          ? "weir runs as root and can make no pids cgroup here, and prlimit's process limit does not bind root: " +
            "run weir as an ordinary user, or give it a cgroup with the pids controller"
          : "prlimit limits each command to 4,096 processes (no pids cgroup is delegated to you; as an ordinary user that limit holds)",
    });
  }
  // What of this workspace the person's shell, git or PATH reads at their next start: commands cannot change it.
  const reads = personalReads(workspace, homeDirectory());
  if (reads.length)
    checks.push({
      name: "your environment",
      ok: true,
      detail:
        `read from here at your next shell, git or editor, so commands cannot change it and write_file ` +
        `asks: ${reads.map((r) => `${r.path} (${r.why})`).join(", ")}`,
    });
  try {
    const dir = userDataDir();
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    checks.push({ name: "data directory", ok: true, detail: `${dir} is writable` });
  } catch (e) {
    checks.push({
      name: "data directory",
      ok: false,
      detail: `${userDataDir()} is not writable (${(e as NodeJS.ErrnoException).code ?? "error"}); set XDG_DATA_HOME to a writable directory`,
    });
  }
  // Your hooks: a guard that cannot start blocks every call it matches, so say which cannot, and why.
  const hooks = HOOK_EVENTS.flatMap((e) => (s.hooks[e] ?? []).flatMap((g) => g.hooks.map((h) => ({ e, command: h.command }))));
  if (hooks.length) {
    const problems = hooks.flatMap((h) => {
      const why = hookStartProblem(h.command, homeDirectory(), (name) => Bun.which(name) !== null);
      return why ? [`${h.e} "${h.command.slice(0, 60)}": ${why}`] : [];
    });
    checks.push({
      name: "hooks",
      ok: problems.length === 0,
      detail: problems.length ? problems.join("; ") : `${hooks.length} hook${hooks.length === 1 ? "" : "s"}, each can start`,
    });
  }
  const servers = loadMcpServers(userConfigDir(), workspace, process.env);
  if (servers.length) {
    const { ActionRegistry } = await import("../../actions/registry.ts");
    const { McpHub } = await import("../../mcp/hub.ts");
    // A project's servers start only as a run would start them: approved for this workspace.
    const approved = new Set<string>();
    const { databasePath } = await import("../data.ts");
    if (existsSync(databasePath())) {
      const { SessionStore } = await import("../../store/sessions.ts");
      const store = SessionStore.open(databasePath());
      try {
        for (const e of servers) if (e.origin === "user" || store.isMcpServerApproved(workspace, e.name, e.fingerprint)) approved.add(e.name);
      } finally {
        store.close();
      }
    } else for (const e of servers) if (e.origin === "user") approved.add(e.name);
    const hub = new McpHub(new ActionRegistry(), {
      workspace,
      serverHomes: join(userDataDir(), "mcp"),
      startTimeoutMs: 30_000,
      callTimeoutMs: 10_000,
      isApproved: (e) => approved.has(e.name),
      clientVersion: "doctor",
    });
    const started = performance.now();
    await hub.start(servers.filter((e) => !e.config.disabled));
    const ms = Math.round(performance.now() - started);
    for (const st of hub.status())
      checks.push({
        name: `mcp ${st.name}`,
        ok: st.state === "connected",
        detail: `${hub.describe(st)}${st.state === "connected" ? ` (all servers up in ${ms} ms)` : ""}`,
      });
    await hub.closeAll();
  }
  checks.push(projectChecks(workspace, sandbox));
  const tty = process.stdout.isTTY === true;
  checks.push({
    name: "terminal",
    ok: true,
    detail: tty
      ? `a terminal, ${process.stdout.columns ?? "?"} columns, colour ${s.color && !process.env.NO_COLOR ? "on" : "off"}`
      : "not a terminal: output is plain, prompts are refusals (use --yes or --allow)",
  });
  // The properties docs/security.md states, as they hold here.
  const cgroup = sandbox.kind === "bwrap" && cgroupsAvailable();
  const facts = { sandbox: sandbox.active ? sandbox.kind : "none", view: viewed, cgroup, root: process.getuid?.() === 0 } as const;
  const properties = propertiesHere(facts);
  if (args.json) out(`${JSON.stringify({ ok: checks.every((c) => c.ok), checks, security: properties }, null, 2)}\n`);
  else {
    for (const c of checks) out(`${c.ok ? "ok  " : "FIX "} ${c.name.padEnd(20)} ${c.detail}\n`);
    out("\nsecurity properties on this machine (docs/security.md):\n");
    for (const p of properties) out(`  ${p.holds.padEnd(6)} ${p.property}: ${p.here}\n`);
  }
  return checks.every((c) => c.ok) ? 0 : 1;
}

/**
 * The checks `verify` would run here, and whether their programs can start: a tool on the PATH, or
 * the project's own wrapper (`./mvnw`) present and executable. A project with no checks is fine:
 * verify says so and guesses nothing.
 */
function projectChecks(workspace: string, sandbox: CommandSandbox): Check {
  const found = detectChecks(workspace);
  if (found.length === 0) return { name: "project checks", ok: true, detail: "none found at the workspace root; verify will not guess a command" };
  const missing = [...new Set(found.filter((c) => c.level === "quick").map((c) => c.program))].flatMap((program) => {
    if (!program.includes("/")) {
      if (!Bun.which(program)) return [`${program} is not on your PATH`];
      const hidden = sandbox.hides(program);
      return hidden ? [hidden.replace("blocked by the sandbox: ", "")] : [];
    }
    try {
      accessSync(join(workspace, program), constants.X_OK);
      return [];
    } catch {
      return [`${program} is missing or not executable (chmod +x ${program.replace(/^\.\//, "")})`];
    }
  });
  const list = (level: string) => found.filter((c) => c.level === level).map((c) => c.name).join(", ") || "none";
  const detail = `quick: ${list("quick")}; full: ${list("full")}`;
  return {
    name: "project checks",
    ok: missing.length === 0,
    detail: missing.length ? `${detail}; ${missing.join("; ")}: verify cannot run the tests` : detail,
  };
}
