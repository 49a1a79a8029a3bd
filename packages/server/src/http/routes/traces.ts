import { ErrorBody, SolError, TraceEvent } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { verifyTenantTraces } from "../../integrity/index.js";
import type { AppDeps } from "../app-deps.js";
import { queryInt } from "../query-int.js";

/**
 * Most events one `GET /v1/traces/:traceRunId` answers with (and its default `limit`). A turn's run
 * is a few dozen events; a checkpoint session's run (`cra_...`) gains events with every evaluation
 * for as long as the session lives, so it is read in pages.
 */
export const TRACE_PAGE_LIMIT = 1000;

const TraceAnchorBody = z.object({
  tenantSeq: z.number().int(),
  traceRunId: z.string(),
  runTailSeq: z.number().int(),
  runTailHash: z.string(),
  prevAnchorHash: z.string(),
  anchorHash: z.string(),
});

const TraceRun = z.object({
  traceRunId: z.string(),
  events: z.array(TraceEvent),
  nextAfterSeq: z.number().int().optional(),
  /** The tenant anchors naming this run (additive; empty for runs from before schema v19). */
  anchors: z.array(TraceAnchorBody),
});

const TraceVerifyBody = z.object({
  ok: z.boolean(),
  checkedRuns: z.number().int(),
  head: z.object({ tenantSeq: z.number().int(), anchorHash: z.string() }).nullable(),
  break: z.object({ traceRunId: z.string(), reason: z.string() }).optional(),
});

const TracePageQuery = z.object({
  afterSeq: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: queryInt(1, TRACE_PAGE_LIMIT).default(TRACE_PAGE_LIMIT),
});

/**
 * `GET /v1/traces/:traceRunId[?afterSeq=&limit=]`: the hash-chained events of one run, in seq order,
 * one page at a time. When more events follow, `nextAfterSeq` is what to pass as `afterSeq` next.
 */
export function registerTraceRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Static, so Fastify matches it before the parametric run route below.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get("/v1/traces/verify", { schema: { response: { 200: TraceVerifyBody } } }, async (req) =>
      verifyTenantTraces(deps.store.traces, req.tenantId),
    );
  app.withTypeProvider<ZodTypeProvider>().get(
    "/v1/traces/:traceRunId",
    {
      schema: {
        params: z.object({ traceRunId: z.string().min(1).max(128) }),
        querystring: TracePageQuery,
        response: { 200: TraceRun, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const { tenantId } = req;
      const { traceRunId } = req.params;
      const { afterSeq, limit } = req.query;
      // One more than the page, to know whether another page follows.
      const events = await deps.store.traces.get(tenantId, traceRunId, {
        ...(afterSeq === undefined ? {} : { afterSeq }),
        limit: limit + 1,
      });
      const more = events.length > limit;
      if (more) events.length = limit;
      // Past the end of a run that exists is an empty page, not a missing run.
      const exists =
        events.length > 0 ||
        (afterSeq !== undefined &&
          (await deps.store.traces.get(tenantId, traceRunId, { limit: 1 })).length > 0);
      if (!exists) {
        // A run the tenant's anchors name but whose events are gone was removed, not never written.
        const anchored = (await deps.store.traces.anchors(tenantId, traceRunId)).length > 0;
        throw new SolError(
          "not_found",
          anchored
            ? `Trace run ${traceRunId} was anchored but its events are gone (removed).`
            : `No trace run ${traceRunId}.`,
          anchored ? { details: { reason: "run_removed" } } : {},
        );
      }
      const last = events.at(-1);
      const anchors = await deps.store.traces.anchors(tenantId, traceRunId);
      return { traceRunId, events, ...(more && last ? { nextAfterSeq: last.seq } : {}), anchors };
    },
  );
}
