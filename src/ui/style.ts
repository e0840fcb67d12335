/** ANSI styling that disappears when colour is off (NO_COLOR, --no-color, not a TTY). */
export interface Style {
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  green(s: string): string;
  /** Whether any of this styles (colour is on). */
  readonly on: boolean;
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

export function makeStyle(color: boolean): Style {
  if (!color) {
    const id = (s: string) => s;
    return { dim: id, red: id, yellow: id, cyan: id, bold: id, green: id, on: false };
  }
  return { dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), cyan: wrap(36, 39), bold: wrap(1, 22), green: wrap(32, 39), on: true };
}
