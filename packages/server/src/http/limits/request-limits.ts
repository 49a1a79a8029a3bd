import { createHash } from "node:crypto";
import { SolError } from "@solserver/core";
import { type RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { type LimitStore, type LimitStoreOptions, openLimitStore } from "./limit-store.js";

/** The per-minute limits; 0 turns one off. */
export interface RequestLimitOptions {
  /** Requests per tenant per minute (SOL_RATE_LIMIT_PER_MIN). */
  readonly tenantPerMinute: number;
  /** Requests per API key per minute (SOL_KEY_RATE_LIMIT_PER_MIN). */
  readonly keyPerMinute: number;
  /** Model tokens per tenant per minute (SOL_TOKEN_BUDGET_PER_MIN). */
  readonly tokensPerMinute: number;
}

/** Rate limits and token budgets, counted in the limit store (shared by every instance but memory's). */
export interface RequestLimits {
  /** Which store counts (memory when every limit is off: nothing is opened). */
  readonly store: LimitStore["kind"] | "off";
  /** Spends one request of the tenant and of its key; throws budget_exceeded (with retryAfterSeconds) past a limit. */
  takeRequest(tenantId: string, apiKey: string | null): Promise<void>;
  /** Throws budget_exceeded when the tenant has already spent its token budget this minute. */
  checkTokens(tenantId: string): Promise<void>;
  /** Records the tokens a turn used. */
  spendTokens(tenantId: string, tokens: number): Promise<void>;
  close(): Promise<void>;
}

const MINUTE = 60;

/** Opens the limit store only when a limit is on; validates the options once. */
export async function createRequestLimits(
  limits: RequestLimitOptions,
  store: LimitStoreOptions,
): Promise<RequestLimits> {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new SolError("invalid_input", `${name} must be a whole number >= 0, got ${value}`);
    }
  }
  const on = limits.tenantPerMinute > 0 || limits.keyPerMinute > 0 || limits.tokensPerMinute > 0;
  if (!on) return offLimits();
  const opened = await openLimitStore(store);
  // One after another: the PostgreSQL limiter creates its table when made.
  const make = async (name: string, points: number) =>
    points > 0 ? opened.limiter(name, points, MINUTE) : null;
  const tenant = await make("tenant", limits.tenantPerMinute);
  const key = await make("key", limits.keyPerMinute);
  const tokens = await make("tokens", limits.tokensPerMinute);
  return {
    store: opened.kind,
    async takeRequest(tenantId, apiKey) {
      if (tenant) await spend(tenant, tenantId, 1, limits.tenantPerMinute, "tenant");
      if (key && apiKey !== null) await spend(key, keyId(apiKey), 1, limits.keyPerMinute, "API key");
    },
    async checkTokens(tenantId) {
      if (!tokens) return;
      const used = await tokens.get(tenantId).catch(() => null);
      if (used !== null && used.consumedPoints >= limits.tokensPerMinute) {
        throw exceeded(`Token budget of ${limits.tokensPerMinute} per minute spent for this tenant.`, {
          limitPerMinute: limits.tokensPerMinute,
          msBeforeNext: used.msBeforeNext,
        });
      }
    },
    async spendTokens(tenantId, count) {
      if (!tokens || count <= 0) return;
      // Past the budget the points are still counted (the next turn is refused); the refusal is ignored here.
      await tokens.consume(tenantId, count).catch(() => {});
    },
    close: () => opened.close(),
  };
}

function offLimits(): RequestLimits {
  return {
    store: "off",
    takeRequest: async () => {},
    checkTokens: async () => {},
    spendTokens: async () => {},
    close: async () => {},
  };
}

/** Keys are secrets: the store sees a digest of the key, never the key. */
function keyId(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex").slice(0, 32);
}

async function spend(
  limiter: RateLimiterAbstract,
  id: string,
  points: number,
  limit: number,
  who: string,
): Promise<void> {
  try {
    await limiter.consume(id, points);
  } catch (refusal) {
    // A store error with no insurance left is not the client's fault: let the request through.
    if (!(refusal instanceof RateLimiterRes)) return;
    throw exceeded(`Request budget of ${limit} per minute exceeded for this ${who}.`, {
      limitPerMinute: limit,
      msBeforeNext: refusal.msBeforeNext,
    });
  }
}

function exceeded(message: string, at: { limitPerMinute: number; msBeforeNext: number }): SolError {
  const retryAfterSeconds = Math.max(1, Math.ceil(at.msBeforeNext / 1000));
  return new SolError("budget_exceeded", message, {
    details: { limitPerMinute: at.limitPerMinute, retryAfterSeconds },
  });
}
