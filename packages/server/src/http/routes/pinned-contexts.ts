import {
  ErrorBody,
  type PinnedContext,
  PinnedContextEnvelope,
  PinnedContextInput,
  SolError,
  type StoredPinnedContext,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sha256Hex } from "../../store/index.js";
import type { AppDeps } from "../app-deps.js";
import { queryInt } from "../query-int.js";

const Params = z.object({ pinnedContextId: z.string().min(1).max(128) });
const GetQuery = z.object({ version: queryInt(1, Number.MAX_SAFE_INTEGER).optional() }).strict();

/** The api view of one stored version. */
export function toPinnedContextView(stored: StoredPinnedContext): PinnedContext {
  return {
    id: stored.pinnedContextId,
    version: stored.version,
    hash: stored.hash,
    content: stored.content,
    createdAt: stored.createdAt,
  };
}

function notFound(id: string, version?: number): SolError {
  const which = version === undefined ? id : `${id} version ${version}`;
  return new SolError("not_found", `No pinned context ${which}.`);
}

/**
 * `/v1/pinned-contexts/:id`: text a client pins once and then references from packets by
 * `pinnedContextRef {id, version, hash}` instead of resending it each turn.
 */
export function registerPinnedContextRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.put(
    "/v1/pinned-contexts/:pinnedContextId",
    {
      schema: {
        summary: "Pin content under an id: a new version when the content changed (201 for the first)",
        params: Params,
        body: PinnedContextInput,
        response: { 200: PinnedContextEnvelope, 201: PinnedContextEnvelope, 400: ErrorBody },
      },
    },
    async (req, reply) => {
      const { content } = req.body;
      const saved = await deps.pinnedContexts.put({
        tenantId: req.tenantId,
        pinnedContextId: req.params.pinnedContextId,
        hash: sha256Hex(content),
        content,
        now: new Date().toISOString(),
      });
      const code = saved.outcome === "created" ? 201 : 200;
      return reply.code(code).send({ pinnedContext: toPinnedContextView(saved.pinnedContext) });
    },
  );
  typed.get(
    "/v1/pinned-contexts/:pinnedContextId",
    {
      schema: {
        summary: "Read a pinned context: the latest version, or ?version=",
        params: Params,
        querystring: GetQuery,
        response: { 200: PinnedContextEnvelope, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const { pinnedContextId } = req.params;
      const { version } = req.query;
      const stored = await deps.pinnedContexts.get(req.tenantId, pinnedContextId, version);
      if (stored === null) throw notFound(pinnedContextId, version);
      return { pinnedContext: toPinnedContextView(stored) };
    },
  );
  typed.delete(
    "/v1/pinned-contexts/:pinnedContextId",
    { schema: { params: Params, response: { 204: z.null(), 404: ErrorBody } } },
    async (req, reply) => {
      const { pinnedContextId } = req.params;
      if ((await deps.pinnedContexts.delete(req.tenantId, pinnedContextId)) === 0)
        throw notFound(pinnedContextId);
      return reply.code(204).send(null);
    },
  );
}
