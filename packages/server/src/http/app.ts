import { existsSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import { SolError } from "@solserver/core";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { SERVER_VERSION } from "../version.js";
import type { AppDeps } from "./app-deps.js";
import { clientErrorHandler } from "./client-errors.js";
import { drainRequest } from "./drain-request.js";
import { type ErrorFormat, mapErrorFor } from "./error-mapping.js";
import { allowEmptyJsonBody } from "./json-body.js";
import { createConcurrencyLimit, createRequestLimits, limitTurns } from "./limits/index.js";
import { createOpenApiTransform } from "./openapi-transform.js";
import { addRequestTelemetry, traceIdOptions } from "./request-telemetry.js";
import { registerActionRoutes } from "./routes/actions.js";
import { registerAgencyRoutes } from "./routes/agency.js";
import { registerCalendarRoutes } from "./routes/calendar.js";
import { registerChatRoutes } from "./routes/chat.js";
import { registerCheckpointRoutes } from "./routes/checkpoints.js";
import { registerDriverBlockRoutes } from "./routes/driver-blocks.js";
import { registerHealthRoutes } from "./routes/health.js";
import { registerMementoRoutes } from "./routes/memento.js";
import { registerMemoryRoutes } from "./routes/memories.js";
import { registerMetricsRoutes } from "./routes/metrics.js";
import { registerOpenAiChatRoutes } from "./routes/openai-chat.js";
import { registerOpenAiModelRoutes } from "./routes/openai-models.js";
import { registerOpenAiResponsesRoutes } from "./routes/openai-responses.js";
import { registerPinnedContextRoutes } from "./routes/pinned-contexts.js";
import { registerReminderRoutes } from "./routes/reminders.js";
import { registerTaskRoutes } from "./routes/tasks.js";
import { registerThreadRoutes } from "./routes/threads.js";
import { registerTraceRoutes } from "./routes/traces.js";
import { trackShutdown } from "./shutdown.js";
import { createCallerResolver } from "./tenancy.js";

declare module "fastify" {
  interface FastifyRequest {
    tenantId: string;
    /** The API key the request authenticated with; null when auth is off (or off the /v1 routes). */
    apiKey: string | null;
  }
  interface FastifyContextConfig {
    /** The error body this route answers with (default: api.md §2). */
    errorFormat?: ErrorFormat;
    /** The route also answers its 200 as server-sent events (documented in /openapi.json): what they carry. */
    eventStream?: string;
    /** Headers the route sets on its answers, by status: name to description (documented in /openapi.json). */
    responseHeaders?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  }
}

export interface BuildAppOptions {
  readonly logger?: FastifyServerOptions["logger"];
  /** Directory of the built web client, served at `/` when present. */
  readonly webDir?: string;
  /** Extra route registrations (later features plug in here). */
  readonly plugins?: ReadonlyArray<(app: FastifyInstance, deps: AppDeps) => void>;
}

const MIB = 1024 * 1024;

/** Longest path parameter the router accepts, in encoded characters (128 ids of 4-byte characters fit). */
const MAX_PATH_PARAM_LENGTH = 2048;

/**
 * How often Node looks for requests past their time: a quarter of the limit, between 100 ms and Node's
 * own 30 s, so a stalled request is refused within 1.25 times the limit.
 */
function connectionsCheckingInterval(requestTimeoutMs: number): number {
  if (requestTimeoutMs <= 0) return 30_000;
  return Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 4)));
}

/** OpenAI's paths answer in OpenAI's error shape even where no route matched (an unknown method or id). */
const OPENAI_PATH = /^\/v1\/(?:chat\/completions|responses|models)(?:[/?#]|$)/;

/** The error shape a request gets: its route's, else OpenAI's under OpenAI's paths, else api.md §2. */
function errorFormatOf(req: FastifyRequest): ErrorFormat | undefined {
  return req.routeOptions.config?.errorFormat ?? (OPENAI_PATH.test(req.url) ? "openai" : undefined);
}

/** Builds the Fastify app: routes, auth and budgets, OpenAPI, the error model of api.md §2. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const requestTimeout = deps.config.SOL_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: options.logger ?? false,
    ...traceIdOptions(),
    bodyLimit: deps.config.SOL_BODY_LIMIT,
    // A client gets this long to send its whole request, then a 408 and a closed socket. Fastify's
    // default is no limit, so a request whose body never arrives held its socket (and an open file
    // descriptor) forever, on any route and before authentication. Answers may take longer. Node
    // enforces the limit only when the server is constructed with it, hence `http` as well.
    requestTimeout,
    http: { requestTimeout, connectionsCheckingInterval: connectionsCheckingInterval(requestTimeout) },
    // Ids in paths may be 128 characters (thread ids, `cra_<sessionId>` trace runs), and percent-encoding
    // can make one up to 12 times longer; the router's default of 100 answered 404 or 414 for them.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // Finish in-flight turns on close; drop idle keep-alive sockets so shutdown is prompt.
    forceCloseConnections: "idle",
    // Requests that arrive while closing are refused below, in the error model of api.md §2.
    return503OnClosing: false,
    clientErrorHandler,
    // Errors raised before routing (a badly encoded URL, an over-long id) answer in the error model of
    // api.md §2 too, or in OpenAI's under the facade's paths, like every other error there.
    frameworkErrors: (error, req, reply) => {
      const mapped = mapErrorFor(OPENAI_PATH.test(req.url) ? "openai" : undefined, error);
      return (reply as FastifyReply).code(mapped.status).send(mapped.body);
    },
  });
  allowEmptyJsonBody(app, { maxValues: deps.config.SOL_BODY_MAX_VALUES });
  app.setValidatorCompiler(validatorCompiler);
  // Response schemas document the API; replies are built from validated contracts, so plain JSON is enough.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest("tenantId", "");
  app.decorateRequest("apiKey", null);
  addRequestTelemetry(app, deps.metrics);

  const shutdown = trackShutdown(app);
  // Refused uploads are read to their end (see drainRequest), but not past a bound, nor a close.
  const drainBytes = Math.min(64 * MIB, Math.max(8 * MIB, 32 * deps.config.SOL_BODY_LIMIT));
  const closing = new AbortController();
  app.addHook("preClose", async () => closing.abort());
  const limits = await createRequestLimits(
    {
      tenantPerMinute: deps.config.SOL_RATE_LIMIT_PER_MIN,
      keyPerMinute: deps.config.SOL_KEY_RATE_LIMIT_PER_MIN,
      tokensPerMinute: deps.config.SOL_TOKEN_BUDGET_PER_MIN,
    },
    {
      store: deps.config.SOL_RATE_LIMIT_STORE,
      redisUrl: deps.config.SOL_REDIS_URL,
      dbUrl: deps.config.SOL_DB_URL,
      prefix: deps.config.SOL_RATE_LIMIT_PREFIX,
      // Fail open: with the shared store down, requests are counted in this process, never a 500.
      onStoreError: () => app.log.warn("rate-limit store failed; limits counted in this process meanwhile"),
    },
  );
  app.addHook("onClose", () => limits.close());
  const concurrency = createConcurrencyLimit(deps.config.SOL_MAX_CONCURRENT_PER_KEY);
  const routeDeps: AppDeps = { ...deps, turns: limitTurns(deps.turns, limits) };
  const resolveCaller = createCallerResolver(deps.config.SOL_API_KEYS);
  app.addHook("onRequest", async (req, reply) => {
    if (shutdown.closing) {
      reply.header("connection", "close");
      throw new SolError("unavailable", "The server is shutting down; retry the request shortly.");
    }
    if (!isApiRoute(req)) return;
    const caller = resolveCaller(req.headers.authorization);
    req.tenantId = caller.tenantId;
    req.apiKey = caller.apiKey;
    // Released when the response ends or the client goes away, streamed answers included.
    const release = concurrency.acquire(caller.apiKey ?? `tenant:${caller.tenantId}`);
    reply.raw.once("close", release);
    try {
      await limits.takeRequest(req.tenantId, req.apiKey);
    } catch (error) {
      release();
      throw error;
    }
  });

  app.setErrorHandler(async (error, req, reply) => {
    const mapped = mapErrorFor(errorFormatOf(req), error);
    // 503 is a refusal while shutting down, not a failure worth an error log.
    if (mapped.status >= 500 && mapped.status !== 503) req.log.error({ err: error }, "request failed");
    for (const [k, v] of Object.entries(mapped.headers ?? {})) reply.header(k, v);
    if (mapped.status === 413) {
      // Let the client finish its upload so it reads the 413, then close: the connection is spent.
      await drainRequest(req.raw, { maxBytes: drainBytes, signal: closing.signal });
      reply.header("connection", "close");
    }
    return reply.code(mapped.status).send(mapped.body);
  });
  app.setNotFoundHandler((req, reply) => {
    const mapped = mapErrorFor(
      errorFormatOf(req),
      new SolError("not_found", `No route ${req.method} ${req.url.split("?")[0]}.`),
    );
    return reply.code(mapped.status).send(mapped.body);
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "SolServer API",
        version: SERVER_VERSION,
        description: "SolServer public contract (api.md).",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      // Every /v1 route needs the bearer key when SOL_API_KEYS is set; /healthz never does.
      ...(deps.config.SOL_API_KEYS === undefined ? {} : { security: [{ bearer: [] }] }),
    },
    transform: createOpenApiTransform({
      auth: deps.config.SOL_API_KEYS !== undefined,
      rateLimited: deps.config.SOL_RATE_LIMIT_PER_MIN > 0,
    }),
  });

  registerHealthRoutes(app, routeDeps);
  registerMetricsRoutes(app, deps.metrics);
  registerChatRoutes(app, routeDeps);
  registerMementoRoutes(app, routeDeps);
  registerThreadRoutes(app, routeDeps);
  registerMemoryRoutes(app, routeDeps);
  registerPinnedContextRoutes(app, routeDeps);
  registerDriverBlockRoutes(app, routeDeps);
  registerTraceRoutes(app, routeDeps);
  registerActionRoutes(app, routeDeps);
  registerReminderRoutes(app, routeDeps);
  registerCalendarRoutes(app, routeDeps);
  registerCheckpointRoutes(app, routeDeps);
  registerOpenAiChatRoutes(app, routeDeps);
  registerOpenAiModelRoutes(app, routeDeps);
  registerOpenAiResponsesRoutes(app, routeDeps);
  registerAgencyRoutes(app, routeDeps, routeDeps.agency);
  registerTaskRoutes(app, routeDeps.agency);
  for (const plugin of options.plugins ?? []) plugin(app, routeDeps);

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  if (options.webDir && existsSync(options.webDir)) {
    // One route per built file instead of a catch-all: a catch-all would also take API paths the router
    // refuses (an over-long id), so their answer would depend on whether the web client was built.
    const assetsDir = join(options.webDir, "assets");
    await app.register(fastifyStatic, {
      root: options.webDir,
      prefix: "/",
      index: ["index.html"],
      wildcard: false,
      // Vite names every file under assets/ by a hash of its content: it never changes, so it is
      // cached for good; anything else (index.html) is revalidated, so a new build is seen at once.
      cacheControl: false,
      setHeaders: (res, path) => {
        const hashed = relative(assetsDir, path);
        const immutable = hashed !== "" && !hashed.startsWith("..") && !isAbsolute(hashed);
        res.setHeader("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  return app;
}

/**
 * Whether a request is for the `/v1` API, judged by the route the router matched: the router decodes
 * the path (`/%761/models` reaches `/v1/models`), so the raw URL alone would let an encoded prefix
 * skip the key check and the rate budget. Unmatched requests fall back to the raw path.
 */
function isApiRoute(req: FastifyRequest): boolean {
  const route = req.routeOptions.url;
  if (route !== undefined) return route.startsWith("/v1/");
  return req.url.startsWith("/v1/");
}
