import { describe, expect, test } from "bun:test";
import { FLAGS, helpText, parseArgv } from "../../src/cli/args.ts";
import { UserError } from "../../src/core/errors.ts";

function usage(argv: string[]): string {
  try {
    parseArgv(argv);
  } catch (e) {
    if (e instanceof UserError) {
      expect(e.exitCode).toBe(2);
      return e.message;
    }
    throw e;
  }
  throw new Error("expected a usage error");
}

describe("parseArgv", () => {
  test("positionals form the task; flags become config", () => {
    const a = parseArgv(["fix", "the", "test", "--provider", "openai", "--max-turns=7", "--no-color", "-m", "gpt-x"]);
    expect(a.task).toBe("fix the test");
    expect(a.command).toEqual([]);
    expect(a.config).toEqual({ provider: "openai", maxTurns: 7, color: false, model: "gpt-x" });
  });

  test("a subcommand word first is a command; after -- it is a task", () => {
    expect(parseArgv(["config", "show"]).command).toEqual(["config", "show"]);
    expect(parseArgv(["--", "config", "the", "linter"]).task).toBe("config the linter");
  });

  test("unknown flags, bad enum values, bad numbers and missing values are refused naming the flag", () => {
    expect(usage(["--frobnicate"])).toBe("unknown flag --frobnicate; see weir --help");
    expect(usage(["--output-format", "xml"])).toBe("--output-format xml is not valid; use one of text, json, stream-json, events");
    expect(usage(["--provider", "acme"])).toContain("--provider acme is not valid; use one of anthropic, openai, deepseek");
    expect(usage(["--max-tokens", "12k"])).toBe("--max-tokens 12k is not valid; use a positive whole number");
    expect(usage(["--max-turns", "0"])).toBe("--max-turns 0 is not valid; use a positive whole number");
    expect(usage(["--max-turns"])).toBe("--max-turns needs a positive whole number");
    expect(usage(["--model", ""])).toBe("--model needs a value");
  });

  test("every flag appears in --help or weir eval --help; eval-only flags are not listed with the run flags", () => {
    const run = helpText("run");
    const ev = helpText("eval");
    for (const f of FLAGS) expect(`${run}\n${ev}`).toContain(`--${f.name}`);
    for (const f of ["shard", "folds", "max-false-stop", "html", "db"]) {
      expect(run).not.toContain(`--${f} `);
      expect(ev).toContain(`--${f}`);
    }
    expect(run).toContain("see weir eval --help");
  });

  test("help and version are commands, not tasks", () => {
    expect(parseArgv(["help"]).command).toEqual(["help"]);
    expect(parseArgv(["version"]).task).toBe("");
    expect(parseArgv(["--", "help"]).task).toBe("help");
  });
});

describe("a lone word a letter or two from a command", () => {
  test("is refused with the command it is a typo of, and the way to send it as a task", () => {
    expect(usage(["doctr"])).toBe('unknown command "doctr"; did you mean weir doctor? To give it to the model as a task: weir -- doctr');
    expect(usage(["changs"])).toContain("did you mean weir changes?");
    expect(usage(["contexts"])).toContain("did you mean weir context?");
  });

  test("a lone word for a command weir does not have says what to do instead", () => {
    expect(usage(["update"])).toBe('weir has no "update" command: it does not update itself; download the new binary from a release and put it where this one is. To give it to the model as a task: weir -- update');
    expect(usage(["login"])).toContain("weir auth login");
    expect(parseArgv(["update", "the", "changelog"]).task).toBe("update the changelog");
  });

  test("short task words, sentences and words after -- are tasks", () => {
    for (const task of ["hello", "test", "fix", "docs", "lint", "build", "review"]) expect(parseArgv([task]).task).toBe(task);
    expect(parseArgv(["doctr", "the", "config"]).task).toBe("doctr the config");
    expect(parseArgv(["--", "doctr"]).task).toBe("doctr");
  });
});

