import OpenAI from "openai";
import { keyFor } from "./credential.ts";
import { classifyError } from "./errors.ts";
import type { ProviderSettings } from "./port.ts";

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

interface LogprobCompletion {
  text: string;
  tokens: TokenLogprob[];
  model: string;
  usage: { input: number; output: number };
}

/**
 * Non-streaming Chat Completions calls that ask for token log-probabilities, for judgment providers
 * that read P(yes) from the answer tokens. Only OpenAI-compatible endpoints offer them. One client
 * per provider, reused for every call.
 */
export function logprobCompleter(s: ProviderSettings) {
  const client = new OpenAI({
    apiKey: keyFor(s) ?? "not-needed",
    baseURL: s.baseUrl,
    maxRetries: 1,
    timeout: s.requestTimeoutMs,
    logLevel: "off",
    organization: null,
    project: null,
  });
  return async (system: string, user: string, maxTokens: number, signal?: AbortSignal): Promise<LogprobCompletion> => {
    try {
      const r = await client.chat.completions.create(
        {
          model: s.model,
          messages: [
            { role: "system", content: system },
            { role: "user", content: user },
          ],
          max_tokens: maxTokens,
          temperature: 0,
          logprobs: true,
          top_logprobs: 5,
        },
        { signal },
      );
      const choice = r.choices[0];
      return {
        text: choice?.message.content ?? "",
        tokens: (choice?.logprobs?.content ?? []).map((t) => ({
          token: t.token,
          logprob: t.logprob,
          top: (t.top_logprobs ?? []).map((x) => ({ token: x.token, logprob: x.logprob })),
        })),
        model: r.model,
        usage: { input: r.usage?.prompt_tokens ?? 0, output: r.usage?.completion_tokens ?? 0 },
      };
    } catch (e) {
      throw classifyError(e, `the judgment endpoint (${s.baseUrl})`, "check the judgment provider's key");
    }
  };
}
