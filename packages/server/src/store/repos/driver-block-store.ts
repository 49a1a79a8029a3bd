import {
  compareText,
  type DriverBlock,
  type DriverBlockPut,
  type DriverBlockStore,
  type StoredDriverBlock,
  type TenantId,
} from "@solserver/core";
import { assertStorableKeys, encodeJson, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { DriverBlocksTable } from "../sql/schema.js";

// Two approvals of one id at once race for the same next version: the loser reads again.
const PUT_ATTEMPTS = 4;

function fromRow(row: DriverBlocksTable): StoredDriverBlock {
  const version = toNumber(row.version);
  return {
    tenantId: row.tenant_id,
    blockId: row.block_id,
    version,
    hash: row.hash,
    block: { ...(JSON.parse(row.block) as DriverBlock), version },
    enabled: toNumber(row.enabled) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function get(ctx: StoreContext, tenantId: TenantId, id: string): Promise<StoredDriverBlock | null> {
  if (!isStorableKey(tenantId, id)) return null;
  const row = await ctx.db
    .selectFrom("driver_blocks")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("block_id", "=", id)
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : fromRow(row);
}

async function setEnabled(ctx: StoreContext, tenantId: TenantId, id: string, enabled: boolean, now: string) {
  if (!isStorableKey(tenantId, id)) return null;
  await ctx.db
    .updateTable("driver_blocks")
    .set({ enabled: enabled ? 1 : 0, updated_at: now })
    .where("tenant_id", "=", tenantId)
    .where("block_id", "=", id)
    .execute();
  return get(ctx, tenantId, id);
}

async function put(ctx: StoreContext, input: DriverBlockPut) {
  assertStorableKeys({ tenantId: input.tenantId, blockId: input.blockId });
  for (let attempt = 1; ; attempt++) {
    const held = await get(ctx, input.tenantId, input.blockId);
    if (held !== null && held.hash === input.hash) {
      const driverBlock = held.enabled
        ? held
        : await setEnabled(ctx, input.tenantId, input.blockId, true, input.now);
      return { outcome: "unchanged" as const, driverBlock: driverBlock ?? held };
    }
    const version = (held?.version ?? 0) + 1;
    const block: DriverBlock = { ...input.block, version };
    try {
      await ctx.db.transaction().execute(async (tx) => {
        await tx
          .insertInto("driver_blocks")
          .values({
            tenant_id: input.tenantId,
            block_id: input.blockId,
            version,
            hash: input.hash,
            block: encodeJson(block, "block"),
            enabled: 1,
            created_at: input.now,
            updated_at: input.now,
          })
          .execute();
        await tx
          .updateTable("driver_blocks")
          .set({ enabled: 1, updated_at: input.now })
          .where("tenant_id", "=", input.tenantId)
          .where("block_id", "=", input.blockId)
          .where("enabled", "=", 0)
          .execute();
      });
      const driverBlock: StoredDriverBlock = {
        tenantId: input.tenantId,
        blockId: input.blockId,
        version,
        hash: input.hash,
        block,
        enabled: true,
        createdAt: input.now,
        updatedAt: input.now,
      };
      return { outcome: held === null ? ("created" as const) : ("updated" as const), driverBlock };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= PUT_ATTEMPTS) throw error;
    }
  }
}

const selectLatest = preparedQuery((db, tenantId: string) =>
  db
    .selectFrom("driver_blocks as d")
    .selectAll("d")
    .where("d.tenant_id", "=", tenantId)
    .where("d.version", "=", (eb) =>
      eb
        .selectFrom("driver_blocks as m")
        .select((m) => m.fn.max("m.version").as("latest"))
        .whereRef("m.tenant_id", "=", "d.tenant_id")
        .whereRef("m.block_id", "=", "d.block_id"),
    ),
);

/**
 * Each block's latest version, by id. Every turn lists them, and a block keeps every version it ever had,
 * so only the latest rows are read: the newest version per block comes from the primary key's index.
 */
async function list(ctx: StoreContext, tenantId: TenantId): Promise<StoredDriverBlock[]> {
  if (!isStorableKey(tenantId)) return [];
  const { rows } = await selectLatest(ctx, tenantId);
  // Sorted here rather than in SQL: PostgreSQL's collation would order ids differently from SQLite.
  return rows.sort((a, b) => compareText(a.block_id, b.block_id)).map((row) => fromRow(row));
}

/** DriverBlockStore over the driver_blocks table (migration 16). */
export function createDriverBlockStore(ctx: StoreContext): DriverBlockStore {
  return {
    put: (input) => put(ctx, input),
    get: (tenantId, id) => get(ctx, tenantId, id),
    list: (tenantId) => list(ctx, tenantId),
    setEnabled: (tenantId, id, enabled, now) => setEnabled(ctx, tenantId, id, enabled, now),
    async delete(tenantId, id) {
      if (!isStorableKey(tenantId, id)) return 0;
      const result = await ctx.db
        .deleteFrom("driver_blocks")
        .where("tenant_id", "=", tenantId)
        .where("block_id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0n);
    },
  };
}
