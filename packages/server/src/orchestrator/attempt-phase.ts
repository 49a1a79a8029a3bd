import { type ChatResponse, type PacketInput, SolError, type TransmissionRecord } from "@solserver/core";
import { TraceBuffer } from "./trace-buffer.js";
import { runTurnPhases } from "./turn-pipeline.js";
import type { TurnPlan } from "./turn-plan.js";
import { startTurnRun, type TurnDelivery, type TurnDeps, type TurnRun } from "./turn-run.js";
import type { TurnContext } from "./turn-service.js";

/**
 * Runs one attempt of a claimed turn: opens the attempt (unless the claim did), runs the phases and,
 * when they fail, records the failed attempt and its trace. The attempt is finished inside the
 * turn's commit (one transaction fewer per turn).
 */
export async function runAttempt(
  deps: TurnDeps,
  ctx: TurnContext,
  packet: PacketInput,
  plan: TurnPlan,
  tx: TransmissionRecord,
  started?: TurnDelivery,
): Promise<ChatResponse> {
  const trace = new TraceBuffer(() => deps.clock.now());
  const delivery = started ?? (await reopenAttempt(deps, ctx.tenantId, packet, tx));
  trace.add("receive", "completed", "Packet received", {
    requestId: packet.requestId,
    threadId: packet.threadId,
    packetType: packet.packetType,
    attemptId: delivery.attemptId,
  });
  const run = startTurnRun({
    deps,
    tenantId: ctx.tenantId,
    bodyHash: ctx.bodyHash,
    packet,
    tx,
    trace,
    delivery,
  });
  try {
    // A claim made by this request has an empty trace run until this turn commits.
    return await runTurnPhases(run, plan);
  } catch (error) {
    throw await failAttempt(run, error);
  }
}

/** A re-run (failed or stale transmission): takes it from queued to sending and opens a new attempt. */
async function reopenAttempt(
  deps: TurnDeps,
  tenantId: string,
  packet: PacketInput,
  tx: TransmissionRecord,
): Promise<TurnDelivery> {
  const iso = () => new Date(deps.clock.now()).toISOString();
  const startedMs = deps.clock.now();
  const attemptId = deps.ids("att");
  const moved = await deps.store.transmissions.setStatus(
    tenantId,
    tx.transmissionId,
    "queued",
    "sending",
    iso(),
  );
  if (!moved) {
    throw new SolError("conflict", "Another worker picked up this request; retry to get its result.", {
      details: { requestId: packet.requestId },
    });
  }
  await deps.store.transmissions.startAttempt(tenantId, {
    attemptId,
    transmissionId: tx.transmissionId,
    status: "sending",
    startedAt: iso(),
  });
  return { attemptId, startedMs, firstAttempt: false };
}

/** Records a failed attempt, its transmission and its trace; answers the error to throw. */
async function failAttempt(run: TurnRun, error: unknown): Promise<SolError> {
  const { deps, tenantId, tx, trace, delivery } = run;
  const iso = () => new Date(deps.clock.now()).toISOString();
  const sol =
    error instanceof SolError ? error : new SolError("internal", "The turn failed.", { cause: error });
  trace.add("respond", "failed", `Turn failed: ${sol.code}`, { code: sol.code, message: sol.message });
  await Promise.allSettled([
    deps.store.transmissions.finishAttempt(tenantId, delivery.attemptId, {
      status: "failed",
      endedAt: iso(),
      errorCode: sol.code,
      latencyMs: deps.clock.now() - delivery.startedMs,
    }),
    deps.store.transmissions.setStatus(tenantId, tx.transmissionId, "sending", "failed", iso()),
    deps.store.traces.append(tenantId, tx.traceRunId, tx.transmissionId, trace.drafts),
  ]);
  return sol;
}
