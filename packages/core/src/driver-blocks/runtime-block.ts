import { DriverBlock } from "../contracts/driver-block.js";
import { fail, ok, type Result } from "../result.js";
import type { PolicyEngine } from "./policy-engine.js";
import type { PolicyIssue } from "./policy-types.js";

/** The `action_kind` of an assistant's proposal to keep a Driver Block for the user. */
export const CREATE_DRIVER_BLOCK_KIND = "create_driver_block";

/**
 * Checks a runtime-created block (an action payload) as the engine checks an inline block: schema,
 * size limit, patterns. Answers the parsed block, always user scope (a proposal cannot mint a system block).
 */
export function checkRuntimeBlock(engine: PolicyEngine, raw: unknown): Result<DriverBlock, PolicyIssue> {
  // "custom" leaves the baseline out, so only this block is selected and measured.
  const resolved = engine.resolve({ driverBlockMode: "custom", driverBlockInline: [raw as DriverBlock] });
  if (!resolved.ok) return resolved;
  const block = DriverBlock.parse(raw);
  // Selected beside the system blocks on every turn, a block with a system block's id would fail them all.
  if (engine.systemBlocks.some((system) => system.id === block.id)) {
    return fail({
      code: "duplicate_driver_block",
      message: `"${block.id}" is the id of a system block; give the block its own id`,
      path: ["id"],
    });
  }
  return ok({ ...block, scope: "user" });
}
