/**
 * The objective part of the firewall: the same deterministic clean-up for every untrusted text,
 * whatever it says. Each rule removes or neutralises something no person reads and only a program
 * acts on; what changed is counted so the chunk can say so. Pure.
 */
interface Sanitised {
  text: string;
  /** What was changed, one phrase per rule that fired ("3 invisible characters removed"). */
  changes: string[];
}

interface CleanRule {
  /** What it changes, for the chunk's note: "{n} invisible characters removed". */
  note: string;
  pattern: RegExp;
  replace: string | ((match: string) => string);
  /** Text the pattern cannot match without: a native search for it skips the pattern's slower scan. */
  needs?: string;
}

// Zero-width characters render as nothing; a payload split by them still reads as words to a model.
const INVISIBLE = /[\u200b-\u200d\u2060-\u2064\u00ad\u180e]|(?<!^)\ufeff/g;
// Direction overrides and isolates make the displayed order differ from the order a model reads.
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
// Unicode tag characters spell hidden ASCII ("ASCII smuggling"); only a subdivision flag emoji
// (a black flag, then tags) uses them legitimately, and that is kept.
const TAGS = /(?<!\u{1f3f4}[\u{e0020}-\u{e007e}]*)[\u{e0000}-\u{e007f}]/gu;
// Every tag character is the surrogate pair \udb40 \udc00-\udc7f: without its lead, a text has none.
const TAG_LEAD = "\udb40";
// Terminal escape sequences (CSI, OSC, other ESC forms) and other C0/C1 controls but tab and newlines.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Chat-template and role tokens of the common model families: a text must not open a turn.
const PIPE_TOKENS = "im_start|im_end|im_sep|endoftext|begin_of_text|end_of_text|start_header_id|end_header_id|eot_id|system|user|assistant";
const ROLE_TOKENS = new RegExp(String.raw`<\|(?:${PIPE_TOKENS})\|>|<\/?(?:start_of_turn|end_of_turn)>|\[\/?INST\]|<<\/?SYS>>`, "g");
// A link or image whose query string carries a long encoded payload sends data out when rendered.
const DATA_URL = /(https?:\/\/[^\s()<>"'?]+)\?([^\s()<>"']*[A-Za-z0-9%+/=_-]{64,}[^\s()<>"']*)/g;

const RULES: CleanRule[] = [
  { note: "{n} invisible characters removed", pattern: INVISIBLE, replace: "" },
  { note: "{n} direction-override characters removed", pattern: BIDI, replace: "" },
  { note: "{n} hidden tag characters removed", pattern: TAGS, replace: "", needs: TAG_LEAD },
  { note: "{n} terminal escape sequences or control characters removed", pattern: ESCAPES, replace: "" },
  { note: "{n} chat role tokens neutralised", pattern: ROLE_TOKENS, replace: (m) => `[role token ${m.replace(/[<>|[\]]/g, "")}]` },
  { note: "{n} data-carrying link queries removed", pattern: DATA_URL, replace: (m) => `${m.slice(0, m.indexOf("?"))}?[query removed]`, needs: "://" },
];

export function sanitise(text: string): Sanitised {
  const changes: string[] = [];
  let out = text;
  for (const r of RULES) {
    if (r.needs && !out.includes(r.needs)) continue;
    let n = 0;
    out = out.replace(r.pattern, (m) => (n++, typeof r.replace === "string" ? r.replace : r.replace(m)));
    if (n > 0) changes.push(r.note.replace("{n}", String(n)));
  }
  return { text: out, changes };
}

/** The hidden ASCII a run of tag characters spells, for the firewall to read. Pure. */
export function tagText(text: string): string {
  if (!text.includes(TAG_LEAD)) return "";
  return [...text.matchAll(TAGS)].map((m) => String.fromCharCode(m[0].codePointAt(0)! - 0xe0000)).join("").replace(/[^\x20-\x7e]/g, "");
}
