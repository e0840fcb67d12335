/**
 * What reaches a terminal from a repository, a tool, an MCP server or the model is shown, never
 * obeyed: control characters (an escape sequence could retitle the window, clear the screen, move
 * the cursor over an approval prompt or rewrite a line already printed) and Unicode direction
 * overrides are replaced by a visible stand-in. Newlines and tabs stay. Pure.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visible(text: string): string {
  return text
    .replace(CONTROL, (c) => (c === "\u001b" ? "␛" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`))
    .replace(BIDI, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

/** An event with every string in it made visible, for a frontend that prints it. Pure. */
export function visibleEvent<T>(value: T): T {
  if (typeof value === "string") return visible(value) as T;
  if (Array.isArray(value)) return value.map(visibleEvent) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleEvent(v)])) as T;
  return value;
}

/**
 * Characters that show as nothing, or as a plain space, while being something else: Unicode's
 * spaces and joiners, and letters drawn blank (the Braille pattern blank, the Hangul fillers, the
 * Mongolian vowel separator).
 */
const BLANK_LOOKALIKE = /[\u00a0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff\u2800\u3164\u115f\u1160\uffa0]/g;
/** A run of four or more of one such character: counted, not named one by one. */
const BLANK_RUN = /([\u00a0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff\u2800\u3164\u115f\u1160\uffa0])\1{3,}/g;
const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * What an approval prompt shows of a command, so that everything in it can be seen at once: as
 * `visible`, and also long runs of blanks (which would push what follows off the screen, or what
 * came before off its top) and empty lines counted instead of shown, and characters that look
 * like a space or like nothing named. Pure.
 */
export function reviewable(text: string): string {
  return visible(text)
    .replace(BLANK_RUN, (run, c: string) => `⟨${run.length} × ${codePoint(c)}⟩`)
    .replace(BLANK_LOOKALIKE, (c) => `<${codePoint(c)}>`)
    .replace(/[ \t]{40,}/g, (run) => ` ⟨${run.length} blanks⟩ `)
    .replace(/(?:\n[ \t]*){4,}\n/g, (run) => `\n⟨${run.split("\n").length - 2} empty lines⟩\n`);
}

