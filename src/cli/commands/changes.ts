import { createPatch } from "diff";
import { join } from "node:path";
import { userDataDir } from "../../config/paths.ts";
import { usageError } from "../../core/errors.ts";
import { reviewable } from "../../ui/visible.ts";
import { wholeText } from "../../workspace/containment.ts";
import { applyHeld, changesDir, dropLayer, finishSettles, type HeldLayer, heldLayers } from "../../workspace/transaction.ts";
import { UndoLog, undoDir } from "../../workspace/undo.ts";

/**
 * `weir changes [list|show ID|apply ID|drop ID]`: the changes commands made that weir held from the
 * workspace (classify.ts says why each), what each would change, and the person's decision. Held is
 * containment, not a question: only this command applies them, after the person has read them.
 */
export function changesCommand(words: string[], workspace: string, print: (s: string) => void, json = false): number {
  // Paths and contents are a command's: shown, never obeyed by the terminal.
  const out = (s: string) => print(json ? s : reviewable(s));
  const verb = words[1] ?? "list";
  const dir = changesDir(userDataDir(), workspace);
  // A settle whose process died part-way is finished first, so what is listed is what is held.
  finishSettles(workspace, dir, new UndoLog(undoDir(userDataDir(), workspace), workspace));
  const layers = heldLayers(dir);
  if (verb === "list") {
    if (json) {
      out(`${JSON.stringify(layers.map(({ dir: _dir, ...l }) => l), null, 2)}\n`);
      return 0;
    }
    if (layers.length === 0) {
      out("no held changes in this workspace\n");
      return 0;
    }
    for (const l of layers) {
      out(`${l.id}  ${l.at.replace("T", " ").slice(0, 19)}  ${l.command}\n`);
      for (const h of l.held.filter((h) => !h.reason.startsWith("inside "))) out(`  ${h.rel}: ${h.reason}\n`);
    }
    out("weir changes show ID prints a change set's diff; weir changes apply ID writes it to the workspace; weir changes drop ID discards it\n");
    return 0;
  }
  if (!["show", "apply", "drop"].includes(verb))
    throw usageError(`unknown command "changes ${verb}"; use weir changes, weir changes show ID, apply ID or drop ID`);
  const layer = pick(layers, words[2], verb);
  if (verb === "show") {
    for (const h of layer.held) out(diffOf(workspace, layer, h));
    return 0;
  }
  if (verb === "drop") {
    dropLayer(layer.dir);
    out(`dropped change set ${layer.id} (${count(layer.held.length)}); the workspace is as it was\n`);
    return 0;
  }
  const applied = applyHeld(workspace, layer);
  out(`applied change set ${layer.id} to the workspace: ${count(applied.length)}\n`);
  return 0;
}

const count = (n: number) => (n === 1 ? "1 change" : `${n} changes`);

/** The layer named by `id` (a prefix will do when it is unambiguous), or a usage error naming the choices. */
function pick(layers: HeldLayer[], id: string | undefined, verb: string): HeldLayer {
  if (!id) throw usageError(`weir changes ${verb} needs a change set id; weir changes lists them`);
  const hits = layers.filter((l) => l.id.startsWith(id));
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) throw usageError(`no held change set ${id} in this workspace; weir changes lists them`);
  throw usageError(`${id} names ${hits.length} change sets (${hits.map((l) => l.id).join(", ")}); give more of the id`);
}

/** One held change as a person reads it: a unified diff for text, a line for the rest. */
function diffOf(workspace: string, layer: HeldLayer, h: HeldLayer["held"][number]): string {
  const head = `# ${h.rel}: ${h.reason}\n`;
  if (h.kind !== "file") return `${head}  (${h.kind === "deleted" ? "removed" : h.kind})\n`;
  const after = wholeText(join(layer.dir, "upper", h.rel));
  if (after === undefined) return `${head}  (binary or too large to show)\n`;
  const before = wholeText(join(workspace, h.rel)) ?? "";
  return head + createPatch(h.rel, before, after, "workspace", `change set ${layer.id}`).split("\n").slice(2).join("\n");
}
