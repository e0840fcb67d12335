import table from "../../policies/prices.json" with { type: "json" };
import type { Price } from "../core/usage.ts";

const LISTED: Readonly<Record<string, Price>> = table.models;

/**
 * A model's price: the person's config (`prices`) first, then the vendors' published list
 * (policies/prices.json). A dated id (`claude-haiku-4-5-20251001`, `gpt-5-2025-08-07`) is priced as its alias; an
 * id behind a router's vendor prefix (`anthropic/claude-haiku-4-5`) as the id. Undefined when
 * neither knows the model: its cost is unknown, not zero. Pure.
 */
export function priceOf(model: string, configured: Readonly<Record<string, Price>> = {}): Price | undefined {
  const bare = model.slice(model.lastIndexOf("/") + 1);
  // Anthropic dates its ids as -20251001, OpenAI as -2025-08-07.
  const alias = bare.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
  return configured[model] ?? configured[bare] ?? LISTED[bare] ?? LISTED[alias];
}
