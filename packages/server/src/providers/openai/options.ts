import type { Clock } from "@solserver/core";
import { SolError } from "@solserver/core";
import type { ChatBodyQuirks } from "./chat-body.js";
import { createNodeHttpTransport } from "./node-http-fetch.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./response-limit.js";
import { defaultSleep, type SleepFn } from "./retry.js";

/** The part of `fetch` the adapter uses; injectable for tests and custom agents. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What the adapter reads from an HTTP response; a standard `Response` has all of it. */
export interface HttpResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** Set for streamed answers; null when the body was buffered (read it with `text()`). */
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/** The adapter's transport: a `FetchLike`, or the default node:http one with lighter responses. */
export type HttpTransport = (url: string, init: RequestInit) => Promise<HttpResponseLike>;

export interface OpenAiProviderOptions {
  /** Base URL of an OpenAI-compatible server, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per attempt; for streams the longest silence allowed between chunks. Default 30000. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt (429, 5xx, network errors, timeouts). Default 2. */
  readonly maxRetries?: number;
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  /** Upper bound on a server-requested Retry-After wait. Default 10000. */
  readonly retryAfterMaxMs?: number;
  /** Extra request headers (organisation, project, proxy auth...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider name reported in responses. Default "openai". */
  readonly name?: string;
  /** What the server accepts (see the local presets); default: OpenAI's own API. */
  readonly quirks?: ChatBodyQuirks;
  /** Largest answer read (a body, or a whole stream); longer ones fail the call. Default 16 MiB. */
  readonly maxResponseBytes?: number;
  /** Transport; default: node:http(s) with keep-alive (see createNodeHttpTransport). */
  readonly fetch?: FetchLike;
  readonly clock?: Clock;
  readonly sleep?: SleepFn;
  /** Jitter source in [0, 1). */
  readonly random?: () => number;
}

/** Options after defaults and validation. */
export interface ResolvedOpenAiOptions {
  readonly endpoint: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly retryAfterMaxMs: number;
  readonly maxResponseBytes: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The API key and header values, which never appear in an error (see redactSecrets). */
  readonly secrets: readonly string[];
  readonly name: string;
  readonly quirks: ChatBodyQuirks;
  readonly fetch: HttpTransport;
  readonly clock: Clock;
  readonly sleep: SleepFn;
  readonly random: () => number;
}

/** Shorter header values (a project id such as "1") are not secrets worth masking everywhere. */
const MIN_SECRET_LENGTH = 8;

const systemClock: Clock = { now: () => Date.now() };

/** Applies defaults, validates once, and freezes; throws SolError("invalid_input") naming the bad field. */
export function resolveOpenAiOptions(options: OpenAiProviderOptions): ResolvedOpenAiOptions {
  const base = options.baseUrl?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw invalid("baseUrl", "baseUrl must be an absolute http(s) URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalid("baseUrl", "baseUrl must use http or https.");
  const model = options.model?.trim() ?? "";
  if (model === "") throw invalid("model", "model must be a non-empty string.");
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const resolved: ResolvedOpenAiOptions = {
    endpoint: `${base.replace(/\/+$/, "")}/chat/completions`,
    apiKey: options.apiKey === undefined || options.apiKey === "" ? undefined : options.apiKey,
    model,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
    backoffBaseMs: options.backoff?.baseMs ?? 250,
    backoffMaxMs: options.backoff?.maxMs ?? 4_000,
    retryAfterMaxMs: options.retryAfterMaxMs ?? 10_000,
    headers: { ...options.headers },
    secrets: [options.apiKey, ...Object.values(options.headers ?? {})].filter(
      (secret): secret is string => typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH,
    ),
    name: options.name ?? "openai",
    quirks: { ...options.quirks },
    maxResponseBytes,
    fetch: options.fetch ?? createNodeHttpTransport({ maxResponseBytes }),
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
  };
  positive("timeoutMs", resolved.timeoutMs);
  nonNegativeInteger("maxRetries", resolved.maxRetries);
  positive("backoff.baseMs", resolved.backoffBaseMs);
  positive("backoff.maxMs", resolved.backoffMaxMs);
  positive("retryAfterMaxMs", resolved.retryAfterMaxMs);
  positive("maxResponseBytes", resolved.maxResponseBytes);
  return Object.freeze(resolved);
}

function positive(field: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw invalid(field, `${field} must be a positive number.`);
}

function nonNegativeInteger(field: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw invalid(field, `${field} must be a non-negative integer.`);
}

function invalid(field: string, message: string): SolError {
  return new SolError("invalid_input", message, { details: { field } });
}
