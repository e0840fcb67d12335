/**
 * The context firewall's flag. Untrusted text always reaches the model quoted, sanitised
 * (sanitise.ts) and with its provenance, and never gains authority whatever it says; this module
 * only decides whether it also carries a warning. A few telltale shapes make a text
 * instruction-like: role markers, fake tool calls, overrides of earlier instructions, text addressed
 * to an AI agent, secrecy towards the user, hidden or encoded text. What asks for something in plain
 * words is the judgment provider's increase-only chunk check (decision/providers.ts). Pure.
 */
import { sanitise, tagText } from "./sanitise.ts";
import { byCodePoint } from "./lexical.ts";

export type Verdict = "evidence" | "conflict" | "instruction_like" | "irrelevant";

export interface Finding {
  rule: string;
  /** 1-based line range of the span that triggered the rule. */
  startLine: number;
  endLine: number;
  excerpt: string;
}

export interface FirewallResult {
  verdict: Verdict;
  findings: Finding[];
}

interface Rule {
  id: string;
  why: string;
  pattern: RegExp;
}

/** Words for what a model is told, and for the model itself, shared by the rules below. */
const ORDERS = String.raw`(?:instructions?|directions|directives|guidelines|guidance|system prompt|prompts?)`;
const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|original|initial|all(?: of)?(?: the| your)?|any|your)`;
/** What follows a vocative: punctuation, or the model reading. */
const AFTER = String.raw`[^\n]{0,20}(?:[,:.!]|reading|processing)`;
/** What a system line says first when it speaks to the agent. */
const SPEAKS = String.raw`(?:policy|you|assistant|instructions?|override)`;
const PERSON = String.raw`(?:user|human|developer|operator)`;
const MODEL = String.raw`(?:AI|A\.I\.|LLM|language model|chatbot|(?:AI |automated |coding )?(?:assistant|agent|bot)s?)`;

/** A rule's pattern: its alternatives, one per line, joined. */
const rx = (alternatives: string[], flags = "i") => new RegExp(alternatives.join("|"), flags);
const r = String.raw;

export const RULES: Rule[] = [
  {
    id: "override",
    why: "dismisses the instructions the reader was given",
    // A verb, not the noun ("an override of earlier instructions" describes one).
    pattern: rx([r`(?<!\b(?:an?|the) )\b(?:ignore|disregard|forget|override|bypass|discard)\b[^.\n]{0,30}\b${EARLIER}\s+(?:\w+\s+)?${ORDERS}\b`]),
  },
  {
    id: "override",
    why: "declares the reader's instructions void",
    pattern: rx([r`\b(?:previous|prior|earlier|original)\s+(?:${ORDERS}|guidance)\s+(?:no longer appl(?:y|ies)|(?:is|are) (?:void|cancel+ed|outdated))`]),
  },
  {
    id: "override",
    why: "announces new instructions in place of the reader's",
    pattern: rx([r`^[\s#*>/-]*(?:important\s+)?(?:new|updated|revised|real|actual)\s+(?:instructions?|task)\s*:`], "im"),
  },
  {
    id: "persona",
    why: "tries to turn the reader into another, unrestricted agent",
    pattern: rx([
      r`\b(?:you are now|from now on,? you are|act as) (?:an? )?(?:unrestricted|unfiltered|jailbroken|DAN\b)`,
      r`\b(?:developer|god|jailbreak) mode\b`,
    ]),
  },
  {
    id: "addressed",
    why: "is addressed to an AI reader",
    pattern: rx(
      [
        r`\b(?:if you are|note to|attention|dear|hey|message (?:to|for)|instructions? for)(?: the| an?| any| all)? ${MODEL}\b${AFTER}`,
        r`(?:^|<!--|\/\/|\/\*|#)\s*(?:AI|LLM)(?: agent| assistant| model| bot)?s?\s*[:,]\s*\w`,
      ],
      "im",
    ),
  },
  {
    id: "addressed",
    why: "is addressed to whatever model reads or processes it",
    pattern: rx([r`\b(?:any|the|all) (?:${MODEL}|model)s? (?:reading|processing|parsing|summari[sz]ing) this\b`]),
  },
  {
    id: "secrecy",
    why: "asks the reader to hide something from the user",
    pattern: rx([r`\b(?:do not|don't|never|without) (?:tell|inform|mention|alert|notify)(?:ing)? (?:it to |this to )?(?:the |your )?${PERSON}`,
      r`\btell (?:no ?one|nobody)\b`]),
  },
  {
    id: "prompt-leak",
    why: "asks the reader to reveal its own instructions",
    pattern: rx([r`\b(?:print|reveal|repeat|output|show|leak|dump)\b[^.\n]{0,25}\b(?:your|the) (?:full |complete |entire )?(?:system|initial|hidden) prompt`]),
  },
  {
    id: "role-marker",
    why: "opens a chat turn of its own",
    pattern: rx([r`\[role token (?:im_start|system|start_header_id|INST|SYS)`, r`^[\s#*>/-]*<\/?(?:system|assistant|developer|system-reminder)>\s*$`], "im"),
  },
  {
    id: "role-marker",
    why: "labels a line as the system speaking",
    pattern: rx([r`^[\s#*>/-]*\[?(?:system|developer)(?: message| prompt| override)?\]?\s*:\s*(?:new |the )?${SPEAKS}\b`], "im"),
  },
  {
    id: "tool-call",
    why: "is shaped like a tool call",
    pattern: rx([r`<(?:function_calls|tool_call|tool_use|invoke name=)\b`]),
  },
];

/** Text that reads as words once decoded: a long base64 run hiding prose is a payload, an image is not. */
const BASE64 = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{120,}={0,2}(?![A-Za-z0-9+/=])/g;

function hiddenProse(text: string): string | undefined {
  for (const m of text.matchAll(BASE64)) {
    const decoded = Buffer.from(m[0], "base64").toString("latin1");
    const printable = decoded.replace(/[^\x20-\x7e\n]/g, "").length / decoded.length;
    if (printable > 0.95 && (decoded.match(/ /g) ?? []).length > decoded.length / 12) return decoded;
  }
  return undefined;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;
const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s).trim();

/** Classifies one text. Trusted text (the user's task, weir's policies) is never instruction-like. */
export function classify(text: string, trust: "trusted" | "untrusted" = "untrusted"): FirewallResult {
  if (trust === "trusted") return { verdict: "evidence", findings: [] };
  const findings: Finding[] = [];
  const clean = sanitise(text).text;
  const read = (view: string, rule: string, line?: number) => {
    for (const r of RULES) {
      const m = r.pattern.exec(view);
      if (!m) continue;
      const at = line ?? lineOf(view, m.index);
      const id = rule || r.id;
      if (!findings.some((f) => f.rule === id && f.startLine === at)) findings.push({ rule: id, startLine: at, endLine: at, excerpt: clip(m[0]) });
    }
  };
  read(clean, "");
  const tags = tagText(text);
  if (tags) findings.push({ rule: "hidden-text", startLine: 1, endLine: 1, excerpt: clip(tags) });
  const decoded = hiddenProse(clean);
  if (decoded) findings.push({ rule: "encoded-payload", startLine: 1, endLine: 1, excerpt: clip(decoded) });
  if (decoded) read(decoded, "encoded-payload", 1);
  findings.sort((a, b) => a.startLine - b.startLine || byCodePoint(a.rule, b.rule));
  return { verdict: findings.length > 0 ? "instruction_like" : "evidence", findings };
}
