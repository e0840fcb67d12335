import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Disclosure, loadActionsAction } from "../../src/actions/disclosure.ts";
import { ActionRegistry } from "../../src/actions/registry.ts";
import { expandVars, loadMcpServers, type ServerEntry } from "../../src/mcp/config.ts";
import { McpHub, riskOf, toolId } from "../../src/mcp/hub.ts";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, STDIO_SERVER, startHttpMcpServer } from "../support/mcp-servers.ts";
import { tempDir } from "../support/temp.ts";

let tmp: ReturnType<typeof tempDir>;
let hub: McpHub | undefined;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await hub?.closeAll();
  hub = undefined;
  tmp.cleanup();
});

const entry = (name: string, config: ServerEntry["config"], origin: "user" | "project" = "user"): ServerEntry => ({ name, config, origin, path: "test", fingerprint: name });
const stdio = (name: string, script = STDIO_SERVER, args = ["stdio"]) => entry(name, { command: process.execPath, args: [script, ...args], env: {} });
const signal = new AbortController().signal;

function makeHub(registry = new ActionRegistry(), over: Partial<ConstructorParameters<typeof McpHub>[1]> = {}) {
  hub = new McpHub(registry, { workspace: tmp.path, serverHomes: join(tmp.path, ".mcp-homes"), startTimeoutMs: 8000, callTimeoutMs: 2000, isApproved: () => true, clientVersion: "test", ...over });
  return { hub, registry };
}

describe("MCP configuration", () => {
  test("${VAR} and ${VAR:-default} expand in every string", () => {
    expect(expandVars("${A}-${B:-dflt}-${C:-}", { A: "a" })).toBe("a-dflt-");
    expect(expandVars("$A ${A", { A: "x" })).toBe("$A ${A");
  });

  test("user and project files merge; the person's own server wins on a name clash", () => {
    const cfg = join(tmp.path, "cfg");
    const ws = join(tmp.path, "ws");
    mkdirSync(cfg);
    mkdirSync(ws);
    writeFileSync(join(cfg, "mcp.json"), JSON.stringify({ mcpServers: { shared: { command: "user-cmd" }, mine: { url: "https://${HOST:-mcp.example}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } } }));
    writeFileSync(join(ws, ".mcp.json"), JSON.stringify({ mcpServers: { shared: { command: "project-cmd", args: ["--x"] } } }));
    const list = loadMcpServers(cfg, ws, { TOKEN: "t0k" });
    expect(list.find((e) => e.name === "shared")).toMatchObject({ origin: "user", config: { command: "user-cmd" } });
    expect(list.find((e) => e.name === "mine")!.config).toMatchObject({ url: "https://mcp.example/mcp", headers: { Authorization: "Bearer t0k" } });
  });

  test("annotations map onto risk classes", () => {
    expect(riskOf({ readOnlyHint: true })).toBe("read");
    expect(riskOf({})).toBe("destructive");
    expect(riskOf({ destructiveHint: false })).toBe("network");
    expect(riskOf({ destructiveHint: false, openWorldHint: false })).toBe("write");
    expect(toolId("srv", "get.thing")).toBe("mcp__srv__get_thing");
  });
});

describe("the MCP hub with real servers", () => {
  test("the reference everything server: tools are discovered, disclosed on demand and called", async () => {
    const { hub, registry } = makeHub();
    const disclosure = new Disclosure(registry, { mode: "auto", core: ["read"] });
    registry.register(loadActionsAction(() => disclosure));
    await hub.start([stdio("everything", EVERYTHING_SERVER)]);
    expect(hub.status()[0]).toMatchObject({ state: "connected", transport: "stdio" });
    const echo = registry.get("mcp__everything__echo")!;
    expect(echo.risk).toBe("read");
    expect(disclosure.offer().map((t) => t.name)).not.toContain("mcp__everything__echo");
    expect(disclosure.offer().find((t) => t.name === "load_actions")!.description).toContain("mcp:everything");
    disclosure.load(["mcp:everything"], []);
    expect(disclosure.offer().map((t) => t.name)).toContain("mcp__everything__echo");
    expect(await echo.run({ message: "hello" }, { signal } as never)).toBe("Echo: hello");
  });

  test("the reference filesystem server reads a file in the directory it was given", async () => {
    const dir = realpathSync(tmp.path);
    writeFileSync(join(dir, "note.txt"), "from the filesystem server");
    const { hub, registry } = makeHub();
    await hub.start([stdio("fs", FILESYSTEM_SERVER, [dir])]);
    expect(hub.status()[0]!.state).toBe("connected");
    const read = registry.get("mcp__fs__read_text_file") ?? registry.get("mcp__fs__read_file")!;
    expect(await read.run({ path: join(dir, "note.txt") }, { signal } as never)).toContain("from the filesystem server");
  });

  test("a streamable-HTTP server started in the test is listed and called", async () => {
    const http = startHttpMcpServer();
    try {
      const { hub, registry } = makeHub();
      await hub.start([entry("web", { url: http.url, headers: {} })]);
      expect(hub.status()[0]).toMatchObject({ state: "connected", transport: "http" });
      expect(await registry.get("mcp__web__echo")!.run({ message: "over http" }, { signal } as never)).toBe("echo: over http");
    } finally {
      await http.stop();
    }
  });

  test("a server that never starts costs nothing but its own tools; the others work", async () => {
    const hang = join(tmp.path, "hang.ts");
    writeFileSync(hang, "await Bun.sleep(60_000);\n");
    // Long enough for a real server to start on a loaded machine (two test files and a build at once); the hung one waits a minute.
    const { hub, registry } = makeHub(undefined, { startTimeoutMs: 2_500 });
    await hub.start([entry("missing", { command: "definitely-not-a-real-mcp-server", args: [], env: {} }), stdio("hangs", hang, []), stdio("good")]);
    const byName = Object.fromEntries(hub.status().map((s) => [s.name, s]));
    expect(byName.missing!.state).toBe("failed");
    expect(byName.hangs!.state).toBe("failed");
    expect(byName.hangs!.reason).toContain("did not answer within");
    expect(byName.good!.state).toBe("connected");
    expect(registry.ids().filter((id) => id.startsWith("mcp__good__"))).toHaveLength(7);
  });

  test("a server that crashes mid-session loses its tools with a sentence the model can read; reconnect brings them back", async () => {
    const { hub, registry } = makeHub();
    await hub.start([stdio("fragile")]);
    await registry.get("mcp__fragile__crash")!.run({}, { signal } as never).catch(() => undefined);
    for (let i = 0; i < 100 && hub.status()[0]!.state === "connected"; i++) await Bun.sleep(20);
    expect(hub.status()[0]!.state).toBe("failed");
    expect(registry.get("mcp__fragile__echo")).toBeUndefined();
    expect(registry.goneReason("mcp__fragile__echo")).toContain("not available");
    expect(await hub.reconnect("fragile")).toContain("connected");
    expect(await registry.get("mcp__fragile__echo")!.run({ message: "back" }, { signal } as never)).toBe("echo: back");
  });

  test("a slow call times out with a clear error; calls to one server keep their order", async () => {
    const { hub, registry } = makeHub(undefined, { callTimeoutMs: 300 });
    await hub.start([stdio("slowpoke")]);
    const slow = registry.get("mcp__slowpoke__slow")!;
    await expect(slow.run({ ms: 2000 }, { signal } as never)).rejects.toThrow("did not answer within");
    const order: string[] = [];
    await Promise.all([
      slow.run({ ms: 150 }, { signal } as never).then(() => order.push("first")),
      registry.get("mcp__slowpoke__echo")!.run({ message: "x" }, { signal } as never).then(() => order.push("second")),
    ]);
    expect(order).toEqual(["first", "second"]);
  });

  test("a tool error comes back as a failure; disable removes tools with a reason; enable restores them", async () => {
    const { hub, registry } = makeHub();
    await hub.start([stdio("srv")]);
    await expect(registry.get("mcp__srv__fail")!.run({}, { signal } as never)).rejects.toThrow("it broke on purpose");
    await hub.disable("srv");
    expect(registry.get("mcp__srv__echo")).toBeUndefined();
    expect(registry.goneReason("mcp__srv__echo")).toContain("disabled");
    await hub.enable("srv");
    expect(registry.get("mcp__srv__echo")).toBeDefined();
  });

  test("an unapproved project server does not start", async () => {
    const { hub, registry } = makeHub(undefined, { isApproved: () => false });
    await hub.start([{ ...stdio("proj"), origin: "project" }]);
    expect(hub.status()[0]).toMatchObject({ state: "unapproved" });
    expect(hub.status()[0]!.reason).toContain("weir mcp approve proj");
    expect(registry.ids().some((id) => id.startsWith("mcp__proj"))).toBe(false);
  });

  test("a stdio server does not inherit API keys from weir's environment", async () => {
    process.env.WEIR_MCP_TEST_API_KEY = "sk-leak";
    try {
      const { hub, registry } = makeHub();
      await hub.start([stdio("envcheck")]);
      expect(await registry.get("mcp__envcheck__env")!.run({ name: "WEIR_MCP_TEST_API_KEY" }, { signal } as never)).toBe("WEIR_MCP_TEST_API_KEY is unset");
    } finally {
      delete process.env.WEIR_MCP_TEST_API_KEY;
    }
  });

  test("a tool description that carries instructions is withheld, with its parameter notes; honest tools keep theirs", async () => {
    const { hub, registry } = makeHub();
    await hub.start([stdio("tickets")]);
    const hostile = registry.get("mcp__tickets__hostile")!;
    expect(hostile.description).not.toContain("id_rsa");
    expect(hostile.description).toContain("withheld");
    expect(JSON.stringify(hostile.jsonSchema)).not.toContain("curl");
    expect(registry.spec("mcp__tickets__hostile")!.description).toBe(hostile.description);
    expect(registry.get("mcp__tickets__echo")!.description).toBe("Echo the message back");
  });

  test("an instruction in a parameter's default (or title, or example) is withheld too: a flagged tool's schema is its shape", async () => {
    const { hub, registry } = makeHub();
    await hub.start([stdio("orders")]);
    const tool = registry.get("mcp__orders__hostile_default")!;
    expect(tool.description).toContain("withheld");
    const sent = JSON.stringify(registry.spec("mcp__orders__hostile_default")!.inputSchema);
    expect(sent).not.toContain("curl");
    // The shape is kept, so the tool can still be called as the server defines it.
    expect(registry.spec("mcp__orders__hostile_default")!.inputSchema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, note: { type: "string" } },
      required: ["id"],
    });
  });

  test("the reference servers' own tool descriptions pass the firewall: none is withheld", async () => {
    const { hub, registry } = makeHub();
    await hub.start([stdio("everything", EVERYTHING_SERVER), stdio("fs", FILESYSTEM_SERVER, [realpathSync(tmp.path)])]);
    const tools = registry.all().filter((a) => a.id.startsWith("mcp__"));
    expect(tools.length).toBeGreaterThan(20);
    expect(tools.filter((a) => a.description.includes("withheld")).map((a) => a.id)).toEqual([]);
  });

  test("a project server's readOnlyHint never makes its tools auto-approved; a user server's does", async () => {
    const { hub, registry } = makeHub();
    await hub.start([{ ...stdio("proj"), origin: "project" }, stdio("mine")]);
    expect(registry.get("mcp__proj__echo")!.risk).toBe("write");
    expect(registry.get("mcp__mine__echo")!.risk).toBe("read");
  });
});

describe("MCP start-up", () => {
  test("a slow server is announced as starting, and a timeout names the per-server setting that raises it", async () => {
    const slow = join(tmp.path, "slow.ts");
    writeFileSync(slow, "await Bun.sleep(60_000);\n");
    const starting: string[] = [];
    const { hub } = makeHub(undefined, { startTimeoutMs: 1_500, onStarting: (name) => starting.push(name) });
    await hub.start([stdio("sluggish", slow, [])]);
    expect(starting).toEqual(["sluggish"]);
    expect(hub.status()[0]).toMatchObject({ state: "failed" });
    expect(hub.status()[0]!.reason).toContain('raise "timeout"');
  });
});
