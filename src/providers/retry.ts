import { counted } from "../core/text-fit.ts";
import type { StreamEvent } from "../core/stream.ts";
import { CancelledError, ProviderError } from "./errors.ts";
import type { RetryPolicy } from "./port.ts";

/** The longest `retry-after` weir will wait out; a longer one ends the turn with the vendor's message. */
const MAX_RETRY_AFTER_MS = 120_000;

/**
 * Delay before retry number `attempt` (1 = first retry): the server's `retry-after` when it gave one,
 * else exponential backoff with full jitter, capped. Pure; `random` is injectable for tests.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, retryAfter: number | undefined, random = Math.random): number {
  if (retryAfter !== undefined) return retryAfter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs one streamed attempt after another until one completes. A failed attempt is retried when its
 * error is retryable and attempts remain, whether it failed before the first byte or mid-stream; the
 * `retry` event tells consumers to drop what the failed attempt streamed.
 */
export async function* withRetry(
  attempt: () => AsyncIterable<StreamEvent>,
  classify: (err: unknown) => ProviderError,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  for (let n = 1; ; n++) {
    try {
      yield* attempt();
      return;
    } catch (err) {
      const error = classify(err);
      if (signal?.aborted) throw new CancelledError();
      const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > MAX_RETRY_AFTER_MS;
      if (!error.retryable || n >= policy.maxAttempts || tooLong) {
        if (error.retryable && n >= policy.maxAttempts)
          throw new ProviderError(`${error.message} (gave up after ${counted(n, "attempt")})`, error.kind, false, undefined, error.status);
        throw error;
      }
      const delayMs = backoffDelay(n, policy, error.retryAfterMs);
      yield { type: "retry", attempt: n + 1, delayMs, reason: error.message };
      await sleep(delayMs, signal);
    }
  }
}
