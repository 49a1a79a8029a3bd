import { type CommitTurnInput, type CommitTurnResult, SolError } from "@solserver/core";
import { assertStorableKeys } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isForeignKeyViolation, isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import { bumpTurnsSincePersist, putMemento } from "./memento-store.js";
import { type MessageWrites, messageWrites, writeMessages } from "./message-store.js";
import { insertResponse, type NewResponse } from "./response-store.js";
import { insertTraceDrafts } from "./trace-store.js";
import { finishAttemptIn } from "./transmission-store.js";
import { commitTurnAtOnce } from "./turn-commit-postgres.js";
import { type PostgresExchange, postgresExchange, writeExchangePostgres } from "./turn-exchange-postgres.js";

/** Thrown inside the transaction to roll it back when another attempt holds the lease. */
class LeaseLost extends Error {
  constructor() {
    super("lease_lost");
  }
}

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
 * A lost CAS rolls everything back and returns `memento_conflict`. With `leaseOwner`, the
 * transmission is moved first and only while that attempt holds its lease (else `lease_lost`): its row
 * lock also makes a concurrent commit of the same transmission wait for this one. On PostgreSQL a
 * turn of the usual shape is first tried as one statement (turn-commit-postgres.ts); the transaction
 * runs only when that wrote nothing.
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
  const messages = turnMessages(input);
  const response = turnResponse(input);
  const exchange = ctx.dialect === "postgres" ? postgresExchange(input, messages, response) : null;
  try {
    if (exchange !== null) {
      const once = await commitTurnAtOnce(ctx, input, exchange);
      if (once !== null) return once;
    }
    return await ctx.db.transaction().execute(async (db) => {
      const tx: StoreContext = { ...ctx, db };
      await markSucceeded(tx, input);
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
      await writeExchange(tx, input, messages, response, exchange);
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
    if (error instanceof LeaseLost) return { ok: false, reason: "lease_lost" };
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

// The thread stats, the messages, the stored response and the attempt's finish. On PostgreSQL, for a
// turn's usual finish, one statement (`exchange`, turn-exchange-postgres.ts): one round trip instead of four.
async function writeExchange(
  tx: StoreContext,
  input: CommitTurnInput,
  messages: MessageWrites,
  response: NewResponse,
  exchange: PostgresExchange | null,
): Promise<void> {
  if (exchange !== null) {
    const found = await writeExchangePostgres(tx, exchange);
    if (!found) throw new SolError("not_found", `Delivery attempt ${exchange.finish.attemptId} not found`);
    return;
  }
  const finish = input.finishAttempt;
  await writeMessages(tx, messages);
  await insertResponse(tx, response);
  if (finish !== undefined) await finishAttemptIn(tx, input.tenantId, finish.attemptId, finish.patch);
}

/** The turn's two messages as the commit writes them, with their thread's stats change. */
function turnMessages(input: CommitTurnInput): MessageWrites {
  const common = {
    tenantId: input.tenantId,
    threadId: input.threadId,
    transmissionId: input.transmissionId,
    createdAt: input.now,
  };
  return messageWrites(
    [
      { ...common, role: "user", ...input.userMessage },
      { ...common, role: "assistant", ...input.assistantMessage },
    ],
    input.threadStats,
  );
}

/** The stored response the commit writes for idempotent replay. */
function turnResponse(input: CommitTurnInput): NewResponse {
  return {
    tenantId: input.tenantId,
    requestId: input.requestId,
    transmissionId: input.transmissionId,
    bodyHash: input.bodyHash,
    response: input.response,
    createdAt: input.now,
  };
}

const markSucceededQuery = preparedQuery((db, now: string, tenantId: string, transmissionId: string) =>
  db
    .updateTable("transmissions")
    .set({ status: "succeeded", updated_at: now })
    .where("tenant_id", "=", tenantId)
    .where("transmission_id", "=", transmissionId)
    .where("status", "in", ["queued", "sending"]),
);

const markOwnedSucceededQuery = preparedQuery(
  (db, now: string, tenantId: string, transmissionId: string, owner: string) =>
    db
      .updateTable("transmissions")
      .set({ status: "succeeded", updated_at: now })
      .where("tenant_id", "=", tenantId)
      .where("transmission_id", "=", transmissionId)
      .where("status", "in", ["queued", "sending"])
      .where("lease_owner", "=", owner),
);

/** Moves the transmission to `succeeded` (fenced by its lease owner when given), or throws why it cannot. */
async function markSucceeded(ctx: StoreContext, input: CommitTurnInput): Promise<void> {
  const { tenantId, transmissionId, now, leaseOwner: owner } = input;
  const result =
    owner === undefined
      ? await markSucceededQuery(ctx, now, tenantId, transmissionId)
      : await markOwnedSucceededQuery(ctx, now, tenantId, transmissionId, owner);
  if ((result.numAffectedRows ?? 0n) > 0n) return;
  const row = await ctx.db
    .selectFrom("transmissions")
    .select(["status", "lease_owner"])
    .where("tenant_id", "=", tenantId)
    .where("transmission_id", "=", transmissionId)
    .executeTakeFirst();
  if (row === undefined) throw new SolError("not_found", `Transmission ${transmissionId} not found`);
  if (owner !== undefined && row.lease_owner !== owner) throw new LeaseLost();
  // Moved first in the commit, this is where a second commit of one request meets the first.
  if (row.status === "succeeded") {
    throw new SolError("conflict", `Turn of request ${input.requestId} is already committed`);
  }
  throw new SolError("invalid_transition", `A transmission cannot move from ${row.status} to succeeded`, {
    details: { from: row.status, to: "succeeded" },
  });
}
