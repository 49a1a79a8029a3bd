import type {
  ActionError,
  ActionExecutionRecord,
  StoredActionExpectation as ActionExpectation,
  ActionPatch,
  ActionReceipt,
  ActionSource,
  ActionStatus,
  ActionStore,
  NewAction,
  StoredAction,
  TenantId,
} from "@solserver/core";
import { SolError } from "@solserver/core";
import type { Selectable } from "kysely";
import {
  assertStorableKeys,
  assertStorableText,
  decodeJson,
  encodeJson,
  isStorableKey,
  isStorableVersion,
} from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import type { ActionExecutionsTable, ActionsTable } from "../sql/schema.js";

/** ActionStore over the actions and action_executions tables. */
export function createActionStore(ctx: StoreContext): ActionStore {
  const { db } = ctx;
  const toAction = (row: Selectable<ActionsTable>) => decodeAction(ctx, row);

  async function compareAndSet(
    tenantId: TenantId,
    actionId: string,
    expected: ActionExpectation,
    patch: ActionPatch,
    handle = db,
  ): Promise<StoredAction | null> {
    if (!isStorableVersion(expected.version)) return null;
    if (!isStorableKey(tenantId, actionId, expected.payloadHash, expected.executeRequestId)) return null;
    assertStorableKeys({ executeRequestId: patch.executeRequestId });
    let query = handle
      .updateTable("actions")
      .set((eb) => ({
        status: patch.status,
        version: eb("version", "+", 1),
        updated_at: patch.now,
        ...(patch.receipt === undefined ? {} : { receipt: jsonOrNull(patch.receipt, "receipt") }),
        ...(patch.error === undefined ? {} : { error: jsonOrNull(patch.error, "error") }),
        ...(patch.executeRequestId === undefined ? {} : { execute_request_id: patch.executeRequestId }),
        ...(patch.leaseExpiresAt === undefined ? {} : { lease_expires_at: patch.leaseExpiresAt }),
      }))
      .where("tenant_id", "=", tenantId)
      .where("action_id", "=", actionId)
      .where("status", "=", expected.status)
      .where("version", "=", expected.version);
    if (expected.payloadHash !== undefined) query = query.where("payload_hash", "=", expected.payloadHash);
    if (expected.executeRequestId !== undefined) {
      query = query.where("execute_request_id", "=", expected.executeRequestId);
    }
    const row = await query.returningAll().executeTakeFirst();
    return row === undefined ? null : toAction(row);
  }

  return {
    async insert(action) {
      for (const [field, value] of textFields(action)) assertStorableText(value, field);
      const row = await db
        .insertInto("actions")
        .values({
          tenant_id: action.tenantId,
          action_id: action.actionId,
          thread_id: action.threadId,
          message_id: action.messageId,
          request_id: action.requestId,
          source: action.source,
          action_kind: action.kind,
          label: action.label,
          bullets: encodeJson(action.bullets, "bullets"),
          target: action.target,
          data_used: action.dataUsed,
          why: action.why,
          payload: encodeJson(action.payload, "payload"),
          payload_hash: action.payloadHash,
          binding_key_id: action.bindingKeyId ?? null,
          binding_mac: action.bindingMac ?? null,
          status: "proposed",
          receipt: null,
          error: null,
          execute_request_id: null,
          lease_expires_at: null,
          created_at: action.now,
          updated_at: action.now,
          version: 1,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw new SolError("conflict", `Action ${action.actionId} already exists`, { cause: error });
          }
          throw error;
        });
      return toAction(row);
    },

    async get(tenantId, actionId) {
      if (!isStorableKey(tenantId, actionId)) return null;
      const row = await db
        .selectFrom("actions")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("action_id", "=", actionId)
        .executeTakeFirst();
      return row === undefined ? null : toAction(row);
    },

    async listIdentical(tenantId, threadId, kind, payloadHash) {
      if (!isStorableKey(tenantId, threadId, kind, payloadHash)) return [];
      const rows = await db
        .selectFrom("actions")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("thread_id", "=", threadId)
        .where("action_kind", "=", kind)
        .where("payload_hash", "=", payloadHash)
        .orderBy("created_at")
        .orderBy("action_id")
        .execute();
      return rows.map(toAction);
    },

    compareAndSet: (tenantId, actionId, expected, patch) =>
      compareAndSet(tenantId, actionId, expected, patch),

    async finish(input) {
      const { outcome } = input;
      return db.transaction().execute(async (trx) => {
        const done = await compareAndSet(
          input.tenantId,
          input.actionId,
          { status: "executing", version: input.version, executeRequestId: input.requestId },
          {
            status: outcome.status,
            receipt: outcome.status === "succeeded" ? outcome.receipt : null,
            error: outcome.status === "failed" ? outcome.error : null,
            leaseExpiresAt: null,
            now: input.now,
          },
          trx,
        );
        if (done === null) return null;
        await trx
          .insertInto("action_executions")
          .values({
            tenant_id: input.tenantId,
            action_id: input.actionId,
            request_id: input.requestId,
            status: outcome.status,
            receipt: outcome.status === "succeeded" ? encodeJson(outcome.receipt, "receipt") : null,
            error: outcome.status === "failed" ? encodeJson(outcome.error, "error") : null,
            created_at: input.now,
          })
          .onConflict((oc) => oc.columns(["tenant_id", "action_id", "request_id"]).doNothing())
          .execute();
        return done;
      });
    },

    async getExecution(tenantId, actionId, requestId) {
      if (!isStorableKey(tenantId, actionId, requestId)) return null;
      const row = await db
        .selectFrom("action_executions")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("action_id", "=", actionId)
        .where("request_id", "=", requestId)
        .executeTakeFirst();
      return row === undefined ? null : decodeExecution(ctx, row);
    },

    async listExpiredExecuting(now, limit) {
      const rows = await db
        .selectFrom("actions")
        .selectAll()
        .where("status", "=", "executing")
        .where((eb) => eb.or([eb("lease_expires_at", "is", null), eb("lease_expires_at", "<", now)]))
        .orderBy("updated_at")
        .limit(limit)
        .execute();
      return rows.map(toAction);
    },
  };
}

function textFields(action: NewAction): [string, string][] {
  const fields: [string, string | null][] = [
    ["tenantId", action.tenantId],
    ["actionId", action.actionId],
    ["threadId", action.threadId],
    ["messageId", action.messageId],
    ["requestId", action.requestId],
    ["kind", action.kind],
    ["label", action.label],
    ["target", action.target],
    ["dataUsed", action.dataUsed],
    ["why", action.why],
    ["payloadHash", action.payloadHash],
    ["bindingKeyId", action.bindingKeyId ?? null],
    ["bindingMac", action.bindingMac ?? null],
  ];
  return fields.filter((entry): entry is [string, string] => entry[1] !== null);
}

function jsonOrNull(value: unknown, field: string): string | null {
  return value === null ? null : encodeJson(value, field);
}

/** Decodes a JSON column, or undefined when the stored text is not JSON (a damaged row). */
function safeJson(ctx: StoreContext, value: unknown): unknown {
  if (value === null) return null;
  try {
    return decodeJson(ctx.dialect, value);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decodeAction(ctx: StoreContext, row: Selectable<ActionsTable>): StoredAction {
  const payload = safeJson(ctx, row.payload);
  const bullets = safeJson(ctx, row.bullets);
  return {
    tenantId: row.tenant_id,
    actionId: row.action_id,
    threadId: row.thread_id,
    messageId: row.message_id,
    requestId: row.request_id,
    source: row.source as ActionSource,
    kind: row.action_kind,
    label: row.label,
    bullets: Array.isArray(bullets) ? bullets.filter((b): b is string => typeof b === "string") : [],
    target: row.target,
    dataUsed: row.data_used,
    why: row.why,
    payload: isRecord(payload) ? payload : null,
    payloadHash: row.payload_hash,
    bindingKeyId: row.binding_key_id,
    bindingMac: row.binding_mac,
    status: row.status as ActionStatus,
    receipt: (safeJson(ctx, row.receipt) ?? null) as ActionReceipt | null,
    error: (safeJson(ctx, row.error) ?? null) as ActionError | null,
    executeRequestId: row.execute_request_id,
    leaseExpiresAt: row.lease_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

function decodeExecution(ctx: StoreContext, row: Selectable<ActionExecutionsTable>): ActionExecutionRecord {
  const common = {
    tenantId: row.tenant_id,
    actionId: row.action_id,
    requestId: row.request_id,
    createdAt: row.created_at,
  };
  if (row.status === "succeeded") {
    return { ...common, status: "succeeded", receipt: decodeJson(ctx.dialect, row.receipt) as ActionReceipt };
  }
  return { ...common, status: "failed", error: decodeJson(ctx.dialect, row.error) as ActionError };
}
