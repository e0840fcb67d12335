/**
 * Markdown for the terminal as it streams: text is held back until a block is complete (a blank
 * line outside a code fence), then that block is rendered with Bun's own Markdown renderer
 * (`Bun.markdown.ansi`: headings, emphasis, lists, code blocks with highlighting). The rest is
 * rendered at the end of the turn. Pure apart from the renderer; tested without a terminal.
 */
export class MarkdownStream {
  private pending = "";
  /** Inside a block too long to hold back: its text goes out as it comes, until the block ends. */
  private raw = false;

  constructor(
    private render: (md: string) => string = (md) => Bun.markdown.ansi(md, { columns: 80 }),
    /** Lines a block may grow to before it is shown unrendered rather than held back (a long listing). */
    private maxHeldLines = 40,
  ) {}

  /** Adds streamed text; returns what can be shown now (whole blocks), possibly "". */
  push(text: string): string {
    if (this.raw) {
      // Raw until a blank line ends the block; what follows is Markdown again.
      const at = (this.pending + text).search(/\n[ \t]*\n/);
      if (at === -1) {
        this.pending = "";
        return text;
      }
      const all = this.pending + text;
      this.raw = false;
      this.pending = "";
      const head = all.slice(0, at + 1);
      return head + this.push(all.slice(at + 1));
    }
    this.pending += text;
    const lines = this.streamLines();
    const cut = lastBlockEnd(this.pending);
    if (cut <= 0) {
      if (this.pending.split("\n").length > this.maxHeldLines) {
        this.raw = true;
        const out = this.pending;
        this.pending = "";
        return lines + out;
      }
      return lines;
    }
    const done = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return lines + this.show(done);
  }

  /**
   * The finished lines at the start of what is held that can be shown on their own, each rendered
   * as it ends: a paragraph's or a list's lines appear as they arrive, not when the block ends (a
   * 60-line paragraph would show nothing for its whole length). A blank line between blocks is
   * consumed; a fence, a table or an indented code block is held whole as before.
   */
  private streamLines(): string {
    let out = "";
    for (let nl = this.pending.indexOf("\n"); nl !== -1; nl = this.pending.indexOf("\n")) {
      const line = this.pending.slice(0, nl);
      if (line.trim() !== "" && !onItsOwn(line)) break;
      if (line.trim() !== "") out += this.show(`${line}\n`);
      this.pending = this.pending.slice(nl + 1);
    }
    return out;
  }

  /** The text held back while its block is not yet complete (shown plainly meanwhile). */
  held(): string {
    return this.raw ? "" : this.pending;
  }

  /** The rest, at the end of the turn. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    if (this.raw) {
      this.raw = false;
      return rest;
    }
    return rest.trim() === "" ? rest : this.show(rest);
  }

  private show(md: string): string {
    try {
      const out = this.render(md).replace(/\x1b\[0m\n?$/, "\x1b[0m");
      return out.endsWith("\n") ? out : `${out}\n`;
    } catch {
      return md;
    }
  }
}

/** The offset just after the last blank line that is outside a fenced code block; 0 if none. Pure. */
export function lastBlockEnd(text: string): number {
  let fence: string | undefined;
  let end = 0;
  let offset = 0;
  const lines = text.split("\n");
  // The last element is an unfinished line: it can end no block.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!;
    offset += line.length + 1;
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (line.trim().startsWith(fence)) {
        fence = undefined;
        end = offset; // a closed fence ends its block
      }
      continue;
    }
    if (!fence && line.trim() === "" && i > 0) end = offset;
  }
  return end;
}

/** A line that renders the same on its own as inside its block: not a fence, a table row or indented code (a nested list item is). Pure. */
function onItsOwn(line: string): boolean {
  if (/^\s{0,3}(?:`{3,}|~{3,})/.test(line) || /^\s*\|/.test(line)) return false;
  return !/^(?: {4}|\t)/.test(line) || /^\s*(?:[-*+]|\d+[.)])\s/.test(line);
}
