import {
  deriveMemorySummary,
  ErrorBody,
  Memory,
  MemoryCreated,
  MemoryInput,
  MemoryList,
  type MemoryRecord,
  SolError,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { randomIds } from "../../util/ids.js";
import type { AppDeps } from "../app-deps.js";
import { queryInt } from "../query-int.js";

const Params = z.object({ memoryId: z.string().min(1).max(128) });

const ListQuery = z
  .object({
    q: z.string().min(1).max(2000).optional(),
    domain: z.string().min(1).max(64).optional(),
    limit: queryInt(1, 100).default(20),
    after: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("The memoryId of the last memory of the previous page."),
  })
  .strict();

/** The api.md view of a stored memory. */
export function toMemoryView(record: MemoryRecord): Memory {
  return {
    memoryId: record.memoryId,
    text: record.text,
    summary: record.summary,
    domainFlags: [...record.domainFlags],
    ...(record.threadId === null ? {} : { threadId: record.threadId }),
    source: record.source,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function notFound(memoryId: string): SolError {
  return new SolError("not_found", `No memory ${memoryId}.`);
}

const REPLAYED = {
  200: { "Idempotent-Replayed": "`true`: the stored answer to an earlier identical request." },
} as const;

/** `/v1/memories`: the tenant's explicit memories (api.md §3 "Memories"). */
export function registerMemoryRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post(
    "/v1/memories",
    {
      config: { responseHeaders: REPLAYED },
      schema: {
        summary: "Save a memory (idempotent by requestId)",
        body: MemoryInput,
        response: { 200: MemoryCreated, 201: MemoryCreated, 400: ErrorBody, 409: ErrorBody },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const result = await deps.memories.save({
        tenantId: req.tenantId,
        memoryId: randomIds("mem"),
        requestId: body.requestId,
        bodyHash: sha256Hex(canonicalJson(body)),
        text: body.text,
        summary: body.summary ?? deriveMemorySummary(body.text),
        domainFlags: body.domainFlags ?? [],
        threadId: body.threadId ?? null,
        source: body.source ?? "user",
        createdAt: new Date().toISOString(),
      });
      if (!result.ok) {
        throw new SolError("idempotency_conflict", "This requestId was used with a different body.");
      }
      if (!result.created) reply.header("idempotent-replayed", "true");
      return reply.code(result.created ? 201 : 200).send({ memory: toMemoryView(result.memory) });
    },
  );

  typed.get(
    "/v1/memories",
    {
      schema: {
        summary: "List memories: ranked for q (with score), else newest first",
        querystring: ListQuery,
        response: { 200: MemoryList, 400: ErrorBody },
      },
    },
    async (req) => {
      const { q, domain, limit, after } = req.query;
      const options = { limit, ...(domain ? { domain } : {}), ...(after ? { after } : {}) };
      if (q === undefined) {
        const list = await deps.memories.list(req.tenantId, options);
        return { memories: list.map(toMemoryView) };
      }
      const now = new Date().toISOString();
      const hits = await deps.memories.search(req.tenantId, { ...options, query: q, now });
      return { memories: hits.map((h) => ({ ...toMemoryView(h.memory), score: h.score })) };
    },
  );

  typed.get(
    "/v1/memories/:memoryId",
    { schema: { params: Params, response: { 200: Memory, 404: ErrorBody } } },
    async (req) => {
      const memory = await deps.memories.get(req.tenantId, req.params.memoryId);
      if (memory === null) throw notFound(req.params.memoryId);
      return toMemoryView(memory);
    },
  );

  typed.delete(
    "/v1/memories/:memoryId",
    { schema: { params: Params, response: { 204: z.null(), 404: ErrorBody } } },
    async (req, reply) => {
      if (!(await deps.memories.delete(req.tenantId, req.params.memoryId)))
        throw notFound(req.params.memoryId);
      return reply.code(204).send(null);
    },
  );
}
