import type { ReminderRecord, ReminderStore, TenantId } from "@solserver/core";
import type { Selectable } from "kysely";
import { assertStorableText, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import type { RemindersTable } from "../sql/schema.js";

/** ReminderStore over the reminders table. */
export function createReminderStore(ctx: StoreContext): ReminderStore {
  const { db } = ctx;
  async function getByAction(tenantId: TenantId, actionId: string): Promise<ReminderRecord | null> {
    if (!isStorableKey(tenantId, actionId)) return null;
    const row = await db
      .selectFrom("reminders")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .where("action_id", "=", actionId)
      .executeTakeFirst();
    return row === undefined ? null : toReminder(row);
  }
  return {
    async create(reminder) {
      for (const [field, value] of Object.entries(reminder)) {
        if (typeof value === "string") assertStorableText(value, field);
      }
      const inserted = await db
        .insertInto("reminders")
        .values({
          tenant_id: reminder.tenantId,
          reminder_id: reminder.reminderId,
          action_id: reminder.actionId,
          thread_id: reminder.threadId,
          title: reminder.title,
          due: reminder.due,
          due_at: reminder.dueAt,
          created_at: reminder.createdAt,
        })
        .onConflict((oc) => oc.columns(["tenant_id", "action_id"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted !== undefined) return { reminder: toReminder(inserted), created: true };
      const existing =
        reminder.actionId === null ? null : await getByAction(reminder.tenantId, reminder.actionId);
      if (existing === null)
        throw new Error(`reminder ${reminder.reminderId} was neither inserted nor found`);
      return { reminder: existing, created: false };
    },
    getByAction,
    async list(tenantId, options = {}) {
      if (!isStorableKey(tenantId, options.threadId)) return [];
      let query = db.selectFrom("reminders").selectAll().where("tenant_id", "=", tenantId);
      if (options.threadId !== undefined) query = query.where("thread_id", "=", options.threadId);
      const rows = await query
        .orderBy("created_at")
        .orderBy("reminder_id")
        .limit(options.limit ?? 500)
        .execute();
      return rows.map(toReminder);
    },
  };
}

function toReminder(row: Selectable<RemindersTable>): ReminderRecord {
  return {
    tenantId: row.tenant_id,
    reminderId: row.reminder_id,
    actionId: row.action_id,
    threadId: row.thread_id,
    title: row.title,
    due: row.due,
    dueAt: row.due_at,
    createdAt: row.created_at,
  };
}
