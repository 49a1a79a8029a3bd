import { ErrorBody } from "@solserver/core";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { ZodType } from "zod";
import { nullableInBranches } from "./openapi-nullable.js";
import { OpenAiError } from "./routes/openai-contracts.js";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type Transformed = ReturnType<typeof jsonSchemaTransform>;

/** What the server does to every route, whatever the route declares (app.ts hooks, body parsing). */
export interface CommonResponses {
  /** SOL_API_KEYS is set: every /v1 route answers 401 without a valid key. */
  readonly auth: boolean;
  /** SOL_RATE_LIMIT_PER_MIN is above 0: every /v1 route answers 429 once the tenant's budget is spent. */
  readonly rateLimited: boolean;
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

const SAID: Readonly<Record<number, string>> = {
  400: "Invalid input: the body is not JSON, or a field, query or path parameter breaks the schema.",
  401: "No API key, or one that is not valid (Authorization: Bearer <key>).",
  413: "The request body is larger than the server accepts.",
  429: "The tenant's request budget is spent; Retry-After says when to try again.",
  503: "The server is shutting down; retry shortly.",
};

/** Headers the error answers carry, whichever route gives them. */
const ERROR_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  401: { "WWW-Authenticate": 'The scheme that authenticates: Bearer realm="solserver".' },
  429: { "Retry-After": "Seconds until the budget allows another request." },
  502: {
    "X-Should-Retry": "`false` when the provider refused the request itself, so repeating it cannot help.",
  },
};

/** On the OpenAI facade a reused idempotency key says so too, since OpenAI clients retry every 409. */
const OPENAI_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  409: { "X-Should-Retry": "`false` for a reused idempotency-key: only a new key can succeed." },
};

/**
 * The OpenAPI transform: fastify-type-provider-zod's, plus the error answers the routes do not declare
 * because the server gives them before the route runs (auth and the rate budget on every /v1 route, body
 * parsing and size, path and query validation, shutdown), and the event stream of a route that streams
 * (`config.eventStream`), with the headers answers carry (`config.responseHeaders`). Errors are written with their own media type, so a route that `produces`
 * another one keeps it for its own answers.
 */
export function createOpenApiTransform(common: CommonResponses) {
  return (input: TransformInput): Transformed => {
    const out = nullableInBranches(jsonSchemaTransform(input)) as Transformed;
    const schema = out.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
    if (schema === undefined || schema.hide) return out;
    const { route } = input;
    const method = [route.method].flat()[0] ?? "GET";
    const declared = route.schema ?? {};
    const api = input.url.startsWith("/v1/");
    const statuses = [
      ...(WITH_BODY.has(method) || declared.querystring || declared.params || declared.headers ? [400] : []),
      ...(api && common.auth ? [401] : []),
      ...(WITH_BODY.has(method) ? [413] : []),
      ...(api && common.rateLimited ? [429] : []),
      503,
    ];
    // A route that declares no answers is documented with fastify-swagger's default 200, as before.
    const response: Record<string, unknown> = {
      ...(schema.response ?? { 200: { description: "Default Response" } }),
    };
    const errorSchema = converted(input, route.config?.errorFormat === "openai" ? OpenAiError : ErrorBody);
    for (const status of statuses) {
      response[status] ??= {
        description: SAID[status],
        content: { "application/json": { schema: errorSchema } },
      };
    }
    // A 304 has no body (RFC 9110 §15.4.5), whatever null the route sends to end it.
    if (response[304] !== undefined)
      response[304] = { type: "null", description: "Not modified: the tag sent is current." };
    const stream = route.config?.eventStream;
    const ok = response[200];
    if (stream !== undefined && ok !== undefined) {
      response[200] = {
        description: "The answer as JSON, or as server-sent events when the request asks for a stream.",
        content: {
          "application/json": { schema: ok },
          "text/event-stream": { schema: { type: "string", description: stream } },
        },
      };
    }
    const headers = { ...ERROR_HEADERS, ...(route.config?.errorFormat === "openai" ? OPENAI_HEADERS : {}) };
    for (const [status, named] of Object.entries({ ...headers, ...route.config?.responseHeaders })) {
      const entry = response[status] as Record<string, unknown> | undefined;
      if (entry === undefined) continue;
      const documented = Object.fromEntries(
        Object.entries(named).map(([name, description]) => [name, { type: "string", description }]),
      );
      response[status] = { ...entry, headers: { ...(entry.headers as object | undefined), ...documented } };
    }
    for (const [status, entry] of Object.entries(response)) {
      const headers = { ...((entry as { headers?: object }).headers ?? {}), ...TRACE_ID_HEADER };
      response[status] = { ...(entry as object), headers };
    }
    const ordered = Object.fromEntries(Object.entries(response).sort(([a], [b]) => a.localeCompare(b)));
    return { ...out, schema: { ...schema, response: ordered } } as Transformed;
  };
}

/** Every answer names its trace (request-telemetry.ts): the id on the server's log lines and spans. */
const TRACE_ID_HEADER = {
  "x-sol-trace-id": {
    type: "string",
    description:
      "The request's trace id (OpenTelemetry's when spans are exported); on every log line of the request.",
  },
};

/** A zod response schema as the zod transform writes it into the document. */
function converted(input: TransformInput, zod: ZodType): unknown {
  const out = jsonSchemaTransform({ ...input, schema: { response: { 200: zod } } });
  return (out.schema as { response: Record<string, unknown> }).response[200];
}
