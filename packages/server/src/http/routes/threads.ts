import {
  ErrorBody,
  SolError,
  type StoredCheckpoint,
  type ThreadCheckpoint,
  ThreadCheckpointList,
  ThreadList,
  ThreadMessagePage,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { queryInt } from "../query-int.js";

/** Most threads or messages one page holds (and the default `limit`). */
export const THREAD_PAGE_LIMIT = 100;

const Params = z.object({ threadId: z.string().min(1).max(128) });

const ListQuery = z.object({
  limit: queryInt(1, THREAD_PAGE_LIMIT).default(20),
  after: z.string().min(1).max(128).optional(),
});

const MessagesQuery = z.object({
  afterSeq: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: queryInt(1, THREAD_PAGE_LIMIT).default(THREAD_PAGE_LIMIT),
});

// api.md §2: another tenant's thread is a 404, the same as one that never existed.
function noThread(threadId: string): SolError {
  return new SolError("not_found", `No thread ${threadId}.`);
}

function toCheckpointView(stored: StoredCheckpoint): ThreadCheckpoint {
  return {
    checkpointId: stored.checkpointId,
    threadId: stored.threadId,
    version: stored.version,
    contentHash: stored.contentHash,
    trigger: [...stored.trigger],
    capsule: stored.capsule,
    createdAt: stored.createdAt,
  };
}

/** `GET /v1/threads`, `GET /v1/threads/:threadId/messages`, `DELETE /v1/threads/:threadId` (api.md §3). */
export function registerThreadRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/v1/threads",
    { schema: { querystring: ListQuery, response: { 200: ThreadList, 400: ErrorBody } } },
    async (req) => {
      const { limit, after } = req.query;
      const threads = await deps.threads.list(req.tenantId, {
        limit,
        ...(after === undefined ? {} : { after }),
      });
      return { threads };
    },
  );
  typed.get(
    "/v1/threads/:threadId/messages",
    {
      schema: {
        params: Params,
        querystring: MessagesQuery,
        response: { 200: ThreadMessagePage, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const { threadId } = req.params;
      const { afterSeq, limit } = req.query;
      const messages = await deps.threads.listMessages(req.tenantId, threadId, {
        limit,
        ...(afterSeq === undefined ? {} : { afterSeq }),
      });
      if (messages === null) throw noThread(threadId);
      return { messages };
    },
  );
  typed.get(
    "/v1/threads/:threadId/checkpoints",
    {
      schema: {
        summary: "The thread's latest persisted checkpoint (its id goes in a packet's checkpointIds[])",
        params: Params,
        response: { 200: ThreadCheckpointList },
      },
    },
    async (req) => {
      const latest = await deps.threadCheckpoints.latestForThread(req.tenantId, req.params.threadId);
      return { checkpoints: latest === null ? [] : [toCheckpointView(latest)] };
    },
  );
  typed.delete(
    "/v1/threads/:threadId",
    { schema: { params: Params, response: { 204: z.null(), 404: ErrorBody } } },
    async (req, reply) => {
      const { threadId } = req.params;
      if (!(await deps.threads.deleteThread(req.tenantId, threadId))) throw noThread(threadId);
      return reply.code(204).send(null);
    },
  );
}
