/**
 * Markdown for the terminal as it streams: text is held back until a block is complete (a blank
 * line outside a code fence), then that block is rendered with Bun's own Markdown renderer
 * (`Bun.markdown.ansi`: headings, emphasis, lists, code blocks with highlighting). The rest is
 * rendered at the end of the turn. Pure apart from the renderer; tested without a terminal.
 */
export class MarkdownStream {
  private pending = "";

  constructor(private render: (md: string) => string = (md) => Bun.markdown.ansi(md)) {}

  /** Adds streamed text; returns what can be shown now (whole blocks), possibly "". */
  push(text: string): string {
    this.pending += text;
    const cut = lastBlockEnd(this.pending);
    if (cut <= 0) return "";
    const done = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return this.show(done);
  }

  /** The rest, at the end of the turn. */
  end(): string {
    const rest = this.pending;
    this.pending = "";
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
