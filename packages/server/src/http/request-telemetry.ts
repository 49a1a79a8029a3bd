import type { IncomingMessage } from "node:http";
import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  trace,
} from "@opentelemetry/api";
import { type FastifyInstance, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { SolMetrics } from "../observability/metrics.js";
import { solTracer } from "../observability/tracing.js";
import { randomTraceId } from "../util/ids.js";

interface RequestTelemetry {
  readonly span: Span;
  readonly startMs: number;
  ended: boolean;
}

// Keyed by the raw request: the span starts in genReqId, before Fastify's request object exists.
const telemetryOf = new WeakMap<IncomingMessage, RequestTelemetry>();

/**
 * Fastify options that make each request's id its trace id: the request's server span starts here
 * (a child of the caller's `traceparent`, when a propagator is registered), and Fastify puts the id on
 * every log line of the request under `traceId`. Without a recording tracer the id is random.
 */
export function traceIdOptions(): Pick<FastifyServerOptions, "genReqId" | "logController"> {
  return {
    logController: new LogController({ requestIdLogLabel: "traceId" }),
    genReqId: (raw) => {
      const parent = propagation.extract(ROOT_CONTEXT, raw.headers);
      const span = solTracer().startSpan(`${raw.method ?? "GET"}`, { kind: SpanKind.SERVER }, parent);
      telemetryOf.set(raw, { span, startMs: performance.now(), ended: false });
      const spanContext = span.spanContext();
      return isSpanContextValid(spanContext) ? spanContext.traceId : randomTraceId();
    },
  };
}

/**
 * The request's server span (named by its route template once routed; the turn's spans are its
 * children), its trace id in the `x-sol-trace-id` header, and the HTTP metrics.
 */
export function addRequestTelemetry(app: FastifyInstance, metrics: SolMetrics): void {
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("x-sol-trace-id", req.id);
    metrics.httpInFlight(1);
    const t = telemetryOf.get(req.raw);
    if (t === undefined) return done();
    const route = routeOf(req);
    t.span.updateName(`${req.method} ${route}`);
    t.span.setAttributes({ "http.request.method": req.method, "http.route": route });
    // The rest of the request (hooks, handler, the turn) runs inside the span's context.
    context.with(trace.setSpan(context.active(), t.span), done);
  });
  const end = (req: FastifyRequest, status: number) => {
    const t = telemetryOf.get(req.raw);
    if (t === undefined || t.ended) return;
    t.ended = true;
    t.span.setAttribute("http.response.status_code", status);
    t.span.end();
    metrics.httpInFlight(-1);
    metrics.httpRequest(req.method, routeOf(req), status, (performance.now() - t.startMs) / 1000);
  };
  app.addHook("onResponse", (req, reply, done) => {
    end(req, reply.statusCode);
    done();
  });
  // A client that hangs up before the answer: the request ends there (499, nginx's "client closed").
  app.addHook("onRequestAbort", (req, done) => {
    end(req, 499);
    done();
  });
}

/** The matched route's template (never the raw path: ids would leak into labels); unmatched: "unmatched". */
function routeOf(req: FastifyRequest): string {
  return req.routeOptions.url ?? "unmatched";
}
