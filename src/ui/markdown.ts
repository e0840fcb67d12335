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
    const cut = lastBlockEnd(this.pending);
    if (cut <= 0) {
      if (this.pending.split("\n").length > this.maxHeldLines) {
        this.raw = true;
        const out = this.pending;
        this.pending = "";
        return out;
      }
      return "";
    }
    const done = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.show(done);
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
