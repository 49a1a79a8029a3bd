import type { ChatResponse, PacketInput, TransmissionRecord } from "@solserver/core";
import { resolveExistingTransmission } from "./idempotency.js";
import { readThread } from "./thread-reads.js";
import type { TurnDelivery } from "./turn-run.js";
import type { TurnContext } from "./turn-service.js";
import type { TurnServiceOptions } from "./turn-service-options.js";

/** The turn service's options with their defaults filled in. */
export type ResolvedTurnOptions = TurnServiceOptions &
  Required<Pick<TurnServiceOptions, "idempotencyWaitMs" | "turnLeaseMs" | "sleep" | "metrics">>;

/** A replay of the stored response, or a transmission to run under the lease of the attempt `started` opened. */
export type ClaimOutcome =
  | { readonly kind: "replay"; readonly response: ChatResponse; readonly createdAt: string }
  | { readonly kind: "run"; readonly tx: TransmissionRecord; readonly started: TurnDelivery };

/**
 * The claim phase: the request's idempotency claim. A new claim starts delivering in its own
 * transaction (created `sending` with the first attempt, which holds the lease); an existing one is
 * replayed, waited for, refused (another body) or taken over.
 */
export async function claimPhase(
  opts: ResolvedTurnOptions,
  ctx: TurnContext,
  packet: PacketInput,
  callerWindow: boolean,
): Promise<ClaimOutcome> {
  const started = { attemptId: opts.ids("att"), startedMs: opts.clock.now() };
  // The thread is read alongside the claim, in the same store round trip rather than the next one
  // (the claim writes nothing those reads see). Only a new claim uses them: a request that finds
  // its transmission already there may wait for it, and then reads the thread afresh.
  const reads = readThread(opts.store, ctx.tenantId, packet, callerWindow, opts.windowSize);
  reads.catch(() => undefined);
  const claim = await opts.store.transmissions.claim({
    tenantId: ctx.tenantId,
    requestId: packet.requestId,
    threadId: packet.threadId,
    bodyHash: ctx.bodyHash,
    type: "chat",
    transmissionId: opts.ids("tx"),
    traceRunId: opts.ids("tr"),
    now: new Date(opts.clock.now()).toISOString(),
    ...(packet.packetId ? { packetId: packet.packetId } : {}),
    startAttempt: {
      attemptId: started.attemptId,
      startedAt: new Date(started.startedMs).toISOString(),
      leaseExpiresAt: new Date(started.startedMs + opts.turnLeaseMs).toISOString(),
    },
  });
  if (claim.kind === "created") {
    return { kind: "run", tx: claim.transmission, started: { ...started, firstAttempt: true, reads } };
  }
  return awaitExisting(opts, ctx, claim.transmission);
}

/**
 * A request that found its requestId claimed: the stored response once there is one (waiting for a
 * live holder), or a takeover when the holder is gone; a takeover reads the thread afresh.
 */
export async function awaitExisting(
  opts: ResolvedTurnOptions,
  ctx: TurnContext,
  existing: TransmissionRecord,
): Promise<ClaimOutcome> {
  const outcome = await resolveExistingTransmission(opts.store, ctx.tenantId, existing, ctx.bodyHash, {
    timeoutMs: opts.idempotencyWaitMs,
    pollMs: 25,
    leaseMs: opts.turnLeaseMs,
    newAttemptId: () => opts.ids("att"),
    sleep: opts.sleep,
    now: () => opts.clock.now(),
  });
  if (outcome.kind === "replay") {
    return { kind: "replay", response: outcome.response, createdAt: existing.createdAt };
  }
  const started = { attemptId: outcome.attemptId, startedMs: outcome.startedMs, firstAttempt: false };
  return { kind: "run", tx: outcome.transmission, started };
}
