import { scryptSync } from "node:crypto";

/** Derived names by key; only keys that passed auth get here, so the configured keys bound it. */
const derived = new Map<string, string>();
/** Upper bound on that cache all the same (keys can be added by a config reload). */
const MAX_CACHED = 10_000;
/** scrypt cost: about 5 ms once per key per process, and as much per guess for anyone brute-forcing. */
const SCRYPT = { N: 4096, r: 8, p: 1 } as const;

/**
 * The thread a facade request without `x-sol-thread-id` joins: one per API key (api.md), with auth
 * off one per tenant (`openai:default`). Every key of a tenant sees the others' thread ids, so the
 * name comes from a slow, salted derivation of the key (scrypt), not a plain hash a weak key could be
 * guessed back from. Rotating a key moves its default thread.
 */
export function defaultFacadeThread(tenantId: string, apiKey: string | null): string {
  if (apiKey === null) return `openai:${tenantId}`;
  const known = derived.get(apiKey);
  if (known !== undefined) return known;
  const digest = scryptSync(apiKey, "solserver/facade-default-thread/v1", 12, SCRYPT).toString("hex");
  const name = `openai:key-${digest}`;
  if (derived.size >= MAX_CACHED) derived.clear();
  derived.set(apiKey, name);
  return name;
}
