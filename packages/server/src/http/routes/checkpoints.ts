import { CheckpointEvaluateRequest, CheckpointEvaluateResponse, ErrorBody } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppDeps } from "../app-deps.js";

/** Response header naming the trace run that holds the session's checkpoint events. */
export const CHECKPOINT_TRACE_HEADER = "x-sol-trace-run-id";

/**
 * The run id as a header value. It embeds the client's sessionId, which may hold characters a header
 * cannot carry (emoji, newlines); those are percent-encoded, which `GET /v1/traces/:id` decodes.
 */
export function headerSafeId(id: string): string {
  return /^[\x21-\x7e]*$/.test(id) ? id : encodeURIComponent(id);
}

/** `POST /v1/checkpoints/evaluate`: one agent event against the tenant's checkpoint session (api.md §3). */
export function registerCheckpointRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    "/v1/checkpoints/evaluate",
    {
      config: {
        responseHeaders: {
          200: { [CHECKPOINT_TRACE_HEADER]: "The session's trace run (GET /v1/traces/{traceRunId})." },
        },
      },
      schema: {
        summary: "Evaluate CRA checkpoints for one event of an acting agent's session",
        body: CheckpointEvaluateRequest,
        response: { 200: CheckpointEvaluateResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const outcome = await deps.checkpoints.evaluate(req.tenantId, req.body);
      reply.header(CHECKPOINT_TRACE_HEADER, headerSafeId(outcome.traceRunId));
      return reply.code(200).send(outcome.evaluation);
    },
  );
}
