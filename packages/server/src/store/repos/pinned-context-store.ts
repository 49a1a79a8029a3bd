import type { PinnedContextPut, PinnedContextStore, StoredPinnedContext, TenantId } from "@solserver/core";
import { assertStorableKeys, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import type { PinnedContextsTable } from "../sql/schema.js";

// Two puts of one id at once race for the same next version: the loser reads again.
const PUT_ATTEMPTS = 4;

function fromRow(row: PinnedContextsTable): StoredPinnedContext {
  return {
    tenantId: row.tenant_id,
    pinnedContextId: row.pinned_context_id,
    version: toNumber(row.version),
    hash: row.hash,
    content: row.content,
    createdAt: row.created_at,
  };
}

async function get(ctx: StoreContext, tenantId: TenantId, id: string, version?: number) {
  if (!isStorableKey(tenantId, id)) return null;
  let query = ctx.db
    .selectFrom("pinned_contexts")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("pinned_context_id", "=", id);
  if (version !== undefined) query = query.where("version", "=", version);
  const row = await query.orderBy("version", "desc").limit(1).executeTakeFirst();
  return row === undefined ? null : fromRow(row);
}

async function put(ctx: StoreContext, input: PinnedContextPut) {
  assertStorableKeys({
    tenantId: input.tenantId,
    pinnedContextId: input.pinnedContextId,
    content: input.content,
  });
  for (let attempt = 1; ; attempt++) {
    const held = await get(ctx, input.tenantId, input.pinnedContextId);
    if (held !== null && held.hash === input.hash) {
      return { outcome: "unchanged" as const, pinnedContext: held };
    }
    const pinnedContext: StoredPinnedContext = {
      tenantId: input.tenantId,
      pinnedContextId: input.pinnedContextId,
      version: (held?.version ?? 0) + 1,
      hash: input.hash,
      content: input.content,
      createdAt: input.now,
    };
    try {
      await ctx.db
        .insertInto("pinned_contexts")
        .values({
          tenant_id: pinnedContext.tenantId,
          pinned_context_id: pinnedContext.pinnedContextId,
          version: pinnedContext.version,
          hash: pinnedContext.hash,
          content: pinnedContext.content,
          created_at: pinnedContext.createdAt,
        })
        .execute();
      return { outcome: held === null ? ("created" as const) : ("updated" as const), pinnedContext };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= PUT_ATTEMPTS) throw error;
    }
  }
}

/** PinnedContextStore over the pinned_contexts table (migration 15). */
export function createPinnedContextStore(ctx: StoreContext): PinnedContextStore {
  return {
    put: (input) => put(ctx, input),
    get: (tenantId, id, version) => get(ctx, tenantId, id, version),
    async delete(tenantId, id) {
      if (!isStorableKey(tenantId, id)) return 0;
      const result = await ctx.db
        .deleteFrom("pinned_contexts")
        .where("tenant_id", "=", tenantId)
        .where("pinned_context_id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0n);
    },
  };
}
