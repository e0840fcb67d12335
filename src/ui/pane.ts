import type { Style } from "./style.ts";

/**
 * The REPL's live pane: a few rows at the bottom of the normal screen (no alternate screen), under
 * everything already printed, which stays the terminal's own scrollback. From the top: the streamed
 * line not yet ended, the spinner (what the run waits for, and for how long), the status bar, and the
 * input line, which stays live while a turn runs. Output is committed above the pane: erase the pane,
 * print, draw it again. The pane draws the input line too (the line editor edits, but writes to a
 * silent sink): one party owns the screen, so a wrapped line that shrinks leaves nothing behind.
 * The pure parts (what the rows say) are below; `LivePane` is the impure shell.
 */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/y;

/** Splits `s` where its visible width reaches `width` (escape sequences take none). Pure. */
export function cutToWidth(s: string, width: number): [string, string] {
  let w = 0;
  let i = 0;
  while (i < s.length) {
    ANSI.lastIndex = i;
    const esc = ANSI.exec(s);
    if (esc) {
      i += esc[0].length;
      continue;
    }
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    const cw = Bun.stringWidth(ch);
    if (w + cw > width) break;
    w += cw;
    i += ch.length;
  }
  return [s.slice(0, i), s.slice(i)];
}

/** Joins as many segments as fit in `width`, dropping from the end (the first is cut if it alone is too wide). Pure. */
export function fitSegments(segments: readonly string[], width: number, sep = " · "): string {
  let row = "";
  for (const seg of segments) {
    const next = row ? `${row}${sep}${seg}` : seg;
    if (Bun.stringWidth(next) > width) return row || cutToWidth(seg, width)[0];
    row = next;
  }
  return row;
}

/** "45s", "3m05s", "2h03m". Pure. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export interface StatusView {
  model: string;
  effort?: string;
  /** Tokens of the newest request (input + output): what the context holds. */
  used: number;
  contextSize: number;
  /** Share of prompt tokens read from the cache over the session, 0..1. */
  cacheRate: number;
  /** Dollars, where the model's price is known. */
  costUsd?: number;
  workerTokens?: number;
  /** The running goal graph, compact: its id and merged/total nodes. */
  graph?: string;
  /** The run's mode when it is not the default (plan, accept-edits). */
  mode?: string;
  sessionId?: string;
  /** How long the running turn has taken (or the last one took). */
  elapsedMs?: number;
}

const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** The status bar's segments, most important first (a narrow terminal drops them from the end). Pure. */
export function statusSegments(s: StatusView): string[] {
  return [
    ...(s.mode ? [`${s.mode} mode`] : []),
    s.model,
    ...(s.effort ? [`effort ${s.effort}`] : []),
    `${k(s.used)}/${k(s.contextSize)} tokens`,
    `cache ${Math.round(s.cacheRate * 100)}%`,
    ...(s.workerTokens ? [`workers ${k(s.workerTokens)} tokens`] : []),
    ...(s.graph ? [s.graph] : []),
    ...(s.sessionId ? [`session ${s.sessionId.slice(0, 8)}`] : []),
    ...(s.costUsd !== undefined ? [`$${s.costUsd < 1 ? s.costUsd.toFixed(4) : s.costUsd.toFixed(2)}`] : []),
    ...(s.elapsedMs !== undefined ? [formatElapsed(s.elapsedMs)] : []),
  ];
}

interface PaneView {
  /** The streamed line not yet ended. */
  partial: string;
  /** The reasoning streaming in right now (its newest words); folded away when it closes. */
  thinking?: string;
  /** Answer text held back until its Markdown block completes: its newest line shows plainly meanwhile. */
  draft?: string;
  spinner?: { label: string; secs: number; frame: number };
  status: string[];
}

/** The rows above the input line, each narrower than the terminal so none wraps. Pure. */
export function paneRows(v: PaneView, columns: number, style: Style): string[] {
  const width = Math.max(10, columns - 1);
  const rows: string[] = [];
  if (v.thinking) {
    // The newest words, so the row moves as the model thinks.
    const flat = v.thinking.replace(/\s+/g, " ").trim();
    const tail = Bun.stringWidth(flat) > width - 2 ? `…${flat.slice(-(width - 3))}` : flat;
    rows.push(style.dim(cutToWidth(tail, width)[0]));
  }
  if (v.draft) {
    // The newest words of the held line, so the row moves as the answer streams.
    const line = v.draft.trimEnd().split("\n").pop() ?? "";
    rows.push(cutToWidth(Bun.stringWidth(line) > width - 2 ? `…${line.slice(-(width - 3))}` : line, width)[0]);
  }
  if (v.partial) rows.push(cutToWidth(v.partial, width)[0]);
  if (v.spinner)
    rows.push(
      style.dim(
        cutToWidth(`${FRAMES[v.spinner.frame % FRAMES.length]} ${v.spinner.label}${v.spinner.secs >= 1 ? ` ${v.spinner.secs}s` : ""} · Esc cancels`, width)[0],
      ),
    );
  rows.push(style.dim(`─ ${fitSegments(v.status, width - 2)}`));
  return rows;
}

/** What the pane needs of the terminal and of the line editor that owns the input row. */
interface PaneTerminal {
  write(s: string): void;
  readonly columns?: number;
}
interface PaneInput {
  prompt(): string;
  line(): string;
  /** Where the cursor is inside prompt + line (readline's `getCursorPos`). */
  cursor(): { rows: number; cols: number };
}

export class LivePane {
  /** Rows drawn above the input row (0: nothing drawn). */
  private above: string[] = [];
  /** Width of prompt + line up to the cursor at the last draw: where the terminal's cursor was left. */
  private toCursor = 0;
  private drawn = false;
  private held = false;
  private partial = "";
  private thinking = "";
  private drafting = "";
  private label: string | undefined;
  private since = 0;
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private term: PaneTerminal,
    private input: PaneInput,
    private style: Style,
    private status: () => string[],
    private now: () => number = Date.now,
  ) {}

  private get columns(): number {
    return Math.max(10, this.term.columns ?? 80);
  }

  private view(): PaneView {
    return {
      partial: this.partial,
      ...(this.thinking ? { thinking: this.thinking } : {}),
      ...(this.drafting ? { draft: this.drafting } : {}),
      ...(this.label ? { spinner: { label: this.label, secs: Math.floor((this.now() - this.since) / 1000), frame: this.frame } } : {}),
      status: this.status(),
    };
  }

  /** Moves to the pane's first row and clears to the end of the screen. `rows` says how the drawn rows wrap now (after a resize). */
  private erase(): string {
    if (!this.drawn) return "";
    const cols = this.columns;
    // Rows as they wrap at the width now (a resize reflows them); the cursor's row from the last draw,
    // not the line editor's current state, which has already moved on.
    const above = this.above.reduce((n, r) => n + Math.max(1, Math.ceil(Bun.stringWidth(r) / cols)), 0);
    const up = above + Math.floor(this.toCursor / cols);
    this.drawn = false;
    return `\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J`;
  }

  private draw(): string {
    if (this.held) return "";
    this.above = paneRows(this.view(), this.columns, this.style);
    const prompt = this.input.prompt();
    const line = this.input.line();
    const cols = this.columns;
    const endRows = Math.floor(Bun.stringWidth(prompt + line) / cols);
    const at = this.input.cursor();
    const back = endRows - at.rows;
    this.toCursor = at.rows * cols + at.cols;
    this.drawn = true;
    return `${this.above.join("\r\n")}\r\n${prompt}${line}${back > 0 ? `\x1b[${back}A` : ""}\r${at.cols > 0 ? `\x1b[${at.cols}C` : ""}`;
  }

  /** Draws the pane again (a tick, a status change, the line editor having redrawn its row). */
  redraw(): void {
    if (this.held) return;
    this.term.write(this.erase() + this.draw());
  }

  /**
   * Commits text above the pane. A line not yet ended stays in the pane until it ends (or fills the
   * terminal's width, where the terminal would have wrapped it anyway).
   */
  print(text: string): void {
    if (text === "") return;
    if (this.held) {
      this.term.write(text);
      return;
    }
    let s = this.partial + text;
    let done = "";
    const nl = s.lastIndexOf("\n");
    if (nl >= 0) {
      done = s.slice(0, nl + 1);
      s = s.slice(nl + 1);
    }
    const width = Math.max(10, this.columns - 1);
    while (Bun.stringWidth(s) > width) {
      const [head, rest] = cutToWidth(s, width);
      done += `${head}\n`;
      s = rest;
    }
    this.partial = s;
    this.term.write(this.erase() + done.replace(/\r?\n/g, "\r\n") + this.draw());
  }

  /** Ends the streamed line not yet ended (a turn is over, or a tool's echo follows it). */
  endLine(): void {
    if (!this.partial) return;
    const p = this.partial;
    this.partial = "";
    this.term.write(this.erase() + `${p}\r\n` + this.draw());
  }

  /** The person pressed Enter: `echo`, if given, is committed in the input line's place (the message as it was typed). */
  submitted(echo: string | undefined): void {
    if (this.held) return;
    this.term.write(this.erase() + (echo !== undefined ? `${echo}\r\n` : "") + this.draw());
  }

  /** Reasoning as it streams (shown live in the pane, newest words); `undefined` when it closes. */
  think(delta: string | undefined): void {
    const next = delta === undefined ? "" : (this.thinking + delta).slice(-2000);
    if (next === this.thinking) return;
    this.thinking = next;
    this.redraw();
  }

  /** The answer's text held back by the Markdown renderer ("" once it is printed). */
  draft(text: string): void {
    if (text === this.drafting) return;
    this.drafting = text;
    this.redraw();
  }

  /** What the run waits for (undefined while output flows); the spinner ticks while a run is live. */
  spin(label: string | undefined): void {
    if (label === this.label) return;
    if (label) this.since = this.now();
    this.label = label;
    this.redraw();
  }

  /** A run started or ended: the pane ticks (spinner, elapsed time) only while one is live. */
  live(on: boolean): void {
    if (on && !this.timer) {
      this.timer = setInterval(() => {
        this.frame++;
        this.redraw();
      }, 120);
      this.timer.unref?.();
    } else if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.label = undefined;
      this.thinking = "";
      this.drafting = "";
      this.endLine();
      this.redraw();
    }
  }

  /** Someone else needs the terminal (an approval prompt, the review overlay): erase and draw nothing until released. */
  hold(h: boolean): void {
    if (h && !this.held) this.term.write(this.erase());
    this.held = h;
    if (!h) this.term.write(this.draw());
  }

  /** The terminal changed size: the drawn rows have wrapped (or not) to the new width; draw again. */
  resized(): void {
    this.redraw();
  }

  /** Leaving: the pane goes, and `final` (the last status) stays in the scrollback. */
  close(final?: string): void {
    this.live(false);
    this.term.write(this.erase() + (final ? `${final}\r\n` : ""));
    this.held = true;
  }
}
