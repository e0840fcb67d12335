import type { StreamEvent } from "../core/stream.ts";
import { classifyError, keyAdvice, OutputLimitError } from "./errors.ts";
import type { ModelProvider, ModelRequest, ProviderSettings } from "./port.ts";
import { withRetry } from "./retry.ts";

/** What one wire supplies; the rest of an adapter (naming the endpoint, errors, retries, model listing) is the same for both. */
interface WireParts {
  wireBody(req: ModelRequest): Record<string, unknown>;
  /** The SDK's model list, as it pages. */
  models(signal?: AbortSignal): AsyncIterable<{ id: string }>;
  /** One streamed attempt; `label` names the endpoint in errors. */
  attempt(req: ModelRequest, label: string): AsyncGenerator<StreamEvent>;
}

/**
 * A `ModelProvider` over a wire's parts: every error classified with the endpoint's name and the key
 * advice that fits (a key sent or not), whole streamed attempts retried (`withRetry`; the SDKs'
 * own retries are off because they cannot see mid-stream failures), model lists capped at 500.
 */
export function adapter(settings: ProviderSettings, keyHint: string, wire: WireParts): ModelProvider {
  const label = `the model endpoint (${settings.preset} at ${settings.baseUrl})`;
  const authHint = keyAdvice(settings.credential !== undefined, keyHint);
  const classify = (e: unknown) => classifyError(e, label, authHint);
  let outputCap: number | undefined;
  return {
    settings,
    wireBody: wire.wireBody,
    async listModels(signal) {
      try {
        const ids: string[] = [];
        for await (const m of wire.models(signal)) {
          ids.push(m.id);
          if (ids.length >= 500) break;
        }
        return ids;
      } catch (e) {
        throw classify(e);
      }
    },
    // A model that gives fewer output tokens than asked says how many: from then on this provider
    // asks for at most that, and the refused request is sent again once.
    async *stream(req) {
      for (let again = false; ; again = true) {
        const asked = outputCap !== undefined && req.maxTokens > outputCap ? { ...req, maxTokens: outputCap } : req;
        try {
          yield* withRetry(() => wire.attempt(asked, label), classify, settings.retry, req.signal);
          return;
        } catch (e) {
          if (again || !(e instanceof OutputLimitError) || e.limit >= asked.maxTokens) throw e;
          outputCap = e.limit;
          yield { type: "notice", message: `${label} allows at most ${e.limit} output tokens: weir asks for at most that from now on (--max-tokens sets it)` };
        }
      }
    },
  };
}
