import type { CalendarEventRecord, CalendarStore, TenantId } from "@solserver/core";
import type { Selectable } from "kysely";
import { assertStorableText, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import type { CalendarEventsTable } from "../sql/schema.js";

/** CalendarStore over the calendar_events table. */
export function createCalendarStore(ctx: StoreContext): CalendarStore {
  const { db } = ctx;
  async function getByAction(tenantId: TenantId, actionId: string): Promise<CalendarEventRecord | null> {
    if (!isStorableKey(tenantId, actionId)) return null;
    const row = await db
      .selectFrom("calendar_events")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .where("action_id", "=", actionId)
      .executeTakeFirst();
    return row === undefined ? null : toEvent(row);
  }
  return {
    async create(event) {
      for (const [field, value] of Object.entries(event)) {
        if (typeof value === "string") assertStorableText(value, field);
      }
      const inserted = await db
        .insertInto("calendar_events")
        .values({
          tenant_id: event.tenantId,
          event_id: event.eventId,
          action_id: event.actionId,
          thread_id: event.threadId,
          title: event.title,
          starts_at: event.start,
          ends_at: event.end,
          location: event.location,
          created_at: event.createdAt,
        })
        .onConflict((oc) => oc.columns(["tenant_id", "action_id"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted !== undefined) return { event: toEvent(inserted), created: true };
      const existing = event.actionId === null ? null : await getByAction(event.tenantId, event.actionId);
      if (existing === null)
        throw new Error(`calendar event ${event.eventId} was neither inserted nor found`);
      return { event: existing, created: false };
    },
    getByAction,
    async list(tenantId, options = {}) {
      if (!isStorableKey(tenantId, options.threadId)) return [];
      let query = db.selectFrom("calendar_events").selectAll().where("tenant_id", "=", tenantId);
      if (options.threadId !== undefined) query = query.where("thread_id", "=", options.threadId);
      const rows = await query
        .orderBy("starts_at")
        .orderBy("event_id")
        .limit(options.limit ?? 500)
        .execute();
      return rows.map(toEvent);
    },
  };
}

function toEvent(row: Selectable<CalendarEventsTable>): CalendarEventRecord {
  return {
    tenantId: row.tenant_id,
    eventId: row.event_id,
    actionId: row.action_id,
    threadId: row.thread_id,
    title: row.title,
    start: row.starts_at,
    end: row.ends_at,
    location: row.location,
    createdAt: row.created_at,
  };
}
