import { type ChatResponse, type PacketInput, SolError, type TransmissionRecord } from "@solserver/core";
import { TraceBuffer } from "./trace-buffer.js";
import { TurnLeaseLost } from "./turn-lease.js";
import { runTurnPhases } from "./turn-pipeline.js";
import type { TurnPlan } from "./turn-plan.js";
import { startTurnRun, type TurnDelivery, type TurnDeps, type TurnRun } from "./turn-run.js";
import type { TurnContext } from "./turn-service.js";

/**
 * Runs one attempt of a claimed turn (opened by its claim or takeover, which gave it the lease): runs
 * the phases and, when they fail, records the failed attempt and its trace. The attempt is finished
 * inside the turn's commit (one transaction fewer per turn).
 */
export async function runAttempt(
  deps: TurnDeps,
  ctx: TurnContext,
  packet: PacketInput,
  plan: TurnPlan,
  tx: TransmissionRecord,
  delivery: TurnDelivery,
): Promise<ChatResponse> {
  const trace = new TraceBuffer(() => deps.clock.now());
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

/**
 * Records a failed attempt, its transmission and its trace; answers the error to throw. An attempt
 * that lost its lease records nothing: the takeover closed it, and the run is the new owner's.
 */
async function failAttempt(run: TurnRun, error: unknown): Promise<SolError> {
  const { deps, tenantId, tx, trace, delivery } = run;
  if (error instanceof TurnLeaseLost) return error;
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
    // Fenced: a holder that lost the lease mid-failure must not fail the new owner's transmission.
    deps.store.transmissions.setStatus(
      tenantId,
      tx.transmissionId,
      "sending",
      "failed",
      iso(),
      delivery.attemptId,
    ),
    deps.store.traces.append(tenantId, tx.traceRunId, tx.transmissionId, trace.drafts),
  ]);
  return sol;
}
