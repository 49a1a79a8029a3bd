import { type CommitTurnInput, type CommitTurnResult, SolError } from "@solserver/core";
import { assertStorableKeys } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isForeignKeyViolation, isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import { bumpTurnsSincePersist, putMemento } from "./memento-store.js";
import { insertMessages } from "./message-store.js";
import { insertResponse } from "./response-store.js";
import { insertTraceDrafts } from "./trace-store.js";
import { finishAttemptIn } from "./transmission-store.js";

/** Thrown inside the transaction to roll it back when the memento compare-and-swap loses. */
class MementoConflict extends Error {
  constructor(readonly currentVersion: number | null) {
    super("memento_conflict");
  }
}

/**
 * Writes a finished turn in one transaction: memento CAS (or the turns-since-persist bump), the user
 * and assistant messages, the stored response, the transmission's move to `succeeded` (from
 * `queued` or `sending`) and, when given, the finished delivery attempt and the turn's trace events.
 * A lost CAS rolls everything back and returns `memento_conflict`.
 */
export async function commitTurn(ctx: StoreContext, input: CommitTurnInput): Promise<CommitTurnResult> {
  // Checked before the transaction: the memento write or bump comes first and would meet them raw.
  assertStorableKeys({
    tenantId: input.tenantId,
    transmissionId: input.transmissionId,
    requestId: input.requestId,
    bodyHash: input.bodyHash,
    threadId: input.threadId,
    attemptId: input.finishAttempt?.attemptId,
    traceRunId: input.trace?.traceRunId,
  });
  try {
    return await ctx.db.transaction().execute(async (db) => {
      const tx: StoreContext = { ...ctx, db };
      let mementoVersion: number | null = null;
      if (input.memento !== undefined) {
        const write = await putMemento(
          tx,
          input.tenantId,
          input.threadId,
          input.memento.value,
          input.memento.expectedVersion,
          input.now,
        );
        if (!write.ok) throw new MementoConflict(write.currentVersion);
        mementoVersion = write.version;
      } else if (input.bumpTurnsSincePersist) {
        await bumpTurnsSincePersist(tx, input.tenantId, input.threadId);
      }
      const common = {
        tenantId: input.tenantId,
        threadId: input.threadId,
        transmissionId: input.transmissionId,
        createdAt: input.now,
      };
      await insertMessages(
        tx,
        [
          { ...common, role: "user", ...input.userMessage },
          { ...common, role: "assistant", ...input.assistantMessage },
        ],
        input.threadStats,
      );
      await insertResponse(tx, {
        tenantId: input.tenantId,
        requestId: input.requestId,
        transmissionId: input.transmissionId,
        bodyHash: input.bodyHash,
        response: input.response,
        createdAt: input.now,
      });
      await markSucceeded(tx, input.tenantId, input.transmissionId, input.now);
      if (input.finishAttempt !== undefined) {
        await finishAttemptIn(tx, input.tenantId, input.finishAttempt.attemptId, input.finishAttempt.patch);
      }
      if (input.trace !== undefined) {
        await insertTraceDrafts(
          tx,
          input.tenantId,
          input.trace.traceRunId,
          input.transmissionId,
          input.trace.drafts,
          input.trace.expectEmptyRun === true ? { expectEmptyRun: true } : {},
        );
      }
      return { ok: true as const, mementoVersion };
    });
  } catch (error) {
    if (error instanceof MementoConflict) {
      return { ok: false, reason: "memento_conflict", currentVersion: error.currentVersion };
    }
    if (isForeignKeyViolation(error)) {
      throw new SolError("not_found", `Transmission ${input.transmissionId} not found`, { cause: error });
    }
    if (isUniqueViolation(error)) {
      throw new SolError("conflict", `Turn of request ${input.requestId} is already committed`, {
        cause: error,
      });
    }
    throw error;
  }
}

const markSucceededQuery = preparedQuery((db, now: string, tenantId: string, transmissionId: string) =>
  db
    .updateTable("transmissions")
    .set({ status: "succeeded", updated_at: now })
    .where("tenant_id", "=", tenantId)
    .where("transmission_id", "=", transmissionId)
    .where("status", "in", ["queued", "sending"]),
);

async function markSucceeded(
  ctx: StoreContext,
  tenantId: string,
  transmissionId: string,
  now: string,
): Promise<void> {
  const result = await markSucceededQuery(ctx, now, tenantId, transmissionId);
  if ((result.numAffectedRows ?? 0n) > 0n) return;
  const row = await ctx.db
    .selectFrom("transmissions")
    .select("status")
    .where("tenant_id", "=", tenantId)
    .where("transmission_id", "=", transmissionId)
    .executeTakeFirst();
  if (row === undefined) throw new SolError("not_found", `Transmission ${transmissionId} not found`);
  throw new SolError("invalid_transition", `A transmission cannot move from ${row.status} to succeeded`, {
    details: { from: row.status, to: "succeeded" },
  });
}
