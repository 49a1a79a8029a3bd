import { SolClientError } from "../errors.js";

/** The fetch signature the SDK needs; the global fetch of Node 20 and browsers fits. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface SolClientOptions {
  /** Server origin, e.g. `http://127.0.0.1:8787`; `""` or a path such as `/` means same origin in a browser. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string;
  readonly fetch?: FetchLike;
  /** Per request; for streams, the longest silence between chunks. Default 60 000. */
  readonly timeoutMs?: number;
  /** Extra headers on every request (e.g. a client version). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ResolvedClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly headers: Readonly<Record<string, string>>;
}

const DEFAULTS = { timeoutMs: 60_000, headers: {} } as const;

/** Applies defaults and checks the options once; throws invalid_input naming each bad field. */
export function resolveClientOptions(options: SolClientOptions): ResolvedClientOptions {
  const merged = { ...DEFAULTS, ...options };
  const problems: string[] = [];
  const base = typeof merged.baseUrl === "string" ? merged.baseUrl.replace(/\/+$/, "") : "";
  if (typeof merged.baseUrl !== "string") problems.push("baseUrl must be a string");
  else if (base !== "" && !base.startsWith("/") && !/^https?:\/\/[^/]+/i.test(base)) {
    problems.push("baseUrl must be an http(s) URL, a path or empty");
  }
  if (!Number.isFinite(merged.timeoutMs) || merged.timeoutMs <= 0) problems.push("timeoutMs must be > 0");
  if (merged.apiKey !== undefined && (typeof merged.apiKey !== "string" || merged.apiKey.length === 0)) {
    problems.push("apiKey must be a non-empty string");
  }
  const fetchFn =
    merged.fetch ?? (typeof globalThis.fetch === "function" ? globalThis.fetch.bind(globalThis) : null);
  if (fetchFn === null) problems.push("fetch is not available; pass options.fetch");
  if (problems.length > 0 || fetchFn === null) {
    throw new SolClientError("invalid_input", `Invalid SolClient options: ${problems.join("; ")}`, {
      details: { problems },
    });
  }
  return Object.freeze({
    baseUrl: base,
    apiKey: merged.apiKey,
    fetch: fetchFn,
    timeoutMs: merged.timeoutMs,
    headers: Object.freeze({ ...merged.headers }),
  });
}
