import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decide, defaultPolicy } from "../../src/actions/permissions.ts";
import { normaliseCommand, parseShell } from "../../src/actions/shell-line.ts";

const policy = defaultPolicy();

describe("shell lines are parsed, not matched", () => {
  test("word-only lines give their simple commands with quotes removed; a quoted operator is a word", async () => {
    expect(await parseShell(`git status && echo "a;b" 'c|d'`)).toEqual({ wordOnly: true, commands: [["git", "status"], ["echo", "a;b", "c|d"]] });
    expect((await parseShell("ls | wc -l; npm test")).commands).toEqual([["ls"], ["wc", "-l"], ["npm", "test"]]);
  });

  test.each([
    ["ls > ../outside.txt", "redirect"],
    ["cat <<EOF\nx\nEOF", "redirect or heredoc"],
    ["echo $(cat ~/.ssh/id_rsa)", "command substitution"],
    ["echo `id`", "command substitution"],
    ["cat <(ls)", "process substitution"],
    ["echo $HOME", "variable expansion"],
    ["echo ${HOME}", "expansion"],
    ["(cd .. && ls)", "subshell"],
    ["{ ls; }", "group"],
    ["for f in *; do cat $f; done", "for"],
    ["FOO=1 ls", "variable assignment"],
    ["echo 'unterminated", "parse error"],
  ])("%s is not word-only (%s) and never auto-approved", async (line, why) => {
    const p = await parseShell(line);
    expect(p.wordOnly).toBe(false);
    expect(p.why).toContain(why.split(" ")[0]!);
    const withAllow = { ...policy, actions: { ...policy.actions, shell: "allow" as const } };
    expect(decide(withAllow, "shell", { line, shell: true }, "execute", p).decision).toBe("ask");
  });
});

describe("rules see the program behind wrappers and git's global options", () => {
  test("normalisation removes paths, wrappers and their options, and git's global options", () => {
    expect(normaliseCommand(["/usr/bin/env", "A=1", "timeout", "-s", "KILL", "5", "nice", "-n", "5", "nohup", "/usr/bin/git", "-C", ".", "--no-pager", "-c", "x=y", "push", "--force"])).toEqual(["git", "push", "--force"]);
    expect(normaliseCommand(["xargs", "-n", "1", "rm", "-rf", "/"])).toEqual(["rm", "-rf", "/"]);
    expect(normaliseCommand(["npm", "test"])).toEqual(["npm", "test"]);
  });

  const wrappers = fc.constantFrom([], ["env"], ["env", "X=1"], ["timeout", "5"], ["timeout", "-k", "1", "5"], ["nice"], ["nice", "-n", "10"], ["nohup"], ["command"], ["/usr/bin/env"], ["stdbuf", "-oL"]);
  const gitGlobals = fc.constantFrom([], ["-C", "."], ["--no-pager"], ["-C", "sub", "--no-pager"], ["--git-dir", ".git"], ["--work-tree", "."], ["-p"]);

  test("no wrapper or git global option turns a denied or asking command into an allowed one (property)", () => {
    fc.assert(
      fc.property(wrappers, gitGlobals, fc.constantFrom(["push", "--force"], ["push", "-f", "origin"], ["filter-branch"]), (wrap, globals, sub) => {
        const argv = [...wrap, "git", ...globals, ...sub];
        expect(decide(policy, "run_command", { argv, line: argv.join(" "), shell: false }, "execute").decision).toBe("deny");
      }),
      { numRuns: 300, seed: 7 },
    );
    fc.assert(
      fc.property(wrappers, fc.constantFrom(["curl", "http://x"], ["sudo", "ls"], ["rm", "-rf", "/"], ["git", "push"]), (wrap, cmd) => {
        const argv = [...wrap, ...cmd];
        expect(decide(policy, "run_command", { argv, line: argv.join(" "), shell: false }, "execute").decision).not.toBe("allow");
      }),
      { numRuns: 200, seed: 8 },
    );
  });

  test("in a parsed shell line each simple command is judged after normalisation", async () => {
    const withAllow = { ...policy, actions: { ...policy.actions, shell: "allow" as const } };
    const line = "ls && env timeout 5 git -C . push --force";
    expect(decide(withAllow, "shell", { line, shell: true }, "execute", await parseShell(line)).decision).toBe("deny");
  });

  test.each([
    [["sh", "-ce", "id"]],
    [["bash", "-lc", "id"]],
    [["python3", "-Bc", "print(1)"]],
    [["node", "-pe", "1"]],
    [["perl", "-ne", "print"]],
    [["awk", 'BEGIN{system("id")}']],
    [["find", ".", "-exec", "cat", "{}", ";"]],
    [["tar", "-cf", "x.tar", "--to-command=sh", "."]],
    [["git", "-c", "alias.x=!id", "x"]],
    [["env", "sh", "-c", "id"]],
  ])("%j runs code or another program and counts as shell", (argv) => {
    const v = decide(policy, "run_command", { argv, line: argv.join(" "), shell: false }, "execute");
    expect(v.decision).toBe("ask");
  });

  test("xargs is a wrapper: the command it launches is the one judged", () => {
    expect(decide(policy, "run_command", { argv: ["xargs", "-n", "1", "rm", "-rf", "/"], line: "", shell: false }, "execute").decision).toBe("deny");
  });

  test("plain project commands stay allowed", () => {
    for (const argv of [["npm", "test"], ["node", "test.js"], ["python3", "-m", "pytest"], ["git", "status"], ["awk", "{print $1}", "f.txt"], ["find", ".", "-name", "*.ts"]])
      expect(decide(policy, "run_command", { argv, line: argv.join(" "), shell: false }, "execute").decision).toBe("allow");
  });
});
