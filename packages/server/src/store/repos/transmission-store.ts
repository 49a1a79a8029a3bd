import {
  type ClaimTransmissionInput,
  type ClaimTransmissionResult,
  type DeliveryAttempt,
  type DeliveryAttemptStatus,
  SolError,
  type TenantId,
  type Transmission,
  type TransmissionRecord,
  type TransmissionStatus,
  type TransmissionStore,
} from "@solserver/core";
import type { Selectable } from "kysely";
import { assertStorableKeys, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isForeignKeyViolation, isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { DeliveryAttemptsTable, TransmissionsTable } from "../sql/schema.js";
import { insertAttempt } from "./delivery-attempt-rows.js";
import { insertClaim, insertClaimWithAttempt } from "./transmission-claim.js";
import { renewLease, takeOver } from "./transmission-lease.js";

const finishSucceededQuery = preparedQuery(
  (
    db,
    status: DeliveryAttemptStatus,
    endedAt: string,
    latencyMs: number,
    tenantId: string,
    attemptId: string,
  ) =>
    db
      .updateTable("delivery_attempts")
      .set({ status, ended_at: endedAt, latency_ms: latencyMs })
      .where("tenant_id", "=", tenantId)
      .where("attempt_id", "=", attemptId),
);

/** The Transmission.status state machine of the flow pack; anything else is `invalid_transition`. */
const ALLOWED_TRANSITIONS: Readonly<Record<TransmissionStatus, readonly TransmissionStatus[]>> = {
  queued: ["sending"],
  sending: ["succeeded", "failed"],
  succeeded: [],
  failed: ["queued"],
};

/** Throws `invalid_transition` unless `from -> to` is an edge of the Transmission state machine. */
export function assertTransition(from: TransmissionStatus, to: TransmissionStatus): void {
  if (!ALLOWED_TRANSITIONS[from].includes(to)) {
    throw new SolError("invalid_transition", `A transmission cannot move from ${from} to ${to}`, {
      details: { from, to },
    });
  }
}

/** An attempt's finish as a turn's success writes it: status, end and latency, no error code. */
export function isUsualFinish(
  patch: Pick<DeliveryAttempt, "status"> &
    Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>,
): patch is Pick<DeliveryAttempt, "status"> & { endedAt: string; latencyMs: number; errorCode?: undefined } {
  return patch.endedAt !== undefined && patch.latencyMs !== undefined && patch.errorCode === undefined;
}

/** Finishes a delivery attempt through `ctx.db` (the store's handle or a caller's transaction). */
export async function finishAttemptIn(
  ctx: StoreContext,
  tenantId: TenantId,
  attemptId: string,
  patch: Pick<DeliveryAttempt, "status"> &
    Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>,
): Promise<void> {
  if (!isStorableKey(tenantId, attemptId))
    throw new SolError("not_found", `Delivery attempt ${attemptId} not found`);
  assertStorableKeys({ errorCode: patch.errorCode });
  // The usual shape (a turn's success: status, end and latency) is precompiled; others are built.
  const result = isUsualFinish(patch)
    ? await finishSucceededQuery(ctx, patch.status, patch.endedAt, patch.latencyMs, tenantId, attemptId)
    : await ctx.db.executeQuery(
        ctx.db
          .updateTable("delivery_attempts")
          .set({
            status: patch.status,
            ...(patch.endedAt === undefined ? {} : { ended_at: patch.endedAt }),
            ...(patch.errorCode === undefined ? {} : { error_code: patch.errorCode }),
            ...(patch.latencyMs === undefined ? {} : { latency_ms: patch.latencyMs }),
          })
          .where("tenant_id", "=", tenantId)
          .where("attempt_id", "=", attemptId)
          .compile(),
      );
  if ((result.numAffectedRows ?? 0n) === 0n)
    throw new SolError("not_found", `Delivery attempt ${attemptId} not found`);
}

/** TransmissionStore over the transmissions and delivery_attempts tables. */
export function createTransmissionStore(ctx: StoreContext): TransmissionStore {
  const { db } = ctx;

  async function loadAttempts(tenantId: TenantId, transmissionId: string): Promise<DeliveryAttempt[]> {
    const rows = await db
      .selectFrom("delivery_attempts")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .where("transmission_id", "=", transmissionId)
      .orderBy("id")
      .execute();
    return rows.map(toAttempt);
  }

  async function withAttempts(
    row: Selectable<TransmissionsTable> | undefined,
  ): Promise<TransmissionRecord | null> {
    if (row === undefined) return null;
    return toRecord(row, await loadAttempts(row.tenant_id, row.transmission_id));
  }

  async function getByRequestId(tenantId: TenantId, requestId: string): Promise<TransmissionRecord | null> {
    if (!isStorableKey(tenantId, requestId)) return null;
    const row = await db
      .selectFrom("transmissions")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .where("request_id", "=", requestId)
      .executeTakeFirst();
    return withAttempts(row);
  }

  return {
    async claim(input: ClaimTransmissionInput): Promise<ClaimTransmissionResult> {
      const start = input.startAttempt;
      assertStorableKeys({
        tenantId: input.tenantId,
        transmissionId: input.transmissionId,
        requestId: input.requestId,
        threadId: input.threadId,
        type: input.type,
        packetId: input.packetId,
        bodyHash: input.bodyHash,
        traceRunId: input.traceRunId,
        attemptId: start?.attemptId,
      });
      let inserted: Selectable<TransmissionsTable> | undefined;
      let attempts: DeliveryAttempt[] = [];
      try {
        if (start === undefined) inserted = await insertClaim(ctx, input);
        else {
          const attempt: DeliveryAttempt = {
            attemptId: start.attemptId,
            transmissionId: input.transmissionId,
            status: "sending",
            startedAt: start.startedAt,
          };
          inserted = await insertClaimWithAttempt(ctx, input, start, attempt);
          if (inserted !== undefined) attempts = [attempt];
        }
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new SolError(
            "conflict",
            start === undefined
              ? `transmissionId ${input.transmissionId} is already used by another request`
              : `transmissionId ${input.transmissionId} or attempt ${start.attemptId} is already used`,
            {
              cause: error,
            },
          );
        }
        throw error;
      }
      if (inserted !== undefined) return { kind: "created", transmission: toRecord(inserted, attempts) };
      const existing = await getByRequestId(input.tenantId, input.requestId);
      if (existing === null) throw new SolError("internal", `Claim of ${input.requestId} lost its row`);
      return { kind: "existing", transmission: existing };
    },

    async get(tenantId, transmissionId) {
      if (!isStorableKey(tenantId, transmissionId)) return null;
      const row = await db
        .selectFrom("transmissions")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("transmission_id", "=", transmissionId)
        .executeTakeFirst();
      return withAttempts(row);
    },

    getByRequestId,

    async setStatus(tenantId, transmissionId, from, to, now, leaseOwner) {
      assertTransition(from, to);
      if (!isStorableKey(tenantId, transmissionId)) return false;
      let query = db
        .updateTable("transmissions")
        .set({ status: to, updated_at: now })
        .where("tenant_id", "=", tenantId)
        .where("transmission_id", "=", transmissionId)
        .where("status", "=", from);
      if (leaseOwner !== undefined) query = query.where("lease_owner", "=", leaseOwner);
      const result = await query.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    renewLease: (tenantId, transmissionId, owner, expiresAt) =>
      renewLease(ctx, tenantId, transmissionId, owner, expiresAt),

    takeOver: (input) => takeOver(ctx, input),

    async startAttempt(tenantId, attempt) {
      try {
        await insertAttempt(ctx, tenantId, attempt);
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new SolError("not_found", `Transmission ${attempt.transmissionId} not found`, {
            cause: error,
          });
        }
        if (isUniqueViolation(error)) {
          throw new SolError("conflict", `Delivery attempt ${attempt.attemptId} already exists`, {
            cause: error,
          });
        }
        throw error;
      }
    },

    async finishAttempt(tenantId, attemptId, patch) {
      await finishAttemptIn(ctx, tenantId, attemptId, patch);
    },

    async count(tenantId) {
      if (!isStorableKey(tenantId)) return 0;
      let query = db.selectFrom("transmissions").select((eb) => eb.fn.countAll().as("n"));
      if (tenantId !== undefined) query = query.where("tenant_id", "=", tenantId);
      const row = await query.executeTakeFirstOrThrow();
      return toNumber(row.n);
    },
  };
}

function toRecord(row: Selectable<TransmissionsTable>, attempts: DeliveryAttempt[]): TransmissionRecord {
  return {
    tenantId: row.tenant_id,
    transmissionId: row.transmission_id,
    requestId: row.request_id,
    threadId: row.thread_id,
    type: row.type as Transmission["type"],
    status: row.status as TransmissionStatus,
    ...(row.packet_id === null ? {} : { packetId: row.packet_id }),
    bodyHash: row.body_hash,
    traceRunId: row.trace_run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.lease_owner === null ? {} : { leaseOwner: row.lease_owner }),
    ...(row.lease_expires_at === null ? {} : { leaseExpiresAt: row.lease_expires_at }),
    deliveryAttempts: attempts,
  };
}

function toAttempt(row: Selectable<DeliveryAttemptsTable>): DeliveryAttempt {
  return {
    attemptId: row.attempt_id,
    transmissionId: row.transmission_id,
    status: row.status as DeliveryAttemptStatus,
    startedAt: row.started_at,
    ...(row.ended_at === null ? {} : { endedAt: row.ended_at }),
    ...(row.error_code === null ? {} : { errorCode: row.error_code }),
    ...(row.latency_ms === null ? {} : { latencyMs: row.latency_ms }),
  };
}
