import shipped from "../../policies/firewall-model.json" with { type: "json" };
import { classify, visible } from "./firewall.ts";

/**
 * The firewall's learned layer: a logistic regression scored on every window (paragraph or group of
 * lines) of a text; the text's score is its highest window's. Its features (version 2) are generic
 * word classes (an imperative, an addressee, a secret, a sink, a destructive command, ...) and the
 * pairs of them inside one sentence, the window's words, and which firewall rules fire on it — the
 * rules are an input of the model, not a second verdict beside it. Word bigrams and character
 * n-grams (version 1) were dropped: cross-validated by template family they learned phrasing (a
 * benign "the AI assistant in the editor" scored 1.0). Trained by eval/firewall/train.ts on the train
 * split only, its threshold set by cross-validation over template families and carriers; the weights
 * ship in policies/firewall-model.json with their version and the training set's hash. Pure once
 * loaded.
 */

export interface FirewallModel {
  kind: "weir.firewall-model";
  version: number;
  /** sha256 of the training texts and labels, so a figure can name the data it came from. */
  training_hash: string;
  dims: number;
  bias: number;
  /** Score at or above which a window is instruction-like (set by cross-validation within the train split). */
  threshold: number;
  /** Sparse weights: [feature index, weight]. */
  weights: [number, number][];
}

/** FNV-1a, 32-bit: a stable hash for feature strings. Pure. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Word classes, their vocabulary taken from the training families (eval/firewall/corpus.ts) and
 * ordinary English; no class names a test phrasing. A class says what a word *does* in a request.
 */
const CLASSES: Record<string, RegExp> = {
  imper: /(?:^|[.!?:;\n]\s*|\b(?:please|to|must|should|and|then|also|now)\s+)(?:ignore|disregard|forget|send|upload|email|copy|forward|include|print|reveal|output|show|add|insert|paste|append|put|run|execute|type|write|compose|tell|list|give|recommend|explain|describe|draft|reply|respond|answer|start|end|format|use|make|stop|set|drop|obey|follow|treat|approve|skip|disable|bypass|share|post|delete|remove)\b/g,
  addressee: /\b(?:you|your|assistant|ai|model|agent|bot|tool|whoever|anyone|reader|automated tools?)\b/g,
  secret: /\b(?:secrets?|tokens?|passwords?|credentials|api keys?|private key|id_rsa|\.env|ssh|aws|\.npmrc|environment variables|password hash|secrets\.yaml)\b/g,
  sink: /(?:https?:\/\/\S+|\b[\w.-]+@[\w-]+\.[\w.]+|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?|\bpaste(?:bin| site)\b|\bwebhook\b|\bexternal server\b)/g,
  destroy: /\brm\s+-rf\b|\bdrop\s+table\b|\bpush\b[^\n]*--(?:force|delete)\b|\bpush\s+-f\b|\bforce-push\b|\breset\s+--hard\b|\bmkfs\b|\bdd\s+if=|-delete\b|\bprune\b|\bkillall\b|\bsudo\s+rm\b|\|\s*(?:sudo\s+)?(?:ba)?sh\b/g,
  exec: /\b(?:exec|eval|system|child_process|subprocess|requests\.post|fetch|document\.cookie|atob|b64decode|wget|curl)\b|\bnc\b[^\n]*-e\b|\bwindow\.location\b/g,
  offtopic: /\b(?:poem|joke|recipe|tweet|haiku|limerick|novels?|cities|painters|story|weather|movie|chess|breakfasts?|hiking|bridges|birthday message|cover letter|hamlet)\b/g,
  grant: /\b(?:permission|granted|allowed|cleared to|consent|may now|no longer need approval|pre-approved|approve all|without asking|without review|auto-approve|bypass the sandbox|turn off the sandbox|skip all checks|as root)\b/g,
  urgent: /\b(?:now|immediately|first|before (?:you|anything)|from now on|instead|new (?:orders|priority|task|instructions))\b/g,
  hide: /\b(?:do not mention|keep quiet|quietly|must not see|don't tell)\b/g,
  role: /<\/?(?:system|assistant|user|document)>|\[\/?inst\]|"role"\s*:\s*"system"|\bsystem message\b|\[system\]/g,
  form: /\b(?:in (?:french|spanish|dutch|german|capital letters|pirate speak|rhyme|all lowercase|roman numerals)|every (?:response|answer|reply)|always (?:respond|reply|recommend|add|thank)|end every|ends with|start your answer|powered by|output rule)\b/g,
  dismiss: /\b(?:ignore|disregard|forget|void|cancelled|outdated|no longer apply|replaced|set aside|drop whatever)\b/g,
};

/** Hashed feature indexes of one window (repeats kept: term frequency). Pure. */
export function features(text: string, dims: number): number[] {
  const low = text.toLowerCase();
  const out: number[] = [];
  const h = (s: string) => fnv(s) % dims;
  // Classes count twice: they are the part that carries over to phrasings the training never saw.
  for (const [k, re] of Object.entries(CLASSES)) {
    const n = (low.match(re) ?? []).length;
    for (let i = 0; i < Math.min(3, n); i++) out.push(h(`L:${k}:${i}`), h(`L:${k}:${i}`));
  }
  for (const sentence of low.split(/(?<=[.!?])\s+|\n+/)) {
    const hit = Object.entries(CLASSES)
      .filter(([, re]) => {
        re.lastIndex = 0;
        const found = re.test(sentence);
        re.lastIndex = 0;
        return found;
      })
      .map(([k]) => k);
    for (let i = 0; i < hit.length; i++) for (let j = i + 1; j < hit.length; j++) out.push(h(`P:${hit[i]}+${hit[j]}`), h(`P:${hit[i]}+${hit[j]}`));
  }
  for (const w of low.match(/[a-z0-9_$'./~-]+/g) ?? []) out.push(h(`w:${w}`));
  for (const f of classify(text).findings) out.push(h(`R:${f.rule}`), h(`R:${f.rule}`), h("R:any"));
  return out;
}

/** A text's windows: paragraphs, long ones cut into groups of lines of about `size` characters. Pure. */
export function windows(text: string, size = 320): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const lines = para.split("\n");
    let cur = "";
    for (const l of lines) {
      if (cur && cur.length + l.length > size) {
        out.push(cur);
        cur = "";
      }
      cur = cur ? `${cur}\n${l}` : l;
    }
    if (cur.trim()) out.push(cur);
  }
  return out;
}

export interface LoadedModel {
  model: FirewallModel;
  weights: Float32Array;
}

export function loadModel(m: FirewallModel): LoadedModel {
  const weights = new Float32Array(m.dims);
  for (const [i, w] of m.weights) weights[i] = w;
  return { model: m, weights };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The probability one window is instruction-like. Pure. */
export function scoreWindow(lm: LoadedModel, text: string): number {
  let z = lm.model.bias;
  for (const f of features(text, lm.model.dims)) z += lm.weights[f]!;
  return sigmoid(z);
}

/** The highest window score of a text, with that window. Pure. */
export function scoreText(lm: LoadedModel, text: string): { p: number; window: string; index: number } {
  let best = { p: 0, window: "", index: -1 };
  windows(text).forEach((w, i) => {
    const p = scoreWindow(lm, w);
    if (p > best.p) best = { p, window: w, index: i };
  });
  return best;
}

let loaded: LoadedModel | undefined;
/** The shipped model (policies/firewall-model.json), loaded once. */
function model(): LoadedModel {
  loaded ??= loadModel(shipped as FirewallModel);
  return loaded;
}

/**
 * The learned layer's opinion, in shadow: its highest window score and whether it reaches the
 * shipped threshold. It does not change a verdict: on the second held-out set (new phrasings in new
 * carriers) it catches 9% of injections, and it flags 3 of 52 held-out READMEs, over the 2% the
 * documentation may cost (eval/firewall/report.ts), so it is reported (`weir firewall check`) until
 * it earns the gate.
 */
export function learnedScore(text: string): { p: number; flagged: boolean; window: string } {
  const m = model();
  const s = scoreText(m, visible(text));
  return { p: s.p, flagged: s.p >= m.model.threshold, window: s.window };
}
