import { readFileSync } from "node:fs";
import { SolError } from "@solserver/core";
import { z } from "zod";
import { OPENAI_PRESETS } from "../providers/openai/presets.js";
import { FallbacksSetting, PROVIDER_KINDS, ProviderHeadersSetting } from "../providers/provider-settings.js";
import { closestKey } from "./closest-key.js";

const ApiKeys = z.string().transform((raw, ctx) => {
  const keys = new Map<string, string>();
  const parts = raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const [index, part] of parts.entries()) {
    const idx = part.indexOf(":");
    const tenant = idx > 0 ? part.slice(0, idx).trim() : "";
    const key = idx > 0 ? part.slice(idx + 1).trim() : "";
    if (!tenant || !key) {
      // Named by position, not quoted: a mistyped entry ("acme=key") holds a key, and this message
      // goes to the terminal and the logs.
      ctx.addIssue({
        code: "custom",
        message: `SOL_API_KEYS entry ${index + 1} of ${parts.length} must look like tenant:key`,
      });
      return z.NEVER;
    }
    const owner = keys.get(key);
    if (owner !== undefined && owner !== tenant) {
      // One key cannot name two tenants: the later entry would silently take the earlier tenant's key.
      ctx.addIssue({
        code: "custom",
        message: `SOL_API_KEYS gives one key to both tenant "${owner}" and tenant "${tenant}"`,
      });
      return z.NEVER;
    }
    keys.set(key, tenant);
  }
  if (keys.size === 0) {
    // Set but without an entry (","): authentication would be off without the start-up warning.
    ctx.addIssue({
      code: "custom",
      message: "SOL_API_KEYS has no tenant:key entry (unset it to turn auth off)",
    });
    return z.NEVER;
  }
  return keys;
});

/** A secret of at least 32 bytes; its text is never repeated in a message. */
const Secret = z.string().refine((value) => Buffer.byteLength(value, "utf8") >= 32, {
  message: "must be at least 32 bytes (e.g. the output of `openssl rand -hex 32`)",
});

/** Comma-separated secrets still accepted for verification during a rotation. */
const SecretList = z.string().transform((raw, ctx) => {
  const secrets = raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  for (const [index, secret] of secrets.entries()) {
    if (Buffer.byteLength(secret, "utf8") < 32) {
      ctx.addIssue({
        code: "custom",
        message: `entry ${index + 1} of ${secrets.length} is shorter than 32 bytes`,
      });
      return z.NEVER;
    }
  }
  return secrets;
});

/** Comma-separated http(s) origins ("https://hooks.example.com"), normalised to `URL.origin`. */
const OriginList = z.string().transform((raw, ctx) => {
  const origins: string[] = [];
  for (const part of raw
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    let origin: string | null = null;
    try {
      const url = new URL(part);
      if (url.protocol === "http:" || url.protocol === "https:") origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin === null) {
      ctx.addIssue({
        code: "custom",
        message: `SOL_WEBHOOK_ALLOWLIST entry "${part}" is not an http(s) origin`,
      });
      return z.NEVER;
    }
    origins.push(origin);
  }
  return origins;
});

/**
 * A whole-number setting: optional sign and digits only (a config file's JSON number arrives as its
 * string). Coercion would read " " and false as 0, true as 1 and [8080] as 8080.
 */
function wholeNumber(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  return z
    .string({ error: "expected a whole number" })
    .trim()
    .regex(/^[+-]?\d+$/, "expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** Every setting the server reads, with its default; validated once at start, then frozen. */
export const SolConfigSchema = z
  .object({
    SOL_PORT: wholeNumber(0, 65535).default(8787),
    SOL_HOST: z.string().min(1).default("127.0.0.1"),
    SOL_DB_URL: z.string().min(1).default("sqlite:./data/sol.db"),
    /**
     * Where a SQLite file store runs: "worker" (its own thread, off the request path), "main" (the
     * request thread), or "auto" (worker for a SQLite file, main otherwise).
     */
    SOL_DB_THREAD: z.enum(["auto", "main", "worker"]).default("auto"),
    // The store thread's V8 young generation in MB (0: V8's own, sized for a main thread).
    SOL_DB_THREAD_YOUNG_MB: wholeNumber(0, 1024).default(16),
    SOL_API_KEYS: ApiKeys.optional(),
    SOL_LLM: z.enum(PROVIDER_KINDS).default("offline"),
    SOL_LLM_BASE_URL: z.string().url().optional(),
    SOL_LLM_API_KEY: z.string().optional(),
    SOL_LLM_MODEL: z.string().min(1).optional(),
    /** A local OpenAI-compatible server (SOL_LLM=openai): its default base URL and quirks. */
    SOL_LLM_PRESET: z.enum(OPENAI_PRESETS).optional(),
    /** A JSON object of extra headers on every provider request. */
    SOL_LLM_HEADERS: ProviderHeadersSetting.optional(),
    /** The routing ladder's step-2 selector runs on this model (same provider). */
    SOL_SELECTOR_MODEL: z.string().trim().min(1).optional(),
    /** A JSON array of {provider, model, baseUrl?, apiKey?, headers?, preset?} tried after a retryable failure. */
    SOL_LLM_FALLBACKS: FallbacksSetting.optional(),
    SOL_LLM_TIMEOUT_MS: wholeNumber(1).default(30_000),
    SOL_LLM_MAX_RETRIES: wholeNumber(0, 10).default(2),
    SOL_MODES: z.string().min(1).optional(),
    SOL_ATLAS: z.string().min(1).optional(),
    SOL_DRIVER_BLOCKS: z.string().min(1).optional(),
    /** Prompt profiles: a JSON file or a directory of them (see config/profiles.ts). */
    SOL_PROFILES: z.string().min(1).optional(),
    /** The active prompt profile's id; by default the only one SOL_PROFILES loads, else the built-in. */
    SOL_PROFILE: z.string().min(1).max(64).optional(),
    SOL_BODY_LIMIT: wholeNumber(1).default(1_048_576),
    /** Most JSON values one body may hold, counted on the raw text before parsing (bounds the parse). */
    SOL_BODY_MAX_VALUES: wholeNumber(100).default(50_000),
    /** How long a client may take to send a whole request (headers and body); 0 turns the limit off. */
    SOL_REQUEST_TIMEOUT_MS: wholeNumber(0).default(60_000),
    SOL_RATE_LIMIT_PER_MIN: wholeNumber(0).default(6000),
    /** Requests per API key per minute on /v1 routes (0: off), shared like SOL_RATE_LIMIT_PER_MIN. */
    SOL_KEY_RATE_LIMIT_PER_MIN: wholeNumber(0).default(0),
    /** Model tokens (input + output) per tenant per minute (0: off). */
    SOL_TOKEN_BUDGET_PER_MIN: wholeNumber(0).default(0),
    /** Requests in flight per API key (per tenant with auth off) in this process (0: off). */
    SOL_MAX_CONCURRENT_PER_KEY: wholeNumber(0).default(64),
    /** Where the rate limits and token budgets are counted: auto (Redis, else PostgreSQL, else memory). */
    SOL_RATE_LIMIT_STORE: z.enum(["auto", "memory", "redis", "postgres"]).default("auto"),
    /** Redis for the shared limits (`redis://` or `rediss://`). */
    SOL_REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** Prefix of the limits' keys in Redis and of their table in PostgreSQL. */
    SOL_RATE_LIMIT_PREFIX: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,40}$/, "lowercase letters, digits and _")
      .default("sol_rl"),
    SOL_WINDOW_MESSAGES: wholeNumber(0, 200).default(12),
    // A turn's lease on its transmission: renewed every third of it while the turn runs; a retry of
    // the same requestId takes over once it lapsed (a crashed server's turn), never before.
    SOL_TURN_LEASE_MS: wholeNumber(300, 600_000).default(10_000),
    // How far a V8 heap may grow past its live size before a full collection, in percent (100: to
    // twice the live size); 0 keeps V8's own factor, up to 4x (util/heap-growth.ts).
    SOL_HEAP_GROWING_PERCENT: wholeNumber(0, 1000).default(100),
    // The model's context window: a prompt over SOL_CONTEXT_PRESSURE_SHARE of it is breakpoint pressure.
    SOL_CONTEXT_TOKENS: wholeNumber(1024, 10_000_000).default(128_000),
    SOL_CONTEXT_PRESSURE_SHARE: z.coerce.number().gt(0).max(1).default(0.8),
    // Flow pack D: the top N memory summaries a turn injects, within an estimated token budget.
    SOL_RETRIEVAL_TOP_N: wholeNumber(0, 50).default(5),
    SOL_RETRIEVAL_MAX_TOKENS: wholeNumber(0, 20_000).default(600),
    // The optional embedding ranker (OpenAI-compatible /embeddings); off while the model is unset.
    SOL_EMBEDDINGS_MODEL: z.string().min(1).optional(),
    SOL_EMBEDDINGS_BASE_URL: z.string().url().optional(),
    SOL_EMBEDDINGS_API_KEY: z.string().optional(),
    /** "1" serves GET /metrics (Prometheus text format). */
    SOL_METRICS: z.enum(["0", "1"]).default("0"),
    /** When set, `sol serve` exports OpenTelemetry spans over OTLP/HTTP to `<endpoint>/v1/traces`. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    OTEL_SERVICE_NAME: z.string().trim().min(1).max(128).default("solserver"),
    /** `pretty`: one readable line per log entry (development); `json`: pino's JSON lines. Default: pretty on a terminal outside production. */
    SOL_LOG_FORMAT: z.enum(["pretty", "json"]).optional(),
    SOL_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SOL_WEB_DIR: z.string().min(1).optional(),
    SOL_ACTION_TIMEOUT_MS: wholeNumber(1).default(15_000),
    SOL_ACTION_LEASE_MS: wholeNumber(1).default(120_000),
    /** The server key that binds approvals and anchors traces (see README "Rotating the action secret"). */
    SOL_ACTION_SECRET: Secret.optional(),
    /** Earlier SOL_ACTION_SECRETs, still accepted for verification while a rotation settles. */
    SOL_ACTION_SECRETS_PREVIOUS: SecretList.optional(),
    SOL_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
    SOL_WEBHOOK_ALLOWLIST: OriginList.optional(),
    /** Agency converter dedup window (ms, 0..300000). */
    SOL_AGENCY_DEDUP_WINDOW_MS: wholeNumber(0, 300_000).default(60_000),
    /** Thought generator: a repeated banded situation within this many ms gets no model call (0..3600000). */
    SOL_AGENCY_SIGNATURE_WINDOW_MS: wholeNumber(0, 3_600_000).default(180_000),
    /** "1": the task store warns when a task is stored without origin (agency contract §1.2). */
    PLANNING_STRICT_FINALIZE: z.enum(["0", "1"]).default("0"),
    NODE_ENV: z.string().optional(),
  })
  .strip();

export type SolConfigInput = z.input<typeof SolConfigSchema>;
/** `production`: NODE_ENV is `production` in the sources or in the process environment. */
export type SolConfig = Readonly<z.output<typeof SolConfigSchema>> & { readonly production: boolean };

const KEYS = Object.keys(SolConfigSchema.shape) as (keyof z.input<typeof SolConfigSchema>)[];

/** Reads a `sol.config.json` (same keys as the environment); a bad file is a typed error naming it. */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    throw new SolError("invalid_input", `Cannot read config file ${path}: ${(cause as Error).message}`, {
      cause,
    });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("the top level must be a JSON object");
    }
    return rejectUnknownKeys(parsed as Record<string, unknown>, path);
  } catch (cause) {
    if (cause instanceof SolError) throw cause;
    throw new SolError(
      "invalid_input",
      `Config file ${path} is not valid JSON: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
}

/**
 * A key the server does not read is a mistake in a file that holds only settings (a misspelt
 * "SOL_PROT" would otherwise leave the default in effect without a word). `$schema` is allowed.
 */
function rejectUnknownKeys(file: Record<string, unknown>, path: string): Record<string, unknown> {
  const known: readonly string[] = KEYS;
  const unknown = Object.keys(file).filter((key) => key !== "$schema" && !known.includes(key));
  if (unknown.length === 0) return file;
  const named = unknown.map((key) => {
    const meant = closestKey(key, known);
    return meant ? `${key} (did you mean ${meant}?)` : key;
  });
  throw new SolError(
    "invalid_input",
    `Config file ${path} has keys that are not settings: ${named.join(", ")}`,
    { details: unknown.map((key) => ({ path: key, message: "not a setting" })) },
  );
}

/** The settings each SOL_LLM needs (a preset supplies the base URL of a local server). */
function checkProviderSettings(value: z.output<typeof SolConfigSchema>): void {
  const kind = value.SOL_LLM;
  if (kind === "offline") return;
  const missing = [
    ...(kind === "openai" && !value.SOL_LLM_BASE_URL && !value.SOL_LLM_PRESET ? ["SOL_LLM_BASE_URL"] : []),
    ...(!value.SOL_LLM_MODEL ? ["SOL_LLM_MODEL"] : []),
    ...(kind !== "openai" && !value.SOL_LLM_API_KEY ? ["SOL_LLM_API_KEY"] : []),
  ];
  if (missing.length > 0) {
    throw new SolError("invalid_input", `SOL_LLM=${kind} needs ${missing.join(" and ")}`, {
      details: missing.map((path) => ({ path })),
    });
  }
  if (value.SOL_LLM_PRESET && kind !== "openai") {
    throw new SolError("invalid_input", "SOL_LLM_PRESET applies only to SOL_LLM=openai", {
      details: [{ path: "SOL_LLM_PRESET" }],
    });
  }
}

/**
 * Builds the frozen configuration: defaults, then the config file, then the environment, then explicit
 * overrides (CLI flags) — later sources win.
 */
export function loadConfig(
  sources: {
    env?: Record<string, string | undefined>;
    file?: Record<string, unknown>;
    overrides?: Record<string, unknown>;
  } = {},
): SolConfig {
  const merged: Record<string, unknown> = {};
  for (const source of [sources.file, sources.env, sources.overrides]) {
    if (!source) continue;
    for (const key of KEYS) {
      const value = source[key];
      if (value !== undefined && value !== "")
        merged[key] = typeof value === "number" ? String(value) : value;
    }
  }
  const parsed = SolConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new SolError(
      "invalid_input",
      `Invalid configuration: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      {
        details: issues,
      },
    );
  }
  const value = parsed.data;
  checkProviderSettings(value);
  if (value.SOL_EMBEDDINGS_MODEL && !(value.SOL_EMBEDDINGS_BASE_URL ?? value.SOL_LLM_BASE_URL)) {
    throw new SolError(
      "invalid_input",
      "SOL_EMBEDDINGS_MODEL needs SOL_EMBEDDINGS_BASE_URL (or SOL_LLM_BASE_URL)",
      { details: [{ path: "SOL_EMBEDDINGS_BASE_URL" }] },
    );
  }
  if (value.SOL_ACTION_LEASE_MS <= value.SOL_ACTION_TIMEOUT_MS) {
    // A claim must outlive the run it covers, or a slow run could be recovered and retried while alive.
    throw new SolError("invalid_input", "SOL_ACTION_LEASE_MS must be longer than SOL_ACTION_TIMEOUT_MS", {
      details: [{ path: "SOL_ACTION_LEASE_MS" }, { path: "SOL_ACTION_TIMEOUT_MS" }],
    });
  }
  // Fail-safe: a process running with NODE_ENV=production keeps every dev-only input path off
  // (api.md §1) even when its configuration was built from explicit sources without the environment.
  const production = value.NODE_ENV === "production" || process.env.NODE_ENV === "production";
  return Object.freeze({ ...value, production });
}
