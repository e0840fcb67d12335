import { usageError } from "../../core/errors.ts";
import { COMMANDS, FLAGS } from "../args.ts";

/** The words each command takes next, for completion; a command not here takes none to complete. */
const NEXT: Partial<Record<(typeof COMMANDS)[number], readonly string[]>> = {
  config: ["show"],
  auth: ["login", "logout", "status"],
  mcp: ["list", "approve"],
  goal: ["resume", "list", "status"],
  graph: ["resume", "list", "status", "clean"],
  changes: ["list", "show", "apply", "drop"],
  eval: ["run", "train", "calibrate", "report", "merge", "runs", "capture", "label", "firewall"],
  actions: ["forget"],
  completion: ["bash", "zsh", "fish"],
};

/** Flags whose value is a directory. */
const DIRECTORIES = new Set(["cwd", "add-dir"]);

const takesValue = (kind: string) => kind !== "boolean" && kind !== "count";

/** `weir completion bash`: a completion function for commands, their words, flags and flag values. Pure. */
export function bashCompletion(): string {
  const flags = FLAGS.flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])]).join(" ");
  const values = FLAGS.filter((f) => f.values?.length).map((f) => `    --${f.name}) COMPREPLY=($(compgen -W "${f.values!.join(" ")}" -- "$cur")); return ;;`);
  const dirs = FLAGS.filter((f) => DIRECTORIES.has(f.name)).map((f) => `--${f.name}`).join("|");
  const open = FLAGS.filter((f) => takesValue(f.kind) && !f.values?.length && !DIRECTORIES.has(f.name))
    .flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])])
    .join("|");
  const next = Object.entries(NEXT).map(([c, words]) => `    ${c}) COMPREPLY=($(compgen -W "${words!.join(" ")}" -- "$cur")) ;;`);
  return [
    "# weir's completion for bash: eval \"$(weir completion bash)\" in ~/.bashrc",
    "_weir() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  case "$prev" in',
    ...values,
    `    ${dirs}) COMPREPLY=($(compgen -d -- "$cur")); return ;;`,
    `    ${open}) return ;;`,
    "  esac",
    `  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${flags}" -- "$cur")); return; fi`,
    '  local i first=""',
    '  for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" != -* ]] && { first="${COMP_WORDS[i]}"; break; }; done',
    `  if [[ -z "$first" ]]; then COMPREPLY=($(compgen -W "${COMMANDS.join(" ")}" -- "$cur")); return; fi`,
    '  case "$first" in',
    ...next,
    "  esac",
    "}",
    "complete -o default -F _weir weir",
    "",
  ].join("\n");
}

/** `weir completion zsh`: the bash function through zsh's bashcompinit, so both complete alike. Pure. */
export function zshCompletion(): string {
  return [
    "# weir's completion for zsh: eval \"$(weir completion zsh)\" in ~/.zshrc",
    "autoload -U +X compinit && compinit",
    "autoload -U +X bashcompinit && bashcompinit",
    bashCompletion().split("\n").slice(1).join("\n"),
  ].join("\n");
}

/** `weir completion fish`: one `complete` line per command, word and flag. Pure. */
export function fishCompletion(): string {
  const q = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const lines = ["# weir's completion for fish: weir completion fish > ~/.config/fish/completions/weir.fish", "complete -c weir -f"];
  lines.push(`complete -c weir -n __fish_use_subcommand -a ${q(COMMANDS.join(" "))}`);
  for (const [c, words] of Object.entries(NEXT)) lines.push(`complete -c weir -n ${q(`__fish_seen_subcommand_from ${c}`)} -a ${q(words!.join(" "))}`);
  for (const f of FLAGS) {
    const short = f.short ? ` -s ${f.short}` : "";
    const dirs = DIRECTORIES.has(f.name) ? " -r -a '(__fish_complete_directories)'" : takesValue(f.kind) ? " -r" : "";
    const arg = f.values?.length ? ` -x -a ${q(f.values.join(" "))}` : dirs;
    lines.push(`complete -c weir -l ${f.name}${short}${arg} -d ${q(f.help.slice(0, 80))}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The script for the shell named in `words` (`completion bash|zsh|fish`). */
export function completionScript(words: string[]): string {
  const shell = words[1];
  if (shell === "bash") return bashCompletion();
  if (shell === "zsh") return zshCompletion();
  if (shell === "fish") return fishCompletion();
  throw usageError(`weir completion ${shell ?? ""}`.trim() + ": name a shell: weir completion bash, zsh or fish");
}
