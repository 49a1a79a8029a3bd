import { type CompiledPolicy, type ModeDecision, SolError } from "@solserver/core";
import type { TraceBuffer } from "./trace-buffer.js";
import type { TurnPlan } from "./turn-plan.js";

/** The policy phase: the routed mode's compiled Driver Blocks; blocks that do not compile are the client's fault (400). */
export function policyPhase(plan: TurnPlan, modeDecision: ModeDecision, trace: TraceBuffer): CompiledPolicy {
  const resolved = plan.policyFor(modeDecision.modeLabel);
  if (!resolved.ok)
    throw new SolError("invalid_input", "Driver Blocks could not be compiled.", { details: resolved.issues });
  const policy = resolved.value;
  // driverBlockMode is in the packet for audit clarity (flow pack): the trace is the turn's audit record.
  trace.add("policy", "completed", `Driver Blocks compiled (${policy.blocks.length})`, {
    driverBlockMode: policy.driverBlockMode,
    blocks: policy.blocks.map((b) => ({
      id: b.id,
      version: b.version,
      enforcement: b.enforcement,
      scope: b.scope,
    })),
    skipped: policy.skipped.length,
    ...(plan.storedBlocks.length === 0
      ? {}
      : { stored: plan.storedBlocks.map((b) => ({ id: b.id, version: b.version })) }),
    ...(plan.skippedStoredBlocks.length === 0 ? {} : { storedSkipped: plan.skippedStoredBlocks }),
  });
  return policy;
}
