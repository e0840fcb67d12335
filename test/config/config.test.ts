import { afterEach, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../../src/config/load.ts";
import { userConfigDir, userDataDir } from "../../src/config/paths.ts";
import { envFileSetting, maskSecret, providerSettings, requireKey, resolveSettings, type Layers } from "../../src/config/resolve.ts";
import { thrown } from "../support/errors.ts";
import { tempDir } from "../support/temp.ts";

const layers = (over: Partial<Layers> = {}): Layers => ({ flags: {}, env: {}, project: {}, user: {}, ...over });


describe("resolveSettings", () => {
  test("precedence is flags over env over project over user, with the source recorded", () => {
    const r = resolveSettings(
      layers({
        flags: { maxTurns: 5 },
        env: { WEIR_MAX_TURNS: "6", WEIR_MAX_TOKENS: "700", WEIR_EFFORT: "low" },
        project: { maxTurns: 7, maxTokens: 800, contextSize: 9000, effort: "high" },
        user: { maxTurns: 8, maxTokens: 900, contextSize: 10000, cache: "active" },
      }),
    );
    expect([r.settings.maxTurns, r.sources.maxTurns]).toEqual([5, "flag"]);
    expect([r.settings.maxTokens, r.sources.maxTokens]).toEqual([700, "env"]);
    expect([r.settings.effort, r.sources.effort]).toEqual(["low", "env"]);
    expect([r.settings.contextSize, r.sources.contextSize]).toEqual([9000, "project"]);
    expect([r.settings.cache, r.sources.cache]).toEqual(["active", "user"]);
    expect([r.settings.outputFormat, r.sources.outputFormat]).toEqual(["text", "default"]);
  });

  test("a preset supplies endpoint, model, wire and thinking default", () => {
    const r = resolveSettings(layers({ flags: { provider: "deepseek" }, env: { DEEPSEEK_API_KEY: "dk" } }));
    expect(r.settings.baseUrl).toBe("https://api.deepseek.com");
    expect(r.settings.model).toBe("deepseek-chat");
    expect(r.sources.model).toBe("preset");
    expect(r.settings.apiKey).toBe("dk");
    expect(r.sources.apiKey).toBe("env (DEEPSEEK_API_KEY)");
    expect(providerSettings(r).wire).toBe("chat");
    // deepseek-chat gives at most 8192 output tokens; a flag still wins.
    expect([r.settings.maxTokens, r.sources.maxTokens]).toEqual([8192, "preset"]);
    expect(resolveSettings(layers({ flags: { provider: "deepseek", maxTokens: 4000 }, env: { DEEPSEEK_API_KEY: "dk" } })).settings.maxTokens).toBe(4000);
    expect(resolveSettings(layers({ flags: { provider: "openai" }, env: { OPENAI_API_KEY: "k" } })).settings.maxTokens).toBe(16_384);
  });

  test("the key comes from --api-key, else the vendor variable, else WEIR_API_KEY, else the user config", () => {
    const env = { ANTHROPIC_API_KEY: "vendor", WEIR_API_KEY: "generic" };
    expect(resolveSettings(layers({ flags: { apiKey: "flag" }, env })).settings.apiKey).toBe("flag");
    expect(resolveSettings(layers({ env })).settings.apiKey).toBe("vendor");
    expect(resolveSettings(layers({ env: { WEIR_API_KEY: "generic" } })).settings.apiKey).toBe("generic");
    expect(resolveSettings(layers({ user: { apiKey: "from-user" } })).settings.apiKey).toBe("from-user");
  });

  test("NO_COLOR turns colour off", () => {
    expect(resolveSettings(layers({ env: { NO_COLOR: "1" } })).settings.color).toBe(false);
    expect(resolveSettings(layers({ env: { NO_COLOR: "" } })).settings.color).toBe(true);
  });

  test("compatible presets need --base-url and --model", () => {
    expect(thrown(() => resolveSettings(layers({ flags: { provider: "openai-compatible" } }))).message).toContain("needs --base-url");
    expect(thrown(() => resolveSettings(layers({ flags: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:1" } }))).message).toContain(
      "needs --model",
    );
  });

  test("an unknown provider and a bad WEIR_* value are refused by name with the allowed values", () => {
    const e = thrown(() => resolveSettings(layers({ user: { provider: "acme" } })));
    expect(e.message).toContain('unknown provider "acme"');
    expect(e.message).toContain("openrouter");
    expect(thrown(() => resolveSettings(layers({ env: { WEIR_EFFORT: "huge" } }))).message).toBe("WEIR_EFFORT=huge is not valid; use one of low, medium, high, max");
    expect(thrown(() => resolveSettings(layers({ env: { WEIR_MAX_TURNS: "-3" } }))).exitCode).toBe(2);
  });

  test("a missing key names the variables to set; keyless presets need none", () => {
    const e = thrown(() => requireKey(resolveSettings(layers({ flags: { provider: "zai" } }))));
    expect(e.message).toBe("no API key for provider zai: set ZAI_API_KEY or ZHIPUAI_API_KEY or WEIR_API_KEY, or pass --api-key");
    expect(() => requireKey(resolveSettings(layers({ flags: { provider: "ollama", model: "llama3.1" } })))).not.toThrow();
  });
});

describe("loadConfigFile", () => {
  let dir: ReturnType<typeof tempDir>;
  afterEach(() => dir?.cleanup());
  const write = (text: string) => {
    dir = tempDir();
    const path = join(dir.path, "config.json");
    writeFileSync(path, text);
    return path;
  };

  test("a missing file is an empty layer", () => {
    dir = tempDir();
    expect(loadConfigFile(join(dir.path, "nope.json"), "user")).toEqual({});
  });

  test("broken JSON is refused with the path and never echoes content", () => {
    const path = write('{\n  "apiKey": "sk-secret-value-123456",\n  "model": oops\n}');
    const e = thrown(() => loadConfigFile(path, "user"));
    expect(e.message).toContain(path);
    expect(e.message).toContain("not valid JSON");
    expect(e.message).not.toContain("sk-secret");
  });

  test("a wrong type names the field and what was expected, without the value", () => {
    const path = write(JSON.stringify({ apiKey: 12345678901234567890, maxTurns: "many" }));
    const e = thrown(() => loadConfigFile(path, "user"));
    expect(e.message).toMatch(/field (apiKey|maxTurns): .*expected/i);
    expect(e.message).not.toContain("12345678901234567890");
  });

  test("an unknown key is refused so a typo never silently does nothing", () => {
    const path = write(JSON.stringify({ modle: "x" }));
    expect(thrown(() => loadConfigFile(path, "user")).message).toContain("modle");
  });

  test("a project config may not redirect the key or carry one", () => {
    for (const key of ["baseUrl", "apiKey"]) {
      const path = write(JSON.stringify({ [key]: key === "baseUrl" ? "https://evil.example" : "k" }));
      expect(thrown(() => loadConfigFile(path, "project")).message).toContain(`field ${key} is not allowed in a project config`);
      expect(loadConfigFile(path, "user")).toHaveProperty(key);
    }
  });
});

describe("paths and masking", () => {
  test("XDG variables and Windows folders are honoured", () => {
    expect(userConfigDir({ XDG_CONFIG_HOME: "/x/cfg", HOME: "/h" }, "linux")).toBe("/x/cfg/weir");
    expect(userConfigDir({ HOME: "/h" }, "darwin")).toBe("/h/.config/weir");
    expect(userDataDir({ HOME: "/h" }, "linux")).toBe("/h/.local/share/weir");
    expect(userConfigDir({ APPDATA: "C:\\\\Users\\\\u\\\\AppData\\\\Roaming" }, "win32")).toContain("weir");
  });

  test("a masked secret shows at most its last four characters", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (secret) => {
        const shown = maskSecret(secret).replace(/^\*{4}/, "");
        expect(shown.length).toBeLessThanOrEqual(4);
        expect(secret.endsWith(shown)).toBe(true);
      }),
    );
    expect(maskSecret(undefined)).toBe("(unset)");
  });
});


describe("a workspace .env that sets the key", () => {
  test("an assignment of a key variable is found by its name, plain or exported; a comment or another name is not", () => {
    const names = ["ANTHROPIC_API_KEY", "WEIR_API_KEY"];
    expect(envFileSetting("FOO=1\nANTHROPIC_API_KEY=sk-x\n", names)).toBe(true);
    expect(envFileSetting("  export WEIR_API_KEY = sk-x", names)).toBe(true);
    expect(envFileSetting("# ANTHROPIC_API_KEY=sk-x\nMY_ANTHROPIC_API_KEY=1\nANTHROPIC_API_KEY_OLD=2", names)).toBe(false);
  });

  test("the missing-key error names the unread file only when given one", () => {
    const r = resolveSettings({ flags: {}, env: {}, project: {}, user: {} });
    expect(thrown(() => requireKey(r)).message).not.toContain(".env");
    expect(thrown(() => requireKey(r, ".env.local")).message).toContain("weir does not read .env.local");
  });
});
