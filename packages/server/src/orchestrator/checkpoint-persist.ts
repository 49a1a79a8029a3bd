import type { CheckpointStore, ModeDecision } from "@solserver/core";
import { sha256Hex } from "../store/canonical-json.js";
import type { TurnRun } from "./turn-run.js";

const CHECKPOINT_REASON = "checkpoint: ";

/** The heartbeat reasons behind a checkpoint (the router's own reasons when the mode asked for it). */
export function checkpointTrigger(modeDecision: ModeDecision): string[] {
  const heartbeat = modeDecision.reasons
    .filter((reason) => reason.startsWith(CHECKPOINT_REASON))
    .map((reason) => reason.slice(CHECKPOINT_REASON.length));
  return heartbeat.length > 0 ? heartbeat : [...modeDecision.reasons];
}

/**
 * Keeps the turn's capsule as the thread's checkpoint (created, a new version when its content
 * changed, or unchanged) and traces the outcome.
 */
export async function persistCheckpoint(
  run: TurnRun,
  checkpoints: CheckpointStore,
  capsule: string,
  modeDecision: ModeDecision,
): Promise<void> {
  const saved = await checkpoints.save({
    tenantId: run.tenantId,
    threadId: run.packet.threadId,
    newCheckpointId: run.deps.ids("ckpt"),
    contentHash: sha256Hex(capsule),
    trigger: checkpointTrigger(modeDecision),
    capsule,
    now: new Date(run.deps.clock.now()).toISOString(),
  });
  run.trace.add("checkpoint_store", "completed", `Checkpoint ${saved.outcome}`, {
    outcome: saved.outcome,
    checkpointId: saved.checkpoint.checkpointId,
    version: saved.checkpoint.version,
    contentHash: saved.checkpoint.contentHash,
    trigger: [...saved.checkpoint.trigger],
  });
}
