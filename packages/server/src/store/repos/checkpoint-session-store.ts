import type { CheckpointSessionStore, CheckpointSessionWrite } from "@solserver/core";
import {
  assertStorableKeys,
  decodeJson,
  encodeJson,
  isStorableKey,
  isStorableVersion,
} from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isRetryableConflict } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import { appendTraceDrafts } from "./trace-store.js";

/** Thrown inside the transaction to roll it back when the compare-and-swap loses. */
class SessionConflict extends Error {
  constructor() {
    super("checkpoint_session_conflict");
  }
}

const selectSession = preparedQuery((db, tenantId: string, sessionId: string) =>
  db
    .selectFrom("checkpoint_sessions")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("session_id", "=", sessionId),
);

const updateState = preparedQuery(
  (db, state: string, now: string, tenantId: string, sessionId: string, expectedVersion: number) =>
    db
      .updateTable("checkpoint_sessions")
      .set((eb) => ({ state, version: eb("version", "+", 1), updated_at: now }))
      .where("tenant_id", "=", tenantId)
      .where("session_id", "=", sessionId)
      .where("version", "=", expectedVersion),
);

const updateWithMemo = preparedQuery(
  (
    db,
    state: string,
    now: string,
    requestId: string,
    result: string,
    tenantId: string,
    sessionId: string,
    expectedVersion: number,
  ) =>
    db
      .updateTable("checkpoint_sessions")
      .set((eb) => ({
        state,
        version: eb("version", "+", 1),
        updated_at: now,
        last_request_id: requestId,
        last_result: result,
      }))
      .where("tenant_id", "=", tenantId)
      .where("session_id", "=", sessionId)
      .where("version", "=", expectedVersion),
);

async function writeState(tx: StoreContext, write: CheckpointSessionWrite): Promise<number> {
  const state = encodeJson(write.state, "checkpoint session state");
  const memo = write.memo
    ? {
        last_request_id: write.memo.requestId,
        last_result: encodeJson(write.memo.result, "checkpoint session result"),
      }
    : null;
  if (write.expectedVersion === null) {
    const inserted = await tx.db
      .insertInto("checkpoint_sessions")
      .values({
        tenant_id: write.tenantId,
        session_id: write.sessionId,
        state,
        version: 1,
        last_request_id: memo?.last_request_id ?? null,
        last_result: memo?.last_result ?? null,
        created_at: write.now,
        updated_at: write.now,
      })
      .onConflict((oc) => oc.columns(["tenant_id", "session_id"]).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) throw new SessionConflict();
    return 1;
  }
  if (!isStorableVersion(write.expectedVersion)) throw new SessionConflict();
  const keys = [write.tenantId, write.sessionId, write.expectedVersion] as const;
  const updated = memo
    ? await updateWithMemo(tx, state, write.now, memo.last_request_id, memo.last_result, ...keys)
    : await updateState(tx, state, write.now, ...keys);
  if ((updated.numAffectedRows ?? 0n) === 0n) throw new SessionConflict();
  return write.expectedVersion + 1;
}

/** CheckpointSessionStore over the checkpoint_sessions table (migration 5). */
export function createCheckpointSessionStore(ctx: StoreContext): CheckpointSessionStore {
  return {
    async get(tenantId, sessionId) {
      if (!isStorableKey(tenantId, sessionId)) return null;
      const row = (await selectSession(ctx, tenantId, sessionId)).rows[0];
      if (row === undefined) return null;
      return {
        state: decodeJson(ctx.dialect, row.state),
        version: row.version,
        lastRequestId: row.last_request_id,
        lastResult: row.last_result === null ? null : decodeJson(ctx.dialect, row.last_result),
        updatedAt: row.updated_at,
      };
    },

    async put(write) {
      assertStorableKeys({
        tenantId: write.tenantId,
        sessionId: write.sessionId,
        requestId: write.memo?.requestId,
      });
      try {
        // Without trace events the write is one statement, atomic alone: a transaction around it
        // would only add BEGIN and COMMIT (two round trips on PostgreSQL, on every turn).
        if (!write.trace) return { ok: true as const, version: await writeState(ctx, write), events: [] };
        const trace = write.trace;
        return await ctx.db.transaction().execute(async (trx) => {
          const tx: StoreContext = { ...ctx, db: trx };
          const version = await writeState(tx, write);
          const events = await appendTraceDrafts(
            tx,
            write.tenantId,
            trace.traceRunId,
            trace.transmissionId,
            trace.drafts,
          );
          return { ok: true as const, version, events };
        });
      } catch (error) {
        // A lost race (CAS, a concurrent insert, a busy database) is the caller's cue to retry.
        if (error instanceof SessionConflict || isRetryableConflict(error)) return { ok: false };
        throw error;
      }
    },
  };
}
