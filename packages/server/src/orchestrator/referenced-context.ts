import {
  clipText,
  isDecisionsQuestion,
  type ModeDecision,
  recallDecisions,
  renderDecisionsContext,
  type StoredCheckpoint,
} from "@solserver/core";
import { isMetaOpsReanchor, REANCHOR_CONTEXT } from "./drift-check.js";
import type { LoadedTurn } from "./load-phase.js";
import type { TurnPlan } from "./turn-plan.js";
import type { TurnRun } from "./turn-run.js";

/** At most this many of a packet's `checkpointIds[]` are injected, each capsule clipped. */
export const MAX_INJECTED_CHECKPOINTS = 5;
export const MAX_CHECKPOINT_CHARS = 2000;

/** Context the packet referenced by id (pinned context, checkpoints) and the decisions recall. */
export interface ReferencedContext {
  /** Prompt lines, in order: pinned context, referenced checkpoints, the decisions recall. */
  readonly lines: readonly string[];
  /** The recorded decisions, when the user asked what is decided. */
  readonly decided?: readonly string[];
  /** A meta-ops re-anchor: the reply is asked to say openly where the thread stands. */
  readonly metaOpsReanchor: boolean;
}

/**
 * Resolves what the packet points at rather than carries: its pinned context (resolved before the
 * claim), the latest versions of its `checkpointIds[]` (bounded; unknown ids are traced, not fatal,
 * since a client's list may name a deleted thread's checkpoint) and, for "What's decided?", the
 * memento's decisions with the latest checkpoint's.
 */
export async function referencedContextPhase(
  run: TurnRun,
  plan: TurnPlan,
  loaded: LoadedTurn,
  modeDecision: ModeDecision,
): Promise<ReferencedContext> {
  const lines: string[] = [];
  const metaOpsReanchor =
    !loaded.contextOff && isMetaOpsReanchor(run.deps.engines.router.modes, modeDecision, run.packet.message);
  if (metaOpsReanchor) lines.push(REANCHOR_CONTEXT);
  if (plan.pinnedContext !== undefined) {
    const { id, version, content } = plan.pinnedContext;
    lines.push(`Pinned context "${id}" (version ${version}), set by the user:\n${content}`);
    run.trace.add("pinned_context", "completed", `Pinned context ${id} v${version} injected`, {
      id,
      version,
    });
  }
  lines.push(...(await checkpointLines(run)));
  if (loaded.contextOff || !isDecisionsQuestion(run.packet.message)) return { lines, metaOpsReanchor };
  const latest = run.deps.checkpoints
    ? await run.deps.checkpoints.latestForThread(run.tenantId, run.packet.threadId)
    : null;
  const recall = recallDecisions(loaded.retrievalMemento?.decisions ?? [], latest?.capsule ?? null);
  run.trace.add("decisions_recall", "completed", `${recall.decisions.length} decisions recalled`, {
    fromMemento: recall.fromMemento,
    fromCheckpoint: recall.fromCheckpoint,
    checkpoint: latest === null ? null : { checkpointId: latest.checkpointId, version: latest.version },
  });
  return { lines: [...lines, renderDecisionsContext(recall)], decided: recall.decisions, metaOpsReanchor };
}

async function checkpointLines(run: TurnRun): Promise<string[]> {
  const asked = [...new Set(run.packet.checkpointIds ?? [])];
  if (asked.length === 0) return [];
  const wanted = asked.slice(0, MAX_INJECTED_CHECKPOINTS);
  const found: StoredCheckpoint[] = run.deps.checkpoints
    ? await run.deps.checkpoints.getLatest(run.tenantId, wanted)
    : [];
  const foundIds = new Set(found.map((c) => c.checkpointId));
  run.trace.add(
    "checkpoint_inject",
    found.length === wanted.length ? "completed" : "warning",
    `${found.length} of ${asked.length} checkpoints injected`,
    {
      injected: found.map((c) => ({ checkpointId: c.checkpointId, version: c.version })),
      unknown: wanted.filter((id) => !foundIds.has(id)),
      overLimit: asked.slice(MAX_INJECTED_CHECKPOINTS),
    },
  );
  return found.map(
    (c) =>
      `Checkpoint ${c.checkpointId} (version ${c.version}):\n${clipText(c.capsule, MAX_CHECKPOINT_CHARS)}`,
  );
}
