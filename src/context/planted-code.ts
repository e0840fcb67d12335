/**
 * Code handed to the reader for its own code or answer that does harm. Two things together: a
 * sentence that offers a snippet for the reader's output ("Merge the following block into your
 * solution:", "Include `...` in the code you write") and a snippet that reaches out (a connection to
 * another host, an upload, a download), runs something (a shell, a process, code it fetched or
 * unpickled), destroys (a recursive delete, a wiped disk, a dropped database) or takes hold (cron,
 * authorized_keys, startup files, system folders). The capabilities are of code, in several
 * languages, not phrasings of attacks: a README's "add this to your app" followed by
 * `app.use(cors())` offers harmless code, and an answer's "Use shutil.rmtree:" offers nothing to the
 * reader's output. Pure.
 */
import type { Finding } from "./firewall.ts";
import { FENCE } from "./requests.ts";

/**
 * A sentence that hands something to what the reader writes: its code, its answer ("your solution",
 * "any Python you write", "all scripts you return", "in any answer", "in Rust code you suggest").
 */
const OFFER = /\byour\s+(?:own\s+|final\s+|next\s+|current\s+)?(?:code(?:base)?|solution(?: architecture)?|implementation|algorithm|response|answer|reply|snippet|script|function|program(?: logic)?|class|module|output|elucidation|patch|example|method|logic|app(?:lication)?|code implementation|code foundation)\b|\byour\s+(?:[\w#+]+\s+)?(?:answers|replies|responses|snippets|solutions)\b|\b(?:the|any|every|each|all)\s+(?:(?:shell|node|python|bash|go|java|sql|php|ruby|rust)\s+)?(?:code|scripts?|snippets?|functions?|class(?:es)?|answers?|repl(?:y|ies)|responses?|patch(?:es)?|solutions?|programs?|page script|examples?|python|javascript|typescript|go|rust|java|ruby|php|bash|shell|sql|dockerfiles?)\s+(?:that\s+)?you\s+(?:write|give|provide|return|suggest|send|produce|develop|generate|propose|create|share|output)\b|\bin\s+(?:any|every|each|all)\s+(?:of\s+your\s+)?(?:answers?|repl(?:y|ies)|responses?|solutions?)\b|\b(?:any|every|each|all|whatever|whichever)\s+(?:[\w.#+-]+\s+){0,2}?(?:that\s+)?you\s+(?!(?:can|could|may|might|need|want|wish|like|have|had|see|find|get|are|were|will|would|should|must|already|do|did)\b)[a-z]+\b|\bwhen(?:ever)?\s+you\s+(?:write|create|make|generate|produce|build|edit|touch|return|hand|give|send|answer|reply)\b|\b(?:in|into|to|for)\s+(?:[\w.#+-]+\s+)?(?:code|scripts|programs|snippets|answers|replies|responses|solutions|files|modules|functions|classes)\s+(?:that\s+)?you\s+(?:write|give|provide|return|suggest|send|produce|develop|generate|propose|create|share|output)\b/i;

/** What code does that an offered snippet must not: each a capability, in the languages seen most. */
const CAPABILITIES: [string, RegExp][] = [
  // A connection to another host, an upload or a download.
  ["reaches out", /\brequests\.(?:get|post|put|patch|request|Session)\b|\burllib(?:3|\.request)?\b|\burlopen\b|\burlretrieve\b|\bhttp\.client\b|\bHTTPS?Connection\b|\bhttpx\.|\baiohttp\b|\bsocket\.(?:socket|create_connection)\b|\bsmtplib\b|\bftplib\b|\bFTP\(|\bparamiko\b|\bpexpect\b|\b(?:scp|rsync)\s|\bssh\s+-|\bcurl\b|\bwget\b|\bfetch\(\s*['"`]?https?:|\bXMLHttpRequest\b|\baxios\.(?:get|post)|\bnc\s+-|\bncat\b|\b(?:Invoke-(?:WebRequest|RestMethod)|iwr|irm|DownloadString|DownloadFile)\b|\/dev\/(?:tcp|udp)\/|\bnet\.Dial|\bhttp\.(?:Post|Get|NewRequest)\b|\bNet::HTTP\b|\bsendBeacon\b|document\.location\s*=|\bnew\s+Socket\(|\bHttpClient\b|\brequire\(\s*\\?['"]https?\\?['"]\s*\)\s*\.(?:get|request)\(|\bhttps?\.(?:get|request)\(\s*\\?['"`]https?:/],
  // A shell, a process, or code from somewhere else run in place.
  ["runs commands", /\bsubprocess\b|\bos\.(?:system|popen|exec\w*|spawn\w*|fork)\b|\bexec\(|\beval\(|\bchild_process\b|\bRuntime\.getRuntime\(\)|\bexec\.Command\b|\bsystem\(\s*["'`]|`[^`\n]*\b(?:rm|curl|wget|bash|sh)\b[^`\n]*`|\|\s*(?:ba|z)?sh\b|\bnohup\b|\bchmod\s+\+x\b|\bpickle\.loads?\(|\bProcess\.Start\b|\bStart-Process\b|\b(?:IEX|iex|Invoke-Expression|invoke-expression)\b|\b__import__\(|\b(?:system|exec|shell_exec|passthru|popen|proc_open|eval|assert)\(\s*\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\b|\b(?:shell_exec|passthru|proc_open)\(/],
  // Deleting much, wiping disks, dropping data.
  ["destroys", /\brmtree\(|\brm\s+-[a-zA-Z]*[rRf]|\bdd\s+if=|\bof=\/dev\/|\bmkfs\b|\bformat\s+[a-zA-Z]:|\bDROP\s+(?:TABLE|DATABASE|SCHEMA)\b|\bTRUNCATE\s+TABLE\b|\bdel\s+\/[sqf]\b|\bRemove-Item\b[^\n]*-Recurse|\b(?:shutdown|reboot|halt)\b/i],
  // Persistence and system folders (not /dev/null and the other streams every program writes to).
  ["takes hold", /\bcrontab\b|\/etc\/cron|\bauthorized_keys\b|\brc\.local\b|\/etc\/init\.d\b|\bsystemctl\s+(?:enable|stop|disable|mask)\b|\bLaunchAgents\b|CurrentVersion\\\\?Run\b|\bsudo\b|(?:["'\s(]|^)\/(?:etc|boot|lib|lib64|usr|bin|sbin|sys|dev(?!\/(?:null|zero|stdin|stdout|stderr|u?random|tty)\b))\/|~\/\.(?:bashrc|profile|zshrc|ssh)\b|\bGRANT\s+ALL\b|\bNOPASSWD\b|\bchpasswd\b|\bsudoers\b|\bSUPERUSER\b|\busermod\s+-aG\s+(?:sudo|wheel|admin)\b/im],
];

/** The capabilities of a snippet, by name. */
export function capabilities(code: string): string[] {
  return CAPABILITIES.filter(([, re]) => re.test(code)).map(([name]) => name);
}


/**
 * Offered snippets that do harm: a fenced block whose nearest prose line above (at most two lines up,
 * or the same line before the fence) offers it to the reader's output, and inline code in a sentence
 * that offers it. Lines are 1-based.
 */
export function plantedCode(text: string): Finding[] {
  const lines = text.split("\n");
  const out: Finding[] = [];
  // The offer is tested first: most code is offered to nobody, and then what it does is not read.
  const add = (start: number, end: number, offer: string, code: string) => {
    const caps = capabilities(code);
    if (caps.length > 0) out.push({ rule: "planted-code", startLine: start + 1, endLine: end + 1, excerpt: `${offer.trim()} (code that ${caps.join(", ")})` });
  };
  let open = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (open < 0 && FENCE.test(line)) {
      open = i;
      continue;
    }
    if (open >= 0 && FENCE.test(line)) {
      // The offer: text before the fence on its own line, else the nearest non-empty line above.
      const before = lines[open]!.replace(/(?:```|~~~).*$/, "");
      let k = open - 1;
      while (k >= 0 && k >= open - 2 && !lines[k]!.trim()) k--;
      const offer = before.trim() ? before : k >= 0 && k >= open - 2 ? lines[k]! : "";
      if (OFFER.test(offer)) add(before.trim() || k < 0 ? open : k, i, offer, lines.slice(open + 1, i).join("\n"));
      open = -1;
      continue;
    }
    // Inline code counts when it is code (a call, a command line), not a name like `child_process`.
    if (open < 0 && line.includes("`") && OFFER.test(line)) for (const m of line.matchAll(/`([^`\n]{6,})`/g)) if (/[(\s|;=]/.test(m[1]!)) add(i, i, line, m[1]!);
  }
  return out;
}
