import type { Node, Tree } from "web-tree-sitter";
import { parserFor } from "../context/outline.ts";

/**
 * A shell line parsed with tree-sitter-bash, as codex-rs decides "word-only" commands: the simple
 * commands it runs, each as its words, and whether the line is only that. Anything else (redirects,
 * substitutions, expansions, subshells, heredocs, control flow, functions, a parse error) is not
 * word-only, and the permission gate never auto-approves it.
 */
export interface ShellParse {
  wordOnly: boolean;
  /** The simple commands, each as its words with quotes removed. */
  commands: string[][];
  /** Why it is not word-only. */
  why?: string;
}

/** Nodes a word-only line may contain. */
const STRUCTURE = new Set(["program", "list", "pipeline", "command", "command_name", "&&", "||", ";", "|", "\n", "comment"]);
const WORD = new Set(["word", "number", "raw_string", "string", "string_content", "concatenation", '"']);

function wordOf(n: Node): string | undefined {
  if (n.type === "word" || n.type === "number") return n.text.replace(/\\(.)/g, "$1");
  if (n.type === "raw_string") return n.text.slice(1, -1);
  if (n.type === "string") {
    // A double-quoted string is a word only while nothing inside it expands.
    if (n.namedChildren.some((c) => c && c.type !== "string_content")) return undefined;
    return n.text.slice(1, -1);
  }
  if (n.type === "concatenation") {
    let out = "";
    for (const c of n.namedChildren) {
      const w = c ? wordOf(c) : undefined;
      if (w === undefined) return undefined;
      out += w;
    }
    return out;
  }
  return undefined;
}

const PHRASE: Record<string, string> = {
  file_redirect: "a redirect",
  redirected_statement: "a redirect or heredoc",
  heredoc_redirect: "a heredoc",
  herestring_redirect: "a here-string",
  command_substitution: "a command substitution",
  process_substitution: "a process substitution",
  expansion: "a parameter expansion",
  simple_expansion: "a variable expansion",
  subshell: "a subshell",
  compound_statement: "a command group",
  variable_assignment: "a variable assignment",
  ERROR: "a parse error",
};

/** Parses a shell line. Never throws: a parser that cannot load makes every line not word-only. */
export async function parseShell(line: string): Promise<ShellParse> {
  let tree: Tree;
  try {
    const parsed = (await parserFor("bash")).parse(line);
    if (!parsed) return { wordOnly: false, commands: [], why: "the line could not be parsed" };
    tree = parsed;
  } catch {
    return { wordOnly: false, commands: [], why: "the shell parser is unavailable" };
  }
  const commands: string[][] = [];
  let why: string | undefined;
  const visit = (n: Node) => {
    if (why) return;
    if (n.type === "command") {
      const words: string[] = [];
      for (const c of n.namedChildren) {
        if (!c) continue;
        const target = c.type === "command_name" ? c.namedChildren[0] : c;
        const w = target ? wordOf(target) : undefined;
        if (w === undefined) {
          why = PHRASE[target?.type ?? ""] ?? `${(target?.type ?? c.type).replace(/_/g, " ")}`;
          // Keep looking inside for commands to judge, but the line is not word-only.
          return;
        }
        words.push(w);
      }
      commands.push(words);
      return;
    }
    if (n.isError || n.isMissing) {
      why = "a parse error";
      return;
    }
    if (!STRUCTURE.has(n.type) && !WORD.has(n.type)) {
      why = PHRASE[n.type] ?? n.type.replace(/_/g, " ");
      return;
    }
    for (const c of n.children) if (c) visit(c);
  };
  try {
    visit(tree.rootNode);
  } finally {
    tree.delete(); // a tree lives in the parser's WebAssembly memory until deleted
  }
  return why ? { wordOnly: false, commands, why } : { wordOnly: true, commands };
}

/** Programs that run the program after them; their own options are skipped to find it. */
const WRAPPERS: Record<string, { withValue: Set<string>; positional: number }> = {
  env: { withValue: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]), positional: 0 },
  timeout: { withValue: new Set(["-s", "--signal", "-k", "--kill-after"]), positional: 1 },
  nice: { withValue: new Set(["-n", "--adjustment"]), positional: 0 },
  nohup: { withValue: new Set(), positional: 0 },
  command: { withValue: new Set(), positional: 0 },
  exec: { withValue: new Set(["-a"]), positional: 0 },
  time: { withValue: new Set(["-f", "-o"]), positional: 0 },
  stdbuf: { withValue: new Set(["-i", "-o", "-e"]), positional: 0 },
  setsid: { withValue: new Set(), positional: 0 },
  ionice: { withValue: new Set(["-c", "-n", "-p"]), positional: 0 },
  xargs: { withValue: new Set(["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file", "--delimiter", "--max-args", "--max-procs"]), positional: 0 },
  doas: { withValue: new Set(["-u", "-C"]), positional: 0 },
};
/** git options before the subcommand, with and without a value. */
const GIT_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

/**
 * The command as a rule should see it: the program's basename, wrappers (env, timeout, nice, nohup,
 * xargs, ...) and their options removed, and git's global options skipped, so `env timeout 5
 * /usr/bin/git -C . --no-pager push` is judged as `git push`. Pure.
 */
export function normaliseCommand(words: readonly string[], o: { keepGitOptions?: boolean } = {}): string[] {
  let w = [...words];
  for (let guard = 0; guard < 8 && w.length; guard++) {
    const name = w[0]!.split(/[\\/]/).pop()!;
    const spec = WRAPPERS[name];
    if (!spec) {
      w = [name, ...w.slice(1)];
      break;
    }
    let i = 1;
    let positional = spec.positional;
    while (i < w.length) {
      const a = w[i]!;
      if (name === "env" && /^[A-Za-z_]\w*=/.test(a)) i++;
      else if (a === "--") {
        i++;
        break;
      } else if (a.startsWith("-") && a !== "-") i += spec.withValue.has(a) ? 2 : 1;
      else if (positional > 0) {
        positional--;
        i++;
      } else break;
    }
    w = w.slice(i);
  }
  if (w[0] === "git" && !o.keepGitOptions) {
    let i = 1;
    while (i < w.length && w[i]!.startsWith("-")) i += GIT_VALUE.has(w[i]!) ? 2 : 1;
    w = ["git", ...w.slice(i)];
  }
  return w;
}
