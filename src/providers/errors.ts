import { UserError } from "../core/errors.ts";

type FaultKind =
  | "rate_limited"
  | "overloaded"
  | "server_error"
  | "connection"
  | "timeout"
  | "malformed_stream"
  | "not_a_stream"
  | "auth"
  | "bad_request"
  | "not_found"
  | "context_overflow"
  | "output_limit"
  | "cancelled";

/** A provider failure, classified so retry policy and the user's one-line message follow from it. */
export class ProviderError extends UserError {
  constructor(
    message: string,
    readonly kind: FaultKind,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message, 1);
    this.name = "ProviderError";
  }
}

/**
 * The endpoint refused the request as longer than the model's context: the conversation must
 * shrink before the same request can succeed. `window` is the model's context in tokens, when the
 * endpoint said it.
 */
export class ContextOverflowError extends ProviderError {
  constructor(
    message: string,
    readonly window: number | undefined,
    status: number,
  ) {
    super(message, "context_overflow", false, undefined, status);
    this.name = "ContextOverflowError";
  }
}

/** How endpoints say a request is longer than the model's context (Anthropic, OpenAI and those that copy it, vLLM, llama.cpp). */
const OVERFLOW =
  /prompt is too long|maximum context length|context_length_exceeded|exceeds? the available context size|context size has been exceeded|exceed_context_size/i;

/** Where they name the window: Anthropic's "N tokens > W maximum", OpenAI's and vLLM's "maximum context length is W", llama.cpp's "(W tokens)". */
/** OpenAI's and vLLM's older overflow message: the window, then the request's input and the answer asked for. */
const SPLIT_REQUEST = new RegExp(
  String.raw`maximum context length is (\d+) tokens[.,] however,? you requested (?:about )?\d+ tokens ` +
    String.raw`\((\d+) (?:in the messages|of text input), (\d+) (?:in the completion|in the output)\)`,
  "i",
);
const WINDOW = [/> ?(\d+) maximum/, /maximum context length is (\d+)/i, /available context size \((\d+) tokens\)/i];

/**
 * Whether an error answer says the request is longer than the model's context, and the window when
 * it names one (llama.cpp gives it as `n_ctx` beside its message). Undefined for any other error. Pure.
 */
export function contextOverflow(detail: string, type: string | undefined, body: unknown): { window?: number } | undefined {
  // The SDKs hand over the body (Anthropic's) or its `error` (OpenAI's): the fields are read at either.
  const outer = (typeof body === "object" && body !== null ? body : {}) as { error?: unknown };
  const inner = (typeof outer.error === "object" && outer.error !== null ? outer.error : outer) as { code?: unknown; n_ctx?: unknown };
  const code = inner.code;
  if (!OVERFLOW.test(detail) && !OVERFLOW.test(type ?? "") && !(typeof code === "string" && OVERFLOW.test(code))) return undefined;
  const nCtx = inner.n_ctx;
  const named = WINDOW.map((r) => r.exec(detail)?.[1]).find(Boolean);
  const window = typeof nCtx === "number" ? nCtx : named ? Number(named) : undefined;
  return window ? { window } : {};
}

/** The endpoint refused the request's output limit (max_tokens) as more than the model gives: `limit` is what it allows. */
export class OutputLimitError extends ProviderError {
  constructor(
    message: string,
    readonly limit: number,
    status: number,
  ) {
    super(message, "output_limit", false, undefined, status);
    this.name = "OutputLimitError";
  }
}

/**
 * The most output tokens an error answer says the model allows, when it refused the request's
 * max_tokens (DeepSeek's valid range, OpenAI's "supports at most", Anthropic's "maximum allowed
 * number of output tokens", Volcengine's "expected a value <=", vLLM's window less the input).
 * Undefined for any other error. Pure.
 */
export function outputLimit(detail: string): number | undefined {
  // Where the window holds the input and the answer together, the answer may take what the input
  // leaves, and at most a quarter of the window, so the conversation keeps room to grow. A request
  // whose input is most of it is the conversation's overflow, not the answer's (`contextOverflow`).
  const within = (window: number, input: number) => (input < window ? Math.min(window - input, Math.floor(window / 4)) : undefined);
  const vllm = /is too large: \d+\. This model's maximum context length is (\d+) tokens and your request has (\d+) input tokens/i.exec(detail);
  if (vllm) return within(Number(vllm[1]), Number(vllm[2]));
  // OpenAI's and vLLM's older form, and OpenRouter's: the request split into its input and the answer asked for.
  const split = SPLIT_REQUEST.exec(detail);
  if (split && Number(split[3]) > Number(split[1]) / 2) return within(Number(split[1]), Number(split[2]));
  const said = [
    /valid range of max_tokens is \[1, (\d+)\]/i,
    /supports at most (\d+) completion tokens/i,
    /max_tokens: \d+ > (\d+), which is the maximum allowed number of output tokens/i,
    /max_(?:completion_)?tokens`? specified in the request are not valid: integer above maximum value, expected a value <= (\d+)/i,
  ].map((r) => r.exec(detail)?.[1]).find(Boolean);
  return said ? Number(said) : undefined;
}

export class CancelledError extends ProviderError {
  constructor() {
    super("cancelled by the user", "cancelled", false);
  }
}

/**
 * An answer that is not a model stream at all (an HTML page, a JSON body, nothing): said as such and
 * never retried, the same on both wires. Undefined when the content type is an event stream.
 */
export function notAStream(response: { status: number; headers: Headers }, label: string): ProviderError | undefined {
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/event-stream") return undefined;
  const what = type === "" ? "a body with no content type" : type === "text/html" ? "an HTML page (text/html)" : type;
  return new ProviderError(
    `${label} did not answer with a model stream: it sent ${what} with status ${response.status}; check that --base-url is the API's address`,
    "not_a_stream",
    false,
    undefined,
    response.status,
  );
}

/** The error for a stream that carried no model event at all (empty, or not the wire's events). */
export const noModelEvents = (label: string) =>
  new ProviderError(
    `${label} did not answer with a model stream: the event stream held no model events (empty or malformed); check --base-url and the wire (--provider)`,
    "not_a_stream",
    false,
  );

/** What to say after a 401/403: whether a key was sent at all decides the advice. Pure. */
export function keyAdvice(keySent: boolean, presetHint: string): string {
  if (keySent) return "the key was sent and refused: check that it is valid for this endpoint (weir config show says where it came from)";
  return `no API key was sent: ${/API_KEY|--api-key/.test(presetHint) ? presetHint : "pass --api-key or set WEIR_API_KEY"}`;
}

/** Text of an error body for a one-line message: tags of an HTML page dropped, whitespace collapsed, bounded. Pure. */
function plainDetail(detail: string): string {
  const text = /<[a-z!/][^>]*>/i.test(detail) ? detail.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]+>/g, " ") : detail;
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

interface SdkLikeError {
  status?: number;
  headers?: Headers;
  error?: unknown;
  message?: string;
  name?: string;
  constructor?: { name?: string };
}

function vendorMessage(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { error?: { message?: unknown; type?: unknown }; message?: unknown; type?: unknown };
  const inner = e.error ?? e;
  if (typeof inner.message === "string") return inner.message;
  return undefined;
}

function vendorType(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { error?: { type?: unknown }; type?: unknown };
  const t = e.error?.type ?? e.type;
  return typeof t === "string" ? t : undefined;
}

/**
 * Maps whatever an SDK threw into a ProviderError. Both SDKs share the same error shapes (status,
 * headers, error body), so one classifier serves both wires. `label` names the endpoint for messages.
 */
export function classifyError(err: unknown, label: string, keyHint: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (err ?? {}) as SdkLikeError;
  // Class names do not survive minification in the compiled binary (an SDK error class there is
  // called "ht"), so the SDKs' own default messages are the signal too.
  const cls = e.constructor?.name ?? e.name ?? "";
  if (cls === "APIUserAbortError" || e.name === "AbortError" || e.message === "Request was aborted.") return new CancelledError();
  if (cls === "APIConnectionTimeoutError" || e.message === "Request timed out.")
    return new ProviderError(`${label} did not answer before the request timeout; raise requestTimeoutMs or try again`, "timeout", true);
  if (cls === "APIConnectionError" || e.message === "Connection error.") {
    const code = String((e as { cause?: { code?: unknown } }).cause?.code ?? "");
    const why = /REFUSED/i.test(code)
      ? "connection refused"
      : /NOTFOUND|EAI_AGAIN|DNS/i.test(code)
        ? "host not found"
        : /RESET/i.test(code)
          ? "connection reset"
          : code
            ? code
            : "connection failed";
    return new ProviderError(`could not connect to ${label} (${why}); check --base-url and that the server is running`, "connection", why !== "host not found");
  }
  if (err instanceof SyntaxError)
    return new ProviderError(
      `${label} sent a malformed stream (invalid JSON in an event); try again or check --base-url points at a real endpoint`,
      "malformed_stream",
      false,
    );
  const status = typeof e.status === "number" ? e.status : undefined;
  const type = vendorType(e.error);
  const detail = plainDetail(vendorMessage(e.error) ?? e.message ?? String(err));
  const after = retryAfterMs(e.headers);
  if (status === undefined) {
    // An error event inside an otherwise successful stream.
    if (type === "overloaded_error") return new ProviderError(`${label} is overloaded: ${detail}`, "overloaded", true, after);
    if (type === "rate_limit_error") return new ProviderError(`${label} rate-limited the request: ${detail}`, "rate_limited", true, after);
    if (type === "api_error" || type === "server_error")
      return new ProviderError(`${label} failed mid-stream: ${detail}`, "server_error", true, after);
    if (/terminated|ECONNRESET|socket|closed|network/i.test(detail))
      return new ProviderError(`the connection to ${label} dropped mid-stream; try again`, "connection", true);
    return new ProviderError(`${label} sent an error mid-stream: ${detail}`, "malformed_stream", false);
  }
  const limit = status === 400 || status === 422 ? outputLimit(detail) : undefined;
  if (limit)
    return new OutputLimitError(`${label} allows at most ${limit} output tokens (${status}): ${detail}; --max-tokens sets what weir asks for`, limit, status);
  const overflow = contextOverflow(detail, type, e.error);
  if (overflow && (status === 400 || status === 413 || status >= 500))
    return new ContextOverflowError(
      `${label} says the conversation is longer than the model's context${overflow.window ? ` of ${overflow.window} tokens` : ""} (${status}): ${detail}`,
      overflow.window,
      status,
    );
  if (status === 401 || status === 403)
    return new ProviderError(`${label} refused the API key (${status}): ${detail}; ${keyHint}`, "auth", false, undefined, status);
  if (status === 404)
    return new ProviderError(`${label} answered 404: ${detail}; check --model and --base-url`, "not_found", false, undefined, status);
  if (status === 429) return new ProviderError(`${label} rate-limited the request (429): ${detail}`, "rate_limited", true, after, status);
  if (status === 529 || type === "overloaded_error")
    return new ProviderError(`${label} is overloaded (${status}): ${detail}`, "overloaded", true, after, status);
  if (status === 408 || status === 409 || status >= 500)
    return new ProviderError(`${label} failed (${status}): ${detail}`, "server_error", true, after, status);
  return new ProviderError(`${label} rejected the request (${status}): ${detail}`, "bad_request", false, undefined, status);
}
