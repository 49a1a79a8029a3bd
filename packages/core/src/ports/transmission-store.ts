import type { DeliveryAttempt, Transmission, TransmissionStatus } from "../contracts/transmission.js";
import type { TenantId } from "./tenant.js";

export interface TransmissionRecord extends Transmission {
  readonly tenantId: TenantId;
  readonly threadId: string;
  /** SHA-256 of the canonical request body: same requestId + different body is a conflict. */
  readonly bodyHash: string;
  readonly traceRunId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The delivery attempt holding the lease on this transmission (the one process that may commit it). */
  readonly leaseOwner?: string;
  /** ISO time the lease lapses unless renewed; after it a retry of the same requestId may take over. */
  readonly leaseExpiresAt?: string;
}

export interface ClaimTransmissionInput {
  readonly tenantId: TenantId;
  readonly requestId: string;
  readonly threadId: string;
  readonly bodyHash: string;
  readonly type: Transmission["type"];
  readonly packetId?: string;
  /** Used only when the claim creates the row. */
  readonly transmissionId: string;
  readonly traceRunId: string;
  readonly now: string;
  /**
   * Start delivering at once when the claim creates the row: it is created `sending` (the queued ->
   * sending edge taken in the claim's own transaction) with this first delivery attempt, also
   * `sending`. Ignored when the requestId was already claimed.
   */
  readonly startAttempt?: {
    readonly attemptId: string;
    readonly startedAt: string;
    /** The first lease's expiry; the attempt is the lease's owner. Without it the lease has lapsed. */
    readonly leaseExpiresAt?: string;
  };
}

/** A takeover of a transmission whose holder is gone: a new attempt that becomes the lease owner. */
export interface TakeOverInput {
  readonly tenantId: TenantId;
  readonly transmissionId: string;
  /** The new attempt, opened `sending`; it owns the lease from now on. */
  readonly attemptId: string;
  /** The caller's time: the lease must have lapsed by then. Also the attempt's start and updatedAt. */
  readonly now: string;
  readonly leaseExpiresAt: string;
}

/**
 * Outcome of claiming a requestId. The unique constraint on (tenant, requestId) decides the winner,
 * so two processes racing on one requestId get exactly one `created`.
 */
export type ClaimTransmissionResult =
  | { readonly kind: "created"; readonly transmission: TransmissionRecord }
  | { readonly kind: "existing"; readonly transmission: TransmissionRecord };

export interface TransmissionStore {
  claim(input: ClaimTransmissionInput): Promise<ClaimTransmissionResult>;
  get(tenantId: TenantId, transmissionId: string): Promise<TransmissionRecord | null>;
  getByRequestId(tenantId: TenantId, requestId: string): Promise<TransmissionRecord | null>;
  /**
   * Moves status (queued -> sending -> succeeded|failed, failed -> queued); returns false if `from` did
   * not match, or if `leaseOwner` is given and another attempt holds the lease (fencing).
   */
  setStatus(
    tenantId: TenantId,
    transmissionId: string,
    from: TransmissionStatus,
    to: TransmissionStatus,
    now: string,
    leaseOwner?: string,
  ): Promise<boolean>;
  /** Extends the lease while `owner` still holds it on a `sending` transmission; false once it lost it. */
  renewLease(tenantId: TenantId, transmissionId: string, owner: string, expiresAt: string): Promise<boolean>;
  /**
   * Atomically hands the transmission to a new attempt when its holder is gone: it is `failed`, or
   * `queued`/`sending` with a lease that lapsed by `now` (or none). The transmission becomes `sending`,
   * owned by `attemptId`, the previous holder's unfinished attempts are failed (`lease_lapsed`) and
   * the new attempt is opened. Exactly one of racing takeovers wins; false when none was due.
   */
  takeOver(input: TakeOverInput): Promise<boolean>;
  startAttempt(tenantId: TenantId, attempt: DeliveryAttempt): Promise<void>;
  finishAttempt(
    tenantId: TenantId,
    attemptId: string,
    patch: Pick<DeliveryAttempt, "status"> &
      Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>,
  ): Promise<void>;
  count(tenantId?: TenantId): Promise<number>;
}
