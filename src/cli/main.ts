#!/usr/bin/env bun
/**
 * The composition root: parses argv, builds what a command needs, maps outcomes to exit codes and
 * prints user errors as one line. Heavy modules load lazily so `--version` and `--help` stay fast.
 */
import { existsSync } from "node:fs";
import { isUserError, machineRefusal, usageError } from "../core/errors.ts";
import { helpText, parseArgv } from "./args.ts";
import { engineOptions, startWithEngineOptions } from "./engine.ts";
import { COMMIT, VERSION } from "./version.ts";

async function main(argv: string[]): Promise<number> {
  const args = parseArgv(argv);
  // console.log, not process.stdout: constructing the Node stream costs ~20 ms of start-up.
  // `weir version` and `weir help` are commands, not tasks.
  if (args.version || args.command[0] === "version") {
    console.log(`weir ${VERSION} (${COMMIT})`);
    return 0;
  }
  if (args.help || args.command[0] === "help") {
    const topic = args.command[0] === "help" ? args.command[1] : args.command[0];
    console.log(helpText(topic === "eval" ? "eval" : "run"));
    return 0;
  }
  startWithEngineOptions(COMMIT !== "source", engineOptions(args.command[0]));
  const { workspaceRoot, loadSettings, requireProjectRoot } = await import("./settings.ts");
  // Eval's --provider names an eval source (learned, replay, ...), not a model vendor.
  if (args.command[0] === "eval") delete args.config.provider;
  const workspace = workspaceRoot(args);
  // A completion script needs no settings: a broken config must not keep the shell from completing.
  if (args.command[0] === "completion") {
    const { completionScript } = await import("./commands/completion.ts");
    process.stdout.write(completionScript(args.command));
    return 0;
  }
  // weir init sets up what the settings lack, so it must start before they resolve (its --provider only preselects).
  if (args.command[0] === "init") {
    const { initCommand } = await import("./commands/init.ts");
    const { clackPrompts } = await import("../ui/setup.ts");
    return initCommand(args, workspace, clackPrompts, process.stdin.isTTY === true && process.stdout.isTTY === true);
  }
  const resolved = loadSettings(args, workspace);
  // Everything weir prints goes through writeAll: nothing is lost on a pipe when the process exits.
  const { stdout, stderr } = await import("./output.ts");
  const out = (s: string) => stdout.write(s);
  const io = { stdout, stderr, isTTY: process.stdout.isTTY === true, interactive: process.stdin.isTTY === true };

  if (args.command[0] === "config") {
    const { configCommand } = await import("./commands/config.ts");
    const { userConfigFile, projectConfigFile } = await import("../config/paths.ts");
    return configCommand(args.command, resolved, { user: userConfigFile(), project: projectConfigFile(workspace) }, out, args.json);
  }

  if (args.command[0] === "auth") {
    const { authCommand } = await import("./commands/init.ts");
    const { clackPrompts } = await import("../ui/setup.ts");
    return authCommand(args, workspace, resolved, { out, ui: clackPrompts, interactive: io.interactive, stdin: () => Bun.stdin.text() });
  }
  if (args.command[0] === "undo") {
    const { undoLines } = await import("./commands/undo.ts");
    out(`${undoLines(args.command.slice(1), workspace, args.session).join("\n")}\n`);
    return 0;
  }
  if (args.command[0] === "drift") {
    const { driftCommand } = await import("./commands/drift.ts");
    return driftCommand(workspace, args.json, out);
  }
  if (args.command[0] === "serve") {
    const { serveCommand } = await import("./commands/serve.ts");
    return serveCommand(args, workspace, resolved);
  }
  if (args.command[0] === "index" && args.flags.review === true) {
    const { reviewCommand } = await import("./commands/review.ts");
    return reviewCommand(args.command.slice(1), workspace, resolved, out, (s) => process.stderr.write(s), args.json);
  }
  if (args.command[0] === "index") {
    const { indexCommand } = await import("./commands/index-command.ts");
    return indexCommand(args, workspace, out, (s) => process.stderr.write(s));
  }
  if (args.command[0] === "changes") {
    const { changesCommand } = await import("./commands/changes.ts");
    return changesCommand(args.command, workspace, out, args.json);
  }
  if (args.command[0] === "doctor") {
    const { doctorCommand } = await import("./commands/doctor.ts");
    return doctorCommand(args, workspace, resolved, out);
  }
  if (args.command[0] === "eval") {
    const { evalCommand } = await import("./commands/eval.ts");
    const { judgmentFor } = await import("../decision/configure.ts");
    return evalCommand(args, workspace, () => judgmentFor(resolved), out, process.stdout.isTTY === true, resolved);
  }
  if (args.command[0] === "events") {
    const { eventsCommand } = await import("./commands/events.ts");
    return eventsCommand(args, out);
  }
  if (args.command[0] === "decisions") {
    const { decisionsCommand } = await import("./commands/decisions.ts");
    return decisionsCommand(args, out);
  }
  if (args.command[0] === "firewall") {
    const { firewallCommand } = await import("./commands/firewall.ts");
    return firewallCommand(args, out);
  }
  if (args.command[0] === "context") {
    requireProjectRoot(workspace);
    const { contextCommand } = await import("./commands/context.ts");
    return contextCommand(args, workspace, resolved, out);
  }
  if (args.command[0] === "actions") {
    const { actionsCommand } = await import("./commands/actions.ts");
    return actionsCommand(args, workspace, resolved, out);
  }
  if (args.command[0] === "mcp") {
    const verb = args.command[1] ?? "list";
    const { mcpApprove, mcpCommandLine } = await import("./commands/mcp.ts");
    if (verb === "approve") return mcpApprove(args.command, workspace, args.all, out);
    if (verb !== "list") throw (await import("../core/errors.ts")).usageError(`unknown command "mcp ${verb}"; use weir mcp list or weir mcp approve NAME`);
    const { buildActions } = await import("./runtime.ts");
    const { runOptions } = await import("./run-options.ts");
    const actions = await buildActions(runOptions(args), workspace, resolved);
    try {
      out(`${args.json ? JSON.stringify(actions.hub.status(), null, 2) : await mcpCommandLine(actions.hub, ["list"])}
`);
      return 0;
    } finally {
      await actions.close();
    }
  }
  if (args.command[0] === "graph") {
    requireProjectRoot(workspace);
    const { graphCommand } = await import("./commands/graph.ts");
    return graphCommand(args, workspace, resolved, io, cancelOnInterrupt());
  }
  if (args.command[0] === "goal") {
    requireProjectRoot(workspace);
    const { goalCommand } = await import("./commands/goal.ts");
    return goalCommand(args, workspace, resolved, io, cancelOnInterrupt());
  }
  if (args.list) {
    const { listCommand } = await import("./commands/sessions.ts");
    return listCommand(workspace, args.all, out, args.json);
  }

  let task = args.task;
  if (task === "" && !process.stdin.isTTY) task = (await Bun.stdin.text()).trim();
  if (task === "") {
    if (!process.stdin.isTTY) {
      console.error('weir: no task: pass one (weir "fix the failing test") or pipe it on stdin');
      return 2;
    }
    const { replCommand } = await import("./commands/repl.ts");
    requireProjectRoot(workspace);
    return replCommand(args, workspace, resolved);
  }
  requireProjectRoot(workspace);
  // `weir "/review src/a.ts"`: a custom command's template becomes the task.
  if (task.startsWith("/")) {
    const { expandCommand, loadCommands, matchCommand } = await import("../context/slash-commands.ts");
    const { userConfigDir } = await import("../config/paths.ts");
    const commands = loadCommands(workspace, userConfigDir());
    const m = matchCommand(task, commands);
    if (m) task = expandCommand(m.command, m.args);
    // "/name" that is no path on this machine ("/tmp is full" is a task) names a command: an unknown one is a mistake.
    else if (/^\/[\w.:-]+$/.test(task.split(/\s/)[0]!) && !existsSync(task.split(/\s/)[0]!))
      throw usageError(
        `unknown command ${task.split(/\s/)[0]}; yours and the repository's are ` +
          `${commands.map((c) => `/${c.name}`).join(", ") || "none (add one in ~/.config/weir/commands/NAME.md)"}`,
      );
  }
  // `git diff | weir "review this diff"`: what was piped in joins the task as quoted data, with its size.
  if (args.task !== "" && !process.stdin.isTTY) {
    const { pipedInput } = await import("./piped.ts");
    const { middleCut, taskRoom } = await import("../core/text-fit.ts");
    const piped = await pipedInput();
    if (piped === "silent") io.stderr.write("weir: stdin is a pipe that said nothing in 3 s; running the task without it\n");
    else if (piped && piped.text.trim() !== "") {
      const { quoteData } = await import("../context/render.ts");
      // Past what is left of the task's share of the window (a quarter; the run cuts a longer task
      // again) beside its own words and header, the input loses its middle, and says so.
      const fitted = middleCut(piped.text, Math.max(1_000, taskRoom(resolved.settings.contextSize) - task.length - 500));
      const cut = fitted.cut ? `; ${fitted.cut.toLocaleString("en")} characters cut from the middle to fit a quarter of the model's context` : "";
      const size = `${piped.bytes.toLocaleString("en")} bytes${piped.cut ? ", cut there: more was piped than weir reads" : ""}${cut}`;
      task = `${task}\n\n[input piped to weir · ${size} · untrusted]\n${quoteData(fitted.text)}`;
    }
  }
  const { runCommand } = await import("./commands/run.ts");
  return runCommand(args, task, workspace, resolved, io, cancelOnInterrupt());
}

/** The signal a run stops on: the first Ctrl-C cancels the turn in flight, a second one leaves at once. */
function cancelOnInterrupt(): AbortSignal {
  const controller = new AbortController();
  let interrupts = 0;
  process.on("SIGINT", () => {
    if (++interrupts > 1) process.exit(130);
    controller.abort();
  });
  return controller.signal;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (isUserError(err)) {
      // Several problems (every broken config field at once) print as several lines, each prefixed.
      console.error(err.message.split("\n").map((l) => `weir: ${l}`).join("\n"));
      process.exit(err.exitCode);
    }
    // The machine refused a path (no room, no directory, no permission): the path and why, one line.
    const refused = machineRefusal(err);
    if (refused) {
      console.error(`weir: ${refused}`);
      process.exit(1);
    }
    process.stderr.write(`weir: internal error (a bug in weir; please report it):\n${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(70);
  },
);
