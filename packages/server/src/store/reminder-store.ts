import type { TenantId } from "@solserver/core";
import type { Selectable } from "kysely";
import { assertStorableText, isStorableKey } from "./columns.js";
import type { StoreContext } from "./context.js";
import type { RemindersTable } from "./schema.js";

/** A reminder the create_reminder executor wrote. */
export interface ReminderRecord {
  readonly tenantId: TenantId;
  readonly reminderId: string;
  readonly actionId: string | null;
  readonly threadId: string;
  readonly title: string;
  /** The due time as proposed: an ISO instant or the user's raw phrase. */
  readonly due: string | null;
  /** `due` normalised when it is an ISO instant. */
  readonly dueAt: string | null;
  readonly createdAt: string;
}

/** Repository of reminders. */
export interface ReminderStore {
  /**
   * Inserts a reminder; at most one exists per action, so a second create for the same action returns
   * the first one with `created: false`.
   */
  create(reminder: ReminderRecord): Promise<{ readonly reminder: ReminderRecord; readonly created: boolean }>;
  getByAction(tenantId: TenantId, actionId: string): Promise<ReminderRecord | null>;
  /** A tenant's reminders (optionally one thread's), oldest first. */
  list(
    tenantId: TenantId,
    options?: { readonly threadId?: string; readonly limit?: number },
  ): Promise<ReminderRecord[]>;
}

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
