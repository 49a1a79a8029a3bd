import { SolError } from "@solserver/core";

export const DEFAULT_TENANT = "default";

/** Maps `Authorization: Bearer <key>` to a tenant; with no keys configured every caller is `default`. */
export function resolveTenant(
  apiKeys: ReadonlyMap<string, string> | undefined,
  authorization: string | undefined,
): string {
  if (!apiKeys || apiKeys.size === 0) return DEFAULT_TENANT;
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
  const key = match?.[1]?.trim();
  if (!key) throw new SolError("unauthorized", "Send Authorization: Bearer <api key>.");
  const tenant = apiKeys.get(key);
  if (!tenant) throw new SolError("unauthorized", "The API key is not valid.");
  return tenant;
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
