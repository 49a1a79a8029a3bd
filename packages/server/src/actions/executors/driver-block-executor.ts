import {
  type ActionExecutor,
  CREATE_DRIVER_BLOCK_KIND,
  canonicalJson,
  checkRuntimeBlock,
  type DriverBlock,
  type DriverBlockStore,
  type PolicyEngine,
  SolError,
  sha256Hex,
} from "@solserver/core";
import { clipLine } from "./payload.js";

/** The hash a stored block is versioned by: its content, not the version a proposal wrote in it. */
export function driverBlockHash(block: DriverBlock): string {
  const { version: _version, ...content } = block;
  return sha256Hex(canonicalJson(content));
}

/** Throws when enabling `blockId` would put more blocks on a turn than the engine takes inline. */
export async function assertRoomForBlock(
  store: DriverBlockStore,
  policy: PolicyEngine,
  tenantId: string,
  blockId: string,
): Promise<void> {
  const enabled = (await store.list(tenantId)).filter((b) => b.enabled && b.blockId !== blockId);
  const max = policy.limits.maxInline;
  if (enabled.length >= max) {
    throw new SolError(
      "driver_block_limit",
      `You already have ${enabled.length} Driver Blocks on; the limit is ${max}. Turn one off first.`,
      { details: { limit: { name: "maxInline", max, actual: enabled.length + 1 } } },
    );
  }
}

/**
 * `create_driver_block`: keeps the approved block for the tenant (a new version when its content
 * changed) and turns it on; from the next turn it applies like an inline block.
 */
export function createDriverBlockExecutor(deps: {
  readonly driverBlocks: DriverBlockStore;
  readonly policy: PolicyEngine;
}): ActionExecutor {
  return {
    kind: CREATE_DRIVER_BLOCK_KIND,
    async execute(payload, ctx) {
      const checked = checkRuntimeBlock(deps.policy, payload);
      if (!checked.ok) {
        throw new SolError("invalid_input", `The Driver Block is not valid: ${checked.issues[0]?.message}`, {
          details: checked.issues,
        });
      }
      const block = checked.value;
      await assertRoomForBlock(deps.driverBlocks, deps.policy, ctx.tenantId, block.id);
      const { outcome, driverBlock } = await deps.driverBlocks.put({
        tenantId: ctx.tenantId,
        blockId: block.id,
        hash: driverBlockHash(block),
        block,
        now: new Date(ctx.nowMs).toISOString(),
      });
      const name = block.title ?? block.id;
      const verb = outcome === "unchanged" ? "is on" : "saved";
      return {
        summary: clipLine(
          `Driver Block "${name}" v${driverBlock.version} ${verb}; it applies from your next message.`,
          500,
        ),
      };
    },
  };
}
