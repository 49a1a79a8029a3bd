import {
  ActionView,
  DeferActionResult,
  ErrorBody,
  ExecuteActionInput,
  ExecuteActionResult,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";

const Params = z.object({ actionId: z.string().min(1).max(128) });

/** The permission gate (api.md §3 Actions): read an action, execute it at most once, defer it. */
export function registerActionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/v1/actions/:actionId",
    { schema: { params: Params, response: { 200: ActionView, 404: ErrorBody } } },
    async (req) => deps.actions.get(req.tenantId, req.params.actionId),
  );

  typed.post(
    "/v1/actions/execute",
    {
      schema: {
        body: ExecuteActionInput,
        response: { 200: ExecuteActionResult, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (req) => deps.actions.execute(req.tenantId, req.body),
  );

  // No body schema: "Not now" carries nothing, and clients may send `{}` or no body at all.
  typed.post(
    "/v1/actions/:actionId/defer",
    { schema: { params: Params, response: { 200: DeferActionResult, 404: ErrorBody, 409: ErrorBody } } },
    async (req) => deps.actions.defer(req.tenantId, req.params.actionId),
  );
}
