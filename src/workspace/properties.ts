/**
 * The security properties docs/security.md states, and whether each holds on this machine: the
 * same table `weir doctor` prints, from the facts it finds (test/docs.test.ts holds the two to the
 * same names and platforms). Pure.
 */

/** What decides the properties on a machine. */
export interface MachineFacts {
  /** The OS sandbox commands run in. */
  sandbox: "bwrap" | "seatbelt" | "none";
  /** Whether each command runs on a copy-on-write view (an unprivileged overlay, `viewTools`). */
  view: boolean;
  /** Whether weir can give each command a pids cgroup (`cgroupsAvailable`). */
  cgroup: boolean;
  /** Whether weir runs as root. */
  root: boolean;
}

export type Holds = "yes" | "partly" | "no";

export interface Property {
  /** As the first column of docs/security.md's table names it. */
  name: string;
  /** Where it holds, as the table's last column says. */
  platforms: string;
  /** Whether it holds here, and how or why not. */
  here(f: MachineFacts): [Holds, string];
}

const VIEW = "Linux with unprivileged overlays";
const noView = (f: MachineFacts) =>
  f.sandbox === "bwrap" ? "there is no copy-on-write view here (no unprivileged overlay)" : "commands have no copy-on-write view on this platform";

export const PROPERTIES: readonly Property[] = [
  {
    name: "what your review shows applies",
    platforms: VIEW,
    here: (f) => (f.view ? ["yes", "each command's change set is applied through one writer"] : ["no", `${noView(f)}: commands write the workspace directly`]),
  },
  {
    name: "what review cannot show and runs later is held",
    platforms: VIEW,
    here: (f) =>
      f.view
        ? ["yes", "held, listed by weir changes"]
        : f.sandbox === "none"
          ? ["no", "no sandbox: every command asks"]
          : ["partly", `${noView(f)}: a sweep after each command removes what it finds by times`],
  },
  {
    name: "a hard link never carries a write out",
    platforms: VIEW,
    here: (f) => (f.view ? ["yes", "changed files are renamed into place"] : ["no", `${noView(f)}: a command writes a file in place`]),
  },
  {
    name: "held is containment, not a question",
    platforms: VIEW,
    here: (f) => (f.view ? ["yes", "--yes applies nothing held"] : ["no", `${noView(f)}: nothing is held`]),
  },
  {
    name: "a change set lands whole, even if weir is killed",
    platforms: VIEW,
    here: (f) => (f.view ? ["yes", "each settle is journaled first; the next process finishes one a kill cut short"] : ["no", noView(f)]),
  },
  { name: "commands get an allowlist of the environment", platforms: "all", here: () => ["yes", "commandEnv"] },
  {
    name: "secrets are removed by value",
    platforms: "all",
    here: () => ["yes", "secret files' values at any depth, secret variables, URL passwords; raw, base64 and URL-encoded"],
  },
  {
    name: "the process limit holds for root",
    platforms: "Linux with a pids cgroup",
    here: (f) =>
      f.cgroup
        ? ["yes", "a pids cgroup per command"]
        : f.root
          ? ["no", "weir runs as root with no pids cgroup: prlimit does not bind root"]
          : ["partly", "prlimit only, which holds for an ordinary user"],
  },
  { name: "approvals show everything or nothing", platforms: "all", here: () => ["yes", "a request too long for the screen is summarised, never cut"] },
  {
    name: "a project MCP server's approval covers all it can load",
    platforms: "all",
    here: (f) => ["yes", f.sandbox === "bwrap" ? "what its sandbox shows it of the workspace" : "the whole workspace (servers have no sandbox here)"],
  },
  {
    name: "every change can be undone",
    platforms: "all; commands' changes on Linux with unprivileged overlays",
    here: (f) => (f.view ? ["yes", "file actions and command change sets"] : ["partly", `file actions only; ${noView(f)}`]),
  },
  {
    name: "builds keep working",
    platforms: "all",
    here: (f) => ["yes", f.view ? "held outputs stay in the run's later views; ignored ones in later runs' too" : "commands write the workspace directly"],
  },
  {
    name: "Linux and macOS enforce one policy",
    platforms: "Linux with bubblewrap, macOS",
    here: (f) => (f.sandbox === "none" ? ["no", "no OS sandbox here: every command asks"] : ["yes", f.sandbox === "bwrap" ? "bubblewrap" : "sandbox-exec"]),
  },
];

/** Each property with whether it holds on a machine with `facts`. Pure. */
export const propertiesHere = (facts: MachineFacts): { property: string; holds: Holds; here: string }[] =>
  PROPERTIES.map((p) => {
    const [holds, here] = p.here(facts);
    return { property: p.name, holds, here };
  });
