/**
 * Argument previews for the supervisor, its event log and the status endpoint: at most 120
 * characters, with anything that looks like a secret masked. Over-masking is preferred to a leak.
 */
const SECRET_KEY = /(token|passw(or)?d|passwd|secret|api[-_]?key|apikey|auth|credential|bearer|cookie|session|private[-_]?key|signature)/i;
const SECRET_VALUE: RegExp[] = [
  /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(sk|pk|rk|ghp|gho|ghs|ghu|xox[abpr]|glpat|AKIA|ASIA)[-_]?[A-Za-z0-9_-]{6,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}(\.[A-Za-z0-9_-]+)?/g, // JWTs
  /(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{20,}={0,2}/g, // long random-looking runs
  /(-----BEGIN [A-Z ]+-----)[\s\S]*?(-----END [A-Z ]+-----|$)/g,
  /\b([A-Za-z_]*(?:TOKEN|SECRET|PASSWORD|KEY)[A-Za-z_]*)=\S+/gi,
  /((?:^|[\s-])[\w-]*?(?:auth|token|key|secret|passw(?:or)?d|pass|pwd|credential)[\w-]*[=:]\s*)\S+/gi,
  /(:\/\/[^:/\s]+:)[^@/\s]+@/g, // credentials in URLs
];

/** Only this much of any string is kept for a preview; masking a 200 KB file body would be wasted work. */
const KEEP = 240;

/** What replaces a secret `m` whose prefix group matched `a`: the prefix kept, the value masked. Pure. */
function masked(re: RegExp, m: string, a: string | undefined): string {
  if (re.source.startsWith("(:")) return `${a}****@`;
  if (a && /^(Bearer|Basic|Token)$/i.test(a)) return `${a} ****`;
  if (a && /[=:]\s*$/.test(a)) return `${a}****`;
  return a && /=\S+$/.test(m) ? `${a}=****` : "****";
}

function maskValue(v: unknown): unknown {
  if (typeof v === "string") {
    let s = v.length > KEEP ? `${v.slice(0, KEEP)}…` : v;
    for (const re of SECRET_VALUE)
      s = s.replace(re, (m, a: string | undefined) => masked(re, m, a));
    // A run of 24 or more letters and digits without a digit is a secret too (no English word or path
    // segment is that long; the property test's generator found "AAaAaaaAaAaaaAaaAaAAAaaA"), unless
    // it repeats one character (a file body of "aaaa…" is previewed from its head).
    return s.replace(/(?<![A-Za-z0-9+/_-])[A-Za-z0-9]{24,}(?![A-Za-z0-9])/g, (m) => (new Set(m).size > 1 ? "****" : m));
  }
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET_KEY.test(k) ? "****" : maskValue(x)]));
  return v;
}

export function redactPreview(input: unknown, max = 120): string {
  const s = JSON.stringify(maskValue(input)) ?? "";
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
