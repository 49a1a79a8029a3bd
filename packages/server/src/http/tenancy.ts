import { SolError } from "@solserver/core";

export const DEFAULT_TENANT = "default";

/** Who a request is: its tenant and, with auth on, the API key it used (null when auth is off). */
export interface Caller {
  readonly tenantId: string;
  readonly apiKey: string | null;
}

/**
 * Maps `Authorization: Bearer <key>` to its tenant and key; with no keys configured every caller is
 * tenant `default` with no key. The key is kept because the facade's default thread is one per key.
 */
export function resolveCaller(
  apiKeys: ReadonlyMap<string, string> | undefined,
  authorization: string | undefined,
): Caller {
  if (!apiKeys || apiKeys.size === 0) return { tenantId: DEFAULT_TENANT, apiKey: null };
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
  const key = match?.[1]?.trim();
  if (!key) throw new SolError("unauthorized", "Send Authorization: Bearer <api key>.");
  const tenant = apiKeys.get(key);
  if (!tenant) throw new SolError("unauthorized", "The API key is not valid.");
  return { tenantId: tenant, apiKey: key };
}

/** Per-tenant request budget: a token bucket refilled continuously; 0 disables it. */
export function createTenantBudget(perMinute: number, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const ratePerMs = perMinute / 60_000;
  return {
    /** Spends one request for `tenant`, or throws budget_exceeded with a Retry-After hint. */
    take(tenant: string): void {
      if (perMinute <= 0) return;
      const t = now();
      const bucket = buckets.get(tenant) ?? { tokens: perMinute, at: t };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (t - bucket.at) * ratePerMs);
      bucket.at = t;
      if (bucket.tokens < 1) {
        buckets.set(tenant, bucket);
        const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
        throw new SolError(
          "budget_exceeded",
          `Request budget of ${perMinute} per minute exceeded for this tenant.`,
          {
            details: { limitPerMinute: perMinute, retryAfterSeconds },
          },
        );
      }
      bucket.tokens -= 1;
      buckets.set(tenant, bucket);
    },
  };
}
