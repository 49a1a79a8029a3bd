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
  readonly startAttempt?: { readonly attemptId: string; readonly startedAt: string };
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
  /** Moves status (queued -> sending -> succeeded|failed, failed -> queued); returns false if `from` did not match. */
  setStatus(
    tenantId: TenantId,
    transmissionId: string,
    from: TransmissionStatus,
    to: TransmissionStatus,
    now: string,
  ): Promise<boolean>;
  startAttempt(tenantId: TenantId, attempt: DeliveryAttempt): Promise<void>;
  finishAttempt(
    tenantId: TenantId,
    attemptId: string,
    patch: Pick<DeliveryAttempt, "status"> &
      Partial<Pick<DeliveryAttempt, "endedAt" | "errorCode" | "latencyMs">>,
  ): Promise<void>;
  count(tenantId?: TenantId): Promise<number>;
}
