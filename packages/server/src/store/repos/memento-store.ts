import {
  createArcRanker,
  type MementoPutOptions,
  type MementoStore,
  type MementoWriteResult,
  type StoredMemento,
  type TenantId,
  type ThreadMementoV02,
} from "@solserver/core";
import type { Selectable } from "kysely";
import {
  assertStorableKeys,
  decodeJson,
  encodeJson,
  isStorableKey,
  isStorableVersion,
} from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { MementosTable, StoreDialect } from "../sql/schema.js";
import { mementoArcJson, selectRecentArcs } from "./memento-arcs.js";

const selectMemento = preparedQuery((db, tenantId: string, threadId: string) =>
  db.selectFrom("mementos").selectAll().where("tenant_id", "=", tenantId).where("thread_id", "=", threadId),
);

const updateMemento = preparedQuery(
  (
    db,
    json: string,
    arc: string,
    now: string,
    tenantId: string,
    threadId: string,
    expectedVersion: number,
    byPut: number,
  ) =>
    db
      .updateTable("mementos")
      .set((eb) => ({
        memento: json,
        version: eb("version", "+", 1),
        arc,
        arc_version: eb("version", "+", 1),
        turns_since_persist: 0,
        updated_at: now,
        changed_by_put: byPut,
      }))
      .where("tenant_id", "=", tenantId)
      .where("thread_id", "=", threadId)
      .where("version", "=", expectedVersion),
);

const bumpTurns = preparedQuery((db, tenantId: string, threadId: string) =>
  db
    .updateTable("mementos")
    // A turn read the PUT's change, so it is no longer news for the next one.
    .set((eb) => ({ turns_since_persist: eb("turns_since_persist", "+", 1), changed_by_put: 0 }))
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId),
);

/** The stored version of a thread's memento, or null when none is stored. */
export async function currentMementoVersion(
  ctx: StoreContext,
  tenantId: TenantId,
  threadId: string,
): Promise<number | null> {
  const row = await ctx.db
    .selectFrom("mementos")
    .select("version")
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .executeTakeFirst();
  return row === undefined ? null : row.version;
}

/**
 * Compare-and-swap write. `expectedVersion` null inserts version 1 and conflicts when a row exists;
 * a number updates only that exact version to version + 1. Every write resets turns_since_persist;
 * a client's write (`byClient`) is recorded for the next turn's `summaryChanged`, a turn's clears it.
 */
export async function putMemento(
  ctx: StoreContext,
  tenantId: TenantId,
  threadId: string,
  memento: ThreadMementoV02,
  expectedVersion: number | null,
  now: string,
  options: MementoPutOptions = {},
): Promise<MementoWriteResult> {
  assertStorableKeys({ tenantId, threadId });
  const byPut = options.byClient === true ? 1 : 0;
  const json = encodeJson(memento, "memento");
  const arc = mementoArcJson(memento);
  if (expectedVersion === null) {
    const inserted = await ctx.db
      .insertInto("mementos")
      .values({
        tenant_id: tenantId,
        thread_id: threadId,
        memento: json,
        version: 1,
        arc,
        arc_version: 1,
        turns_since_persist: 0,
        created_at: now,
        updated_at: now,
        changed_by_put: byPut,
      })
      .onConflict((oc) => oc.columns(["tenant_id", "thread_id"]).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { ok: true, version: 1 };
  } else if (isStorableVersion(expectedVersion)) {
    const updated = await updateMemento(ctx, json, arc, now, tenantId, threadId, expectedVersion, byPut);
    if ((updated.numAffectedRows ?? 0n) > 0n) return { ok: true, version: expectedVersion + 1 };
  }
  return { ok: false, currentVersion: await currentMementoVersion(ctx, tenantId, threadId) };
}

/** Adds one to turns_since_persist of a stored memento (no-op when none is stored). */
export async function bumpTurnsSincePersist(
  ctx: StoreContext,
  tenantId: TenantId,
  threadId: string,
): Promise<void> {
  await bumpTurns(ctx, tenantId, threadId);
}

/**
 * Mementos stored before signals' `updatedAt` became UTC-only (breakpoint-engine.md's
 * `z.string().datetime()`) may carry an offset; they are read back in UTC so that a GET → PUT round
 * trip, or sending the memento back as `context.thread_memento`, still validates.
 */
function inUtc(memento: ThreadMementoV02): ThreadMementoV02 {
  const updatedAt = memento.signals?.updatedAt;
  if (updatedAt === undefined || updatedAt.endsWith("Z")) return memento;
  const ms = Date.parse(updatedAt);
  if (Number.isNaN(ms) || memento.signals === undefined) return memento;
  return { ...memento, signals: { ...memento.signals, updatedAt: new Date(ms).toISOString() } };
}

/** The tenant's mementos newest first (the v20 index's order), leaving out one thread. */
async function selectRecent(
  ctx: StoreContext,
  tenantId: TenantId,
  options: { readonly excludeThreadId?: string; readonly limit: number },
): Promise<Selectable<MementosTable>[]> {
  if (!isStorableKey(tenantId, options.excludeThreadId) || options.limit <= 0) return [];
  let query = ctx.db.selectFrom("mementos").selectAll().where("tenant_id", "=", tenantId);
  if (options.excludeThreadId !== undefined) query = query.where("thread_id", "<>", options.excludeThreadId);
  return query.orderBy("updated_at", "desc").orderBy("thread_id").limit(options.limit).execute();
}

/** The columns of a mementos row that make a StoredMemento. */
export type StoredMementoRow = Pick<
  Selectable<MementosTable>,
  "memento" | "version" | "turns_since_persist" | "updated_at" | "changed_by_put"
>;

/** A mementos row as the port returns it. */
export function storedMementoOf(dialect: StoreDialect, row: StoredMementoRow): StoredMemento {
  return {
    memento: inUtc(decodeJson(dialect, row.memento) as ThreadMementoV02),
    version: row.version,
    turnsSincePersist: row.turns_since_persist,
    updatedAt: row.updated_at,
    ...(Number(row.changed_by_put) === 1 ? { changedByPut: true } : {}),
  };
}

/** MementoStore over the mementos table. */
export function createMementoStore(ctx: StoreContext): MementoStore {
  const toStored = (row: StoredMementoRow): StoredMemento => storedMementoOf(ctx.dialect, row);
  const ranker = createArcRanker();
  return {
    async get(tenantId, threadId) {
      if (!isStorableKey(tenantId, threadId)) return null;
      const row = (await selectMemento(ctx, tenantId, threadId)).rows[0];
      return row === undefined ? null : toStored(row);
    },
    async listRecent(tenantId, options) {
      return (await selectRecent(ctx, tenantId, options)).map(toStored);
    },
    listRecentArcs: (tenantId, options) => selectRecentArcs(ctx, tenantId, options),
    async rankRecentArcs(tenantId, { query, ...options }) {
      return ranker.rank(tenantId, await selectRecentArcs(ctx, tenantId, options), query);
    },
    put: (tenantId, threadId, memento, expectedVersion, now, options) =>
      putMemento(ctx, tenantId, threadId, memento, expectedVersion, now, options),
  };
}
