import { SolError } from "../../errors.js";
import { compareText } from "../../text/index.js";
import type {
  ActionExecutionRecord,
  ActionPatch,
  ActionStore,
  NewAction,
  StoredAction,
  StoredActionExpectation,
} from "../action-store.js";
import type { TenantId } from "../tenant.js";
import {
  assertStorableJson,
  assertStorableKeys,
  isStorableKey,
  isStorableVersion,
  jsonCopy,
  keyOf,
} from "./storable.js";

function checkNewAction(action: NewAction): void {
  const { tenantId, actionId, threadId, messageId, requestId, kind, label, target, dataUsed, why } = action;
  assertStorableKeys({
    tenantId,
    actionId,
    threadId,
    messageId,
    requestId,
    kind,
    label,
    target,
    dataUsed,
    why,
  });
  assertStorableKeys({
    payloadHash: action.payloadHash,
    bindingKeyId: action.bindingKeyId,
    bindingMac: action.bindingMac,
  });
  assertStorableJson(action.bullets, "bullets");
  assertStorableJson(action.payload, "payload");
}

function matches(row: StoredAction, expected: StoredActionExpectation): boolean {
  return (
    row.status === expected.status &&
    row.version === expected.version &&
    (expected.payloadHash === undefined || row.payloadHash === expected.payloadHash) &&
    (expected.executeRequestId === undefined || row.executeRequestId === expected.executeRequestId)
  );
}

function patched(row: StoredAction, patch: ActionPatch): StoredAction {
  return {
    ...row,
    status: patch.status,
    version: row.version + 1,
    updatedAt: patch.now,
    ...(patch.receipt === undefined ? {} : { receipt: jsonCopy(patch.receipt) }),
    ...(patch.error === undefined ? {} : { error: jsonCopy(patch.error) }),
    ...(patch.executeRequestId === undefined ? {} : { executeRequestId: patch.executeRequestId }),
    ...(patch.leaseExpiresAt === undefined ? {} : { leaseExpiresAt: patch.leaseExpiresAt }),
  };
}

/** The reference ActionStore: actions and execution answers in maps, written by compare-and-swap. */
export function createInMemoryActionStore(): ActionStore {
  const actions = new Map<string, StoredAction>();
  const executions = new Map<string, ActionExecutionRecord>();
  const copy = (row: StoredAction): StoredAction => jsonCopy(row);

  function compareAndSet(
    tenantId: TenantId,
    actionId: string,
    expected: StoredActionExpectation,
    patch: ActionPatch,
  ): StoredAction | null {
    if (!isStorableVersion(expected.version)) return null;
    if (!isStorableKey(tenantId, actionId, expected.payloadHash, expected.executeRequestId)) return null;
    assertStorableKeys({ executeRequestId: patch.executeRequestId });
    if (patch.receipt) assertStorableJson(patch.receipt, "receipt");
    if (patch.error) assertStorableJson(patch.error, "error");
    const key = keyOf(tenantId, actionId);
    const row = actions.get(key);
    if (row === undefined || !matches(row, expected)) return null;
    const next = patched(row, patch);
    actions.set(key, next);
    return copy(next);
  }

  return {
    async insert(action) {
      checkNewAction(action);
      const key = keyOf(action.tenantId, action.actionId);
      if (actions.has(key)) throw new SolError("conflict", `Action ${action.actionId} already exists`);
      const { now, bindingKeyId, bindingMac, ...fields } = action;
      const row: StoredAction = {
        ...jsonCopy(fields),
        bindingKeyId: bindingKeyId ?? null,
        bindingMac: bindingMac ?? null,
        status: "proposed",
        receipt: null,
        error: null,
        executeRequestId: null,
        leaseExpiresAt: null,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      actions.set(key, row);
      return copy(row);
    },

    async get(tenantId, actionId) {
      const row = isStorableKey(tenantId, actionId) ? actions.get(keyOf(tenantId, actionId)) : undefined;
      return row === undefined ? null : copy(row);
    },

    async listIdentical(tenantId, threadId, kind, payloadHash) {
      return [...actions.values()]
        .filter(
          (row) =>
            row.tenantId === tenantId &&
            row.threadId === threadId &&
            row.kind === kind &&
            row.payloadHash === payloadHash,
        )
        .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.actionId, b.actionId))
        .map(copy);
    },

    compareAndSet: async (tenantId, actionId, expected, patch) =>
      compareAndSet(tenantId, actionId, expected, patch),

    async finish(input) {
      const { outcome } = input;
      const done = compareAndSet(
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
      );
      if (done === null) return null;
      const key = keyOf(input.tenantId, input.actionId, input.requestId);
      if (!executions.has(key)) {
        const common = {
          tenantId: input.tenantId,
          actionId: input.actionId,
          requestId: input.requestId,
          createdAt: input.now,
        };
        executions.set(key, jsonCopy({ ...common, ...outcome }));
      }
      return done;
    },

    async getExecution(tenantId, actionId, requestId) {
      if (!isStorableKey(tenantId, actionId, requestId)) return null;
      const row = executions.get(keyOf(tenantId, actionId, requestId));
      return row === undefined ? null : jsonCopy(row);
    },

    async listExpiredExecuting(now, limit) {
      return [...actions.values()]
        .filter(
          (row) => row.status === "executing" && (row.leaseExpiresAt === null || row.leaseExpiresAt < now),
        )
        .sort((a, b) => compareText(a.updatedAt, b.updatedAt))
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
  };
}
