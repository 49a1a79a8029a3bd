import { ErrorBody, SolError, TraceEvent } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";

const TraceRun = z.object({ traceRunId: z.string(), events: z.array(TraceEvent) });

/** `GET /v1/traces/:traceRunId`: the hash-chained events of one run. */
export function registerTraceRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/v1/traces/:traceRunId",
    {
      schema: {
        params: z.object({ traceRunId: z.string().min(1).max(128) }),
        response: { 200: TraceRun, 404: ErrorBody },
      },
    },
    async (req) => {
      const events = await deps.store.traces.get(req.tenantId, req.params.traceRunId);
      if (events.length === 0) throw new SolError("not_found", `No trace run ${req.params.traceRunId}.`);
      return { traceRunId: req.params.traceRunId, events };
    },
  );
}
