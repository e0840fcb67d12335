import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { homeReadReason, homeReads, pathDirectoriesInside, pathReason, programsOnPath, shadowingPrograms, sourcedPaths } from "../../src/workspace/home-reads.ts";
import { inTempDir } from "../support/temp.ts";

describe("what the person's home links to (a dotfiles repository)", () => {
  test("links in the home, its dot-directories and those of .config and .local that lead into the workspace; nothing else", () => {
    inTempDir((base) => {
      const [ws, home] = [join(base, "dotfiles"), join(base, "home")];
      for (const d of ["git", "nvim/lua", "ssh", "bin", "x", "notes"]) mkdirSync(join(ws, d), { recursive: true });
      for (const d of [".config/git", ".local/bin", ".ssh", "projects", "outside"]) mkdirSync(join(home, d), { recursive: true });
      for (const f of ["git/gitconfig", "bashrc", "nvim/lua/init.lua", "ssh/config", "bin/tool", "x/y", "git/ignore"]) writeFileSync(join(ws, f), "x\n");
      const link = (target: string, at: string) => symlinkSync(target, join(home, at));
      link(join(ws, "git", "gitconfig"), ".gitconfig");
      link(join(ws, "bashrc"), ".bashrc");
      link(join(ws, "ssh", "config"), ".ssh/config");
      link(join(ws, "nvim"), ".config/nvim");
      link(join(ws, "git", "ignore"), ".config/git/ignore");
      link(join(ws, "bin", "tool"), ".local/bin/tool");
      // Not read: a directory of the home that is no dot-directory; nothing particular: the workspace itself, a link out, a dangling one.
      link(join(ws, "x", "y"), "projects/y");
      link(ws, ".dotfiles");
      link(join(base, "home", "outside"), ".elsewhere");
      link(join(ws, "gone"), ".gone");
      const found = [...homeReads(ws, home)].map(([target, r]) => `${target.slice(ws.length + 1)} <- ${/~\/(\S+)/.exec(r.via)![1]}`).sort();
      expect(found).toEqual(["bashrc <- .bashrc", "bin/tool <- .local/bin/tool", "git/gitconfig <- .gitconfig", "git/ignore <- .config/git/ignore", "nvim <- .config/nvim", "ssh/config <- .ssh/config"]);
      expect(homeReadReason(ws, "nvim/lua/init.lua", home)).toContain("nvim/lua/init.lua is what ~/.config/nvim in your home links to");
      expect(homeReadReason(ws, "bashrc", home)).toContain("~/.bashrc");
      for (const rel of ["x/y", "notes/a.md", "git/other"]) expect(homeReadReason(ws, rel, home)).toBeUndefined();
    });
  });

  test("what the shells' startup files source, by a plain path, followed through a file outside; nothing a variable or a loop builds", () => {
    const home = "/home/p";
    const text = [
      "source ~/dotfiles/a.sh",
      '[ -f "$HOME/dotfiles/b.sh" ] && . "$HOME/dotfiles/b.sh"',
      "if [ -f ${HOME}/c.sh ]; then . ${HOME}/c.sh; fi",
      ". /opt/d.sh # a comment",
      "source rel/e.sh",
      "source $ZSH/oh-my-zsh.sh",
      "for f in ~/dotfiles/*.sh; do source $f; done",
      "echo source ~/not-a-command.sh",
      "alias x='. ~/quoted.sh'",
    ].join("\n");
    expect(sourcedPaths(text, home)).toEqual(["/home/p/dotfiles/a.sh", "/home/p/dotfiles/b.sh", "/home/p/c.sh", "/opt/d.sh", "/home/p/rel/e.sh"]);
    inTempDir((base) => {
      const [ws, home2] = [join(base, "dotfiles"), join(base, "home")];
      mkdirSync(join(ws, "zsh"), { recursive: true });
      mkdirSync(home2);
      writeFileSync(join(ws, "zsh", "init.zsh"), "export EDITOR=vi\n");
      writeFileSync(join(home2, ".zsh_local"), `source ${join(ws, "zsh", "init.zsh")}\n`);
      writeFileSync(join(home2, ".zshrc"), "[ -f ~/.zsh_local ] && source ~/.zsh_local\n");
      expect(homeReadReason(ws, "zsh/init.zsh", home2)).toBe("zsh/init.zsh is sourced by ~/.zshrc in your home: your shell runs it at its next start");
    });
  });

  test("what ssh's config includes (a glob standing for its directory), tmux's sources and vim's sources", () => {
    inTempDir((base) => {
      const [ws, home] = [join(base, "dotfiles"), join(base, "home")];
      for (const d of ["ssh/conf.d", "tmux", "vim"]) mkdirSync(join(ws, d), { recursive: true });
      mkdirSync(join(home, ".ssh"), { recursive: true });
      writeFileSync(join(ws, "ssh", "hosts"), "Host x\n");
      writeFileSync(join(ws, "tmux", "theme.conf"), "set -g status on\n");
      writeFileSync(join(ws, "vim", "keys.vim"), "nnoremap x y\n");
      writeFileSync(join(home, ".ssh", "config"), `Include ${join(ws, "ssh", "hosts")} ${join(ws, "ssh", "conf.d")}/*.conf\nHost *\n  ServerAliveInterval 30\n`);
      writeFileSync(join(home, ".tmux.conf"), `source-file -q ${join(ws, "tmux", "theme.conf")}\n`);
      writeFileSync(join(home, ".vimrc"), `set nu\nsource ${join(ws, "vim", "keys.vim")}\n`);
      const found = [...homeReads(ws, home)].map(([target, r]) => `${target.slice(ws.length + 1)} <- ${r.via}`).sort();
      expect(found).toEqual([
        "ssh/conf.d <- included by ~/.ssh/config in your home",
        "ssh/hosts <- included by ~/.ssh/config in your home",
        "tmux/theme.conf <- sourced by ~/.tmux.conf in your home",
        "vim/keys.vim <- sourced by ~/.vimrc in your home",
      ]);
      expect(homeReadReason(ws, "ssh/conf.d/work.conf", home)).toContain("ssh runs the commands it names (ProxyCommand, Match exec)");
    });
  });
});

describe("directories of the person's PATH inside the workspace", () => {
  test("a project's bin/ (absolute, relative, through a link, still to come) counts; the root, installed dependencies', one whose parent is still to come and outside directories do not", () => {
    inTempDir((ws) => {
      for (const d of ["bin", "scripts/dev", ".venv/bin", "node_modules/.bin", "tools"]) mkdirSync(join(ws, d), { recursive: true });
      writeFileSync(join(ws, ".venv", "pyvenv.cfg"), "home = /usr/bin\n");
      symlinkSync(join(ws, "tools"), join(ws, "tools-link"));
      const path = [join(ws, "bin"), "scripts/dev", join(ws, "tools-link"), ws, ".", join(ws, ".venv", "bin"), join(ws, "node_modules", ".bin"), "/usr/bin", "", join(ws, "later"), join(ws, ".venv2", "bin")].join(":");
      expect(pathDirectoriesInside(ws, path).map((d) => d.slice(ws.length + 1)).sort()).toEqual(["bin", "later", "scripts/dev", "tools"]);
    });
  });

  test("a program added there that shadows one the PATH finds further on is named; a build's own output, one further on itself, or one there before, is not", () => {
    inTempDir((base) => {
      const [ws, sys] = [join(base, "ws"), join(base, "sys")];
      for (const d of [join(ws, "bin"), join(ws, "late"), sys]) mkdirSync(d, { recursive: true });
      for (const name of ["git", "ls", "app"]) writeFileSync(join(sys, name), "");
      // bin/ comes before sys/ on the PATH, late/ after it.
      const path = [join(ws, "bin"), sys, join(ws, "late")].join(":");
      writeFileSync(join(ws, "bin", "ls"), "");
      const before = programsOnPath(ws, path);
      for (const f of ["bin/git", "bin/app-build", "late/git"]) writeFileSync(join(ws, f), "");
      expect(shadowingPrograms(ws, before, path).map((p) => p.slice(ws.length + 1))).toEqual(["bin/git"]);
      expect(pathReason(ws, "bin/git", path)).toBe(`bin/git is in bin, a directory on your PATH, and would run instead of ${join(sys, "git")} when you type git`);
      for (const rel of ["bin/app-build", "late/git", "bin/sub/git", "git"]) expect(pathReason(ws, rel, path)).toBeUndefined();
    });
  });
});
