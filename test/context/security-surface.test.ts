import { describe, expect, test } from "bun:test";
import { securityBindings, touchesSecurity } from "../../src/context/security-surface.ts";

/** Whether a whole file's code touches a security surface. */
const touches = (file: string) => touchesSecurity(file, securityBindings(file));

describe("security read from the code a change plans", () => {
  test("names bound to security modules are found in JavaScript, Python and Go imports", () => {
    expect(securityBindings('import { createHmac, timingSafeEqual as same } from "node:crypto";\n')).toEqual(["createHmac", "same"]);
    expect(securityBindings('import * as crypto from "crypto";\nconst cp = require("child_process");\n')).toEqual(["crypto", "cp"]);
    expect(securityBindings("import hmac\nimport hashlib as h\nfrom secrets import token_hex\nimport os\n")).toEqual(["hmac", "h", "token_hex"]);
    expect(securityBindings('import (\n\t"crypto/rand"\n\t"encoding/hex"\n\tx "os/exec"\n)\n')).toEqual(["rand", "x"]);
    expect(securityBindings('import "math/rand"\nimport random\nimport { readFile } from "node:fs";\n')).toEqual([]);
  });

  test("a function that calls into cryptography, secrets or command execution touches security", () => {
    expect(touches('import { createHmac } from "node:crypto";\nexport const sign = (b: string, k: string) => createHmac("sha256", k).update(b).digest("hex");\n')).toBe(true);
    expect(touches("import secrets\n\ndef nonce():\n    return secrets.token_hex(8)\n")).toBe(true);
    expect(touches('package util\n\nimport "crypto/rand"\n\nfunc Nonce(b []byte) { rand.Read(b) }\n')).toBe(true);
    expect(touches('import subprocess\n\ndef ls(name):\n    return subprocess.run("ls " + name, shell=True)\n')).toBe(true);
  });

  test("authentication headers and markup entities in a function's strings touch security", () => {
    expect(touches('export const ok = (h: Record<string, string>, t: string) => h["authorization"] === `Bearer ${t}`;\n')).toBe(true);
    expect(touches('func Ok(r *http.Request) bool { return r.Header.Get("Authorization") != "" }\n')).toBe(true);
    expect(touches('def esc(t):\n    return t.replace("<", "&lt;")\n')).toBe(true);
  });

  test("near misses: randomness for display, a bucket hash, the word 'key' or 'token' as code; a name used only beside the region", () => {
    expect(touches('package ui\n\nimport "math/rand"\n\nfunc Pick(c []string) string { return c[rand.Intn(len(c))] }\n')).toBe(false);
    expect(touches("import random\n\ndef pick(c):\n    return random.choice(c)\n")).toBe(false);
    expect(touches("export function bucket(key: string) {\n  let hash = 0;\n  for (const c of key) hash = hash * 31 + c.charCodeAt(0);\n  return hash % 32;\n}\n")).toBe(false);
    expect(touches('export const kinds = ["token", "keyword", "authorized_keys"];\n')).toBe(false);
    // The region (a greeting) does not use what its file imports for another function.
    const bindings = securityBindings('import { createHmac } from "node:crypto";\n');
    expect(touchesSecurity("export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n", bindings)).toBe(false);
    // A property of the same name on another object is not the binding.
    expect(touchesSecurity("const v = config.createHmac;\n", bindings)).toBe(false);
  });
});
