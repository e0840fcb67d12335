import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { STDIO_SERVER } from "../support/mcp-servers.ts";
import type { Turn } from "../support/mock-server.ts";
import { e2eWorld } from "../support/world.ts";

const world = e2eWorld();

const wire = (w: "messages" | "chat") =>
  w === "messages" ? ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "m"] : ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "m"];
/** The test MCP server, configured in the user's mcp.json under `name`. */
const userServer = (name: string) => writeFileSync(join(world.home, ".config", "weir", "mcp.json"), JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [STDIO_SERVER, "stdio"] } } }));
/** The model loads the test server's echo tool, calls it with `message`, says "done", then gives `after`. */
const scriptEcho = (message: string, ...after: Turn[]) =>
  world.server.script({
    turns: [
      { toolCalls: [{ id: "l1", name: "load_actions", input: { actions: ["mcp__t__echo"] } }] },
      { toolCalls: [{ id: "e1", name: "mcp__t__echo", input: { message } }] },
      { text: "done" },
      ...after,
    ],
  });
const toolNames = (i: number) => (world.server.requests[i]!.body.tools ?? []).map((t: any) => t.name ?? t.function.name);

describe.each(["messages", "chat"] as const)("progressive disclosure over the %s wire", (w) => {
  test("the model loads a capability with load_actions and gets its schemas on the next request", async () => {
    world.server.script({
      turns: [
        { toolCalls: [{ id: "l1", name: "load_actions", input: { capabilities: ["command"] } }] },
        { toolCalls: [{ id: "r1", name: "run_command", input: { program: "echo", args: ["loaded"] } }] },
        { text: "done" },
      ],
    });
    const first = world.server.requests.length;
    const r = await runWeir([...wire(w), "--cwd", world.ws, "explain this repo"], { home: world.home });
    expect(r.code).toBe(0);
    expect(toolNames(first)).not.toContain("run_command");
    expect(toolNames(first)).toContain("load_actions");
    expect(toolNames(first + 1)).toContain("run_command");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("loaded");
  });

  test("the model finds an MCP tool by words with load_actions' query and calls it on the next turn", async () => {
    userServer("t");
    world.server.script({
      turns: [
        { toolCalls: [{ id: "q1", name: "load_actions", input: { query: "whether an environment variable is set" } }] },
        { toolCalls: [{ id: "e1", name: "mcp__t__env", input: { name: "WEIR_NO_SUCH_VARIABLE" } }] },
        { text: "done" },
      ],
    });
    const first = world.server.requests.length;
    const r = await runWeir([...wire(w), "--yes", "--cwd", world.ws, "check my setup"], { home: world.home });
    expect(r.code).toBe(0);
    expect(toolNames(first)).not.toContain("mcp__t__env");
    expect(toolNames(first + 1)).toContain("mcp__t__env");
    // The tools array only grew: the first request's tools come first, unchanged (the cache breakpoint moves to the end).
    const plain = (v: unknown) => JSON.stringify(v).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "");
    expect(plain(world.server.requests[first + 1]!.body.tools.slice(0, toolNames(first).length))).toBe(plain(world.server.requests[first]!.body.tools));
    const said = JSON.stringify(world.server.requests.at(-1)!.body.messages);
    expect(said).toContain("loaded mcp__t__env");
    expect(said).toContain("WEIR_NO_SUCH_VARIABLE is unset");
  });

  test("--tools all sends the whole catalog on the first request", async () => {
    world.server.script({ turns: [{ text: "ok" }] });
    const first = world.server.requests.length;
    await runWeir([...wire(w), "--cwd", world.ws, "--tools", "all", "hi"], { home: world.home });
    expect(toolNames(first)).toEqual(expect.arrayContaining(["read_file", "run_command", "shell", "search"]));
    expect(toolNames(first)).not.toContain("load_actions");
  });

  test("an MCP world.server's tools are discovered, loaded on demand and called from the CLI", async () => {
    userServer("t");
    scriptEcho("through mcp");
    const first = world.server.requests.length;
    const r = await runWeir([...wire(w), "--cwd", world.ws, "say something"], { home: world.home });
    expect(r.code).toBe(0);
    const load = world.server.requests[first]!.body.tools.find((t: any) => (t.name ?? t.function.name) === "load_actions");
    expect(JSON.stringify(load)).toContain("mcp:t");
    expect(toolNames(first)).not.toContain("mcp__t__echo");
    expect(toolNames(first + 1)).toContain("mcp__t__echo");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("echo: through mcp");
  });

  test("the tool memory: the tool a task loaded and called is offered in the first request of the next task that says the same", async () => {
    userServer("t");
    scriptEcho("hello", { text: "done again" }, { text: "other" });
    expect((await runWeir([...wire(w), "--cwd", world.ws, "shout hello across the room"], { home: world.home })).code).toBe(0);
    const second = world.server.requests.length;
    expect((await runWeir([...wire(w), "--cwd", world.ws, "shout goodbye across the room"], { home: world.home })).code).toBe(0);
    expect(toolNames(second)).toContain("mcp__t__echo");
    const third = world.server.requests.length;
    expect((await runWeir([...wire(w), "--cwd", world.ws, "rename the parser module"], { home: world.home })).code).toBe(0);
    expect(toolNames(third)).not.toContain("mcp__t__echo");
    // weir actions forget clears it: the same words no longer bring the tool.
    const forget = await runWeir(["actions", "forget", "--cwd", world.ws], { home: world.home });
    expect(forget.code).toBe(0);
    expect(forget.stdout).toMatch(/forgot [1-9]\d* associations/);
    world.server.script({ turns: [{ text: "after forgetting" }] });
    const fourth = world.server.requests.length;
    expect((await runWeir([...wire(w), "--cwd", world.ws, "shout goodbye across the room"], { home: world.home })).code).toBe(0);
    expect(toolNames(fourth)).not.toContain("mcp__t__echo");
    expect((await runWeir(["actions", "remember", "--cwd", world.ws], { home: world.home })).code).toBe(2);
  });
});

describe("MCP from the CLI", () => {
  test("weir actions lists every action a run can offer, the workers' too, unless --max-agents 0", async () => {
    const ids = async (extra: string[]) => JSON.parse((await runWeir(["actions", "--json", "--cwd", world.ws, ...extra], { home: world.home })).stdout).actions.map((a: any) => a.id);
    const all = await ids([]);
    for (const id of ["spawn_agent", "wait_agents", "stop_agent", "list_agents", "read_file", "run_command", "load_actions"]) expect(all).toContain(id);
    expect(await ids(["--max-agents", "0"])).not.toContain("spawn_agent");
  });

  test("weir mcp list and weir actions --json show servers and tools; a project world.server waits for approval", async () => {
    userServer("mine");
    writeFileSync(join(world.ws, ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [STDIO_SERVER, "stdio"] } } }));
    const list = await runWeir(["mcp", "list", "--cwd", world.ws], { home: world.home });
    expect(list.stdout).toContain("mine (user, stdio): connected, 7 tools");
    expect(list.stdout).toContain("repo (project, stdio): unapproved");
    expect((await runWeir(["mcp", "approve", "repo", "--cwd", world.ws], { home: world.home })).code).toBe(0);
    const json = JSON.parse((await runWeir(["actions", "--json", "--cwd", world.ws], { home: world.home })).stdout);
    const ids = json.actions.map((a: any) => a.id);
    expect(ids).toContain("mcp__mine__echo");
    expect(ids).toContain("mcp__repo__echo");
    // A project server's readOnlyHint does not make its tool auto-approved (issue 12): it asks like a write.
    expect(json.actions.find((a: any) => a.id === "mcp__repo__echo")).toMatchObject({ risk: "write", source: "mcp:repo", capability: "mcp:repo" });
  });
});
