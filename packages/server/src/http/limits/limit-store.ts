import { SolError } from "@solserver/core";
import { Redis } from "ioredis";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from "rate-limiter-flexible";
import { parseStoreUrl } from "../../store/index.js";

/** Where the limits are counted. */
export type LimitStoreKind = "memory" | "redis" | "postgres";

/** Settings of the limit store, from the config (SOL_RATE_LIMIT_STORE, SOL_REDIS_URL, SOL_DB_URL). */
export interface LimitStoreOptions {
  readonly store: "auto" | LimitStoreKind;
  readonly redisUrl?: string | undefined;
  readonly dbUrl: string;
  /** Prefix of the Redis keys and of the PostgreSQL table. */
  readonly prefix: string;
  /** Told when the shared store fails and a request is counted in this process instead. */
  readonly onStoreError?: (error: unknown) => void;
}

/** Makes fixed-window limiters (points per `durationSeconds`) in one store; `close` frees its client. */
export interface LimitStore {
  readonly kind: LimitStoreKind;
  limiter(name: string, points: number, durationSeconds: number): Promise<RateLimiterAbstract>;
  close(): Promise<void>;
}

/** Which store `auto` means: Redis when a URL is set, else PostgreSQL when the store is, else memory. */
export function chooseLimitStore(options: LimitStoreOptions): LimitStoreKind {
  const pgUrl = parseStoreUrl(options.dbUrl);
  const onPostgres = pgUrl.ok && pgUrl.value.kind === "postgres";
  if (options.store === "redis" && options.redisUrl === undefined) {
    throw new SolError("invalid_input", "SOL_RATE_LIMIT_STORE=redis needs SOL_REDIS_URL.");
  }
  if (options.store === "postgres" && !onPostgres) {
    throw new SolError("invalid_input", "SOL_RATE_LIMIT_STORE=postgres needs a postgres:// SOL_DB_URL.");
  }
  if (options.store !== "auto") return options.store;
  if (options.redisUrl !== undefined) return "redis";
  return onPostgres ? "postgres" : "memory";
}

/**
 * Opens the limit store and checks it answers: a configured store that cannot be reached at start is
 * a startup error (SolError `unavailable`). Shared limiters keep a per-process memory limiter as
 * insurance: when the store fails mid-run requests are counted in this process (fail open, logged).
 */
export async function openLimitStore(options: LimitStoreOptions): Promise<LimitStore> {
  const kind = chooseLimitStore(options);
  if (kind === "memory") {
    return {
      kind,
      limiter: async (name, points, duration) => memory(name, points, duration),
      close: async () => {},
    };
  }
  return kind === "redis" ? openRedis(options) : openPostgres(options);
}

function memory(name: string, points: number, duration: number): RateLimiterAbstract {
  return new RateLimiterMemory({ keyPrefix: name, points, duration });
}

/** A memory insurance limiter that reports each fallback to it. */
function insurance(
  name: string,
  points: number,
  duration: number,
  onError: LimitStoreOptions["onStoreError"],
) {
  const fallback = memory(name, points, duration);
  if (onError === undefined) return fallback;
  const consume = fallback.consume.bind(fallback);
  fallback.consume = (key, pointsToConsume, opts) => {
    onError(new Error("the shared limit store failed; counting in this process"));
    return consume(key, pointsToConsume, opts);
  };
  return fallback;
}

async function openRedis(options: LimitStoreOptions): Promise<LimitStore> {
  const url = options.redisUrl as string;
  // No offline queue and one retry: while Redis is down a limit check fails at once (and falls back
  // to the insurance limiter) instead of waiting for the connection to return.
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (cause) {
    client.disconnect();
    throw new SolError(
      "unavailable",
      `Cannot reach Redis for the rate limits at ${redactUrl(url)}: ${why(cause)}`,
      {
        cause,
      },
    );
  }
  return {
    kind: "redis",
    limiter: async (name, points, duration) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${options.prefix}:${name}`,
        points,
        duration,
        insuranceLimiter: insurance(name, points, duration, options.onStoreError),
      }),
    close: async () => {
      client.disconnect();
    },
  };
}

async function openPostgres(options: LimitStoreOptions): Promise<LimitStore> {
  const parsed = parseStoreUrl(options.dbUrl);
  if (!parsed.ok || parsed.value.kind !== "postgres")
    throw new SolError("invalid_input", "SOL_DB_URL is not postgres");
  const { connectionString, schema } = parsed.value;
  const pool = new pg.Pool({ connectionString, max: 4, connectionTimeoutMillis: 5000 });
  pool.on("error", () => {});
  const tableName = `${options.prefix}_limits`;
  const open = (name: string, points: number, duration: number) =>
    new Promise<RateLimiterAbstract>((resolve, reject) => {
      const limiter: RateLimiterAbstract = new RateLimiterPostgres(
        {
          storeClient: pool,
          storeType: "pool",
          tableName,
          ...(schema === null ? {} : { schemaName: schema }),
          keyPrefix: name,
          points,
          duration,
          clearExpiredByTimeout: false,
          insuranceLimiter: insurance(name, points, duration, options.onStoreError),
        },
        (error?: unknown) => (error ? reject(error) : resolve(limiter)),
      );
    });
  try {
    await pool.query("select 1");
  } catch (cause) {
    await pool.end();
    throw new SolError("unavailable", `Cannot reach PostgreSQL for the rate limits: ${why(cause)}`, {
      cause,
    });
  }
  return {
    kind: "postgres",
    limiter: open,
    close: () => pool.end(),
  };
}

function why(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** The URL without its password. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
