import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * A command's copy-on-write view of the workspace (Linux): the kernel's overlayfs mounted over the
 * workspace root in a user and mount namespace of the command's own, before bubblewrap starts inside
 * it. The workspace is the lowest layer and is never written; what the command changes lands in the
 * upper layer, which, once every process of the command is gone, is the exact change set. Layers
 * held from earlier commands of the run sit between (`lowers`), so a build's outputs stay in view.
 */
export interface View {
  /** The directory that holds the layer (`upper/`, `work/`). */
  dir: string;
  /** The command's writes. */
  upper: string;
  work: string;
}

/** Where util-linux's unshare and mount are. */
type ViewTools = { unshare: string; mount: string };

/** Unshare and mount, from util-linux; each found where Debian and most distributions keep it. */
const UNSHARE = ["/usr/bin/unshare", "/bin/unshare"];
const MOUNT = ["/usr/bin/mount", "/bin/mount"];

const found = (candidates: string[]) => candidates.find((p) => existsSync(p));

/**
 * The script run as the namespace's root: mount the view over the workspace, then become bubblewrap.
 * `$1` is the workspace, `$2` the lower layers (colon-separated, topmost first), `$3`/`$4` the upper
 * and work directories, `$5` mount, `$6` the directory the held layers are named from (the mount's
 * options fit in one page, so they are named relative to it); the rest is bubblewrap's argv. user
 * xattrs mark whiteouts and opaque directories, as an unprivileged mount needs.
 */
const MOUNT_SCRIPT = [
  'root=$1 lower=$2 upper=$3 work=$4 mount=$5; cd "$6" || exit 125; shift 6',
  '"$mount" -t overlay weir -o "lowerdir=$lower,upperdir=$upper,workdir=$work,userxattr" "$root" || exit 125',
  'exec "$@"',
].join("; ");

/** The most held layers a view stacks (newest first); older ones stay listed by `weir changes`. */
export const MAX_HELD_LAYERS = 64;

/**
 * The argv that runs `inner` (bubblewrap's) with the view mounted over `root`, the held layers
 * `lowers` (upper directories relative to `base`, topmost first) above the workspace. Pure.
 */
export function viewArgv(tools: ViewTools, root: string, view: View, lowers: readonly string[], inner: string[], base = view.dir): string[] {
  const lower = [...lowers.slice(0, MAX_HELD_LAYERS), root].join(":");
  const script = ["/bin/sh", "-c", MOUNT_SCRIPT, "weir-view", root, lower, view.upper, view.work, tools.mount, base];
  return [tools.unshare, "--user", "--map-root-user", "--mount", "--", ...script, ...inner];
}

const probed = new Map<string, ViewTools | null>();

/**
 * Unshare and mount where an unprivileged overlay mount works on this machine, with `root` (when
 * given) as its lowest layer, since a workspace's own file system may refuse to be one (asked once
 * per workspace and process, by mounting one in a scratch directory under `scratch`); else null. I/O.
 */
export function viewTools(scratch: string, root?: string): ViewTools | null {
  const key = root ?? "";
  const known = probed.get(key);
  if (known !== undefined) return known;
  const unshare = found(UNSHARE);
  const mount = found(MOUNT);
  probed.set(key, null);
  if (process.platform !== "linux" || !unshare || !mount) return null;
  let dir: string | undefined;
  try {
    mkdirSync(scratch, { recursive: true });
    dir = mkdtempSync(join(scratch, "probe-"));
    for (const d of ["lower", "upper", "work"]) mkdirSync(join(dir, d));
    const view = { dir, upper: join(dir, "upper"), work: join(dir, "work") };
    // The cwd is taken after the mount, as bubblewrap's --chdir is: the view, not the directory under it.
    const inner = ["/bin/sh", "-c", 'cd "$0" && echo x > probe', join(dir, "lower")];
    const argv = viewArgv({ unshare, mount }, join(dir, "lower"), view, root ? [root] : [], inner);
    const r = Bun.spawnSync(argv, { cwd: dir, stdout: "ignore", stderr: "ignore" });
    if (r.exitCode === 0 && existsSync(join(dir, "upper", "probe")) && !existsSync(join(dir, "lower", "probe"))) probed.set(key, { unshare, mount });
  } catch {
    probed.set(key, null);
  } finally {
    if (dir) removeLayer(dir);
  }
  return probed.get(key) ?? null;
}

/** A fresh layer for one command under `dir` (the run's transactions). I/O. */
export function openView(dir: string): View {
  mkdirSync(dir, { recursive: true });
  const at = mkdtempSync(join(dir, "tx-"));
  const view = { dir: at, upper: join(at, "upper"), work: join(at, "work") };
  mkdirSync(view.upper);
  mkdirSync(view.work);
  return view;
}

/**
 * Removes a layer's directory. The kernel leaves its scratch directory (`work/work`) with no
 * permissions at all, which only root could remove as it is. I/O.
 */
export function removeLayer(dir: string): void {
  removeWork(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Removes the kernel's scratch directory of a layer whose command is over (a held layer keeps only `upper/`). */
export function removeWork(dir: string): void {
  try {
    chmodSync(join(dir, "work", "work"), 0o700);
  } catch {
    // never mounted, or already gone
  }
  rmSync(join(dir, "work"), { recursive: true, force: true });
}
