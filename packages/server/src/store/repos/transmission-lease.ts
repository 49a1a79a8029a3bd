import type { TakeOverInput, TenantId } from "@solserver/core";
import { SolError } from "@solserver/core";
import { assertStorableKeys, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import { insertAttempt } from "./delivery-attempt-rows.js";

/** Extends the lease while `owner` holds it on a `sending` transmission; false once another took over. */
export async function renewLease(
  ctx: StoreContext,
  tenantId: TenantId,
  transmissionId: string,
  owner: string,
  expiresAt: string,
): Promise<boolean> {
  if (!isStorableKey(tenantId, transmissionId, owner)) return false;
  const result = await ctx.db
    .updateTable("transmissions")
    .set({ lease_expires_at: expiresAt })
    .where("tenant_id", "=", tenantId)
    .where("transmission_id", "=", transmissionId)
    .where("status", "=", "sending")
    .where("lease_owner", "=", owner)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Hands a transmission whose holder is gone (failed, or its lease lapsed by `input.now`) to a new
 * attempt, in one transaction: the conditional update is the race's referee (PostgreSQL re-checks
 * its condition on the row a concurrent winner just wrote; SQLite runs one writer at a time).
 */
export async function takeOver(ctx: StoreContext, input: TakeOverInput): Promise<boolean> {
  assertStorableKeys({ attemptId: input.attemptId });
  if (!isStorableKey(input.tenantId, input.transmissionId)) return false;
  const { tenantId, transmissionId, now } = input;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable("transmissions")
        .set({
          status: "sending",
          lease_owner: input.attemptId,
          lease_expires_at: input.leaseExpiresAt,
          updated_at: now,
        })
        .where("tenant_id", "=", tenantId)
        .where("transmission_id", "=", transmissionId)
        .where((eb) =>
          eb.or([
            eb("status", "=", "failed"),
            eb.and([
              eb("status", "in", ["queued", "sending"]),
              eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<=", now)]),
            ]),
          ]),
        )
        .executeTakeFirst();
      if (taken.numUpdatedRows === 0n) return false;
      // The gone holder's attempt never finishes by itself: it is closed here, with why.
      await trx
        .updateTable("delivery_attempts")
        .set({ status: "failed", ended_at: now, error_code: "lease_lapsed" })
        .where("tenant_id", "=", tenantId)
        .where("transmission_id", "=", transmissionId)
        .where("status", "=", "sending")
        .execute();
      await insertAttempt({ db: trx, dialect: ctx.dialect }, tenantId, {
        attemptId: input.attemptId,
        transmissionId,
        status: "sending",
        startedAt: now,
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new SolError("conflict", `Delivery attempt ${input.attemptId} already exists`, { cause: error });
    }
    throw error;
  }
}
