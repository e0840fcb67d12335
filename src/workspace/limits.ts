import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A process limit the kernel holds for root too: a pids cgroup per command. `prlimit --nproc` does
 * not bind uid 0 (the kernel exempts root from RLIMIT_NPROC), so where weir runs as root it makes a
 * cgroup with `pids.max` under its own (cgroup v2, or v1's pids controller) and the command joins it
 * before it starts. Where none can be made, `weir doctor` says so.
 */
export interface ProcessCgroup {
  /** The cgroup's directory; the command joins it by writing its pid to `cgroup.procs`. */
  dir: string;
}

/** Where the pids controller is mounted for this process: v2's unified tree or v1's pids hierarchy, with weir's own cgroup under it. */
function pidsParent(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  } catch {
    return undefined;
  }
  // v1: "N:pids:/path"; v2: "0::/path".
  const v1 = lines.find((l) => l.split(":")[1]?.split(",").includes("pids"));
  if (v1 && existsSync("/sys/fs/cgroup/pids")) return join("/sys/fs/cgroup/pids", v1.split(":").slice(2).join(":"));
  const v2 = lines.find((l) => l.startsWith("0::"));
  if (v2 && existsSync("/sys/fs/cgroup/cgroup.controllers")) return join("/sys/fs/cgroup", v2.slice(3));
  return undefined;
}

let serial = 0;

/**
 * A fresh pids cgroup allowing `processes` at once, or undefined where this process may not make
 * one (not root and no delegated subtree, no pids controller, or it is not enabled there). I/O.
 */
export function processCgroup(processes: number): ProcessCgroup | undefined {
  if (process.platform !== "linux") return undefined;
  const parent = pidsParent();
  if (!parent) return undefined;
  const dir = join(parent, `weir-${process.pid}-${++serial}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(dir, "pids.max"), String(processes));
    return { dir };
  } catch {
    releaseCgroup({ dir });
    return undefined;
  }
}

/** The argv that joins `cgroup` before it becomes `argv`, so nothing of the command starts outside it. Pure. */
export function inCgroup(cgroup: ProcessCgroup, argv: string[]): string[] {
  return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" || exit 125; exec "$@"', cgroup.dir, ...argv];
}

/** Removes a command's cgroup once its processes are gone (a pid namespace ends them all with its init). */
export function releaseCgroup(cgroup: ProcessCgroup): void {
  for (let i = 0; i < 50; i++) {
    try {
      rmdirSync(cgroup.dir);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      // EBUSY: the last processes are still being reaped.
      Bun.sleepSync(10);
    }
  }
}

/** Whether commands get a process cgroup here, for `weir doctor`: asked by making one and removing it. */
export function cgroupsAvailable(): boolean {
  const probe = processCgroup(1);
  if (probe) releaseCgroup(probe);
  return probe !== undefined;
}
