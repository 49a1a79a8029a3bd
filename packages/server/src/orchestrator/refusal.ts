/** Longest refusal text kept (the rest is cut); a refusal is a short sentence from the provider. */
const MAX_REFUSAL_LENGTH = 4_000;

/**
 * The provider's refusal in a raw assistant message (OpenAI's `refusal` field), or null. A refusal
 * is the provider declining to answer: there is no envelope to parse and nothing a regeneration fixes.
 */
export function refusalOf(raw: unknown): string | null {
  const refusal = (raw as { refusal?: unknown } | null | undefined)?.refusal;
  if (typeof refusal !== "string" || refusal.trim() === "") return null;
  return refusal.slice(0, MAX_REFUSAL_LENGTH);
}
