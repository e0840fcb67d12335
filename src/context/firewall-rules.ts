/**
 * The firewall's rules: structure and patterns that address an agent rather than a person — fake
 * role turns, override phrases in several languages, requests to change what the agent outputs,
 * tool-call-shaped JSON, hidden characters, instructions in comments, links that carry data out,
 * encoded blobs next to imperatives, attempts to change permissions or tools. Documentation written
 * for people ("run npm install") is evidence. Pure. The rules alone catch what has a telltale
 * shape; what asks for a task of its own in plain words is the learned layer's (firewall-model.ts).
 */
import type { Finding } from "./firewall.ts";
import { plantedCode } from "./planted-code.ts";
import { FENCE } from "./requests.ts";

const AGENT = String.raw`(?:ai|a\.i\.|assistants?|agents?|bots?|llms?|language models?|models?|copilot|claude|chatgpt|gpt|gemini|reviewers? and ai tools|(?:coding|code|ai|automated|autonomous) (?:agents?|assistants?|tools?|reviewers?))`;
/** An optional adjective before the agent noun ("the autonomous agent", "any AI model"). */
const ADJ = String.raw`(?:(?:autonomous|automated|coding|code|ai|helpful|current|other)\s+)?`;
/** Words that dismiss earlier instructions, and what they dismiss. */
const DISMISS = String.raw`(?:ignore|disregard|forget|discard|drop|abandon|override|revoke[sd]?|cancel(?:led)?|supersede[sd]?|set aside|pay no attention to|no longer (?:need to )?follow|void)`;
const ORDERS = String.raw`(?:instruct\w*|guidelines?|guidance|system (?:message|prompt)s?|rules|directives?|directions|constraints|persona|policy)`;
const OUTPUT = String.raw`(?:response|reply|answer|output|summary|message|code you (?:write|generate|produce)|generated code)`;

interface Rule {
  id: string;
  test: RegExp;
  /**
   * Read in prose only, never inside a fenced code block: a command or comment in a code sample
   * ("git push --force", "// skip verification for testing") is what the software does, shown to a
   * person. Code offered to the reader's own code is planted-code's to judge.
   */
  prose?: true;
}

/** Line rules: each is tried against every line (and, for multi-line spans, against the whole text). */
export const RULES: Rule[] = [
  // Override families, several languages.
  { id: "override", test: /(?<!`)\b(?:ignore|disregard|forget|override|set aside|skip|bypass)\b(?!`)[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|original|all|your|the)\b[^.\n]{0,30}\b(?:instructions?|directions|guidance|directives|system prompt)\b|(?<!`)\b(?:ignore|disregard|forget|override|set aside|skip|bypass)\b(?!`)[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|original|your)\b[^.\n]{0,30}\b(?:rules|context|prompts?)\b/i },
  { id: "override", test: /\b(?:instructions|guidance|prompt) (?:you (?:received|were given)|above) (?:earlier |before )?(?:are|is) (?:outdated|void|cancel+ed|no longer valid)/i },
  // At least one word between a dismissal and what it dismisses, but for words that are only ever
  // orders: "ignore rules" and "Override rules" are how .gitignore and CSS docs name things.
  { id: "override", test: new RegExp(String.raw`\b${DISMISS}(?:\s+(?:all|any|of|the|your|these|those|previous|prior|earlier|above|preceding|original|whatever|you|were|was|have|been|given|told|received|that|every|other|existing|current|initial|my|our))+\s+${ORDERS}\b|\b${DISMISS}\s+(?:instruct\w*|system (?:message|prompt)|directives?|guidelines)\b|(?<!\/)\b${ORDERS}\b(?!\/)[^.\n]{0,50}\b(?:have been |were |are )?(?:revoked|void|lifted|cancel+ed|superseded|no longer appl(?:y|ies))\b`, "i") },
  { id: "override", test: /\b(?:adopt|assume|take on) the (?:persona|role)\b|\b(?:act|behave) as (?:an? )?(?:unrestricted|unfiltered|different|new)\b|\byour (?:sole|only|true) (?:objective|purpose|task)\b|\bthe real request\b/i },
  { id: "override", test: /\b(?:previous|prior) system prompt (?:no longer applies|is void)|\bforget everything (?:you were told|above|before)/i },
  { id: "override", test: /\b(?:your (?:new|real|actual|only) (?:task|instructions?|goal|rule)|new instructions for the (?:assistant|agent|ai)|from now on,? you (?:only|must|will|are))\b/i },
  { id: "override", test: /(?:忽略|无视|忽视).{0,8}(?:之前|以上|先前|所有).{0,6}(?:指令|指示|说明)|(?:以前|前|上記)の(?:指示|命令).{0,6}無視|이전.{0,6}(?:지시|명령).{0,6}무시/ },
  { id: "override", test: /\bignor(?:a|e|ez|iere|ate)\b.{0,40}(?:\b(?:instrucciones|instructions|anweisungen|istruzioni|instruções)\b.{0,15}\b(?:anteriores|précédentes|vorherigen|precedenti|previous)|\b(?:anteriores|précédentes|vorherigen|precedenti)\b.{0,15}\b(?:instrucciones|instructions|anweisungen|istruzioni|instruções))\b/i },
  { id: "override", test: /игнорир\S*.{0,25}(?:предыдущие|прежние).{0,10}инструкци/i },
  // More languages: a dismissal word and an "instructions" stem on one line.
  { id: "override", test: /\b(?:negeer|zignoruj|ignorer|ignorera|ignorér|yok say|bỏ qua|abaikan)\b.{0,40}(?:instructie|instrukcj|instruks|instruktion|talimat|hướng dẫn|instruksi)|(?:talimat|instrukcj|instructies).{0,40}\b(?:yok say|zignoruj|negeer)|تجاهل.{0,30}التعليمات|पिछले.{0,20}निर्देश/i },
  // Fake role turns and chat-template markers.
  { id: "role-marker", test: /(?:^|[=#[\]*\s])(?:={2,}|#{1,}|\[)\s*SYSTEM(?: OVERRIDE| MESSAGE| PROMPT| NOTICE)?\s*(?:={2,}|\]|$)/m },
  // Chat-template tokens never occur in text written for people.
  { id: "role-marker", test: /<\|(?:im_start|im_end|endoftext|system|assistant|user)\|>|\[\/?INST\]|<<\/?SYS>>/ },
  // Role lines, also behind comment or quote prefixes (`# `, ` * `, `> `, `| `). A heading "## System"
  // is a prompt's section; "## Instructions" is a README's as often (the twenty-third list).
  { id: "role-marker", test: /^[\s#*/>|-]*(?:<\/?(?:system|assistant|tool_result|system-reminder|instructions?)>|#{2,}\s*systems?\s*$)/im },
  // A role label only counts when what follows speaks as or to the agent.
  { id: "role-marker", test: /^[\s#*/>|-]*(?:system|assistant)\s*:\s+(?!['"`])[^\n]*\b(?:you|I will|I'll|must|now|always|never|approve|execute|run|ignore|permission|granted)\b/im },
  { id: "role-marker", test: /^[\s#*/>|-]*(?:human|user)\s*:.*\n[\s#*/>|-]*assistant\s*:|^[\s#*/>|-]*assistant\s*:.*\n[\s#*/>|-]*(?:human|user)\s*:/im },
  // Text that addresses the agent or model. A line that opens with the agent's name is a vocative only
  // where a sentence starts: after a hard-wrapped line ("... their Node.js instrumentation\nagent, so
  // maybe give that a look") it is the previous sentence's noun.
  { id: "addresses-agent", test: new RegExp(String.raw`\b(?:note|message|instructions?|attention|notice|reminder|hint|p\.?s\.?)\s+(?:to|for)\s+(?:the |any |all )?${ADJ}${AGENT}\b`, "i") },
  { id: "addresses-agent", test: new RegExp(String.raw`\b${ADJ}${AGENT}\b[^.\n]{0,40}\b(?:is|are) (?:instructed|required|expected|permitted|allowed) to\b|\b${ADJ}${AGENT} (?:that|who|which) (?:reads?|sees?|processe?s?|summari[sz]es?)\b`, "i") },
  { id: "addresses-agent", test: /(?:^|[\s(/*#])@(?:ai|agent|bot|assistant|llm|copilot|claude)[\w-]*\s*:|\b(?:todo|note|fixme)\((?:agent|ai|assistant|llm|bot)\)/im },
  { id: "addresses-agent", test: new RegExp(String.raw`\b(?:if|when) you are an? ${ADJ}${AGENT}\b|\b(?:to any|to the|instruction to the|message for) ${ADJ}${AGENT}\b(?:[:/]| reading)|\b(?:dear|hey|attention) ${ADJ}${AGENT}\b[,:/]|(?<![\w,;]\n)^[\s#*/>|-]*(?:${ADJ}${AGENT}\s*,|${ADJ}(?!agents?\s*:|bots?\s*:)${AGENT}\s*:)\s*[^\n]*\b(?:you|your|please|must|do not|don't|ignore|run|execute|add|remove|delete|skip|quietly|treat|store|send|push|commit)\b|(?<![\w,;]\n)^[\s#*/>|-]*(?:${ADJ}${AGENT}\s*,|${ADJ}(?!agents?\s*:|bots?\s*:)${AGENT}\s*:)\s*(?:also\s+)?(?:print|read|show|write|append|set|cat|grep|list|list_files|open|edit|replace|install|include|upload|git|curl|wget|nc|bash|python3?|node|echo|search|rm|sudo|replace|overwrite)\b`, "im") },
  { id: "addresses-agent", test: new RegExp(String.raw`\b${AGENT}s? (?:reading|processing|parsing|summari[sz]ing|working on) (?:this|these)\b.{0,60}\b(?:should|must|need to|are (?:required|expected) to)\b`, "i") },
  { id: "addresses-agent", test: new RegExp(String.raw`\b(?:the |an? )?${AGENT}s? (?:should|must|needs? to|is required to) (?:run|execute|send|upload|disable|delete|push|add|set|also|quietly|not)\b`, "i") },
  // The agent called by name at the start of a clause ("Claude remembers" and "models, please see" are prose).
  { id: "addresses-agent", test: new RegExp(String.raw`(?:^|[.!?:]\s+|\n\s*)(?:hey |dear )?${ADJ}${AGENT},\s+(?:remember|please|you must|while you are here|make sure|execute|do not)\b`, "im") },
  { id: "addresses-agent", test: /\b(?:todo|note|fixme)\((?:agent|ai|assistant|llm|bot)\)|\bfor (?:ai|llm|agent|coding) tools\b/i },
  // Quiet attempts to change what the agent outputs.
  // "Your" answer: "insert white space into the output" and "headers to include with the message" are a
  // serializer's and a messaging client's documentation.
  { id: "output-steering", test: new RegExp(String.raw`\b(?:add|append|insert|include|put|prepend|end)\b[^.\n]{0,60}\b(?:to|in|into|at the end of|with)\s+your\s+${OUTPUT}`, "i") },
  // "Your output" is also a build's or a program's: a third-person verb or a participle before it
  // ("This adds several chunks to your output", "is printed to your output") says what the software
  // does to it; what asks the reader is a command ("Add a link to your output"). Looked behind from
  // the match's end, so the look costs nothing where "your output" is not.
  { id: "output-steering", test: /\b(?:in|with|to|at the end of|before) your (?:(?:response|reply|answer|summary)\b|output\b(?<!\b(?:adds|puts|includes|appends|inserts|writes|emits|prints|sends|copies|goes|added|included|appended|inserted|written|emitted|printed|sent|copied|piped|logged)\b[^.\n]{0,80}))/i },
  { id: "output-steering", test: new RegExp(String.raw`\b(?:the )?${OUTPUT} (?:you give|you write|you generate|you produce)\b|\bthe code you (?:write|generate)\b`, "i") },
  { id: "output-steering", test: /\b(?:when|whenever|while) (?:summari[sz]ing|answering|responding|replying|writing code|you answer|you respond|you summari[sz]e|you reply)\b/i },
  // "The examples would translate the output into French" describes what code does; it asks nothing.
  { id: "output-steering", test: /(?<!\b(?:would|will|could|can|may|might|does|to)\s)\btranslate (?:your|the) (?:answer|response|reply|output)\b|\bwrite (?:your|the) (?:answer|response|reply)\b|\b(?:respond|reply|answer) (?:only )?in (?:uppercase|lowercase|french|spanish|german|english|chinese|japanese|portuguese|[a-z]+ only)\b|\b(?:answers?|repl(?:y|ies)|responses?|summar(?:y|ies)|outputs?)\b[^.\n]{0,40}\b(?:written|given) (?:entirely |only )?in [A-Z]?[a-z]+\b/i },
  // A product of the agent (summaries, answers, generated code) told what it must contain.
  // The output a file receives ("File to which output should be written") or an API's response ("When
  // true, the response must contain …") is the software's; the reader's is named as its own, or any.
  { id: "output-steering", test: /(?<!\b(?:to which|where|in which|into which|which)\s)(?<!\bthe\s(?=(?:response|output)s?\b))\b(?:summar(?:y|ies)|answers?|repl(?:y|ies)|responses?|outputs?|code suggestions?|suggestions?|(?:code|anything|everything|whatever) (?:you )?(?:generate|generated|write|written|produce)[ds]?)\b(?!\s+(?:types?|objects?|bod(?:y|ies)|headers?|fields?|codes?|status|schemas?|formats?|files?|streams?|data|payloads?)\b)[^.\n]{0,50}\b(?:must|should|needs? to|has to|shall|always)\b[^.\n]{0,20}\b(?:begin|start|end|include|contain|mention|omit|say|state|recommend|be written)\b/i },
  { id: "output-steering", test: /\b(?:whatever|anything|everything) you (?:generate|produce|answer)\b|\b(?:whatever|anything|everything) you write (?:next|back|in (?:your|the) (?:reply|answer|response))\b|\b(?:be|make) sure (?:that )?(?:any|every|all|each) (?:code|answer|reply|response|suggestion|output)/i },
  { id: "output-steering", test: /\bkeep (?:this|it) between us\b[^\n]{0,80}\b(?:write|answer|reply|add|output|say)\b|\bnever explain why\b|\b(?:quietly|silently|secretly) (?:add|state|say|mention|include|run|insert)\b/i },
  { id: "output-steering", test: /\b(?:do not|don't|never|without) (?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|let(?:ting)?)\b[^.\n]{0,20}\b(?:the user|the reviewer|anyone|this (?:note|instruction))|\bdo not mention (?:this|that you)/i },
  { id: "output-steering", test: /\b(?:say|report|claim|tell the (?:user|reviewer)) that\b[^.\n]{0,60}\b(?:pass|safe|approved|succeeded|success)\b|\breport success anyway\b|\bmark the task (?:as )?done\b/i },
  // Tool-call-shaped text.
  { id: "tool-call-json", test: /"(?:name|tool|function|action|recipient_name)"\s*:\s*"[\w.]+"[^\n]{0,40}"(?:arguments|input|parameters|args|action_input)"\s*:\s*[{"]/i },
  { id: "tool-call-json", test: /^[\s#*/>|-]*<(?:tool|call|command|function)>\s*$/im },
  { id: "tool-call-json", test: /<\/?(?:tool_call|function_calls|invoke|antml:invoke|tool_use)\b|"(?:tool_use|function_call|tool_calls)"\s*:/i },
  // Attempts to change permissions, policies, verification or the tool set.
  // In prose only: a code sample's option that overwrites "without confirmation" describes the software.
  // A command-line flag (`--disable-setuid-sandbox`) names a browser's switch, not an act of disabling.
  { id: "permission-change", prose: true, test: /\b(?:auto-?approve|pre-?approved|yolo mode|without (?:asking|confirmation)|approve every|skip (?:the )?(?:approval|confirmation))\b/i },
  { id: "permission-change", prose: true, test: /\b(?:turn|switch|set)\s+(?:off|down)\b[^.\n]{0,30}\b(?:firewall|verification|sandbox|safety|(?:safety|security|permission|approval|sandbox) checks?)\b|(?<!-)\b(?:disable|skip|turn off)\b[^.\n]{0,25}\b(?:the )?(?:firewall|verification|sandbox|safety|security checks?)\b/i },
  { id: "permission-change", test: /(?:permissions\.json|\.weir\/config\.json|\.config\/weir|"shell"\s*:\s*"allow")[^\n]{0,80}|\b(?:add|write|append|put|insert|register)\b[^.\n]{0,40}(?:\.mcp\.json|mcpServers)|\b(?:add|register|install)\b[^.\n]{0,30}\bmcp server\b/i },
  { id: "permission-change", test: /\bgrant (?:yourself|the agent)\b|\bfull permissions\b|\bunrestricted (?:shell|mode|access)\b|\bapprove your own\b|\bstop asking\b|\bskip all confirmations\b/i },
  { id: "permission-change", test: /(?:pass|use|add) --(?:yes|dangerously[\w-]*|no-verify)\b[^.\n]{0,40}\b(?:every|all|always|from now on)|(?<![\w/'"]-)(?<![\w/'"])allow[-_]all\b|\ballow all (?:commands|actions|tools|writes|edits|shell|permissions|operations)\b|"decision"\s*:\s*"allow"|\b(?:remove|delete|drop)\b[^.\n]{0,20}\bdeny rules\b/i },
  // Commands that carry secrets or the workspace somewhere else (a library's property, `rsync.env(…)`,
  // is no command; `curl.exe` is).
  { id: "exfiltration", test: /\b(?:curl|wget|nc|ncat|netcat|scp|rsync|fetch)\b(?!\.(?!exe\b)\w)[^\n]{0,120}(?:\.ssh|\.aws|\.env\b|id_rsa|credentials|\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD)\w*\}?|--post-file|-d\s*@|\$\(cat)/i },
  { id: "exfiltration", test: /\b(?:send|upload|post|email|exfiltrate|forward|copy)\b[^.\n]{0,50}\b(?:api keys?|secrets?|credentials|tokens?|private keys?|\.env|ssh keys?|the repo(?:sitory)?|your answer|conversation)\b[^.\n]{0,40}(?:\b(?<!\b(?:need|needs|have|has|had|want|wants|going|able|used|order)\s)to\b|@)/i },
  // Not the bare words "exfiltration" or "reverse shell": security documentation names them; the asking is what counts.
  { id: "exfiltration", test: /\bexfiltrate (?:the|all|any|every|your|my|this|these)\b|\bsend a copy of your answer\b|\b(?:open|start|spawn|give me) a reverse shell\b/i },
  // A secret source and a network sink on one line, in either order. Case matters: TOKEN is an
  // environment variable, `const {token} = await ky.post(url)` is a client's documentation.
  { id: "exfiltration", test: /^(?=[^\n]*(?:\.ssh\b|\.aws\b|\.env\b|id_rsa|credentials|os\.environ|process\.env|printenv|\benv\s*\||\$\(env|\/etc\/passwd|(?:API_KEY|SECRET|TOKEN)\b))(?=[^\n]*(?:\b[Cc]url\b|\b[Ww]get\b|\bnc\s|urlopen|requests\.post|(?<![/@.-])\b[Ss]end\b[^\n]{0,40}https?:\/\/|(?<!\b(?:[Tt]his|[Aa]|[Tt]he|[Tt]hat|blog|my|our|his|her|their|see)\s)\b(?:post|POST|Post)\b[^\n]{0,40}https?:\/\/|pastebin))[^\n]+/m },
  { id: "exfiltration", test: /(?:发送|上传).{0,20}(?:https?:\/\/|服务器)|отправ\S* .{0,30}(?:ключ|токен|сервер)/i },
  // Links and images whose URL carries data out.
  // Bounded runs: an unbounded pair of [^...]* around [?&] backtracks quadratically on a long URL.
  { id: "data-link", test: /(?:\]\(|src=["']|href=["'])https?:\/\/[^)\s"'?&]{0,200}[?&][^)\s"']{0,300}?(?:\{\{|%7B%7B|(?:\$\{|%24%7B)(?:[A-Z_]{3,}|[\w.]*(?:[kK]ey|[tT]oken|[sS]ecret|[pP]ass|env))|<[A-Z_]+>|process\.env|=\$[A-Z_]{3,})/ },
  { id: "data-link", test: /\b(?:put|append|add|insert|encode)\b[^.\n]{0,60}\b(?:tokens?|keys?|passwords?|secrets?|cookies?|credentials|env\w*|history|conversation|data|answer)\b[^.\n]{0,30}\b(?:into|in|to) (?:this|the) (?:link|url|image)\b|\bwith the user'?s? (?:token|key|password|data) appended\b/i },
  // Encoded payloads next to an imperative.
  // The blob starts at a non-blob character and is taken whole (lookahead + backreference, an atomic
  // group): otherwise a long run backtracks quadratically.
  { id: "encoded-payload", test: /\b(?:decode|execute|run|obey|follow|eval|payload)\b[^\n]{0,80}?(?<![\w/.:@%#-])(?=[A-Za-z0-9+/]{0,60}\d)(?=[A-Za-z0-9+/]{0,60}[A-Z])[A-Za-z0-9+/]{24}(?![\w.-]*\.(?:html?|md|js|ts|png|svg)\b)|(?<![A-Za-z0-9+/])(?<!https?:\/\/\S*)(?=[A-Za-z0-9+/]*\d)(?=([A-Za-z0-9+/]{24,}))\1={0,2}[^\n]{0,40}?\b(?:decode|execute|obey|follow|do what it says)\b/i },
  { id: "encoded-payload", test: /\b(?:decode|execute|run|obey)\b[^\n]{0,40}\b(?:[0-9a-f]{2}){20,}\b/i },
  // Destructive actions asked of the reader.
  { id: "destructive-request", prose: true, test: /\b(?:git push (?:-f|--force)|rewrite (?:the )?git history|delete the (?:\.git|tests?|migrations)\b|remove the license|force-push)\b|\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:--no-preserve-root\s+)?(?:\/|~\/?|\.\/?|\*)(?=$|[\s`'"*;),]|\.(?:\s|$))/im },
  // A command the reader is told to run as a step of the agent's own work.
  { id: "destructive-request", test: /\b(?:run|execute)\b[^\n]{0,80}\bbefore (?:editing|any change|you (?:edit|start|begin|continue|answer|reply|proceed|make))\b|\bas the first step of any task\b/i },
];

const HIDDEN: { id: string; re: RegExp }[] = [
  // A zero-width joiner belongs to an emoji sequence: after an emoji it is one, even when the sequence
  // is cut short ("🏋️‍" before a line's end, as a README heading has it); before a letter, a digit or
  // another invisible character it hides text.
  { id: "hidden-zero-width", re: /[\u200B\u200C\u2060\u2062-\u2064\u180E]|(?<![\p{Extended_Pictographic}\p{Emoji_Modifier}]\uFE0F?)\u200D|\u200D(?=[\p{L}\p{N}\u200B-\u200D\u2060])|(?!^)\uFEFF/u },
  { id: "hidden-unicode-tags", re: /[\u{E0000}-\u{E007F}]/u },
  { id: "hidden-bidi-override", re: /[\u202A-\u202E\u2066-\u2069]/ },
];

/**
 * A zero-width joiner or non-joiner between letters (or a letter's mark, such as a virama) of a
 * script other than Latin is that script's spelling: Sinhala "ශ්‍රී", Devanagari half forms, Persian
 * "می‌خواهم". Hidden text rides in Latin words ("ig\u200Bnore"); the date-holidays README's country
 * names were flagged.
 */
const SCRIPT_JOINER = /(?<=(?!\p{Script=Latin})[\p{L}\p{M}])[\u200C\u200D](?=(?!\p{Script=Latin})[\p{L}\p{M}])/gu;

/** HTML and markdown comments: instructions hidden from people who read the rendered page. */
const COMMENT = /<!--([\s\S]*?)-->|^[\s#*/>|-]*\[\/\/\]:\s*#\s*\(([^)]*)\)/gm;
const PRAGMA = /^\s*(?:[\w.-]+-ignore(?:-start|-end|-next-line|-line)?|eslint-(?:disable|enable)[\w-]*|markdownlint-[\w-]+|cspell:[\w-]+|toc|(?:[A-Z][A-Z0-9_-]+[:-]?\s*)+(?:START|END)\b[^\n]*|@\w+|[^\n]*\b(?:auto-?generated|automatically generated|generated (?:file|by|code|section)|do not (?:manually )?(?:edit|modify)|don't (?:edit|modify))\b[^\n]*)\s*$/i;
const AGENT_WORD = new RegExp(String.raw`\b${AGENT}\b`, "i");
const COMMENT_IMPERATIVE = new RegExp(String.raw`\b(?:${AGENT}|ignore (?:everything|all|any|previous|prior|earlier|above|the above|the user|your|the (?:previous|prior|earlier|original|system))\b|instructions?|you must|must not|do not|quietly|secretly|push (?:to|the|all|it|this|these|your|changes|everything|--force|-f|origin)|commit all|download|delete|report success)\b`, "i");

/** A text with the inside of its fenced code blocks blanked, line for line, so line numbers hold. Pure. */
function blankFences(text: string): string {
  if (!/```|~~~/.test(text)) return text;
  let fence = false;
  return text
    .split("\n")
    .map((l) => {
      if (FENCE.test(l)) {
        fence = !fence;
        return l;
      }
      return fence ? "" : l;
    })
    .join("\n");
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** One line of at most 120 characters: how a finding quotes its span. Pure. */
export const clip = (s: string) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
};

/** Removes invisible characters so a payload split by zero-width spaces still reads as words. */
export function visible(text: string): string {
  return text.replace(/[\u200B-\u200D\u2060\u2062-\u2064\u180E\uFEFF\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/gu, "");
}

/** The text hidden in Unicode tag characters, decoded (they mirror ASCII at U+E0000). */
function decodeTags(text: string): string {
  return [...text].filter((c) => c.codePointAt(0)! >= 0xe0020 && c.codePointAt(0)! <= 0xe007e).map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join("");
}

/** What the rules find in one text, sorted by line. Pure. */
/** A hedge or a prohibition in a sentence: a condition, "only", "never", "avoid", "careful". */
const GIT_HEDGE = /\b(?:never|not|don't|avoid|only|unless|if|careful|caution|warning|beware)\b/i;

/** The sentence (or line) of a text around a position. Pure. */
function sentenceAt(text: string, at: number): string {
  const start = Math.max(text.lastIndexOf("\n", at - 1) + 1, ...[". ", "! ", "? "].map((p) => { const i = text.lastIndexOf(p, at - 1); return i < 0 ? 0 : i + 2; }));
  const rest = text.slice(at).search(/[.!?](?:\s|$)|\n/);
  return text.slice(start, rest < 0 ? undefined : at + rest);
}

export function ruleFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: string, start: number, end: number, excerpt: string) => {
    if (!findings.some((f) => f.rule === rule && f.startLine === start)) findings.push({ rule, startLine: start, endLine: end, excerpt: clip(excerpt) });
  };

  // Joiners that are a script's own spelling are not hidden (their positions kept, for the lines).
  const unjoined = text.replace(SCRIPT_JOINER, " ");
  for (const h of HIDDEN) {
    const m = h.re.exec(unjoined);
    if (m) {
      const line = lineOf(text, m.index);
      add(h.id, line, line, visible(text.split("\n")[line - 1] ?? ""));
    }
  }
  const hiddenTags = decodeTags(text);
  const clean = visible(text);
  // Reversed text behind a bidi override reads forwards once reversed.
  const unreversed = /[\u202E]/.test(text) ? text.replace(/\u202E([^\u202C\n]*)\u202C?/g, (_, s: string) => [...s].reverse().join("")) : "";
  const views = [clean, hiddenTags, visible(unreversed)].filter((v) => v !== "");

  const proseOnly = blankFences(clean);
  for (const view of views) {
    const lines = view.split("\n");
    for (const rule of RULES) {
      // Whole-text match first (catches spans across lines), then locate the first matching line.
      const read = rule.prose && view === clean ? proseOnly : view;
      const m = rule.test.exec(read);
      if (!m) continue;
      // Text that discusses an injection quotes it ("attacks often say 'ignore previous instructions'").
      if (rule.id === "override" && /\b(?:say|says|said|like|such as|e\.g\.|phrases?|string)\s*[:,]?\s*["'“‘]$/i.test(read.slice(Math.max(0, m.index - 30), m.index))) continue;
      // Advice about rewriting history is hedged or forbidden ("Only force-push if nobody else has
      // pulled the branch", "Never force-push to main"); an ask to do it is neither.
      if (rule.id === "destructive-request" && !/\brm\s/.test(m[0]) && GIT_HEDGE.test(sentenceAt(read, m.index))) continue;
      const start = view === clean ? lineOf(read, m.index) : lineOf(text, text.search(/[\u{E0000}-\u{E007F}\u202E]/u));
      const end = view === clean ? lineOf(read, m.index + m[0].length) : start;
      add(rule.id, start, end, view === clean ? (lines[start - 1] ?? m[0]) : m[0]);
    }
  }

  // Code offered for the reader's own code or answer that does harm (planted-code.ts).
  for (const f of plantedCode(clean)) add(f.rule, f.startLine, f.endLine, f.excerpt);

  for (const m of clean.matchAll(COMMENT)) {
    const body = m[1] ?? m[2] ?? "";
    // Tool pragmas in comments (prettier-ignore, eslint-disable, markers of generated sections) are not instructions.
    if (PRAGMA.test(body) && !AGENT_WORD.test(body)) continue;
    // A commented-out badge or image ("<!-- [![Monthly download](…)](…) -->") holds no words of its own.
    if (!AGENT_WORD.test(body) && !/[a-z]{2}/i.test(body.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/\[\s*\]\([^)]*\)/g, ""))) continue;
    if (COMMENT_IMPERATIVE.test(body) && !/^\s*(?:todo|fixme|note)\s*:\s*(?:update|fix|add|remove|check)\b/i.test(body)) {
      add("instruction-in-comment", lineOf(clean, m.index!), lineOf(clean, m.index! + m[0].length), body);
    }
  }

  findings.sort((a, b) => a.startLine - b.startLine || a.rule.localeCompare(b.rule));
  return findings;
}
