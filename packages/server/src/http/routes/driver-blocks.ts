import {
  DriverBlockEnvelope,
  DriverBlockList,
  DriverBlockPatch,
  type DriverBlockView,
  describeDriverBlock,
  ErrorBody,
  SolError,
  type StoredDriverBlock,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { assertRoomForBlock } from "../../actions/index.js";
import type { AppDeps } from "../app-deps.js";

const Params = z.object({ blockId: z.string().min(1).max(64) });

/** The api view of a stored block's latest version. */
export function toDriverBlockView(stored: StoredDriverBlock): DriverBlockView {
  return {
    id: stored.blockId,
    version: stored.version,
    enabled: stored.enabled,
    hash: stored.hash,
    summary: describeDriverBlock(stored.block),
    block: stored.block,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

const notFound = (id: string) => new SolError("not_found", `No Driver Block ${id}.`);

/**
 * `/v1/driver-blocks`: the runtime-created blocks the user approved (`create_driver_block`); the
 * enabled ones apply to each of the tenant's turns like inline blocks.
 */
export function registerDriverBlockRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/v1/driver-blocks",
    {
      schema: {
        summary: "List the approved Driver Blocks: the latest version of each, with its enabled flag",
        response: { 200: DriverBlockList },
      },
    },
    async (req) => ({ driverBlocks: (await deps.driverBlocks.list(req.tenantId)).map(toDriverBlockView) }),
  );
  typed.patch(
    "/v1/driver-blocks/:blockId",
    {
      schema: {
        summary: "Turn a Driver Block on or off (400 driver_block_limit when too many would be on)",
        params: Params,
        body: DriverBlockPatch,
        response: { 200: DriverBlockEnvelope, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const { blockId } = req.params;
      const held = await deps.driverBlocks.get(req.tenantId, blockId);
      if (held === null) throw notFound(blockId);
      if (req.body.enabled && !held.enabled)
        await assertRoomForBlock(deps.driverBlocks, deps.policy, req.tenantId, blockId);
      const now = new Date().toISOString();
      const stored = await deps.driverBlocks.setEnabled(req.tenantId, blockId, req.body.enabled, now);
      if (stored === null) throw notFound(blockId);
      return { driverBlock: toDriverBlockView(stored) };
    },
  );
  typed.delete(
    "/v1/driver-blocks/:blockId",
    {
      schema: {
        summary: "Delete a Driver Block, every version of it",
        params: Params,
        response: { 204: z.null(), 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const { blockId } = req.params;
      if ((await deps.driverBlocks.delete(req.tenantId, blockId)) === 0) throw notFound(blockId);
      return reply.code(204).send(null);
    },
  );
}
