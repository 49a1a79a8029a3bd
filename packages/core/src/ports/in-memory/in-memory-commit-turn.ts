import { SolError } from "../../errors.js";
import type { StoredMessage } from "../message-store.js";
import type { CommitTurnInput, CommitTurnResult } from "../sol-store.js";
import {
  bumpTurnsSincePersist,
  type MementoTable,
  planMementoPut,
  writeMemento,
} from "./in-memory-memento-store.js";
import { checkMessages, insertMessages, type MessageTables } from "./in-memory-message-store.js";
import type { ResponseTable } from "./in-memory-response-store.js";
import { appendChained, checkDrafts, type TraceTable } from "./in-memory-trace-store.js";
import { attemptToFinish, patchAttempt, type TransmissionTables } from "./in-memory-transmission-store.js";
import { assertStorableJson, assertStorableKeys, jsonCopy, keyOf } from "./storable.js";

/** The tables a turn commit writes. */
export interface TurnTables {
  readonly transmissions: TransmissionTables;
  readonly messages: MessageTables;
  readonly mementos: MementoTable;
  readonly responses: ResponseTable;
  readonly traces: TraceTable;
}

function turnMessages(input: CommitTurnInput): StoredMessage[] {
  const common = {
    tenantId: input.tenantId,
    threadId: input.threadId,
    transmissionId: input.transmissionId,
    createdAt: input.now,
  };
  return [
    { ...common, role: "user", ...input.userMessage, modeLabel: null },
    { ...common, role: "assistant", ...input.assistantMessage },
  ];
}

/** Throws what the SQL commit would throw for this turn, before anything is written. */
function checkTurn(tables: TurnTables, input: CommitTurnInput, messages: readonly StoredMessage[]): void {
  const transmission = tables.transmissions.rows.get(keyOf(input.tenantId, input.transmissionId));
  if (transmission === undefined)
    throw new SolError("not_found", `Transmission ${input.transmissionId} not found`);
  try {
    checkMessages(tables.messages, messages);
  } catch (error) {
    if (!(error instanceof SolError && error.code === "conflict")) throw error;
    throw new SolError("conflict", `Turn of request ${input.requestId} is already committed`, {
      cause: error,
    });
  }
  assertStorableJson(input.response, "response");
  if (tables.responses.has(keyOf(input.tenantId, input.requestId))) {
    throw new SolError("conflict", `Turn of request ${input.requestId} is already committed`);
  }
  if (transmission.status !== "queued" && transmission.status !== "sending") {
    throw new SolError(
      "invalid_transition",
      `A transmission cannot move from ${transmission.status} to succeeded`,
      {
        details: { from: transmission.status, to: "succeeded" },
      },
    );
  }
  const finish = input.finishAttempt;
  if (finish !== undefined)
    attemptToFinish(tables.transmissions, input.tenantId, finish.attemptId, finish.patch);
  if (input.trace !== undefined) {
    checkDrafts(input.tenantId, input.trace.traceRunId, input.transmissionId, input.trace.drafts);
  }
}

/**
 * True when the commit is fenced off: it names a lease owner, and the transmission is another
 * attempt's, or already succeeded under another (the SQL commit checks this first too).
 */
function leaseLost(tables: TurnTables, input: CommitTurnInput): boolean {
  if (input.leaseOwner === undefined) return false;
  const row = tables.transmissions.rows.get(keyOf(input.tenantId, input.transmissionId));
  if (row === undefined) return false;
  return row.leaseOwner !== input.leaseOwner;
}

/**
 * Writes a finished turn all or nothing: every check runs before the first write, so a lost memento
 * compare-and-swap or a refused row leaves the tables as they were, as the SQL transaction does.
 */
export function commitTurnInMemory(
  tables: TurnTables,
  input: CommitTurnInput,
  nowIso: () => string,
): CommitTurnResult {
  assertStorableKeys({
    tenantId: input.tenantId,
    transmissionId: input.transmissionId,
    requestId: input.requestId,
    bodyHash: input.bodyHash,
    threadId: input.threadId,
    attemptId: input.finishAttempt?.attemptId,
    traceRunId: input.trace?.traceRunId,
  });
  if (leaseLost(tables, input)) return { ok: false, reason: "lease_lost" };
  const memento = input.memento;
  const plan =
    memento === undefined
      ? null
      : planMementoPut(
          tables.mementos,
          input.tenantId,
          input.threadId,
          memento.value,
          memento.expectedVersion,
        );
  if (plan !== null && !plan.ok)
    return { ok: false, reason: "memento_conflict", currentVersion: plan.currentVersion };
  const messages = turnMessages(input);
  checkTurn(tables, input, messages);

  if (memento !== undefined && plan?.ok) {
    writeMemento(tables.mementos, input.tenantId, input.threadId, memento.value, plan.version, input.now);
  } else if (input.bumpTurnsSincePersist)
    bumpTurnsSincePersist(tables.mementos, input.tenantId, input.threadId);
  insertMessages(tables.messages, messages, input.threadStats);
  tables.responses.set(keyOf(input.tenantId, input.requestId), {
    response: jsonCopy(input.response),
    bodyHash: input.bodyHash,
  });
  const key = keyOf(input.tenantId, input.transmissionId);
  const row = tables.transmissions.rows.get(key);
  if (row !== undefined)
    tables.transmissions.rows.set(key, { ...row, status: "succeeded", updatedAt: input.now });
  const finish = input.finishAttempt;
  if (finish !== undefined) {
    patchAttempt(
      attemptToFinish(tables.transmissions, input.tenantId, finish.attemptId, finish.patch),
      finish.patch,
    );
  }
  if (input.trace !== undefined && input.trace.drafts.length > 0) {
    const { traceRunId, drafts } = input.trace;
    appendChained(tables.traces, input.tenantId, traceRunId, input.transmissionId, drafts, nowIso);
  }
  return { ok: true, mementoVersion: plan?.ok ? plan.version : null };
}
