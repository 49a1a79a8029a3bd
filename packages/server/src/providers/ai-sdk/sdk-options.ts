import type { Clock } from "@solserver/core";
import { SolError } from "@solserver/core";
import { defaultSleep, type SleepFn } from "../openai/retry.js";

/** Settings shared by the adapters built on the AI SDK's provider packages (Anthropic, Gemini). */
export interface SdkProviderOptions {
  /** API base URL; default: the vendor's own endpoint. */
  readonly baseUrl?: string;
  readonly apiKey: string;
  readonly model: string;
  /** Extra request headers (proxy auth, organisation...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Per attempt; for streams the longest silence allowed between chunks. Default 30000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt (429, 5xx, network errors, timeouts). Default 2. */
  readonly maxRetries?: number;
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  /** Upper bound on a server-requested Retry-After wait. Default 10000. */
  readonly retryAfterMaxMs?: number;
  /** Transport handed to the SDK; default: the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  readonly clock?: Clock;
  readonly sleep?: SleepFn;
  /** Jitter source in [0, 1). */
  readonly random?: () => number;
}

/** Options after defaults and validation. */
export interface ResolvedSdkOptions {
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  readonly model: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly retryAfterMaxMs: number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly secrets: readonly string[];
  readonly clock: Clock;
  readonly sleep: SleepFn;
  readonly random: () => number;
}

const MIN_SECRET_LENGTH = 8;

/** Applies defaults, validates once, and freezes; throws SolError("invalid_input") naming the bad field. */
export function resolveSdkOptions(options: SdkProviderOptions): ResolvedSdkOptions {
  const baseUrl = options.baseUrl?.trim() || undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(baseUrl)) {
    throw invalid("baseUrl", "baseUrl must be an absolute http(s) URL.");
  }
  const model = options.model?.trim() ?? "";
  if (model === "") throw invalid("model", "model must be a non-empty string.");
  const apiKey = options.apiKey ?? "";
  if (apiKey === "") throw invalid("apiKey", "apiKey must be a non-empty string.");
  const resolved: ResolvedSdkOptions = {
    baseUrl: baseUrl?.replace(/\/+$/, ""),
    apiKey,
    model,
    headers: { ...options.headers },
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
    backoffBaseMs: options.backoff?.baseMs ?? 250,
    backoffMaxMs: options.backoff?.maxMs ?? 4_000,
    retryAfterMaxMs: options.retryAfterMaxMs ?? 10_000,
    fetch: options.fetch,
    secrets: [apiKey, ...Object.values(options.headers ?? {})].filter((s) => s.length >= MIN_SECRET_LENGTH),
    clock: options.clock ?? { now: () => Date.now() },
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
  };
  for (const [field, value] of [
    ["timeoutMs", resolved.timeoutMs],
    ["backoff.baseMs", resolved.backoffBaseMs],
    ["backoff.maxMs", resolved.backoffMaxMs],
    ["retryAfterMaxMs", resolved.retryAfterMaxMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) throw invalid(field, `${field} must be a positive number.`);
  }
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0) {
    throw invalid("maxRetries", "maxRetries must be a non-negative integer.");
  }
  return Object.freeze(resolved);
}

function invalid(field: string, message: string): SolError {
  return new SolError("invalid_input", message, { details: { field } });
}
