import type { DeliveryAttempt, TenantId } from "@solserver/core";
import { assertStorableKeys } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { insertRowsRaw } from "../sql/raw-insert.js";
import type { DeliveryAttemptsTable } from "../sql/schema.js";

const ATTEMPT_COLUMNS = [
  "tenant_id",
  "attempt_id",
  "transmission_id",
  "status",
  "started_at",
  "ended_at",
  "error_code",
  "latency_ms",
] as const satisfies readonly (keyof DeliveryAttemptsTable)[];

/** Inserts one delivery attempt through `handle` (the store's handle or a caller's transaction). */
export async function insertAttempt(
  handle: Pick<StoreContext, "db" | "dialect">,
  tenantId: TenantId,
  attempt: DeliveryAttempt,
): Promise<void> {
  assertStorableKeys({
    tenantId,
    attemptId: attempt.attemptId,
    transmissionId: attempt.transmissionId,
    errorCode: attempt.errorCode,
  });
  // Precompiled: every claim opens an attempt.
  await insertRowsRaw(handle, "delivery_attempts", ATTEMPT_COLUMNS, [
    [
      tenantId,
      attempt.attemptId,
      attempt.transmissionId,
      attempt.status,
      attempt.startedAt,
      attempt.endedAt ?? null,
      attempt.errorCode ?? null,
      attempt.latencyMs ?? null,
    ],
  ]);
}
