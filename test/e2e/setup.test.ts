import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { weirInPty } from "../support/pty.ts";
import { e2eWorld } from "../support/world.ts";

/** `weir init` and `weir auth`, through the binary, against the mock endpoint (its model list and its answers). */
const world = e2eWorld();
const config = () => join(world.home, ".config", "weir", "config.json");
const DOWN = "\x1b[B";

describe("weir init", () => {
  test("choose the endpoint, paste a key, pick a model from the endpoint's list, one test request, config written 0600", async () => {
    world.server.models = ["mock-a", "mock-b"];
    world.server.script({ turns: [{ text: "ok" }] });
    writeFileSync(config(), JSON.stringify({ verbose: true }));
    const t = weirInPty(["init", "--provider", "openai-compatible"], { home: world.home, cwd: world.ws });
    await t.waitFor("Which model provider?");
    t.write("\r"); // the current provider is preselected
    await t.waitFor("Endpoint URL");
    t.write(`${world.server.url}/v1\r`);
    await t.waitFor("API key");
    t.write("sk-test-0123456789abcdef\r");
    await t.waitFor("Which model?");
    t.write(`${DOWN}\r`);
    await t.waitFor("Saved to");
    await t.exits(0);
    const saved = JSON.parse(readFileSync(config(), "utf8"));
    expect(saved).toEqual({ verbose: true, provider: "openai-compatible", model: "mock-b", baseUrl: `${world.server.url}/v1`, apiKey: "sk-test-0123456789abcdef" });
    expect(statSync(config()).mode & 0o777).toBe(0o600);
    const list = world.server.requests.find((r) => r.path.endsWith("/models"))!;
    expect(list.headers.authorization).toBe("Bearer sk-test-0123456789abcdef");
    expect(world.server.requests.at(-1)!.body.model).toBe("mock-b");
    // The saved setup is what the next run uses.
    world.server.script({ turns: [{ text: "configured run" }] });
    const r = await runWeir(["--cwd", world.ws, "hello"], { home: world.home });
    expect(r.stdout).toContain("configured run");
  });

  test("an endpoint without a model list asks for the id; a failing test request saves nothing unless told to", async () => {
    world.server.models = null;
    world.server.script({ turns: [{ fault: "http_500" }] });
    const t = weirInPty(["init", "--provider", "anthropic-compatible"], { home: world.home, cwd: world.ws });
    await t.waitFor("Which model provider?");
    t.write("\r");
    await t.waitFor("Endpoint URL");
    t.write(`${world.server.url}\r`);
    await t.waitFor("API key");
    t.write("\r"); // no key: this endpoint needs none
    await t.waitFor("Model id");
    t.write("my-model\r");
    await t.waitFor("Save this setup anyway?");
    t.write("\r"); // the default is no
    await t.waitFor("nothing was written");
    // Declining is an answer, not an interruption: the test request failed, so exit 1.
    expect(await t.proc.exited).toBe(1);
    expect(t.text()).toContain("The endpoint gave no model list");
    expect(existsSync(config())).toBe(false);
  });

  test("without a terminal it says what to do instead", async () => {
    const r = await runWeir(["init"], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("weir auth login");
  });
});

describe("weir auth", () => {
  const endpoint = () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-a"];
  test("login checks the key before storing it (0600); status says where the key comes from; logout removes it", async () => {
    world.server.script({ turns: [{ fault: "http_500" }] });
    const bad = await runWeir(["auth", "login", ...endpoint()], { home: world.home, cwd: world.ws, stdin: "sk-bad-key-000000000000" });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("not saved");
    expect(existsSync(config())).toBe(false);

    world.server.script({ turns: [{ text: "ok" }] });
    const good = await runWeir(["auth", "login", ...endpoint()], { home: world.home, cwd: world.ws, stdin: "sk-good-key-111111111111\n" });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain("saved ****1111");
    expect(JSON.parse(readFileSync(config(), "utf8")).apiKey).toBe("sk-good-key-111111111111");
    expect(statSync(config()).mode & 0o777).toBe(0o600);

    const status = await runWeir(["auth", "status"], { home: world.home, cwd: world.ws });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("key ****1111 from the user config");
    const fromEnv = await runWeir(["auth", "status"], { home: world.home, cwd: world.ws, env: { WEIR_API_KEY: "sk-env-key-2222222222222" } });
    expect(fromEnv.stdout).toContain("key ****2222 from the environment (WEIR_API_KEY)");
    // OpenAI's own variable is OpenAI's: the compatible endpoint keeps the key stored for it.
    const vendor = await runWeir(["auth", "status"], { home: world.home, cwd: world.ws, env: { OPENAI_API_KEY: "sk-env-key-3333333333333" } });
    expect(vendor.stdout).toContain("key ****1111 from the user config");

    // OPENAI_API_KEY is OpenAI's, not this endpoint's: logging out does not claim it still provides a key here.
    const out = await runWeir(["auth", "logout"], { home: world.home, cwd: world.ws, env: { OPENAI_API_KEY: "sk-env-key-4444444444444" } });
    expect(out.code).toBe(0);
    expect(out.stdout).not.toContain("still provides one");
    expect(JSON.parse(readFileSync(config(), "utf8")).apiKey).toBeUndefined();
    expect((await runWeir(["auth", "status"], { home: world.home, cwd: world.ws })).stdout).toContain("no key (this endpoint needs none)");
  });

  test("no key on stdin is a one-line usage error", async () => {
    const r = await runWeir(["auth", "login", ...endpoint()], { home: world.home, cwd: world.ws });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no key given");
  });
});
