import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { inside } from "../../src/workspace/containment.ts";
import { gitConfigFiles, gitConfigReason, gitConfigured, gitSettings, personalGitConfigured, runsPrograms } from "../../src/workspace/gitconfig.ts";
import { inTempDir } from "../support/temp.ts";

/** git as the person runs it, in a directory, with no config of theirs. */
function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

describe("what a repository's git config names", () => {
  test("settings are read as git reads them: sections with subsections, a setting on the header's line, quotes and comments", () => {
    const text = '[core]\n\tfsmonitor = "tools/w.sh --x" ; why\n[includeIf "gitdir:~/work/"]\n  path = ../a.cfg\n[alias] st = !scripts/st.sh # a comment\n';
    expect(gitSettings(text)).toEqual([
      { section: "core", key: "fsmonitor", value: "tools/w.sh --x" },
      { section: "includeif gitdir:~/work/", key: "path", value: "../a.cfg" },
      { section: "alias", key: "st", value: "!scripts/st.sh" },
    ]);
    expect(runsPrograms("[user]\n\tname = a\n[alias]\n\tst = status\n")).toBe(false);
    const running = ["[core]\n\tpager = less\n", "[alias]\n\tx = !rm -rf /\n", "[include]\n\tpath = ../x\n", '[filter "a"]\n\tclean = cat\n', "[pager]\n\tlog = x\n", '[diff "a"]\n\tcommand = x\n', '[remote "o"]\n\tuploadpack = x\n'];
    for (const text of running) expect({ text, runs: runsPrograms(text) }).toEqual({ text, runs: true });
  });

  test("included files (and what they include), the hooks directory and programs given by a path inside the workspace; never a program the PATH finds or a path outside", () => {
    inTempDir((ws) => {
      mkdirSync(join(ws, ".git"));
      mkdirSync(join(ws, "cfg"));
      const config = ["[include]", "\tpath = ../cfg/shared.cfg", "[core]", "\thooksPath = .githooks", "\tfsmonitor = tools/watch.sh", "\tpager = less", "[credential]", "\thelper = store", "[filter \"x\"]", "\tclean = /usr/bin/x-clean", "[alias]", '\tfmt = "!scripts/fmt.sh --all"'];
      writeFileSync(join(ws, ".git", "config"), `${config.join("\n")}\n`);
      writeFileSync(join(ws, "cfg", "shared.cfg"), "[include]\n\tpath = more.cfg\n[diff \"img\"]\n\ttextconv = ../bin/conv\n");
      writeFileSync(join(ws, "cfg", "more.cfg"), "[user]\n\tname = a\n");
      const named = gitConfigured(ws).map((p) => (inside(ws, p) ? relative(ws, p) : p)).sort();
      // A program is run from the worktree's top, wherever its setting is: ../bin/conv lies outside.
      expect(named).toEqual([".githooks", "/usr/bin/x-clean", "cfg/more.cfg", "cfg/shared.cfg", join(dirname(ws), "bin", "conv"), "scripts/fmt.sh", "tools/watch.sh"].sort());
    });
  });

  test("a linked worktree's config is its repository's common config and its own config.worktree; programs are taken from the worktree's top", () => {
    inTempDir((base) => {
      const [main, wt] = [join(base, "main"), join(base, "wt")];
      git(base, "init", "-q", main);
      git(main, "config", "core.hooksPath", "scripts/hooks");
      git(main, "config", "include.path", "../shared.cfg");
      writeFileSync(join(main, "shared.cfg"), "[core]\n\tfsmonitor = tools/watch.sh\n");
      writeFileSync(join(main, "a.txt"), "a\n");
      git(main, "add", "-A");
      git(main, "commit", "-qm", "a");
      git(main, "worktree", "add", "-q", wt);
      git(main, "config", "extensions.worktreeConfig", "true");
      git(wt, "config", "--worktree", "diff.external", "bin/diff.sh");
      expect(gitConfigFiles(wt)).toEqual([join(main, ".git", "config"), join(main, ".git", "worktrees", "wt", "config.worktree")]);
      const named = gitConfigured(wt).map((p) => relative(wt, p)).sort();
      // The include lies in the main worktree (outside), but what it names runs from this one's top.
      expect(named).toEqual(["../main/shared.cfg", "bin/diff.sh", "scripts/hooks", "tools/watch.sh"]);
      expect(gitConfigured(main).map((p) => relative(main, p)).sort()).toEqual(["scripts/hooks", "shared.cfg", "tools/watch.sh"]);
    });
  });

  test("a write the config of the repository above names needs a yes in a monorepo's package; one it does not name, or outside the package, does not", () => {
    inTempDir((top) => {
      const app = join(top, "packages", "app");
      mkdirSync(app, { recursive: true });
      git(top, "init", "-q");
      git(top, "config", "core.fsmonitor", "packages/app/watch.sh");
      git(top, "config", "core.hooksPath", "tools/hooks");
      const home = join(top, "..", "no-home");
      expect(gitConfigReason(app, "watch.sh", home)).toContain("git config of the repository at ../.. (watch.sh)");
      expect(gitConfigReason(app, "index.js", home)).toBeUndefined();
      // A repository of the package's own is asked about too; the one above still counts.
      git(app, "init", "-q", "vendor");
      git(join(app, "vendor"), "config", "core.pager", "./pg.sh");
      expect(gitConfigReason(app, "vendor/pg.sh", home)).toContain("repository at vendor (vendor/pg.sh)");
      expect(gitConfigReason(app, "vendor/x.js", home)).toBeUndefined();
      // Only the repositories a write lies in are asked: what one names outside itself is the sandbox's (its scan finds every repository).
      git(join(app, "vendor"), "config", "core.pager", "../pager.sh");
      expect(gitConfigReason(app, "pager.sh", home)).toBeUndefined();
    });
  });

  test("the person's own git config: what it names by an absolute or ~/ path, included files followed; a relative program names no one path", () => {
    inTempDir((home) => {
      mkdirSync(join(home, ".config", "git"), { recursive: true });
      writeFileSync(join(home, ".gitconfig"), "[core]\n\thooksPath = ~/src/team/hooks\n\tfsmonitor = tools/watch.sh\n[include]\n\tpath = .gitconfig-work\n");
      writeFileSync(join(home, ".gitconfig-work"), `[alias]\n\tsync = !${join(home, "src", "team", "sync.sh")} --all\n`);
      writeFileSync(join(home, ".config", "git", "config"), "[credential]\n\thelper = /opt/helper\n");
      const named = personalGitConfigured(home, { XDG_CONFIG_HOME: join(home, ".config") }).map((p) => (inside(home, p) ? relative(home, p) : p)).sort();
      expect(named).toEqual([".gitconfig-work", "/opt/helper", "src/team/hooks", "src/team/sync.sh"].sort());
      expect(personalGitConfigured(home, { GIT_CONFIG_GLOBAL: join(home, "none"), XDG_CONFIG_HOME: join(home, "none") }).filter((p) => inside(home, p))).toEqual([]);
    });
  });
});
