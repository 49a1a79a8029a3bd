import type { ClaimTransmissionInput, DeliveryAttempt, TransmissionStatus } from "@solserver/core";
import { type QueryCreator, type Selectable, sql } from "kysely";
import type { StoreContext } from "../sql/context.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { StoreDatabase, TransmissionsTable } from "../sql/schema.js";
import { insertAttempt } from "./delivery-attempt-rows.js";

type ClaimedRow = Selectable<TransmissionsTable>;
type StartAttempt = NonNullable<ClaimTransmissionInput["startAttempt"]>;

// A claim's row: inserted, or nothing when the request id already has a transmission.
function claimInsert(
  qc: QueryCreator<StoreDatabase>,
  tenantId: string,
  transmissionId: string,
  requestId: string,
  threadId: string,
  type: string,
  status: TransmissionStatus,
  packetId: string | null,
  bodyHash: string,
  traceRunId: string,
  now: string,
  leaseOwner: string | null,
  leaseExpiresAt: string | null,
) {
  return (
    qc
      .insertInto("transmissions")
      .values({
        tenant_id: tenantId,
        transmission_id: transmissionId,
        request_id: requestId,
        thread_id: threadId,
        type,
        status,
        packet_id: packetId,
        body_hash: bodyHash,
        trace_run_id: traceRunId,
        created_at: now,
        updated_at: now,
        lease_owner: leaseOwner,
        lease_expires_at: leaseExpiresAt,
      })
      // The unique (tenant_id, request_id) constraint picks the one winner among racing claims.
      .onConflict((oc) => oc.columns(["tenant_id", "request_id"]).doNothing())
      .returningAll()
  );
}

const insertClaimQuery = preparedQuery(claimInsert);

// PostgreSQL only: a claim taking its first delivery attempt (status `sending`, leased to the
// attempt) and that attempt's row, in one statement of data-modifying CTEs. It is as atomic as the
// transaction it replaces (BEGIN, two inserts, COMMIT: four round trips, now one); the attempt is
// inserted only when the claim inserted its row, and the foreign key is checked at the statement's end.
const insertClaimWithAttemptQuery = preparedQuery(
  (
    db,
    tenantId: string,
    transmissionId: string,
    requestId: string,
    threadId: string,
    type: string,
    packetId: string | null,
    bodyHash: string,
    traceRunId: string,
    now: string,
    attemptId: string,
    leaseExpiresAt: string | null,
    startedAt: string,
  ) =>
    db
      .with("claimed", (qb) =>
        claimInsert(
          qb,
          tenantId,
          transmissionId,
          requestId,
          threadId,
          type,
          "sending",
          packetId,
          bodyHash,
          traceRunId,
          now,
          attemptId,
          leaseExpiresAt,
        ),
      )
      .with("attempt", (qb) =>
        qb
          .insertInto("delivery_attempts")
          .columns(["tenant_id", "attempt_id", "transmission_id", "status", "started_at"])
          .expression((eb) =>
            eb.selectFrom("claimed").select([
              "claimed.tenant_id",
              // Typed: a parameter alone in a select list has no type PostgreSQL can infer.
              sql<string>`cast(${attemptId} as text)`.as("attempt_id"),
              "claimed.transmission_id",
              sql<string>`'sending'`.as("status"),
              sql<string>`cast(${startedAt} as text)`.as("started_at"),
            ]),
          ),
      )
      .selectFrom("claimed")
      .selectAll(),
);

/** Inserts a claim's row (`queued` and unleased unless told); undefined when the request id has one already. */
export async function insertClaim(
  ctx: Pick<StoreContext, "db" | "dialect">,
  input: ClaimTransmissionInput,
  status: TransmissionStatus = "queued",
  start?: StartAttempt,
): Promise<ClaimedRow | undefined> {
  const { rows } = await insertClaimQuery(
    ctx,
    input.tenantId,
    input.transmissionId,
    input.requestId,
    input.threadId,
    input.type,
    status,
    input.packetId ?? null,
    input.bodyHash,
    input.traceRunId,
    input.now,
    start?.attemptId ?? null,
    start?.leaseExpiresAt ?? null,
  );
  return rows[0];
}

/**
 * Inserts a claim that takes its first delivery attempt (the queued -> sending edge in the claim
 * itself) and the attempt's row, both or neither: one statement on PostgreSQL, a transaction on
 * SQLite. Undefined when the request id has a transmission already (no attempt is written then).
 */
export async function insertClaimWithAttempt(
  ctx: StoreContext,
  input: ClaimTransmissionInput,
  start: StartAttempt,
  attempt: DeliveryAttempt,
): Promise<ClaimedRow | undefined> {
  if (ctx.dialect !== "postgres") {
    return ctx.db.transaction().execute(async (trx) => {
      const row = await insertClaim({ db: trx, dialect: ctx.dialect }, input, "sending", start);
      if (row !== undefined) await insertAttempt({ db: trx, dialect: ctx.dialect }, input.tenantId, attempt);
      return row;
    });
  }
  const { rows } = await insertClaimWithAttemptQuery(
    ctx,
    input.tenantId,
    input.transmissionId,
    input.requestId,
    input.threadId,
    input.type,
    input.packetId ?? null,
    input.bodyHash,
    input.traceRunId,
    input.now,
    start.attemptId,
    start.leaseExpiresAt ?? null,
    start.startedAt,
  );
  return rows[0];
}
