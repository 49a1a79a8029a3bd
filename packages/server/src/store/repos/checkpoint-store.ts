import type { CheckpointSave, CheckpointStore, StoredCheckpoint, TenantId } from "@solserver/core";
import { assertStorableKeys, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { isUniqueViolation } from "../sql/db-errors.js";
import { preparedQuery } from "../sql/prepared-query.js";
import type { CheckpointsTable } from "../sql/schema.js";

// Two turns of one thread saving at once race for the same next version: the loser reads again.
const SAVE_ATTEMPTS = 4;

function fromRow(row: CheckpointsTable): StoredCheckpoint {
  return {
    tenantId: row.tenant_id,
    threadId: row.thread_id,
    checkpointId: row.checkpoint_id,
    version: toNumber(row.version),
    contentHash: row.content_hash,
    trigger: JSON.parse(row.trigger) as string[],
    capsule: row.capsule,
    createdAt: row.created_at,
  };
}

async function latestForThread(ctx: StoreContext, tenantId: TenantId, threadId: string) {
  if (!isStorableKey(tenantId, threadId)) return null;
  const row = (await selectLatest(ctx, tenantId, threadId)).rows[0];
  return row === undefined ? null : fromRow(row);
}

const selectLatest = preparedQuery((db, tenantId: string, threadId: string) =>
  db
    .selectFrom("checkpoints")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    .orderBy("version", "desc")
    .limit(1),
);

const insertCheckpoint = preparedQuery(
  (
    db,
    tenantId: string,
    threadId: string,
    checkpointId: string,
    version: number,
    contentHash: string,
    trigger: string,
    capsule: string,
    createdAt: string,
  ) =>
    db.insertInto("checkpoints").values({
      tenant_id: tenantId,
      thread_id: threadId,
      checkpoint_id: checkpointId,
      version,
      content_hash: contentHash,
      trigger,
      capsule,
      created_at: createdAt,
    }),
);

async function save(ctx: StoreContext, input: CheckpointSave) {
  assertStorableKeys({ tenantId: input.tenantId, threadId: input.threadId, capsule: input.capsule });
  for (let attempt = 1; ; attempt++) {
    const held = await latestForThread(ctx, input.tenantId, input.threadId);
    if (held !== null && held.contentHash === input.contentHash) {
      return { outcome: "unchanged" as const, checkpoint: held };
    }
    const checkpoint: StoredCheckpoint = {
      tenantId: input.tenantId,
      threadId: input.threadId,
      checkpointId: held?.checkpointId ?? input.newCheckpointId,
      version: (held?.version ?? 0) + 1,
      contentHash: input.contentHash,
      trigger: [...input.trigger],
      capsule: input.capsule,
      createdAt: input.now,
    };
    try {
      await insertCheckpoint(
        ctx,
        checkpoint.tenantId,
        checkpoint.threadId,
        checkpoint.checkpointId,
        checkpoint.version,
        checkpoint.contentHash,
        JSON.stringify(checkpoint.trigger),
        checkpoint.capsule,
        checkpoint.createdAt,
      );
      return { outcome: held === null ? ("created" as const) : ("updated" as const), checkpoint };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= SAVE_ATTEMPTS) throw error;
    }
  }
}

/** CheckpointStore over the checkpoints table (migration 14). */
export function createCheckpointStore(ctx: StoreContext): CheckpointStore {
  return {
    save: (input) => save(ctx, input),
    latestForThread: (tenantId, threadId) => latestForThread(ctx, tenantId, threadId),
    async getLatest(tenantId, checkpointIds) {
      const ids = [...new Set(checkpointIds)].filter((id) => isStorableKey(tenantId, id));
      if (ids.length === 0) return [];
      const rows = await ctx.db
        .selectFrom("checkpoints")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("checkpoint_id", "in", ids)
        .orderBy("version", "desc")
        .execute();
      const byId = new Map<string, StoredCheckpoint>();
      for (const row of rows) if (!byId.has(row.checkpoint_id)) byId.set(row.checkpoint_id, fromRow(row));
      return ids.flatMap((id) => {
        const found = byId.get(id);
        return found === undefined ? [] : [found];
      });
    },
    async deleteThreadCheckpoints(tenantId, threadId) {
      if (!isStorableKey(tenantId, threadId)) return 0;
      const result = await ctx.db
        .deleteFrom("checkpoints")
        .where("tenant_id", "=", tenantId)
        .where("thread_id", "=", threadId)
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0n);
    },
  };
}
