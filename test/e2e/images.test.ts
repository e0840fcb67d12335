import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runWeir } from "../support/cli.ts";
import { e2eWorld } from "../support/world.ts";

/**
 * `@shot.png` attaches the image, on both wires, through the binary and the real SDKs: a Messages
 * image block, a Chat image_url data URL; the same image is in the next request of the conversation.
 * What cannot be sent is one line and no request: a model that takes no images, a file that is not
 * an image, one over the size limit, one outside the workspace.
 */
const world = e2eWorld();
const wires = {
  messages: () => ["--provider", "anthropic-compatible", "--base-url", world.server.url, "--model", "mock-a"],
  chat: () => ["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "mock-b"],
};
/** A 1x1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

describe("images", () => {
  for (const wire of ["messages", "chat"] as const)
    test(`on the ${wire} wire @shot.png goes with the task as an image, and stays in the conversation`, async () => {
      writeFileSync(join(world.ws, "shot.png"), PNG);
      world.server.script({ turns: [{ text: "a single pixel" }, { text: "still one pixel" }] });
      const before = world.server.requests.length;
      const r = await runWeir([...wires[wire](), "--verify-floor", "off", "what is in @shot.png?"], { home: world.home, cwd: world.ws });
      expect([r.code, r.stderr.includes("at ")]).toEqual([0, false]);
      const body = world.server.requests[before]!.body;
      const data = PNG.toString("base64");
      const parts = body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []));
      // (On the Messages wire the first message's last block also carries its cache breakpoint.)
      if (wire === "messages") expect(parts.find((p: { type: string }) => p.type === "image")).toMatchObject({ source: { type: "base64", media_type: "image/png", data } });
      else expect(parts).toContainEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${data}` } });
      const next = await runWeir([...wires[wire](), "--verify-floor", "off", "-c", "and now?"], { home: world.home, cwd: world.ws });
      expect(next.code).toBe(0);
      expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain(data);
    }, 60_000);

  test("what cannot be sent is said in one line, and nothing is sent", async () => {
    writeFileSync(join(world.ws, "shot.png"), PNG);
    writeFileSync(join(world.ws, "fake.png"), "not an image at all");
    writeFileSync(join(world.ws, "huge.png"), Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    const before = world.server.requests.length;
    const cases: [string[], string, string][] = [
      [["--provider", "openai-compatible", "--base-url", `${world.server.url}/v1`, "--model", "deepseek-chat"], "look at @shot.png", "deepseek-chat takes no images"],
      [wires.chat(), "look at @fake.png", "@fake.png is not a PNG, JPEG, GIF or WebP image"],
      [wires.chat(), "look at @huge.png", "over the 5 MB an image may be"],
      [wires.chat(), "look at @missing.png", "@missing.png is not there"],
      [wires.chat(), "look at @../outside.png", "@../outside.png cannot be attached"],
    ];
    for (const [flags, task, said] of cases) {
      const r = await runWeir([...flags, "--verify-floor", "off", task], { home: world.home, cwd: world.ws });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(said);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(world.server.requests.length).toBe(before);
  }, 60_000);

  test("an absolute image path the person typed is read where it is; the same path from a command template, or a protected one, is refused", async () => {
    const desk = join(world.tmp, "Desktop");
    mkdirSync(desk, { recursive: true });
    writeFileSync(join(desk, "shot.png"), PNG);
    const shot = join(desk, "shot.png");
    world.server.script({ turns: [{ text: "a single pixel" }] });
    const before = world.server.requests.length;
    const typed = await runWeir([...wires.chat(), "--verify-floor", "off", `what is in @${shot}?`], { home: world.home, cwd: world.ws });
    expect(typed.code).toBe(0);
    expect(JSON.stringify(world.server.requests[before]!.body.messages)).toContain(PNG.toString("base64"));
    // A repository's command template naming the same path: what the person typed is "/look", not the path.
    mkdirSync(join(world.ws, ".weir", "commands"), { recursive: true });
    writeFileSync(join(world.ws, ".weir", "commands", "look.md"), `Describe @${shot} please.\n`);
    const templated = await runWeir([...wires.chat(), "--verify-floor", "off", "/look"], { home: world.home, cwd: world.ws });
    expect(templated.code).not.toBe(0);
    expect(templated.stderr).toContain(`@${shot} cannot be attached`);
    // Typed, but in a dot-directory of the home: protected as any read is.
    mkdirSync(join(world.home, ".secrets"), { recursive: true });
    writeFileSync(join(world.home, ".secrets", "qr.png"), PNG);
    const hidden = await runWeir([...wires.chat(), "--verify-floor", "off", `what is in @${join(world.home, ".secrets", "qr.png")}?`], { home: world.home, cwd: world.ws });
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toContain("home dot-directories");
    expect(world.server.requests.length).toBe(before + 1);
  }, 60_000);
});
