import type { FastifyInstance } from "fastify";
import type { SolMetrics } from "../../observability/metrics.js";

/** `GET /metrics` (SOL_METRICS=1): the Prometheus text exposition; not under /v1, so no key is needed. */
export function registerMetricsRoutes(app: FastifyInstance, metrics: SolMetrics): void {
  if (!metrics.enabled) return;
  app.get("/metrics", { schema: { hide: true } }, async (_req, reply) => {
    reply.header("content-type", metrics.contentType);
    reply.header("cache-control", "no-store");
    return metrics.render();
  });
}
