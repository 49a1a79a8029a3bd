import type { DeliveryAttempt, TransmissionStatus } from "../../contracts/transmission.js";
import { SolError } from "../../errors.js";
import type { TenantId } from "../tenant.js";
import type { TransmissionRecord, TransmissionStore } from "../transmission-store.js";
import { assertStorableKeys, isStorableKey, keyOf } from "./storable.js";

type AttemptPatch = Parameters<TransmissionStore["finishAttempt"]>[2];

/** The transmissions and their delivery attempts, shared with the turn commit. */
export interface TransmissionTables {
  /** By tenant and transmissionId; records hold no attempts (those are in `attempts`). */
  readonly rows: Map<string, TransmissionRecord>;
  /** transmissionId by tenant and requestId (the unique claim key). */
  readonly byRequest: Map<string, string>;
  /** By tenant and attemptId, in insertion order. */
  readonly attempts: Map<string, { readonly tenantId: TenantId; attempt: DeliveryAttempt }>;
}

/** Empty transmission tables. */
export function createTransmissionTables(): TransmissionTables {
  return { rows: new Map(), byRequest: new Map(), attempts: new Map() };
}

/** The Transmission.status state machine of the flow pack; anything else is `invalid_transition`. */
const ALLOWED_TRANSITIONS: Readonly<Record<TransmissionStatus, readonly TransmissionStatus[]>> = {
  queued: ["sending"],
  sending: ["succeeded", "failed"],
  succeeded: [],
  failed: ["queued"],
};

function assertTransition(from: TransmissionStatus, to: TransmissionStatus): void {
  if (!ALLOWED_TRANSITIONS[from].includes(to)) {
    throw new SolError("invalid_transition", `A transmission cannot move from ${from} to ${to}`, {
      details: { from, to },
    });
  }
}

/** The attempt a finish would change, or `not_found` (checked before a commit writes anything). */
export function attemptToFinish(
  tables: TransmissionTables,
  tenantId: TenantId,
  attemptId: string,
  patch: AttemptPatch,
): { attempt: DeliveryAttempt } {
  assertStorableKeys({ errorCode: patch.errorCode });
  const found = isStorableKey(tenantId, attemptId)
    ? tables.attempts.get(keyOf(tenantId, attemptId))
    : undefined;
  if (found === undefined) throw new SolError("not_found", `Delivery attempt ${attemptId} not found`);
  return found;
}

/** Applies an attempt patch; unnamed fields keep their values. */
export function patchAttempt(slot: { attempt: DeliveryAttempt }, patch: AttemptPatch): void {
  slot.attempt = {
    ...slot.attempt,
    status: patch.status,
    ...(patch.endedAt === undefined ? {} : { endedAt: patch.endedAt }),
    ...(patch.errorCode === undefined ? {} : { errorCode: patch.errorCode }),
    ...(patch.latencyMs === undefined ? {} : { latencyMs: patch.latencyMs }),
  };
}

function withAttempts(tables: TransmissionTables, row: TransmissionRecord | undefined) {
  if (row === undefined) return null;
  const attempts = [...tables.attempts.values()]
    .filter((a) => a.tenantId === row.tenantId && a.attempt.transmissionId === row.transmissionId)
    .map((a) => ({ ...a.attempt }));
  return { ...row, deliveryAttempts: attempts };
}

function checkAttempt(tables: TransmissionTables, tenantId: TenantId, attempt: DeliveryAttempt): void {
  assertStorableKeys({
    tenantId,
    attemptId: attempt.attemptId,
    transmissionId: attempt.transmissionId,
    errorCode: attempt.errorCode,
  });
  if (!tables.rows.has(keyOf(tenantId, attempt.transmissionId))) {
    throw new SolError("not_found", `Transmission ${attempt.transmissionId} not found`);
  }
  if (tables.attempts.has(keyOf(tenantId, attempt.attemptId))) {
    throw new SolError("conflict", `Delivery attempt ${attempt.attemptId} already exists`);
  }
}

/** True when a takeover at `now` may start: the transmission failed, or its holder's lease lapsed. */
function takeOverDue(row: TransmissionRecord, now: string): boolean {
  if (row.status === "failed") return true;
  if (row.status === "succeeded") return false;
  // ISO strings of one format compare in time order, as the SQL stores compare them.
  return row.leaseExpiresAt === undefined || row.leaseExpiresAt <= now;
}

/** The row with its lease owner and expiry; absent values are left out, as the SQL stores read them. */
export function withLease(
  row: TransmissionRecord,
  owner: string | undefined,
  expiresAt: string | undefined,
): TransmissionRecord {
  const { leaseOwner: _owner, leaseExpiresAt: _expires, ...rest } = row;
  return {
    ...rest,
    ...(owner === undefined ? {} : { leaseOwner: owner }),
    ...(expiresAt === undefined ? {} : { leaseExpiresAt: expiresAt }),
  };
}

/** The reference TransmissionStore: one claim per (tenant, requestId), attempts in start order. */
export function createInMemoryTransmissionStore(
  tables: TransmissionTables = createTransmissionTables(),
): TransmissionStore {
  // Synchronous, so a claim's check and insert happen with no other call in between.
  const byRequestId = (tenantId: TenantId, requestId: string) => {
    if (!isStorableKey(tenantId, requestId)) return null;
    const id = tables.byRequest.get(keyOf(tenantId, requestId));
    return id === undefined ? null : withAttempts(tables, tables.rows.get(keyOf(tenantId, id)));
  };
  return {
    async claim(input) {
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
      const existing = byRequestId(input.tenantId, input.requestId);
      if (existing !== null) return { kind: "existing", transmission: existing };
      const key = keyOf(input.tenantId, input.transmissionId);
      const attemptTaken = start !== undefined && tables.attempts.has(keyOf(input.tenantId, start.attemptId));
      if (tables.rows.has(key) || attemptTaken) {
        throw new SolError(
          "conflict",
          start === undefined
            ? `transmissionId ${input.transmissionId} is already used by another request`
            : `transmissionId ${input.transmissionId} or attempt ${start.attemptId} is already used`,
        );
      }
      const record: TransmissionRecord = {
        tenantId: input.tenantId,
        transmissionId: input.transmissionId,
        requestId: input.requestId,
        threadId: input.threadId,
        type: input.type,
        status: start === undefined ? "queued" : "sending",
        ...(input.packetId === undefined ? {} : { packetId: input.packetId }),
        bodyHash: input.bodyHash,
        traceRunId: input.traceRunId,
        createdAt: input.now,
        updatedAt: input.now,
        deliveryAttempts: [],
      };
      tables.rows.set(key, withLease(record, start?.attemptId, start?.leaseExpiresAt));
      tables.byRequest.set(keyOf(input.tenantId, input.requestId), input.transmissionId);
      if (start !== undefined) {
        const attempt: DeliveryAttempt = {
          attemptId: start.attemptId,
          transmissionId: input.transmissionId,
          status: "sending",
          startedAt: start.startedAt,
        };
        tables.attempts.set(keyOf(input.tenantId, start.attemptId), { tenantId: input.tenantId, attempt });
      }
      return {
        kind: "created",
        transmission: withAttempts(tables, tables.rows.get(key)) as TransmissionRecord,
      };
    },

    async get(tenantId, transmissionId) {
      if (!isStorableKey(tenantId, transmissionId)) return null;
      return withAttempts(tables, tables.rows.get(keyOf(tenantId, transmissionId)));
    },

    getByRequestId: async (tenantId, requestId) => byRequestId(tenantId, requestId),

    async setStatus(tenantId, transmissionId, from, to, now, leaseOwner) {
      assertTransition(from, to);
      if (!isStorableKey(tenantId, transmissionId)) return false;
      const key = keyOf(tenantId, transmissionId);
      const row = tables.rows.get(key);
      if (row === undefined || row.status !== from) return false;
      if (leaseOwner !== undefined && row.leaseOwner !== leaseOwner) return false;
      tables.rows.set(key, { ...row, status: to, updatedAt: now });
      return true;
    },

    async renewLease(tenantId, transmissionId, owner, expiresAt) {
      if (!isStorableKey(tenantId, transmissionId)) return false;
      const key = keyOf(tenantId, transmissionId);
      const row = tables.rows.get(key);
      if (row === undefined || row.status !== "sending" || row.leaseOwner !== owner) return false;
      tables.rows.set(key, { ...row, leaseExpiresAt: expiresAt });
      return true;
    },

    async takeOver(input) {
      assertStorableKeys({ attemptId: input.attemptId });
      if (!isStorableKey(input.tenantId, input.transmissionId)) return false;
      const key = keyOf(input.tenantId, input.transmissionId);
      const row = tables.rows.get(key);
      if (row === undefined || !takeOverDue(row, input.now)) return false;
      if (tables.attempts.has(keyOf(input.tenantId, input.attemptId))) {
        throw new SolError("conflict", `Delivery attempt ${input.attemptId} already exists`);
      }
      for (const slot of tables.attempts.values()) {
        const { attempt } = slot;
        if (slot.tenantId !== input.tenantId || attempt.transmissionId !== input.transmissionId) continue;
        if (attempt.status === "sending")
          patchAttempt(slot, { status: "failed", endedAt: input.now, errorCode: "lease_lapsed" });
      }
      const taken = { ...row, status: "sending" as const, updatedAt: input.now };
      tables.rows.set(key, withLease(taken, input.attemptId, input.leaseExpiresAt));
      const attempt: DeliveryAttempt = {
        attemptId: input.attemptId,
        transmissionId: input.transmissionId,
        status: "sending",
        startedAt: input.now,
      };
      tables.attempts.set(keyOf(input.tenantId, input.attemptId), { tenantId: input.tenantId, attempt });
      return true;
    },

    async startAttempt(tenantId, attempt) {
      checkAttempt(tables, tenantId, attempt);
      tables.attempts.set(keyOf(tenantId, attempt.attemptId), { tenantId, attempt: { ...attempt } });
    },

    async finishAttempt(tenantId, attemptId, patch) {
      patchAttempt(attemptToFinish(tables, tenantId, attemptId, patch), patch);
    },

    async count(tenantId) {
      if (!isStorableKey(tenantId)) return 0;
      let n = 0;
      for (const row of tables.rows.values()) if (tenantId === undefined || row.tenantId === tenantId) n += 1;
      return n;
    },
  };
}
