import type { ThoughtStore } from "@solserver/core";
import { Thought } from "@solserver/core";
import { assertStorableKeys, decodeJson, encodeJson, isStorableKey, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";

/** ThoughtStore over the thoughts table. */
export function createThoughtStore(ctx: StoreContext): ThoughtStore {
  const { db } = ctx;
  return {
    async append(tenantId, entry) {
      const thought = Thought.parse(entry.thought);
      assertStorableKeys({
        tenantId,
        "thought.id": thought.id,
        decision: entry.decision,
        taskId: entry.taskId,
      });
      await db
        .insertInto("thoughts")
        .values({
          tenant_id: tenantId,
          thought_id: thought.id,
          source: thought.source,
          novelty: thought.novelty,
          convert_eligible: thought.convertEligible === undefined ? null : thought.convertEligible ? 1 : 0,
          goal_key: thought.metadata.goalKey ?? null,
          decision: entry.decision ?? null,
          task_id: entry.taskId ?? null,
          broadcast: entry.broadcast ? 1 : 0,
          thought: encodeJson(thought, "thought"),
          created_at: new Date(thought.createdAtMs).toISOString(),
        })
        .execute();
    },

    async listRecent(tenantId, limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0 || !isStorableKey(tenantId)) return [];
      const rows = await db
        .selectFrom("thoughts")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .orderBy("id", "desc")
        .limit(n)
        .execute();
      return rows.reverse().map((row) => ({
        thought: Thought.parse(decodeJson(ctx.dialect, row.thought)),
        broadcast: toNumber(row.broadcast) === 1,
        ...(row.decision === null ? {} : { decision: row.decision }),
        ...(row.task_id === null ? {} : { taskId: row.task_id }),
      }));
    },

    async count(tenantId) {
      if (!isStorableKey(tenantId)) return 0;
      const row = await db
        .selectFrom("thoughts")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("tenant_id", "=", tenantId)
        .executeTakeFirst();
      return toNumber(row?.n ?? 0);
    },
  };
}
