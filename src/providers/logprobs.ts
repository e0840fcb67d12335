import OpenAI from "openai";
import { classifyError } from "./errors.ts";
import type { ProviderSettings } from "./port.ts";

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface LogprobCompletion {
  text: string;
  tokens: TokenLogprob[];
  model: string;
  usage: { input: number; output: number };
}

/**
 * One non-streaming Chat Completions call that asks for token log-probabilities, for judgment
 * providers that read P(yes) from the answer tokens. Only OpenAI-compatible endpoints offer them.
 */
export async function completeWithLogprobs(
  s: ProviderSettings,
  system: string,
  user: string,
  maxTokens: number,
  signal?: AbortSignal,
): Promise<LogprobCompletion> {
  const client = new OpenAI({ apiKey: s.apiKey ?? "not-needed", baseURL: s.baseUrl, maxRetries: 1, timeout: s.requestTimeoutMs, logLevel: "off", organization: null, project: null });
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
      tokens: (choice?.logprobs?.content ?? []).map((t) => ({ token: t.token, logprob: t.logprob, top: (t.top_logprobs ?? []).map((x) => ({ token: x.token, logprob: x.logprob })) })),
      model: r.model,
      usage: { input: r.usage?.prompt_tokens ?? 0, output: r.usage?.completion_tokens ?? 0 },
    };
  } catch (e) {
    throw classifyError(e, `the judgment endpoint (${s.baseUrl})`, "check the judgment provider's key");
  }
}
