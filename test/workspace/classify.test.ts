import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { classifyChange, type ChangeFacts } from "../../src/workspace/classify.ts";
import { dottedReason } from "../../src/workspace/containment.ts";

/** A command's change set, one file at a time: what applies to the workspace and what is held. */
const shown: ChangeFacts = { git: "shown", network: false, freshRepository: false };
const file = (rel: string) => ({ rel, kind: "file" as const, mode: 0o644, size: 1 });
const verdict = (rel: string, f: ChangeFacts = shown) => classifyChange(file(rel), f).apply;

const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
const dir = fc.array(name, { maxLength: 3 });

describe("classifyChange: configuration by its name", () => {
  test("any dotted name at any depth is held, whatever tool it belongs to", () => {
    fc.assert(
      fc.property(dir, name, dir, name, (above, dot, below, leaf) => {
        const rel = [...above, `.${dot}`, ...below, leaf].join("/");
        expect(verdict(rel)).toBe(false);
        expect(dottedReason(rel)).toContain(`.${dot}`);
      }),
    );
  });

  test("plain names and the inert dotted ones apply", () => {
    fc.assert(
      fc.property(dir, name, fc.constantFrom(".gitignore", ".editorconfig", ".gitkeep", ".dockerignore"), (above, leaf, inert) => {
        // Names the list holds wherever they are are left out of the plain case.
        fc.pre(!["mise", "lefthook", "bunfig", "agents", "claude", "gemini", "rust-toolchain"].some((n) => [...above, leaf].join("/").toLowerCase().includes(n)));
        expect(verdict([...above, `${leaf}.ts`].join("/"))).toBe(true);
        expect(verdict([...above, inert].join("/"))).toBe(true);
      }),
    );
  });

  test("build tools' configurations one step past the list are held", () => {
    for (const rel of [
      "crates/a/.cargo/config.toml", // rustc-wrapper, runner
      ".mvn/extensions.xml", // Maven loads the extensions' code
      ".mvn/jvm.config",
      ".bazelrc",
      ".tool-versions", // asdf's path: versions run from a directory
      "services/api/.python-version",
      ".hg/hgrc", // Mercurial's hooks
      "rust-toolchain.toml", // rustup's toolchain path, not dotted: on the list
      "tools/rust-toolchain",
      "tools/mise.toml",
    ])
      expect({ rel, apply: verdict(rel) }).toEqual({ rel, apply: false });
  });

  test("an installed dependency's dotted files follow the install's rule, not the name's", () => {
    const installed: ChangeFacts = { ...shown, git: "ignored", network: true };
    expect(verdict("node_modules/.bin/tsc", installed)).toBe(true);
    expect(verdict(".yarn/cache/x.zip", installed)).toBe(true);
    expect(verdict("node_modules/.bin/tsc", { ...installed, network: false })).toBe(false);
  });

  test("a dotted directory alone applies; what it holds is judged entry by entry", () => {
    const dir = (rel: string) => classifyChange({ rel, kind: "dir", mode: 0o755, opaque: false }, shown).apply;
    expect(dir(".pytest_cache")).toBe(true);
    expect(dir("crates/a/.cargo")).toBe(true);
    expect(verdict("crates/a/.cargo/config.toml")).toBe(false);
  });

  test("native code a loader takes by its name is held, but where an approved install put it or git ignores it", () => {
    for (const rel of ["mod.cpython-311-x86_64-linux-gnu.so", "lib/libz.so.1", "addon.node", "gradle/wrapper/gradle-wrapper.jar", "x.pyd"])
      expect({ rel, apply: verdict(rel) }).toEqual({ rel, apply: false });
    expect(verdict("node_modules/re2/build/re2.node", { ...shown, network: true })).toBe(true);
    const ignored = classifyChange(file("target/debug/deps/libm.so"), { ...shown, git: "ignored" });
    expect(ignored).toEqual({ apply: false, reason: "ignored by git, so review would not show it" });
    expect(verdict("docs/solver.md")).toBe(true);
  });

  test("a removal applies, dotted or not", () => {
    expect(classifyChange({ rel: ".cargo/config.toml", kind: "deleted" }, shown).apply).toBe(true);
  });
});

describe("classifyChange: git's own files that would make git show one thing for another", () => {
  const sha = "da81f129c7531d0aa378117c8b9d9bba989ab528";
  test("a replace ref is held, loose or packed; the refs and objects of a commit apply", () => {
    expect(verdict(`.git/objects/da/${sha.slice(2)}`)).toBe(true);
    expect(verdict(".git/refs/heads/main")).toBe(true);
    expect(verdict(".git/refs/tags/v1")).toBe(true);
    const loose = classifyChange(file(`.git/refs/replace/${sha}`), shown);
    expect(loose.apply).toBe(false);
    expect(loose.apply ? "" : loose.reason).toContain("replace ref");
    expect(verdict(".git/packed-refs")).toBe(true);
    const packed = classifyChange(file(".git/packed-refs"), { ...shown, hidesChanges: true });
    expect(packed.apply ? "" : packed.reason).toContain("replace ref");
    // Grafts, the third way, live in info/, held whole.
    expect(verdict(".git/info/grafts")).toBe(false);
  });
});
