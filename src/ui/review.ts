import type { AgentEvent } from "../core/events.ts";
import { cutToWidth } from "./pane.ts";
import type { Style } from "./style.ts";

/**
 * Ctrl-O's review: everything the log folded (whole reasoning, whole tool output, whole diffs),
 * in an alternate-screen overlay that scrolls and closes back to the pane. The fold log and the
 * screen are pure; `openReview` is the impure shell.
 */
export interface ReviewItem {
  title: string;
  body: string;
  /** Reasoning still streaming in (its turn has not ended). */
  open?: boolean;
}

const MAX_ITEMS = 500;

/** Adds what `e` folds to the review log (in place; the log keeps the newest MAX_ITEMS). */
export function foldForReview(items: ReviewItem[], e: AgentEvent, who = ""): void {
  const last = items.at(-1);
  switch (e.type) {
    case "reasoning_delta":
      if (last?.title === `${who}reasoning` && last.open) last.body += e.text;
      else items.push({ title: `${who}reasoning`, body: e.text, open: true });
      break;
    case "tool_call":
      items.push({ title: `${who}▸ ${e.call.name} ${e.summary}`, body: "" });
      break;
    case "tool_result": {
      const diff = e.details?.kind === "write" ? e.details.diff : undefined;
      const body = [e.content ?? e.preview, ...(diff ? ["", diff] : [])].join("\n");
      const call = items.findLast((i) => i.title.startsWith(`${who}▸ ${e.name} `) && i.body === "");
      if (call) call.body = body;
      else items.push({ title: `${who}${e.name} result`, body });
      break;
    }
    case "turn_end":
      // A turn's reasoning is closed: the next turn's starts a new item.
      for (const i of items) if (i.open && i.title === `${who}reasoning`) i.open = false;
      break;
    case "agent":
      foldForReview(items, e.event, `${e.agent} ${e.label}: `);
      break;
    default:
      return;
  }
  if (items.length > MAX_ITEMS) items.splice(0, items.length - MAX_ITEMS);
}

/** The review as lines no wider than `columns`. Pure. */
export function reviewLines(items: readonly ReviewItem[], columns: number, style: Style): string[] {
  const width = Math.max(10, columns);
  const out: string[] = [];
  const wrap = (line: string) => {
    let rest = line.replace(/\t/g, "  ");
    do {
      const [head, tail] = cutToWidth(rest, width);
      out.push(head);
      rest = tail;
    } while (rest);
  };
  for (const item of items) {
    wrap(style.bold(item.title));
    for (const l of item.body.replace(/\n+$/, "").split("\n")) if (item.body) wrap(`  ${l}`);
    out.push("");
  }
  return out.length ? out : [style.dim("nothing folded yet")];
}

/** One screenful from line `top`, with a footer saying where it is and how to move. Pure. */
function reviewScreen(lines: readonly string[], top: number, rows: number, style: Style): string {
  const body = Math.max(1, rows - 1);
  const at = clampTop(top, lines.length, rows);
  const shown = lines.slice(at, at + body);
  while (shown.length < body) shown.push("");
  const range = `${Math.min(lines.length, at + 1)}-${Math.min(lines.length, at + body)}`;
  const footer = style.dim(`review: lines ${range} of ${lines.length} · ↑↓ PgUp PgDn g G · q, Esc or Ctrl-O closes`);
  return `\x1b[H\x1b[2J${shown.join("\r\n")}\r\n${footer}`;
}

export function clampTop(top: number, total: number, rows: number): number {
  return Math.max(0, Math.min(top, total - Math.max(1, rows - 1)));
}

/** Where a key moves the view; "close" to leave; undefined for keys it ignores. Pure. */
export function reviewKey(
  key: { name?: string; ctrl?: boolean; shift?: boolean; sequence?: string },
  top: number,
  total: number,
  rows: number,
): number | "close" | undefined {
  const page = Math.max(1, rows - 2);
  if (key.name === "escape" || key.name === "q" || (key.ctrl && key.name === "o")) return "close";
  if (key.name === "up" || key.name === "k") return clampTop(top - 1, total, rows);
  if (key.name === "down" || key.name === "j" || key.name === "return") return clampTop(top + 1, total, rows);
  if (key.name === "pageup" || key.name === "b") return clampTop(top - page, total, rows);
  if (key.name === "pagedown" || key.name === "space") return clampTop(top + page, total, rows);
  if (key.name === "home" || (key.name === "g" && !key.shift)) return 0;
  if (key.name === "end" || (key.name === "g" && key.shift) || key.sequence === "G") return clampTop(total, total, rows);
  return undefined;
}

/** Shows the review on the alternate screen until closed; the caller has taken the keys from the line editor. */
export function openReview(term: NodeJS.WriteStream, input: NodeJS.ReadStream, items: readonly ReviewItem[], style: Style): Promise<void> {
  return new Promise((resolve) => {
    let lines = reviewLines(items, term.columns ?? 80, style);
    // Open at the end: the newest folded output is what a person usually wants.
    let top = clampTop(lines.length, lines.length, term.rows ?? 24);
    const draw = () => term.write(reviewScreen(lines, top, term.rows ?? 24, style));
    const onResize = () => {
      lines = reviewLines(items, term.columns ?? 80, style);
      top = clampTop(top, lines.length, term.rows ?? 24);
      draw();
    };
    const onKey = (_s: string, key: { name?: string; ctrl?: boolean; shift?: boolean; sequence?: string } | undefined) => {
      const next = reviewKey(key ?? {}, top, lines.length, term.rows ?? 24);
      if (next === "close") {
        input.off("keypress", onKey);
        term.off("resize", onResize);
        term.write("\x1b[?1049l");
        resolve();
      } else if (next !== undefined && next !== top) {
        top = next;
        draw();
      }
    };
    term.write("\x1b[?1049h");
    draw();
    input.on("keypress", onKey);
    term.on("resize", onResize);
  });
}
