import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { machineRefusal, UserError } from "../../src/core/errors.ts";
import { raised } from "../support/errors.ts";
import { tempDir } from "../support/temp.ts";

test("a path the machine refused is one line with the call, the path and the reason; anything else stays a bug", () => {
  const tmp = tempDir();
  try {
    writeFileSync(join(tmp.path, "file"), "");
    const e = raised(() => mkdirSync(join(tmp.path, "file", "dir"), { recursive: true }));
    expect(machineRefusal(e)).toBe(`cannot mkdir ${join(tmp.path, "file", "dir")}: not a directory`);
    expect(machineRefusal(new TypeError("x is undefined"))).toBeUndefined();
    expect(machineRefusal(new UserError("bad flag"))).toBeUndefined();
    expect(machineRefusal(Object.assign(new Error("E: x"), { code: "ERR_INVALID_ARG_TYPE" }))).toBeUndefined();
    expect(machineRefusal(undefined)).toBeUndefined();
  } finally {
    tmp.cleanup();
  }
});
