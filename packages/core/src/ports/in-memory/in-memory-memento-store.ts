import type { ThreadMementoV02 } from "../../contracts/memento.js";
import { createArcRanker } from "../../retrieval/arc-ranking.js";
import {
  type MementoStore,
  type MementoWriteResult,
  mementoArcOf,
  type StoredMemento,
} from "../memento-store.js";
import type { TenantId } from "../tenant.js";
import {
  assertStorableJson,
  assertStorableKeys,
  isStorableKey,
  isStorableVersion,
  jsonCopy,
  keyOf,
} from "./storable.js";

/** Mementos by tenant and thread, shared with the turn commit. */
export type MementoTable = Map<string, StoredMemento>;

/**
 * The compare-and-swap decision without the write: the version a put would store, or the conflict.
 * `expectedVersion` null inserts version 1 (a stored row conflicts); a number must match exactly.
 */
export function planMementoPut(
  table: MementoTable,
  tenantId: TenantId,
  threadId: string,
  memento: ThreadMementoV02,
  expectedVersion: number | null,
): MementoWriteResult {
  assertStorableKeys({ tenantId, threadId });
  assertStorableJson(memento, "memento");
  const current = table.get(keyOf(tenantId, threadId))?.version ?? null;
  const matches =
    expectedVersion === null
      ? current === null
      : isStorableVersion(expectedVersion) && current === expectedVersion;
  return matches ? { ok: true, version: (expectedVersion ?? 0) + 1 } : { ok: false, currentVersion: current };
}

/** Stores a planned write; every write resets turns-since-persist. */
export function writeMemento(
  table: MementoTable,
  tenantId: TenantId,
  threadId: string,
  memento: ThreadMementoV02,
  version: number,
  now: string,
  byClient = false,
): void {
  table.set(keyOf(tenantId, threadId), {
    memento: jsonCopy(memento),
    version,
    turnsSincePersist: 0,
    updatedAt: now,
    ...(byClient ? { changedByPut: true } : {}),
  });
}

/** Adds one to turns-since-persist of a stored memento (no-op when none is stored). */
export function bumpTurnsSincePersist(table: MementoTable, tenantId: TenantId, threadId: string): void {
  const key = keyOf(tenantId, threadId);
  const row = table.get(key);
  if (row === undefined) return;
  // A turn has now run since any client PUT, so the next turn no longer counts it as a change.
  const { changedByPut: _cleared, ...rest } = row;
  table.set(key, { ...rest, turnsSincePersist: row.turnsSincePersist + 1 });
}

/**
 * Mementos stored before signals' `updatedAt` became UTC-only may carry an offset; they are read
 * back in UTC, as the SQL store does, so a GET -> PUT round trip still validates.
 */
function inUtc(memento: ThreadMementoV02): ThreadMementoV02 {
  const updatedAt = memento.signals?.updatedAt;
  if (updatedAt === undefined || updatedAt.endsWith("Z")) return memento;
  const ms = Date.parse(updatedAt);
  if (Number.isNaN(ms) || memento.signals === undefined) return memento;
  return { ...memento, signals: { ...memento.signals, updatedAt: new Date(ms).toISOString() } };
}

/** The reference MementoStore: one memento per thread, written only by compare-and-swap. */
export function createInMemoryMementoStore(table: MementoTable = new Map()): MementoStore {
  const ranker = createArcRanker();
  const store: MementoStore = {
    async get(tenantId, threadId) {
      const row = isStorableKey(tenantId, threadId) ? table.get(keyOf(tenantId, threadId)) : undefined;
      return row === undefined ? null : { ...row, memento: inUtc(jsonCopy(row.memento)) };
    },
    async put(tenantId, threadId, memento, expectedVersion, now, options) {
      const plan = planMementoPut(table, tenantId, threadId, memento, expectedVersion);
      if (plan.ok) writeMemento(table, tenantId, threadId, memento, plan.version, now, options?.byClient);
      return plan;
    },
    async listRecentArcs(tenantId, options) {
      return (await store.listRecent(tenantId, options)).map(mementoArcOf);
    },
    async rankRecentArcs(tenantId, { query, ...options }) {
      return ranker.rank(tenantId, await store.listRecentArcs(tenantId, options), query);
    },
    async listRecent(tenantId, { excludeThreadId, limit }) {
      if (!isStorableKey(tenantId, excludeThreadId) || limit <= 0) return [];
      const prefix = keyOf(tenantId, "");
      return [...table.entries()]
        .filter(
          ([key]) =>
            key.startsWith(prefix) &&
            (excludeThreadId === undefined || key !== keyOf(tenantId, excludeThreadId)),
        )
        .sort(([ka, a], [kb, b]) =>
          a.updatedAt === b.updatedAt ? (ka < kb ? -1 : 1) : a.updatedAt < b.updatedAt ? 1 : -1,
        )
        .slice(0, limit)
        .map(([, row]) => ({ ...row, memento: inUtc(jsonCopy(row.memento)) }));
    },
  };
  return store;
}
